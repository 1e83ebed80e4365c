package advice

import (
	"errors"
	"fmt"

	"github.com/retrysim/retrysim/report"
	"github.com/retrysim/retrysim/simulator"
)

// ByTenant refuses --by tenant for a run of tenants senders when there is
// only one: the chart draws a row per tenant, and would find none to draw
// only once the run is over.
func ByTenant(by string, tenants int) error {
	if by == report.ByTenant && tenants <= 1 {
		return errors.New("--by tenant draws a row per tenant, and this run has one: give --tenants N (N above 1) to spread the events over N senders")
	}
	return nil
}

// Tenants checks --tenants and --shard against the --run-id given (""
// for none) and returns the shard (the zero Shard for a whole run): a
// shard needs more than one tenant, no more shards than tenants, and the
// run's id, which every shard of a run must carry. getenv finds the
// shard's index for "/N" (simulator.ParseShard).
func Tenants(tenants int, shard, runID string, getenv func(string) string) (simulator.Shard, []error) {
	var errs []error
	if err := Limit("tenants", "", simulator.CheckTenants(tenants)); err != nil {
		return simulator.Shard{}, []error{err}
	}
	if shard == "" {
		return simulator.Shard{}, nil
	}
	s, err := simulator.ParseShard(shard, getenv)
	if err != nil {
		return s, []error{Shard(err)}
	}
	switch {
	case tenants == 1 && s.Of > 1:
		errs = append(errs, fmt.Errorf("--shard %s: %w; give --tenants N to spread the events over N senders, each with its own subscription", s, simulator.ErrShardOneTenant))
	case s.Of > tenants:
		errs = append(errs, fmt.Errorf("--shard %s: %d shards of %d tenants would leave shards with none: give --tenants %d or more", s, s.Of, tenants, s.Of))
	}
	if runID == "" && s.Of > 1 {
		errs = append(errs, fmt.Errorf("--shard %s needs --run-id: every shard of a run must carry the run's id (the same on every shard), or their ids and streams are not one run's", s))
	}
	return s, errs
}
