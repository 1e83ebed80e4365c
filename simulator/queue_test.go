package simulator

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/retrysim/retrysim/policies"
)

// The queue hands attempts out in (time, event, attempt) order, whatever
// order they were pushed in and however pushes and pops interleave.
func TestQueueOrder(t *testing.T) {
	for _, size := range []int{1, 2, 5, 17, 1000} {
		t.Run(fmt.Sprintf("%d pending", size), func(t *testing.T) {
			r := policies.NewRand(uint64(size))
			var q queue
			var want []due
			for i := range size {
				// Few distinct times, so ties on time are common.
				d := newDue(time.Duration(r.IntN(size/3+1)), r.IntN(size), 1+r.IntN(16))
				q.push(d)
				want = append(want, d)
				if i%3 == 2 { // interleave pops with pushes
					slices.SortFunc(want, cmpDue)
					got := q.pop()
					if got != want[0] {
						t.Fatalf("pop %d: got %+v, want %+v", i, got, want[0])
					}
					want = want[1:]
				}
			}
			slices.SortFunc(want, cmpDue)
			for i, w := range want {
				if q.Len() != len(want)-i {
					t.Fatalf("Len %d, want %d", q.Len(), len(want)-i)
				}
				if got := q.pop(); got != w {
					t.Fatalf("final pop %d: got %+v, want %+v", i, got, w)
				}
			}
		})
	}
}

func cmpDue(a, b due) int {
	switch {
	case a.before(&b):
		return -1
	case b.before(&a):
		return 1
	}
	return 0
}

// An attempt's key keeps its event and attempt number apart, up to the caps
// on events and attempts.
func TestDueKey(t *testing.T) {
	d := newDue(3*time.Hour, MaxEvents-1, policies.MaxAttemptsCap)
	if d.event() != MaxEvents-1 || d.n() != policies.MaxAttemptsCap || d.offset() != 3*time.Hour {
		t.Errorf("got event %d attempt %d at %s", d.event(), d.n(), d.offset())
	}
	a, b := newDue(time.Second, 1, 16), newDue(time.Second, 2, 1)
	if !a.before(&b) || b.before(&a) {
		t.Error("at the same time, event 1's attempt 16 must come before event 2's attempt 1")
	}
}

// Attempts queued the way a run queues them (each retry a fixed delay after
// the attempt before, some lengthened as by a Retry-After) come out in
// order across chunk boundaries, lanes and the spill heap.
func TestQueueFollowsSchedule(t *testing.T) {
	delays := []time.Duration{5, 7, 11, 3} // attempt n+1 is delays[n-1] after n
	const events = 3 * chunkLen
	var q queue
	r := policies.NewRand(3)
	for i := range events {
		q.push(newDue(time.Duration(i/4), i, 1)) // arrivals four at a time
	}
	var popped []due
	for q.Len() > 0 {
		d := q.pop()
		popped = append(popped, d)
		if d.n() <= len(delays) {
			wait := delays[d.n()-1]
			if r.IntN(50) == 0 {
				wait += time.Duration(r.IntN(40)) // out of the lane's order
			}
			q.push(newDue(d.offset()+wait, d.event(), d.n()+1))
		}
	}
	if want := events * (len(delays) + 1); len(popped) != want {
		t.Fatalf("popped %d attempts, want %d", len(popped), want)
	}
	if !slices.IsSortedFunc(popped, cmpDue) {
		for i := 1; i < len(popped); i++ {
			if popped[i].before(&popped[i-1]) {
				t.Fatalf("pop %d %+v came after %+v", i, popped[i], popped[i-1])
			}
		}
	}
	if q.spill.Len() != 0 || len(q.heads) != 0 {
		t.Errorf("an empty queue still holds %d spilled attempts and %d lanes", q.spill.Len(), len(q.heads))
	}
}

// A queue whose lanes are long spills their middles to a temporary file and
// still hands every attempt out in order, once, with the names it carries
// for its event; the file is gone when the queue is closed.
func TestQueueSpills(t *testing.T) {
	for _, carry := range []bool{false, true} {
		t.Run(fmt.Sprintf("carry=%v", carry), func(t *testing.T) { testQueueSpills(t, carry) })
	}
}

func testQueueSpills(t *testing.T, carry bool) {
	dir := t.TempDir()
	q := queue{memChunks: 1, carry: carry}
	q.file.dir = dir
	r := policies.NewRand(9)
	var want heap // the order expected: one heap of every attempt
	namesOf := func(ev int) eventNames {
		var nm eventNames
		nm.set(fmt.Sprintf("evt_%d", ev), fmt.Sprintf("obj_%d", ev%7))
		nm.first = time.Duration(ev) * time.Second
		return nm
	}
	check := func(what string, got, w due) {
		t.Helper()
		if got != w {
			t.Fatalf("%s: got %+v, want %+v", what, got, w)
		}
		if carry && q.popped != namesOf(got.event()) {
			id, obj, _ := q.popped.names(new(nameBlock))
			t.Fatalf("%s: attempt of event %d came with the names %q, %q", what, got.event(), id, obj)
		}
	}
	// Attempt n of event ev is due at ev's arrival plus n hours, as a
	// schedule makes it: each lane is pushed in order; one in 50 comes
	// early, out of its lane's order.
	const events = 40_000
	for ev := range events {
		nm := namesOf(ev)
		for n := 1; n <= 3; n++ {
			at := time.Duration(ev)*time.Second + time.Duration(n)*time.Hour
			if r.IntN(50) == 0 {
				at -= time.Duration(r.IntN(3600)) * time.Second
			}
			d := newDue(at, ev, n)
			q.pushNames(d, &nm)
			want.push(d)
		}
		if ev%4 == 3 { // a pop now and then, as the engine interleaves them
			check(fmt.Sprintf("pop after event %d", ev), q.pop(), want.pop())
		}
	}
	if q.file.f == nil {
		t.Fatal("nothing was spilled")
	}
	for i := 0; want.Len() > 0; i++ {
		check(fmt.Sprintf("final pop %d", i), q.pop(), want.pop())
	}
	if q.Len() != 0 || q.err != nil {
		t.Fatalf("Len %d, err %v after every attempt was taken", q.Len(), q.err)
	}
	if err := q.close(); err != nil {
		t.Fatal(err)
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("left in the temporary directory: %v", left)
	}
}

// Names too long to carry are not carried: the engine makes them again.
func TestEventNamesTooLong(t *testing.T) {
	var nm eventNames
	nm.set(strings.Repeat("e", 40), strings.Repeat("o", 30))
	if _, _, ok := nm.names(new(nameBlock)); ok {
		t.Fatal("70 bytes of names carried in 62")
	}
	nm.set("evt_1", "obj_1")
	if id, obj, ok := nm.names(new(nameBlock)); !ok || id != "evt_1" || obj != "obj_1" {
		t.Fatalf("carried %q, %q (%v)", id, obj, ok)
	}
}
