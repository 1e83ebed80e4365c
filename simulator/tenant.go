package simulator

import (
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/retrysim/retrysim/policies"
)

// Tenants. A receiver often serves many senders at one URL: a Shopify app
// every shop's webhooks, a Stripe Connect platform every connected
// account's events, a GitHub App every installation's. Each sender (a
// tenant) has a subscription of its own, so the couplings that are
// endpoint-wide for one sender are per tenant for many: each tenant has its
// own disable-rule count and is disabled alone, and the order of events
// about one object holds within the tenant that owns the object (objects
// belong to one tenant). With Config.Tenants at 1 the run is exactly what it
// was before tenants existed.
//
// A disabled tenant's events are lost, each at the moment its next attempt
// (or its first, for an event not yet started) would have gone out: they
// come out of the queue in order as every attempt does, so their records
// sit where a serial run would have written them. Tenants share no state,
// so a run split by tenant (Config.Shard) writes exactly the records of
// the whole run's tenants in that shard.

// MaxTenants bounds Config.Tenants.
const MaxTenants = 1_000_000

// The settings a tenant's advice names.
const (
	// SettingTenants is the number of senders a run's events come from.
	SettingTenants Setting = "Config.Tenants"
	// SettingShard is the part of a run's tenants a process runs.
	SettingShard Setting = "Config.Shard"
	// SettingRunID is the run id mixed into the run's dedup ids.
	SettingRunID Setting = "Config.RunID"
)

// CheckTenants checks a run's number of tenants: 1..MaxTenants.
func CheckTenants(n int) error { return countLimit(SettingTenants, n, MaxTenants) }

// tenancy is the engine's per-tenant state; with one tenant, the engine's
// own disabler is the endpoint's.
type tenancy struct {
	n     int
	shard Shard
	// dis is each tenant's disable rule state, made when first needed
	// (only for a policy with a rule).
	dis []*disabler
	// off marks the tenants whose subscription was disabled.
	off []bool
	// names are the tenants' names, made when first needed.
	names []string
}

func newTenancy(cfg *Config) tenancy {
	t := tenancy{n: max(cfg.Tenants, 1), shard: cfg.Shard}
	if t.n > 1 {
		t.off = make([]bool, t.n)
		t.names = make([]string, t.n)
	}
	return t
}

// tenant is the tenant event i comes from, from 0: the tenant that owns
// the object the event is about, drawn from the seed.
func (w *workload) tenant(i int) int {
	if w.tenants <= 1 {
		return 0
	}
	o := i % w.objects()
	r := policies.Key(w.seed, uint64(o), 0x7e)
	return int(r.Uint64() % uint64(w.tenants))
}

// tenantName is the name event i's sender goes by, "" with one tenant.
func (w *workload) tenantName(i int) string {
	if w.tenants <= 1 {
		return ""
	}
	return policies.TenantName(w.wire, w.tenant(i))
}

// tenantOf is event ev's tenant.
func (e *engine) tenantOf(ev int) int { return e.work.tenant(ev) }

// tenantLabel is event ev's tenant as records name it: "" with one.
func (e *engine) tenantLabel(ev int) string {
	if e.ten.n <= 1 {
		return ""
	}
	t := e.tenantOf(ev)
	if e.ten.names[t] == "" {
		e.ten.names[t] = policies.TenantName(e.wire, t)
	}
	return e.ten.names[t]
}

// disablerOf is the disable rule state event ev's attempts count in.
func (e *engine) disablerOf(ev int) *disabler {
	if e.ten.n <= 1 || !e.dis.watching() {
		return &e.dis
	}
	if e.ten.dis == nil {
		e.ten.dis = make([]*disabler, e.ten.n)
	}
	t := e.tenantOf(ev)
	if e.ten.dis[t] == nil {
		d := newDisabler(&e.cfg.Policy)
		e.ten.dis[t] = &d
	}
	return e.ten.dis[t]
}

// sameTenant reports whether events a and b come from one tenant.
func (e *engine) sameTenant(a, b int) bool {
	return e.ten.n <= 1 || e.tenantOf(a) == e.tenantOf(b)
}

// tenantOff reports whether event ev's tenant was disabled.
func (e *engine) tenantOff(ev int) bool { return e.ten.n > 1 && e.ten.off[e.tenantOf(ev)] }

// disableTenant disables the subscription of the tenant of attempt d,
// which disabled it at at: a disable record says so. Its events still in
// flight end as their next attempts come up (lose).
func (e *engine) disableTenant(d *due, id string, at time.Time, by string, cause DisableCause) error {
	e.ten.off[e.tenantOf(d.event())] = true
	e.res.TenantsDisabled++
	r := &e.out
	*r = e.base
	r.Kind, r.Time, r.Seq, r.Attempt, r.EventID = KindDisable, at, d.event(), d.n(), id
	r.Tenant, r.DisabledBy, r.DisabledCause = e.tenantLabel(d.event()), by, cause
	return e.emitOut()
}

