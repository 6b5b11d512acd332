package play_test

import (
	"context"
	"testing"
	"time"

	"tengen"
	"tengen/clock"
	"tengen/sqlite"
)

// TestNoShow checks the no-show rule (play/noshow.go): a live game whose
// player does not make a first move in time is void and unrated, the
// watchers get the phase event, a flag that falls before a player's first
// move voids the game instead of losing it on time, and a game whose first
// moves came, or that is not live, is untouched.
func TestNoShow(t *testing.T) {
	live := clock.ByoYomiTime(10*time.Minute, 3, 30*time.Second) // 30 min for 40 moves: live, 5 min
	blitz := clock.AbsoluteTime(5 * time.Minute)                 // blitz, 1 min
	tests := []struct {
		name   string
		tc     clock.TimeControl
		steps  []step        // played at the start
		wait   time.Duration // then this much time passes
		result string        // "" for a game still being played
	}{
		{name: "live, nobody moves", tc: live, wait: 5 * time.Minute, result: tengen.ResultVoid},
		{name: "live, just before the no-show time", tc: live, wait: 5*time.Minute - time.Second},
		{name: "blitz, nobody moves", tc: blitz, wait: time.Minute, result: tengen.ResultVoid},
		{name: "blitz, just before the no-show time", tc: blitz, wait: time.Minute - time.Second},
		// Black's flag falls at 30 s, before the no-show minute: still no
		// loss on time for a player who never moved.
		{name: "flag before the first move", tc: clock.AbsoluteTime(30 * time.Second), wait: 40 * time.Second, result: tengen.ResultVoid},
		{name: "white does not answer the first move", tc: live, steps: []step{{user: "black", cmd: "play 4 4", seq: 1}},
			wait: 5 * time.Minute, result: tengen.ResultVoid},
		{name: "both moved", tc: live, steps: []step{{user: "black", cmd: "play 4 4", seq: 1}, {user: "white", cmd: "play 3 3", seq: 2}},
			wait: 9 * time.Minute},
		// After both first moves the clock rules again: Black loses on
		// time in the blitz game.
		{name: "both moved, flag falls", tc: blitz, steps: []step{{user: "black", cmd: "play 4 4", seq: 1}, {user: "white", cmd: "play 3 3", seq: 2}},
			wait: 6 * time.Minute, result: "W+T"},
		{name: "correspondence", tc: clock.CorrespondenceDays(3, 10), wait: 24 * time.Hour},
		{name: "no clock", tc: noTime, wait: 24 * time.Hour},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			e := newEnv(t)
			set := settings(9, "japanese", tt.tc)
			set.Rated = true
			id := e.newGame(set)
			e.run(id, tt.steps)
			e.watch(id)
			e.clock.Advance(tt.wait)
			snap, err := e.svc.Snapshot(ctx, id, 0)
			if err != nil {
				t.Fatal(err)
			}
			events := e.eventTypes()
			if tt.result == "" {
				if snap.Game.Status == tengen.GameFinished || events != "" {
					t.Fatalf("game %s %q with events %q, want it untouched", snap.Game.Status, snap.Game.Result, events)
				}
				return
			}
			if snap.Game.Status != tengen.GameFinished || snap.Game.Result != tt.result {
				t.Fatalf("game %s %q, want finished %q", snap.Game.Status, snap.Game.Result, tt.result)
			}
			if want := "phase"; tt.result == "W+T" {
				want = "clock phase"
				if events != want {
					t.Errorf("events %q, want %q", events, want)
				}
			} else if events != want {
				t.Errorf("events %q, want %q", events, want)
			}
			stored, err := e.games.FindGameByID(ctx, id)
			if err != nil || stored.Result != tt.result {
				t.Errorf("stored %+v, %v; want result %q", stored, err, tt.result)
			}
			users := sqlite.NewUserService(e.db)
			for _, who := range []string{"black", "white"} {
				u, err := users.FindUserByID(ctx, e.user(who))
				if err != nil {
					t.Fatal(err)
				}
				if rated := u.Rating != 1500 || u.Deviation != 350; rated != (tt.result != tengen.ResultVoid) {
					t.Errorf("%s's rating %v ± %v after %q", who, u.Rating, u.Deviation, tt.result)
				}
			}
			// A void game stays void: a late move is refused, and a
			// restart does not bring it back.
			if tt.result == tengen.ResultVoid {
				e.run(id, []step{{user: "black", cmd: "play 5 5", seq: snap.Game.MoveCount + 1, code: tengen.ECONFLICT}})
				e.restart(time.Minute)
				if again, err := e.svc.Snapshot(ctx, id, 0); err != nil || again.Game.Result != tengen.ResultVoid {
					t.Errorf("after a restart: %+v, %v", again, err)
				}
			}
		})
	}
}

