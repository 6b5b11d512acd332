package membus

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"testing/synctest"
)

// TestOrderAndTopics checks that every subscriber of a topic gets every
// payload in order, other topics nothing, and a stopped one nothing more.
func TestOrderAndTopics(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := New()
		var mu sync.Mutex
		got := map[string][]string{}
		rec := func(name string) func([]byte) {
			return func(p []byte) {
				mu.Lock()
				got[name] = append(got[name], string(p))
				mu.Unlock()
			}
		}
		b.Subscribe("game:1", rec("a"))
		stopB := b.Subscribe("game:1", rec("b"))
		b.Subscribe("game:2", rec("c"))
		ctx := context.Background()
		var want []string
		for i := range 100 {
			p := fmt.Sprint(i)
			want = append(want, p)
			if err := b.Publish(ctx, "game:1", []byte(p)); err != nil {
				t.Fatal(err)
			}
		}
		synctest.Wait()
		stopB()
		if err := b.Publish(ctx, "game:1", []byte("late")); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		mu.Lock()
		defer mu.Unlock()
		if fmt.Sprint(got["a"]) != fmt.Sprint(append(want, "late")) {
			t.Errorf("a got %v", got["a"])
		}
		if fmt.Sprint(got["b"]) != fmt.Sprint(want) {
			t.Errorf("b (stopped after 100) got %v", got["b"])
		}
		if len(got["c"]) != 0 {
			t.Errorf("c (other topic) got %v", got["c"])
		}
	})
}