// leave takes attempt d of a disabled tenant out of the queue: an event
// that had not started yet lets the next one arrive.
func (e *engine) leave(d *due) {
	if d.n() == 1 && e.live.get(d.event()) == nil {
		e.queueArrival()
	}
}

// lose commits attempt d of a disabled tenant, never sent: its event ends
// disabled at d's time (or with the fate its schedule had already come to,
// when only a manual resend was still to come); an event that had not
// started is lost with no attempt.
func (e *engine) lose(d *due) error {
	at := e.virtual(d.at)
	ev := d.event()
	if st := e.live.get(ev); st != nil {
		fate := FateDisabled
		switch {
		case st.scheduleFate() != 0:
			fate = scheduleFates[st.scheduleFate()]
		case st.subDelivered():
			// One subscription's delivery succeeded before the disable.
			fate = FateDelivered
			e.res.Delivered++
		default:
			e.res.Lost++
		}
		return e.end(ev, fate, at)
	}
	e.res.Lost++
	r := &e.out
	*r = e.base
	r.Kind, r.Fate, r.Seq, r.Time, r.Tenant = KindEvent, FateDisabled, ev, at, e.tenantLabel(ev)
	r.EventID = e.eventID(ev)
	return e.emitOut()
}

// sendLost puts attempt d of a disabled tenant in the reorder buffer as
// answered, to be committed in order (lose) with nothing sent.
func (s *scheduler) sendLost(d due) {
	f := s.take()
	f.d, f.st, f.done, f.lost = d, eventRef{}, true, true
	f.gen++
	s.sent.push(f)
}

// Shard is the part of a run's tenants one process runs: shard Index, from
// 0, of Of. Each tenant falls in one shard, drawn from the seed. The zero
// Shard is the whole run.
type Shard struct {
	Index, Of int
}

// String is "I/N".
func (s Shard) String() string { return strconv.Itoa(s.Index) + "/" + strconv.Itoa(s.Of) }

// ErrShardOneTenant is returned, wrapped, for a sharded run of one tenant.
// Its attempts are coupled endpoint-wide (the disable rule counts every
// event's failures, and the endpoint's disabling ends them all), so no
// part of it runs alone the way it runs in the whole.
var ErrShardOneTenant = errors.New("a run of one tenant cannot be sharded exactly: every event counts towards one endpoint's disable rule")

// ShardError says a Shard is not one of its run's parts.
type ShardError struct {
	Shard   Shard
	Tenants int
	// NoRunID says the shard has no run id: every shard of a run must
	// be given the same one, or their ids and streams are not one run's.
	NoRunID bool
}

func (e *ShardError) Error() string {
	s := e.Shard
	switch {
	case s.Of < 1 || s.Index < 0 || s.Index >= s.Of:
		return fmt.Sprintf("%s %s is not a shard: give an index from 0 to the number of shards less one", SettingShard, s)
	case s.Of > e.Tenants:
		return fmt.Sprintf("%s %s: %d shards of %d tenants would leave shards with none (%s at least %d)", SettingShard, s, s.Of, e.Tenants, SettingTenants, s.Of)
	case e.NoRunID:
		return fmt.Sprintf("%s %s needs %s: every shard of a run must carry the run's id, or their streams are not one run's", SettingShard, s, SettingRunID)
	}
	return fmt.Sprintf("%s %s", SettingShard, s)
}

// checkTenancy lists what is wrong with the Config's tenants and shard.
// runID is the run id the caller gave ("" for a fresh one).
func (c *Config) checkTenancy(runID string) []error {
	var errs []error
	if err := CheckTenants(c.Tenants); err != nil {
		errs = append(errs, err)
		return errs
	}
	if c.Tenants > 1 && c.Incoming != nil {
		errs = append(errs, fmt.Errorf("real deliveries come from their own senders: %s must be 1 with Config.Incoming", SettingTenants))
	}
	if c.Shard == (Shard{}) {
		return errs
	}
	if c.Tenants == 1 && c.Shard.Of > 1 {
		return append(errs, fmt.Errorf("%s %s: %w", SettingShard, c.Shard, ErrShardOneTenant))
	}
	s := c.Shard
	if s.Of < 1 || s.Index < 0 || s.Index >= s.Of || s.Of > c.Tenants || runID == "" {
		errs = append(errs, &ShardError{Shard: s, Tenants: c.Tenants, NoRunID: runID == ""})
	}
	return errs
}

// inShard reports whether event ev belongs to the run's shard.
func (e *engine) inShard(ev int) bool {
	s := e.ten.shard
	if s.Of <= 1 {
		return true
	}
	return ShardOf(e.cfg.Seed, e.tenantOf(ev), s.Of) == s.Index
}

// ShardOf is the shard, of shards, that tenant t (from 0) of a run with
// seed falls in.
func ShardOf(seed uint64, t, shards int) int {
	r := policies.Key(seed, uint64(t), 0x5d)
	return int(r.Uint64() % uint64(shards))
}

// nextInShard is the first event from ev on that belongs to the run's
// shard (cfg.Events when none does).
func (e *engine) nextInShard(ev int) int {
	for ev < e.cfg.Events && !e.inShard(ev) {
		ev++
	}
	return ev
}
