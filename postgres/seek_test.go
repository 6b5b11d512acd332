package postgres_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"tengen"
	"tengen/postgres"
	"tengen/postgres/pgtest"
)

// TestSeeksAcrossInstances races two instances pairing the seeks of both:
// every seek is paired once, a seek whose instance stopped keeping it is
// dropped, and a seek paired meanwhile cannot be deleted by its seeker.
func TestSeeksAcrossInstances(t *testing.T) {
	url := pgtest.URL(t)
	var svcs [2]*postgres.SeekService
	var users *postgres.UserService
	for i := range svcs {
		db := postgres.NewDB(url)
		if err := db.Open(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		svcs[i] = postgres.NewSeekService(db)
		users = postgres.NewUserService(db)
	}
	ctx := context.Background()
	now := time.Now().UTC().Truncate(time.Microsecond)
	instance := [2]string{"zero", "one"}
	const n = 40
	var ids []int64
	for i := range n + 1 {
		u := &tengen.User{Name: fmt.Sprintf("seeker%d", i), PasswordHash: "x"}
		if err := users.CreateUser(ctx, u); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, u.ID)
	}
	for i, id := range ids[:n] {
		sk := &tengen.Seek{UserID: id, Instance: instance[i%2], BoardSize: 19, Speed: "live", Rank: 10, Since: now.Add(time.Duration(i) * time.Millisecond)}
		if err := svcs[i%2].PutSeek(ctx, sk, now); err != nil {
			t.Fatal(err)
		}
	}
	// The last seeker's instance died: its seek was not kept alive.
	dead := &tengen.Seek{UserID: ids[n], Instance: "dead", BoardSize: 19, Speed: "live", Rank: 10, Since: now.Add(-time.Minute)}
	if err := svcs[0].PutSeek(ctx, dead, now.Add(-time.Minute)); err != nil {
		t.Fatal(err)
	}
	// A bad seek is refused.
	if err := svcs[0].PutSeek(ctx, &tengen.Seek{UserID: ids[0]}, now); tengen.ErrorCode(err) != tengen.EINVALID {
		t.Errorf("seek without size and speed: %v, want %s", err, tengen.EINVALID)
	}
	// Pair neighbours, two at a time, slowly, so that the two instances'
	// transactions overlap.
	pairTwo := func(seeks []tengen.Seek) [][2]int {
		time.Sleep(20 * time.Millisecond)
		if len(seeks) < 4 {
			return [][2]int{{0, 1}}
		}
		return [][2]int{{0, 1}, {2, 3}}
	}
	paired := map[int64]int{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for i := range svcs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				pairs, err := svcs[i].PairSeeks(ctx, now.Add(-5*time.Second), pairTwo)
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				for _, p := range pairs {
					paired[p[0].UserID]++
					paired[p[1].UserID]++
				}
				done := len(paired) >= n
				mu.Unlock()
				if done {
					return
				}
			}
		}()
	}
	wg.Wait()
	if len(paired) != n {
		t.Errorf("%d seekers paired, want %d", len(paired), n)
	}
	for id, k := range paired {
		if k != 1 {
			t.Errorf("seeker %d paired %d times", id, k)
		}
	}
	if paired[ids[n]] != 0 {
		t.Error("the seek of a dead instance was paired")
	}
	// Paired and dropped seeks are gone: their seekers cannot withdraw
	// them any more.
	for _, id := range []int64{ids[0], ids[n]} {
		ok, err := svcs[0].DeleteSeek(ctx, id, instance[0])
		if err != nil || ok {
			t.Errorf("delete seek of %d after pairing: %v, %v; want false", id, ok, err)
		}
	}
	// A seek still waiting is deleted by its instance only.
	sk := &tengen.Seek{UserID: ids[1], Instance: "one", BoardSize: 9, Speed: "blitz", Rank: 3, Since: now}
	if err := svcs[1].PutSeek(ctx, sk, now); err != nil {
		t.Fatal(err)
	}
	if ok, _ := svcs[0].DeleteSeek(ctx, ids[1], "zero"); ok {
		t.Error("another instance deleted the seek")
	}
	if kept, err := svcs[1].KeepSeeks(ctx, "one", []int64{ids[1], ids[3]}, now.Add(time.Minute)); err != nil || len(kept) != 1 || kept[0] != ids[1] {
		t.Fatalf("KeepSeeks: %v, %v; want the one waiting seek, of %d", kept, err, ids[1])
	}
	// Kept alive, it survives a pairing that finds no partner.
	if _, err := svcs[0].PairSeeks(ctx, now.Add(30*time.Second), func([]tengen.Seek) [][2]int { return nil }); err != nil {
		t.Fatal(err)
	}
	if ok, err := svcs[1].DeleteSeek(ctx, ids[1], "one"); err != nil || !ok {
		t.Errorf("delete the waiting seek: %v, %v; want true", ok, err)
	}
}
