package demo

import (
	"context"
	"sync"
	"time"

	"github.com/retrysim/retrysim/simulator/oracle"
)

// The queue modes answer first and work later, the design the providers'
// docs recommend (answer 2xx at once, process from a queue) and Slack's Bolt
// framework's default: the webhook only enqueues a job and answers 200; a
// worker does the credit a moment later. Their side effects land after the
// answers, so a verdict read once, right after the last answer, misses
// them.
//
//	queue            the webhook inserts the dedup id and the job under a
//	                 unique constraint in one transaction; the worker credits
//	                 under the same guard
//	queue-unguarded  every delivery is queued, and the worker credits every
//	                 job: any duplicate is credited again, late

// DefaultQueueDelay is how long the queue modes' worker waits before it
// takes the jobs queued, unless WithWork says otherwise: long enough that
// every credit lands after the answer.
const DefaultQueueDelay = 200 * time.Millisecond

const queueSchema = `
CREATE TABLE IF NOT EXISTS jobs (
	id        INTEGER PRIMARY KEY,
	event_id  TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS worked (
	event_id  TEXT PRIMARY KEY
);`

// queue is the queue modes' job queue and worker.
type queue struct {
	store   *store
	delay   time.Duration
	guarded bool
	kick    chan struct{}
	stop    context.CancelFunc
	done    chan struct{}

	mu      sync.Mutex
	pending int           // jobs queued and not yet worked
	idle    chan struct{} // closed when pending falls to 0
}

func startQueue(st *store, delay time.Duration, guarded bool) (*queue, error) {
	if _, err := st.db.Exec(queueSchema); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	q := &queue{store: st, delay: delay, guarded: guarded, kick: make(chan struct{}, 1), stop: cancel, done: make(chan struct{})}
	var n int
	if err := st.db.QueryRow(`SELECT COUNT(*) FROM jobs`).Scan(&n); err != nil {
		cancel()
		return nil, err
	}
	q.pending = n
	go q.work(ctx)
	if n > 0 {
		q.kick <- struct{}{} // jobs left by an earlier process
	}
	return q, nil
}

// enqueue takes a delivery in: the guarded queue inserts the dedup id and
// the job in one transaction, and queues nothing for an id it has (dup);
// the unguarded one queues every delivery.
func (q *queue) enqueue(ctx context.Context, eventID string) (dup bool, err error) {
	// q.mu before the connection, as in next and read: the store has one
	// connection, and taking them in the other order here while read
	// holds q.mu and waits for the connection deadlocks both until the
	// reader's context ends.
	q.mu.Lock()
	defer q.mu.Unlock()
	tx, err := q.store.db.BeginTx(ctx, nil)
	if err != nil {
		return false, err
	}
	defer tx.Rollback()
	if q.guarded {
		res, err := tx.ExecContext(ctx, `INSERT INTO processed(event_id, at) VALUES (?, ?) ON CONFLICT(event_id) DO NOTHING`, eventID, time.Now().UTC().Format(time.RFC3339Nano))
		if err != nil {
			return false, err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return true, nil
		}
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO jobs(event_id) VALUES (?)`, eventID); err != nil {
		return false, err
	}
	if err := tx.Commit(); err != nil {
		return false, err
	}
	q.pending++
	select {
	case q.kick <- struct{}{}:
	default:
	}
	return false, nil
}

// work takes the queued jobs, a delay after each kick, until stopped.
func (q *queue) work(ctx context.Context) {
	defer close(q.done)
	for {
		select {
		case <-ctx.Done():
			return
		case <-q.kick:
		}
		t := time.NewTimer(q.delay)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
		for q.next(ctx) {
		}
	}
}

// next works one job, and reports whether there was one. The guarded
// worker credits an event once, whatever the queue holds: the credit and
// the record that it was done share a transaction.
func (q *queue) next(ctx context.Context) bool {
	q.mu.Lock() // before the connection (see enqueue)
	defer q.mu.Unlock()
	tx, err := q.store.db.BeginTx(ctx, nil)
	if err != nil {
		return false
	}
	defer tx.Rollback()
	var id int64
	var eventID string
	if err := tx.QueryRowContext(ctx, `SELECT id, event_id FROM jobs ORDER BY id LIMIT 1`).Scan(&id, &eventID); err != nil {
		return false // sql.ErrNoRows: the queue is empty
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM jobs WHERE id = ?`, id); err != nil {
		return false
	}
	fresh := true
	if q.guarded {
		res, err := tx.ExecContext(ctx, `INSERT INTO worked(event_id) VALUES (?) ON CONFLICT(event_id) DO NOTHING`, eventID)
		if err != nil {
			return false
		}
		n, _ := res.RowsAffected()
		fresh = n > 0
	}
	if fresh {
		if err := credit(ctx, tx, eventID, amount); err != nil {
			return false
		}
	}
	if err := tx.Commit(); err != nil {
		return false
	}
	q.pending--
	if q.pending == 0 && q.idle != nil {
		close(q.idle)
		q.idle = nil
	}
	return true
}

// read reads the effects and the jobs pending together: the worker
// works each job under q.mu, so no job is done between the two.
func (q *queue) read(ctx context.Context) (oracle.Reading, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	m, err := q.store.effects(ctx)
	return oracle.Reading{Effects: m, Pending: q.pending, HasPending: true}, err
}

// drained waits until no job is pending, or ctx is done.
func (q *queue) drained(ctx context.Context) error {
	q.mu.Lock()
	if q.pending == 0 {
		q.mu.Unlock()
		return nil
	}
	if q.idle == nil {
		q.idle = make(chan struct{})
	}
	idle := q.idle
	q.mu.Unlock()
	select {
	case <-idle:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (q *queue) close() {
	q.stop()
	<-q.done
}
