package workpool

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
)

func TestBackgroundBounded(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := New(2)
		ctx := context.Background()
		_, r1, err := p.Background(ctx)
		if err != nil {
			t.Fatal(err)
		}
		_, r2, err := p.Background(ctx)
		if err != nil {
			t.Fatal(err)
		}
		got := make(chan struct{})
		go func() {
			_, r3, err := p.Background(ctx)
			if err != nil {
				t.Error(err)
				return
			}
			close(got)
			r3()
		}()
		synctest.Wait()
		if u, b, w := p.Load(); u != 0 || b != 2 || w != 1 {
			t.Fatalf("load = %d urgent, %d background, %d waiting; want 0, 2, 1", u, b, w)
		}
		select {
		case <-got:
			t.Fatal("a third job got a slot of a pool of two")
		default:
		}
		r1()
		synctest.Wait()
		select {
		case <-got:
		default:
			t.Fatal("the waiting job did not get the freed slot")
		}
		r2()
		r1() // a second release changes nothing
		if u, b, w := p.Load(); u != 0 || b != 0 || w != 0 {
			t.Fatalf("load after release = %d, %d, %d; want 0, 0, 0", u, b, w)
		}
	})
}

func TestUrgentPreemptsNewestBackground(t *testing.T) {
	p := New(2)
	ctx := context.Background()
	old, rOld, _ := p.Background(ctx)
	young, rYoung, _ := p.Background(ctx)
	release := p.Urgent()
	if young.Err() == nil || !errors.Is(context.Cause(young), ErrPreempted) {
		t.Fatalf("newest background job: cause %v, want ErrPreempted", context.Cause(young))
	}
	if old.Err() != nil {
		t.Fatal("the older background job was preempted too")
	}
	// Until the preempted job stops, it still counts.
	if u, b, _ := p.Load(); u != 1 || b != 2 {
		t.Fatalf("load = %d urgent, %d background; want 1, 2", u, b)
	}
	rYoung()
	if u, b, _ := p.Load(); u != 1 || b != 1 {
		t.Fatalf("load = %d urgent, %d background; want 1, 1", u, b)
	}
	release()
	rOld()
	if u, b, w := p.Load(); u != 0 || b != 0 || w != 0 {
		t.Fatalf("load = %d, %d, %d; want 0, 0, 0", u, b, w)
	}
}

// TestUrgentFirst checks that urgent work never waits and that background
// work waits while urgent work fills the pool.
func TestUrgentFirst(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := New(1)
		r1 := p.Urgent()
		r2 := p.Urgent() // more urgent work than slots: it still runs
		got := make(chan struct{})
		go func() {
			_, r, err := p.Background(context.Background())
			if err == nil {
				close(got)
				r()
			}
		}()
		synctest.Wait()
		r1()
		synctest.Wait()
		select {
		case <-got:
			t.Fatal("background work started while urgent work filled the pool")
		default:
		}
		r2()
		synctest.Wait()
		select {
		case <-got:
		default:
			t.Fatal("background work did not start after the urgent work")
		}
	})
}

func TestBackgroundCancelledWhileWaiting(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := New(1)
		release := p.Urgent()
		ctx, cancel := context.WithCancel(context.Background())
		errc := make(chan error, 1)
		go func() {
			_, _, err := p.Background(ctx)
			errc <- err
		}()
		synctest.Wait()
		cancel()
		if err := <-errc; !errors.Is(err, context.Canceled) {
			t.Fatalf("err = %v, want context.Canceled", err)
		}
		release()
		if u, b, w := p.Load(); u != 0 || b != 0 || w != 0 {
			t.Fatalf("load = %d, %d, %d; want 0, 0, 0", u, b, w)
		}
	})
}
