package demo

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// Reading the effects while deliveries are queued and worked never waits
// for the reader's context: the store's one connection and the queue's
// lock are taken in one order everywhere. (Taken in the other order by
// the worker, a read now and then hung until its deadline, and the
// run's verdict was UNKNOWN.)
func TestQueueReadsWhileWorking(t *testing.T) {
	st, err := openStore(filepath.Join(t.TempDir(), "q.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.db.Close()
	q, err := startQueue(st, 0, true)
	if err != nil {
		t.Fatal(err)
	}
	defer q.close()
	var wg sync.WaitGroup
	wg.Go(func() {
		for i := range 300 {
			if _, err := q.enqueue(context.Background(), fmt.Sprintf("evt_%d", i)); err != nil {
				t.Error(err)
				return
			}
		}
	})
	for range 300 {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		_, err := q.read(ctx)
		cancel()
		if err != nil {
			t.Fatalf("a read while the queue works: %v", err)
		}
	}
	wg.Wait()
}
