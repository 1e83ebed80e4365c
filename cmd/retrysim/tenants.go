package main

import (
	"fmt"

	"github.com/spf13/pflag"

	"github.com/retrysim/retrysim/report/advice"
	"github.com/retrysim/retrysim/simulator"
)

// tenantFlags are run's --tenants and --shard.
type tenantFlags struct {
	tenants int
	shard   string
}

func (t *tenantFlags) add(fl *pflag.FlagSet) {
	fl.IntVar(&t.tenants, "tenants", 1, "senders the events come from (shops, connected accounts, installations), each with its own subscription: its own disable count, order and retries")
	fl.StringVar(&t.shard, "shard", "", "run only shard I of N of the tenants (I from 0), as I/N; /N takes I from $JOB_COMPLETION_INDEX (a Kubernetes Indexed Job); needs --tenants above 1 and --run-id; 'retrysim report' merges the shards' --results")
}

// parse checks the flags against the run id given ("" for none) and
// returns the shard (the zero Shard for a whole run).
func (t *tenantFlags) parse(runID string, getenv func(string) string) (simulator.Shard, []error) {
	var errs []error
	if t.tenants == 0 {
		t.tenants = 1 // a command without the flag (proxy)
	}
	if err := advice.Limit("tenants", "", simulator.CheckTenants(t.tenants)); err != nil {
		return simulator.Shard{}, []error{err}
	}
	if t.shard == "" {
		return simulator.Shard{}, nil
	}
	s, err := simulator.ParseShard(t.shard, getenv)
	if err != nil {
		return s, []error{advice.Shard(err)}
	}
	switch {
	case t.tenants == 1 && s.Of > 1:
		errs = append(errs, fmt.Errorf("--shard %s: %w; give --tenants N to spread the events over N senders, each with its own subscription", s, simulator.ErrShardOneTenant))
	case s.Of > t.tenants:
		errs = append(errs, fmt.Errorf("--shard %s: %d shards of %d tenants would leave shards with none: give --tenants %d or more", s, s.Of, t.tenants, s.Of))
	}
	if runID == "" && s.Of > 1 {
		errs = append(errs, fmt.Errorf("--shard %s needs --run-id: every shard of a run must carry the run's id (the same on every shard), or their ids and streams are not one run's", s))
	}
	return s, errs
}
