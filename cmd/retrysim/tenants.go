package main

import (
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
// returns the shard (advice.Tenants).
func (t *tenantFlags) parse(runID string, getenv func(string) string) (simulator.Shard, []error) {
	if t.tenants == 0 {
		t.tenants = 1 // a command without the flag (proxy)
	}
	return advice.Tenants(t.tenants, t.shard, runID, getenv)
}
