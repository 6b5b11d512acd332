package groupcommit

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeTx records the calls a Batcher makes, in one log shared by all
// transactions of a test.
type fakeTx struct {
	log       *[]string
	commitErr error
	done      bool
}

func (tx *fakeTx) Savepoint(release, name string) error {
	*tx.log = append(*tx.log, "savepoint "+release+">"+name)
	return nil
}

func (tx *fakeTx) RollbackTo(name string) error {
	*tx.log = append(*tx.log, "rollback to "+name)
	return nil
}

func (tx *fakeTx) Commit() error {
	tx.done = true
	if tx.commitErr != nil {
		*tx.log = append(*tx.log, "commit failed")
		return tx.commitErr
	}
	*tx.log = append(*tx.log, "commit")
	return nil
}

func (tx *fakeTx) Rollback() error {
	if !tx.done {
		*tx.log = append(*tx.log, "rollback")
	}
	return nil
}

// write is a write that logs its name and returns err.
func write(name string, err error) func(context.Context, *fakeTx) error {
	return func(_ context.Context, tx *fakeTx) error {
		*tx.log = append(*tx.log, name)
		return err
	}
}

// logBatcher returns a Batcher whose transactions log to log, "begin"
// for each.
func logBatcher(log *[]string) *Batcher[*fakeTx] {
	return &Batcher[*fakeTx]{Begin: func() (*fakeTx, error) {
		*log = append(*log, "begin")
		return &fakeTx{log: log}, nil
	}}
}

// sendLogger returns a Batcher.Ahead that logs "send" and returns err.
func sendLogger(err error) func(*fakeTx) error {
	return func(tx *fakeTx) error {
		*tx.log = append(*tx.log, "send")
		return err
	}
}

// aheadOf returns the ahead function of the write name, which logs it.
func aheadOf(name string) func(*fakeTx) {
	return func(tx *fakeTx) { *tx.log = append(*tx.log, "ahead "+name) }
}

// batchCase is a case of TestBatch.
type batchCase struct {
	name      string
	writes    []error // the errors of the writes after the first
	ctxs      []context.Context
	beginErr  error // of every transaction after the first
	commitErr error // of every transaction after the first
	want      []error
	log       string // of the transactions after the first
	optLog    string // the same with Optimistic
	aheadLog  string // the same with Optimistic and Ahead, the writes through DoAhead
	commits   []int
}

// The modes TestBatch runs each case in.
const (
	plain      = iota // a savepoint for each write
	optimistic        // Optimistic
	ahead             // Optimistic and Ahead
)

