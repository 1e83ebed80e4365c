package main

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

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

// jobIndexEnv is the variable a Kubernetes Indexed Job sets to each pod's
// completion index.
const jobIndexEnv = "JOB_COMPLETION_INDEX"

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
	s, err := parseShard(t.shard, getenv)
	if err != nil {
		return s, []error{err}
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

// parseShard reads I/N, or /N with I from $JOB_COMPLETION_INDEX.
func parseShard(v string, getenv func(string) string) (simulator.Shard, error) {
	i, n, ok := strings.Cut(v, "/")
	if !ok {
		return simulator.Shard{}, fmt.Errorf("--shard %q: give I/N (shard I, from 0, of N), or /N in a Kubernetes Indexed Job", v)
	}
	from := ""
	if i == "" {
		i = getenv(jobIndexEnv)
		if i == "" {
			return simulator.Shard{}, fmt.Errorf("--shard %s takes the shard's index from $%s, which is not set: give I/N, or run it as a pod of an Indexed Job", v, jobIndexEnv)
		}
		from = " ($" + jobIndexEnv + ")"
	}
	idx, err1 := strconv.Atoi(i)
	of, err2 := strconv.Atoi(n)
	if err := errors.Join(err1, err2); err != nil || of < 1 || idx < 0 || idx >= of {
		return simulator.Shard{}, fmt.Errorf("--shard %s/%s%s: not a shard: give I/N with N at least 1 and I from 0 to N-1", i, n, from)
	}
	return simulator.Shard{Index: idx, Of: of}, nil
}

// osGetenv is the process's environment, for parse.
func osGetenv(k string) string { return os.Getenv(k) }
