package app_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"tengen"
	"tengen/clock"
	"tengen/internal/app"
	"tengen/internal/membus"
	"tengen/postgres/pgtest"
)

// TestAdvertise checks where the URL that the other instances use comes
// from: the flag, the listen address, or the address listened on; an
// address that names no host needs the flag.
func TestAdvertise(t *testing.T) {
	url := pgtest.URL(t)
	for _, tc := range []struct {
		addr, advertise string
		want            string // "" for the address listened on; "error: ..." for a failure
	}{
		{addr: "127.0.0.1:0", want: ""},
		{addr: "127.0.0.1:0", advertise: "https://node1.example.org:8443/", want: "https://node1.example.org:8443"},
		{addr: ":0", want: "error: --advertise"},
		{addr: "0.0.0.0:0", want: "error: --advertise"},
		{addr: "127.0.0.1:0", advertise: "node1:8080", want: "error: advertise"},
	} {
		a, err := app.Open(context.Background(), app.Config{DBPath: url, Addr: tc.addr, Advertise: tc.advertise, Logger: quiet(), BcryptCost: bcrypt.MinCost})
		if want, ok := strings.CutPrefix(tc.want, "error: "); ok {
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("addr %q, advertise %q: %v, want an error about %s", tc.addr, tc.advertise, err, want)
			}
			if a != nil {
				a.Close(context.Background())
			}
			continue
		}
		if err != nil {
			t.Fatalf("addr %q, advertise %q: %v", tc.addr, tc.advertise, err)
		}
		want := tc.want
		if want == "" {
			want = "http://" + a.Addr().String()
		}
		if a.Cluster == nil || a.Instance.ID == 0 || a.Instance.Advertise != want {
			t.Errorf("addr %q, advertise %q: instance %+v, want advertised %s", tc.addr, tc.advertise, a.Instance, want)
		}
		if err := a.Close(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
}

// TestTwoInstances runs two servers on one database, as two `tengen serve`
// would (with one bus between them): a game created on the first is played
// through the second, which forwards over the signed peer calls; a watcher
// on the second sees every move in order; when the first shuts down, the
// second takes the game over within about a second and it goes on.
func TestTwoInstances(t *testing.T) {
	url := pgtest.URL(t)
	ctx := context.Background()
	bus := membus.New()
	var apps [2]*app.App
	for i := range apps {
		a, err := app.Open(ctx, app.Config{DBPath: url, Addr: "127.0.0.1:0", Logger: quiet(), BcryptCost: bcrypt.MinCost, Bus: bus})
		if err != nil {
			t.Fatal(err)
		}
		apps[i] = a
		t.Cleanup(func() { a.Close(context.Background()) })
	}
	users := make([]*tengen.User, 2)
	for i := range users {
		users[i] = &tengen.User{Name: fmt.Sprintf("player%d", i), PasswordHash: "x"}
		if err := apps[0].Users.CreateUser(ctx, users[i]); err != nil {
			t.Fatal(err)
		}
	}
	c := &tengen.Challenge{ChallengerID: users[0].ID, Settings: tengen.GameSettings{BoardSize: 9, Ruleset: "japanese",
		Color: tengen.ChooseBlack, TimeControl: clock.TimeControl{Kind: clock.ByoYomi, MainTime: time.Hour, Periods: 1, PeriodTime: time.Minute}}}
	if err := apps[0].Challenges.CreateChallenge(ctx, c); err != nil {
		t.Fatal(err)
	}
	g, err := apps[0].Play.CreateGame(ctx, c.ID, users[1].ID)
	if err != nil {
		t.Fatal(err)
	}
	events := make(chan *tengen.GameEvent, 100)
	stop, err := apps[1].Play.Watch(ctx, g.ID, 0, func(ev *tengen.GameEvent) {
		// The owner's events come encoded (PlayService.Watch).
		full, err := tengen.GameEventFromJSON(ev.JSON())
		if err != nil {
			panic(err)
		}
		events <- full
	})
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	next := func() *tengen.GameEvent {
		t.Helper()
		select {
		case ev := <-events:
			return ev
		case <-time.After(10 * time.Second):
			t.Fatal("no event within 10 s")
			return nil
		}
	}
	if ev := next(); ev.Type != tengen.EventGame || ev.State.Game.ID != g.ID {
		t.Fatalf("first event %+v, want the snapshot", ev)
	}
	move := func(a *app.App, seq int) {
		t.Helper()
		uid := users[0].ID
		if seq%2 == 0 {
			uid = users[1].ID
		}
		snap, err := a.Play.Do(ctx, g.ID, uid, tengen.Command{Kind: tengen.CommandMove, Move: tengen.MoveCommand{Seq: seq, Kind: tengen.MovePlay, X: seq % 9, Y: seq / 9}})
		if err != nil || snap.Game.MoveCount != seq {
			t.Fatalf("move %d: %v", seq, err)
		}
	}
	for seq := 1; seq <= 6; seq++ {
		move(apps[1], seq)
		if ev := next(); ev.Type != tengen.EventMove || ev.Move.Seq != seq {
			t.Fatalf("event after move %d: %+v", seq, ev)
		}
	}
	if n := apps[1].Play.LiveGames(); n != 0 {
		t.Errorf("the forwarding instance holds %d games", n)
	}
	rec, err := apps[1].Play.SGF(ctx, g.ID)
	if err != nil || !strings.Contains(string(rec), ";W[ga]") {
		t.Errorf("record through the other instance: %v\n%s", err, rec)
	}

	// The owner shuts down and releases the game.
	if err := apps[0].Close(ctx); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for apps[1].Play.LiveGames() != 1 {
		if time.Now().After(deadline) {
			t.Fatal("the game was not taken over within 5 s")
		}
		time.Sleep(50 * time.Millisecond)
	}
	// The new owner announces itself: the watcher starts again from its
	// snapshot.
	if ev := next(); ev.Type != tengen.EventGame || len(ev.State.Moves) != 6 {
		t.Fatalf("event after the takeover: %+v, want a new snapshot with 6 moves", ev)
	}
	for seq := 7; seq <= 8; seq++ {
		move(apps[1], seq)
		if ev := next(); ev.Type != tengen.EventMove || ev.Move.Seq != seq {
			t.Fatalf("event after move %d: %+v", seq, ev)
		}
	}
}
