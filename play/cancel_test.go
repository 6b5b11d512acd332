package play_test

import (
	"context"
	"testing"
	"time"

	"tengen"
	"tengen/clock"
	"tengen/sqlite"
)

// TestCancel checks an admin's cancellation of a game: it ends without a
// winner (Void) in any unfinished phase, the clock stops and the watchers
// get the phase event; nobody else may cancel, and a finished game stays
// as it ended.
func TestCancel(t *testing.T) {
	byoyomi := clock.TimeControl{Kind: clock.ByoYomi, MainTime: time.Minute, Periods: 1, PeriodTime: 10 * time.Second}
	tests := []struct {
		name    string
		before  []step
		by      string // black, white, carol (an admin when admin is set), "" anonymous
		admin   bool
		code    string
		result  string // the result afterwards
		running bool   // whether the clock runs afterwards
	}{
		{name: "playing", before: []step{{user: "black", cmd: "play 4 4", seq: 1}}, by: "carol", admin: true, result: tengen.ResultVoid},
		{name: "first move", by: "carol", admin: true, result: tengen.ResultVoid},
		{name: "scoring", before: []step{{user: "black", cmd: "pass", seq: 1}, {user: "white", cmd: "pass", seq: 2}},
			by: "carol", admin: true, result: tengen.ResultVoid},
		{name: "finished", before: []step{{user: "black", cmd: "resign"}}, by: "carol", admin: true, code: tengen.ECONFLICT, result: "W+R"},
		{name: "a player", before: []step{{user: "black", cmd: "play 4 4", seq: 1}}, by: "black", code: tengen.EFORBIDDEN, running: true},
		{name: "a player who is an admin", by: "white", admin: true, result: tengen.ResultVoid},
		{name: "a spectator", by: "carol", code: tengen.EFORBIDDEN, running: true},
		{name: "anonymous", by: "", code: tengen.EUNAUTHORIZED, running: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			e := newEnv(t)
			id := e.newGame(settings(9, "japanese", byoyomi))
			e.run(id, tt.before)
			if tt.admin {
				if _, err := sqlite.NewUserService(e.db).SetUserAdmin(ctx, e.user(tt.by), true); err != nil {
					t.Fatal(err)
				}
			}
			e.watch(id)
			before, err := e.svc.Snapshot(ctx, id, 0)
			if err != nil {
				t.Fatal(err)
			}
			snap, err := e.svc.Do(ctx, id, e.user(tt.by), tengen.Command{Kind: tengen.CommandCancel})
			wantCode(t, "cancel", err, tt.code)
			events := e.eventTypes()
			if tt.code != "" {
				if events != "" {
					t.Errorf("a refused cancel sent events %q", events)
				}
				if snap, err = e.svc.Snapshot(ctx, id, 0); err != nil {
					t.Fatal(err)
				}
				if snap.Game.Status != before.Game.Status || snap.Game.Result != tt.result {
					t.Errorf("after a refused cancel: %s %q, want %s %q", snap.Game.Status, snap.Game.Result, before.Game.Status, tt.result)
				}
			} else {
				if events != "phase" {
					t.Errorf("events %q, want phase", events)
				}
				if snap.Game.Status != tengen.GameFinished || snap.Game.Result != tengen.ResultVoid {
					t.Errorf("after cancel: %s %q", snap.Game.Status, snap.Game.Result)
				}
				stored, err := e.games.FindGameByID(ctx, id)
				if err != nil || stored.Result != tengen.ResultVoid || stored.Status != tengen.GameFinished {
					t.Errorf("stored after cancel: %+v, %v", stored, err)
				}
			}
			if running := snap.Clock != nil && snap.Clock.RunningSince != nil; running != tt.running {
				t.Errorf("clock running %v, want %v", running, tt.running)
			}
			// A cancelled game's clock never falls: time passes without a
			// loss on time, and no move is accepted.
			e.clock.Advance(time.Hour)
			if tt.code == "" {
				if got := e.eventTypes(); got != "" {
					t.Errorf("events after the cancelled game's deadline: %q", got)
				}
				e.run(id, []step{{user: "white", cmd: "play 3 3", seq: snap.Game.MoveCount + 1, code: tengen.ECONFLICT}})
				e.restart(time.Minute)
				again, err := e.svc.Snapshot(ctx, id, 0)
				if err != nil || again.Game.Result != tengen.ResultVoid {
					t.Errorf("after a restart: %+v, %v", again, err)
				}
			}
		})
	}
}