// TestBatch runs writes that arrive together in one batch: the first write
// blocks until the others wait, so they share the second transaction (and,
// with Optimistic, a third when one of them fails).
func TestBatch(t *testing.T) {
	refused := errors.New("refused")
	commitFailed := errors.New("disk full")
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []batchCase{
		{"all succeed", []error{nil, nil, nil}, nil, nil, nil, []error{nil, nil, nil},
			"begin|savepoint >w0|b|savepoint w0>w1|c|savepoint w1>w2|d|commit",
			"begin|b|c|d|commit",
			"begin|ahead b|ahead c|ahead d|send|b|c|d|commit", []int{1, 3}},
		{"one refused", []error{nil, refused, nil}, nil, nil, nil, []error{nil, refused, nil},
			"begin|savepoint >w0|b|savepoint w0>w1|c|rollback to w1|savepoint w1>w2|d|commit",
			"begin|b|c|rollback|begin|savepoint >w0|b|savepoint w0>w1|c|rollback to w1|savepoint w1>w2|d|commit",
			"begin|ahead b|ahead c|ahead d|send|b|c|rollback|begin|savepoint >w0|b|savepoint w0>w1|c|rollback to w1|savepoint w1>w2|d|commit", []int{1, 2}},
		{"all refused", []error{refused, refused}, nil, nil, nil, []error{refused, refused},
			"begin|savepoint >w0|b|rollback to w0|savepoint w0>w1|c|rollback to w1|rollback",
			"begin|b|rollback|begin|savepoint >w0|b|rollback to w0|savepoint w0>w1|c|rollback to w1|rollback",
			"begin|ahead b|ahead c|send|b|rollback|begin|savepoint >w0|b|rollback to w0|savepoint w0>w1|c|rollback to w1|rollback", []int{1}},
		{"commit fails", []error{nil, refused}, nil, nil, commitFailed, []error{commitFailed, refused},
			"begin|savepoint >w0|b|savepoint w0>w1|c|rollback to w1|commit failed",
			"begin|b|c|rollback|begin|savepoint >w0|b|savepoint w0>w1|c|rollback to w1|commit failed",
			"begin|ahead b|ahead c|send|b|c|rollback|begin|savepoint >w0|b|savepoint w0>w1|c|rollback to w1|commit failed", []int{1}},
		{"begin fails", []error{nil, refused}, nil, commitFailed, nil, []error{commitFailed, commitFailed},
			"begin", "begin", "begin", []int{1}},
		{"caller gone", []error{nil, nil}, []context.Context{cancelled, nil}, nil, nil, []error{context.Canceled, nil},
			"begin|savepoint >w1|c|commit", "begin|c|commit", "begin|ahead c|send|c|commit", []int{1, 1}},
		{"caller gone, one refused", []error{nil, refused, nil}, []context.Context{cancelled, nil, nil}, nil, nil,
			[]error{context.Canceled, refused, nil},
			"begin|savepoint >w1|c|rollback to w1|savepoint w1>w2|d|commit",
			"begin|c|rollback|begin|savepoint >w1|c|rollback to w1|savepoint w1>w2|d|commit",
			"begin|ahead c|ahead d|send|c|rollback|begin|savepoint >w1|c|rollback to w1|savepoint w1>w2|d|commit", []int{1, 1}},
	}
	for _, tt := range tests {
		for mode, name := range []string{"plain", "optimistic", "ahead"} {
			t.Run(tt.name+"/"+name, func(t *testing.T) {
				testBatch(t, mode, tt)
			})
		}
	}
}

func testBatch(t *testing.T, mode int, tt batchCase) {
	// log and commits are written by the batch goroutine and read after
	// every Do has returned.
	var log []string
	var commits []int
	txs := 0
	b := &Batcher[*fakeTx]{
		Begin: func() (*fakeTx, error) {
			txs++
			log = append(log, "begin")
			if txs >= 2 && tt.beginErr != nil {
				return nil, tt.beginErr
			}
			tx := &fakeTx{log: &log}
			if txs >= 2 {
				tx.commitErr = tt.commitErr
			}
			return tx, nil
		},
		Committed:  func(n int, _ time.Duration) { commits = append(commits, n) },
		Optimistic: mode != plain,
	}
	if mode == ahead {
		b.Ahead = sendLogger(nil)
	}
	release := make(chan struct{})
	first := make(chan error)
	go func() {
		first <- b.Do(context.Background(), func(ctx context.Context, tx *fakeTx) error {
			<-release
			return nil
		})
	}()
	waitFor(t, b, 0)
	got := make([]error, len(tt.writes))
	var wg sync.WaitGroup
	for i, err := range tt.writes {
		ctx := context.Background()
		if i < len(tt.ctxs) && tt.ctxs[i] != nil {
			ctx = tt.ctxs[i]
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			name := string(rune('b' + i))
			got[i] = b.DoAhead(ctx, aheadOf(name), write(name, err))
		}()
		waitFor(t, b, i+1) // in this order
	}
	close(release)
	if err := <-first; err != nil {
		t.Errorf("first write: %v", err)
	}
	wg.Wait()
	for i := range got {
		if !errors.Is(got[i], tt.want[i]) || (tt.want[i] == nil) != (got[i] == nil) {
			t.Errorf("write %d: %v, want %v", i, got[i], tt.want[i])
		}
	}
	// Every Do has returned: the batches are over. The first transaction
	// held the first write alone.
	firstLog, wantLog := "begin|savepoint >w0|commit", tt.log
	switch mode {
	case optimistic:
		firstLog, wantLog = "begin|commit", tt.optLog
	case ahead:
		firstLog, wantLog = "begin|commit", tt.aheadLog
	}
	n := strings.Count(firstLog, "|") + 1
	if got := strings.Join(log[:n], "|"); got != firstLog {
		t.Errorf("first transaction: %q, want %q", got, firstLog)
	}
	if got := strings.Join(log[n:], "|"); got != wantLog {
		t.Errorf("later transactions: %q, want %q", got, wantLog)
	}
	if !slices.Equal(commits, tt.commits) {
		t.Errorf("writes per commit: %v, want %v", commits, tt.commits)
	}
}