// TestNoShowAfterRestart checks that a restart starts the no-show time
// again, as the clock does not charge the time the server was down.
func TestNoShowAfterRestart(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	id := e.newGame(settings(9, "japanese", clock.ByoYomiTime(10*time.Minute, 3, 30*time.Second)))
	e.clock.Advance(4 * time.Minute)
	e.restart(time.Hour)
	if _, err := e.svc.Snapshot(ctx, id, 0); err != nil { // loads the game
		t.Fatal(err)
	}
	e.clock.Advance(4 * time.Minute)
	if snap, err := e.svc.Snapshot(ctx, id, 0); err != nil || snap.Game.Status != tengen.GamePlaying {
		t.Fatalf("4 min after the restart: %+v, %v; want playing", snap, err)
	}
	e.clock.Advance(time.Minute)
	if snap, err := e.svc.Snapshot(ctx, id, 0); err != nil || snap.Game.Result != tengen.ResultVoid {
		t.Fatalf("5 min after the restart: %+v, %v; want Void", snap, err)
	}
}

// TestChallengeExpiry checks that a challenge older than the challenge TTL
// (an hour by default) cannot be accepted and that the sweep cancels it,
// so that it is no longer listed, while a younger one stays open.
func TestChallengeExpiry(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	e.db.Now = e.clock.Now // challenges are created in the test's time
	challenges := sqlite.NewChallengeService(e.db)
	create := func() *tengen.Challenge {
		c := &tengen.Challenge{ChallengerID: e.black.ID, Settings: settings(9, "japanese", noTime)}
		if err := challenges.CreateChallenge(ctx, c); err != nil {
			t.Fatal(err)
		}
		return c
	}
	old := create()
	e.clock.Advance(59 * time.Minute)
	young := create()
	e.clock.Advance(time.Minute)
	if n, err := e.svc.ExpireChallenges(ctx); err != nil || n != 0 {
		t.Fatalf("ExpireChallenges at exactly an hour = %d, %v; want 0", n, err)
	}
	e.clock.Advance(time.Second)
	if _, err := e.svc.CreateGame(ctx, old.ID, e.white.ID); tengen.ErrorCode(err) != tengen.ECONFLICT {
		t.Errorf("accepting the challenge older than an hour: %v, want ECONFLICT", err)
	}
	if n, err := e.svc.ExpireChallenges(ctx); err != nil || n != 1 {
		t.Fatalf("ExpireChallenges = %d, %v; want 1", n, err)
	}
	status := tengen.ChallengeOpen
	list, _, err := challenges.FindChallenges(ctx, tengen.ChallengeFilter{Status: &status})
	if err != nil || len(list) != 1 || list[0].ID != young.ID {
		t.Fatalf("open challenges after the sweep: %v, %v; want only the young one", list, err)
	}
	if _, err := e.svc.CreateGame(ctx, old.ID, e.white.ID); tengen.ErrorCode(err) != tengen.ECONFLICT {
		t.Errorf("accepting the expired challenge: %v, want ECONFLICT", err)
	}
	if _, err := e.svc.CreateGame(ctx, young.ID, e.white.ID); err != nil {
		t.Errorf("accepting the young challenge: %v", err)
	}
}
