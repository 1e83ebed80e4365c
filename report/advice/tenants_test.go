package advice_test

import (
	"testing"

	"github.com/retrysim/retrysim/report"
	"github.com/retrysim/retrysim/report/advice"
)

// TestByTenant: a chart by tenant needs a run of several tenants; a chart
// by event takes any run.
func TestByTenant(t *testing.T) {
	for _, tenants := range []int{0, 1} {
		if err := advice.ByTenant(report.ByTenant, tenants); err == nil || !contains(err.Error(), "give --tenants N (N above 1)") {
			t.Errorf("--by tenant of %d tenants: %v", tenants, err)
		}
	}
	if err := advice.ByTenant(report.ByTenant, 2); err != nil {
		t.Errorf("--by tenant of 2 tenants: %v", err)
	}
	if err := advice.ByTenant(report.ByEvent, 1); err != nil {
		t.Errorf("--by event of 1 tenant: %v", err)
	}
}

// TestTenantsAndShards: a shard needs tenants to spread, no more shards
// than tenants, and the run's id; a whole run is the zero shard.
func TestTenantsAndShards(t *testing.T) {
	noEnv := func(string) string { return "" }
	s, errs := advice.Tenants(1, "", "", noEnv)
	if errs != nil || s.Of != 0 {
		t.Errorf("a whole run: %v, %q", s, messages(errs))
	}
	s, errs = advice.Tenants(4, "1/4", "r1", noEnv)
	if errs != nil || s.Index != 1 || s.Of != 4 {
		t.Errorf("shard 1/4 of 4 tenants: %v, %q", s, messages(errs))
	}
	_, errs = advice.Tenants(2, "0/4", "r1", noEnv)
	sameLines(t, errs, "--shard 0/4: 4 shards of 2 tenants would leave shards with none: give --tenants 4 or more")
	_, errs = advice.Tenants(4, "0/2", "", noEnv)
	sameLines(t, errs, "--shard 0/2 needs --run-id: every shard of a run must carry the run's id (the same on every shard), or their ids and streams are not one run's")
	_, errs = advice.Tenants(1, "0/2", "r1", noEnv)
	if len(errs) != 1 || !contains(errs[0].Error(), "give --tenants N to spread the events over N senders") {
		t.Errorf("one tenant: %q", messages(errs))
	}
	_, errs = advice.Tenants(0, "", "", noEnv)
	if len(errs) != 1 || !contains(errs[0].Error(), "--tenants: 0 is out of range") {
		t.Errorf("no tenants: %q", messages(errs))
	}
	s, errs = advice.Tenants(4, "/4", "r1", func(k string) string { return map[string]string{"JOB_COMPLETION_INDEX": "3"}[k] })
	if errs != nil || s.Index != 3 {
		t.Errorf("index from the Job: %v, %q", s, messages(errs))
	}
}