// waitFor waits until n writes wait for the next batch while one runs.
func waitFor(t *testing.T, b *Batcher[*fakeTx], n int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		if got, running := b.Waiting(); got == n && running {
			return
		}
		if time.Now().After(deadline) {
			got, running := b.Waiting()
			t.Fatalf("%d writes waiting (running %v), want %d", got, running, n)
		}
		time.Sleep(time.Millisecond) // polling a condition
	}
}

// TestParallel lets writes that each block in their transaction arrive one
// after the other: with Parallel 3 three batches run at once, and never a
// fourth; the others wait.
func TestParallel(t *testing.T) {
	for _, tc := range []struct{ parallel, set int }{{0, -1}, {1, -1}, {3, -1}, {4, 2}, {1, 3}} {
		parallel := tc.parallel
		var mu sync.Mutex // guards open, most and started
		open, most, started := 0, 0, 0
		release := make(chan struct{})
		b := &Batcher[*fakeTx]{Parallel: parallel, Begin: func() (*fakeTx, error) {
			mu.Lock()
			open++
			most = max(most, open)
			mu.Unlock()
			return &fakeTx{log: new([]string)}, nil
		}}
		// A share changed while the batcher is in use (SetParallel) counts
		// from the next batch on.
		if tc.set >= 0 {
			b.SetParallel(tc.set)
			parallel = tc.set
			if got := b.Parallelism(); got != tc.set {
				t.Errorf("Parallelism after SetParallel(%d): %d", tc.set, got)
			}
		}
		var wg sync.WaitGroup
		for i := range 6 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if err := b.Do(context.Background(), func(context.Context, *fakeTx) error {
					mu.Lock()
					started++
					mu.Unlock()
					<-release
					mu.Lock()
					open--
					mu.Unlock()
					return nil
				}); err != nil {
					t.Error(err)
				}
			}()
			// Each write arrives when the one before it runs or waits.
			for {
				n, _ := b.Waiting()
				mu.Lock()
				here := started + n
				mu.Unlock()
				if here == i+1 {
					break
				}
				time.Sleep(100 * time.Microsecond)
			}
		}
		close(release)
		wg.Wait()
		if want := max(parallel, 1); most != want {
			t.Errorf("Parallel %d: at most %d transactions open at once, want %d", parallel, most, want)
		}
	}
}

// TestBatchRetry runs a batch whose second write meets an error Retry
// accepts (a deadlock) the first times it runs: the whole batch runs again
// from the start and every write succeeds; when the error stays, the batch
// gives up after RetryTries runs more and the write returns it.
func TestBatchRetry(t *testing.T) {
	deadlock := errors.New("deadlock detected")
	for _, tt := range []struct {
		name       string
		fails      int // runs in which the second write fails
		optimistic bool
		want       error
		log        string
	}{
		{"once", 1, false, nil,
			"begin|savepoint >w0|b|savepoint w0>w1|c|rollback|begin|savepoint >w0|b|savepoint w0>w1|c|commit"},
		{"once, optimistic", 1, true, nil, "begin|b|c|rollback|begin|b|c|commit"},
		{"once, ahead", 1, true, nil, "begin|ahead b|ahead c|send|b|c|rollback|begin|ahead b|ahead c|send|b|c|commit"},
		{"always, optimistic", 100, true, deadlock,
			"begin|b|c|rollback|begin|b|c|rollback|begin|b|c|rollback|begin|b|c|rollback|begin|savepoint >w0|b|savepoint w0>w1|c|rollback to w1|commit"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var log []string
			b := logBatcher(&log)
			b.Optimistic = tt.optimistic
			b.Retry = func(err error) bool { return errors.Is(err, deadlock) }
			if strings.HasSuffix(tt.name, "ahead") {
				b.Ahead = sendLogger(nil)
			}
			release := make(chan struct{})
			first := make(chan error)
			go func() {
				first <- b.Do(context.Background(), func(context.Context, *fakeTx) error { <-release; return nil })
			}()
			waitFor(t, b, 0)
			runs := 0
			var got [2]error
			var wg sync.WaitGroup
			for i, w := range []func(context.Context, *fakeTx) error{
				write("b", nil),
				func(ctx context.Context, tx *fakeTx) error {
					runs++
					if runs <= tt.fails {
						return write("c", deadlock)(ctx, tx)
					}
					return write("c", nil)(ctx, tx)
				},
			} {
				wg.Add(1)
				go func() {
					defer wg.Done()
					got[i] = b.DoAhead(context.Background(), aheadOf(string(rune('b'+i))), w)
				}()
				waitFor(t, b, i+1)
			}
			close(release)
			<-first
			wg.Wait()
			if got[0] != nil || !errors.Is(got[1], tt.want) || (tt.want == nil) != (got[1] == nil) {
				t.Errorf("writes returned %v, want nil and %v", got, tt.want)
			}
			firstLog := "begin|savepoint >w0|commit"
			if tt.optimistic {
				firstLog = "begin|commit"
			}
			n := strings.Count(firstLog, "|") + 1
			if l := strings.Join(log[n:], "|"); l != tt.log {
				t.Errorf("log %q,\nwant %q", l, tt.log)
			}
		})
	}
}

// TestAhead covers what is Ahead's alone: when sending the statements
// fails, every write of the batch fails with that error and none runs;
// and a write whose statement was sent runs even when its caller has gone
// meanwhile, since the statement has taken effect in the transaction.
func TestAhead(t *testing.T) {
	lost := errors.New("connection lost")
	for _, tt := range []struct {
		name     string
		aheadErr error
		cancel   bool // the second write's ctx ends when its ahead runs
		want     [2]error
		log      string
	}{
		{"send fails", lost, false, [2]error{lost, lost}, "begin|ahead b|ahead c|send|rollback"},
		{"caller gone after send", nil, true, [2]error{nil, nil}, "begin|ahead b|ahead c|send|b|c|commit"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var log []string
			b := logBatcher(&log)
			b.Optimistic = true
			b.Ahead = sendLogger(tt.aheadErr)
			release := make(chan struct{})
			first := make(chan error)
			go func() {
				first <- b.Do(context.Background(), func(context.Context, *fakeTx) error { <-release; return nil })
			}()
			waitFor(t, b, 0)
			var got [2]error
			var wg sync.WaitGroup
			for i, name := range []string{"b", "c"} {
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				aheadFn := aheadOf(name)
				if tt.cancel && i == 1 {
					aheadFn = func(tx *fakeTx) { aheadOf(name)(tx); cancel() }
				}
				wg.Add(1)
				go func() {
					defer wg.Done()
					got[i] = b.DoAhead(ctx, aheadFn, write(name, nil))
				}()
				waitFor(t, b, i+1)
			}
			close(release)
			<-first
			wg.Wait()
			for i := range got {
				if !errors.Is(got[i], tt.want[i]) || (tt.want[i] == nil) != (got[i] == nil) {
					t.Errorf("write %d returned %v, want %v", i, got[i], tt.want[i])
				}
			}
			if l := strings.Join(log[2:], "|"); l != tt.log {
				t.Errorf("log %q,\nwant %q", l, tt.log)
			}
		})
	}
}
