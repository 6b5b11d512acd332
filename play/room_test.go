package play_test

import (
	"context"
	"reflect"
	"testing"
	"testing/synctest"
	"time"

	"tengen"
	"tengen/clock"
	"tengen/goban"
	"tengen/play"
	"tengen/sqlite"
)

// mainLeft returns colour c's main time as the snapshot's clock shows it
// at the snapshot's time.
func mainLeft(snap *tengen.GameSnapshot, c goban.Color) time.Duration {
	side := snap.Clock.Black
	if c == goban.White {
		side = snap.Clock.White
	}
	left := time.Duration(side.MainMs) * time.Millisecond
	if snap.Clock.Running == c && snap.Clock.RunningSince != nil {
		left -= snap.ServerTime.Sub(*snap.Clock.RunningSince)
	}
	return left
}

func TestVacationStopsClock(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx := context.Background()
		e := newRealTimeEnv(t)
		// Three days per move, a bank of ten: Black's turn first.
		id := e.newGame(settings(9, "japanese", clock.CorrespondenceDays(3, 10)))
		snap := e.snap(id, e.black.ID)
		start := mainLeft(snap, goban.Black)

		_, err := e.svc.StartVacation(ctx, e.black.ID, tengen.VacationDaysPerYear+1)
		wantCode(t, "more days than the allowance", err, tengen.EINVALID)
		if u, _ := sqlite.NewUserService(e.db).FindUserByID(ctx, e.black.ID); u.Vacation.Active(time.Now()) {
			t.Fatal("a refused vacation was stored")
		}

		time.Sleep(time.Hour)
		if _, err := e.svc.StartVacation(ctx, e.black.ID, 2); err != nil {
			t.Fatal(err)
		}
		_, err = e.svc.StartVacation(ctx, e.black.ID, 1)
		wantCode(t, "a second vacation", err, tengen.ECONFLICT)
		time.Sleep(36 * time.Hour)
		snap = e.snap(id, e.black.ID)
		if snap.Vacation == nil || snap.Vacation.Black == nil {
			t.Fatalf("snapshot vacation = %+v, want Black's", snap.Vacation)
		}
		if snap.Clock.RunningSince != nil {
			t.Fatalf("Black's clock runs on vacation: %+v", snap.Clock)
		}
		if got := mainLeft(snap, goban.Black); got != start-time.Hour {
			t.Errorf("on vacation: Black has %v, want %v (the hour before the vacation charged, nothing after)", got, start-time.Hour)
		}
		// A game that starts during the vacation knows it from the start.
		if snap := e.snap(e.newGame(settings(9, "japanese", clock.CorrespondenceDays(3, 10))), e.black.ID); snap.Vacation == nil || snap.Vacation.Black == nil || snap.Clock.RunningSince != nil {
			t.Errorf("a new game during the vacation: vacation %+v, clock %+v; want Black's clock stopped", snap.Vacation, snap.Clock)
		}
		// The vacation runs out after two days; the clock runs again.
		time.Sleep(12*time.Hour + time.Minute)
		synctest.Wait()
		snap = e.snap(id, e.black.ID)
		if snap.Vacation != nil || snap.Clock.Running != goban.Black || snap.Clock.RunningSince == nil {
			t.Fatalf("after the vacation: vacation %+v, clock %+v; want Black's clock running", snap.Vacation, snap.Clock)
		}
		if got := mainLeft(snap, goban.Black); got != start-time.Hour-time.Minute {
			t.Errorf("after the vacation: Black has %v, want %v", got, start-time.Hour-time.Minute)
		}

		// On vacation while the opponent is to move: the clock stops when
		// the turn comes back to Black, and runs again at the early end.
		if _, err := e.svc.Do(ctx, id, e.black.ID, tengen.Command{Kind: tengen.CommandMove, Move: tengen.MoveCommand{Seq: 1, Kind: tengen.MovePlay, X: 4, Y: 4}}); err != nil {
			t.Fatal(err)
		}
		if _, err := e.svc.StartVacation(ctx, e.black.ID, 5); err != nil {
			t.Fatal(err)
		}
		before := mainLeft(e.snap(id, e.black.ID), goban.Black)
		time.Sleep(time.Hour)
		if _, err := e.svc.Do(ctx, id, e.white.ID, tengen.Command{Kind: tengen.CommandMove, Move: tengen.MoveCommand{Seq: 2, Kind: tengen.MovePlay, X: 2, Y: 2}}); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Hour)
		snap = e.snap(id, e.black.ID)
		if snap.Clock.RunningSince != nil || mainLeft(snap, goban.Black) != before {
			t.Fatalf("Black's turn on vacation: clock %+v, %v left; want stopped at %v", snap.Clock, mainLeft(snap, goban.Black), before)
		}
		u, err := e.svc.EndVacation(ctx, e.black.ID)
		if err != nil {
			t.Fatal(err)
		}
		// 2 days, then 5 of which 4 had not begun: 3 days used.
		if left := u.Vacation.DaysLeft(time.Now()); left != tengen.VacationDaysPerYear-3 {
			t.Errorf("days left after the early end = %d, want %d", left, tengen.VacationDaysPerYear-3)
		}
		time.Sleep(time.Hour)
		snap = e.snap(id, e.black.ID)
		if snap.Clock.Running != goban.Black || snap.Clock.RunningSince == nil || mainLeft(snap, goban.Black) != before-time.Hour {
			t.Errorf("after the early end: clock %+v, %v left; want Black's running, %v left", snap.Clock, mainLeft(snap, goban.Black), before-time.Hour)
		}
		_, err = e.svc.EndVacation(ctx, e.black.ID)
		wantCode(t, "ending no vacation", err, tengen.ECONFLICT)
	})
}

// snap returns the game as userID sees it.
func (e *env) snap(id, userID int64) *tengen.GameSnapshot {
	e.t.Helper()
	s, err := e.svc.Snapshot(context.Background(), id, userID)
	if err != nil {
		e.t.Fatal(err)
	}
	return s
}

func TestConditionalMoves(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	id := e.newGame(settings(9, "japanese", clock.CorrespondenceDays(3, 10)))
	live := e.newGame(settings(9, "japanese", noTime))
	cond := func(user int64, game int64, pts ...goban.Point) error {
		_, err := e.svc.Do(ctx, game, user, tengen.Command{Kind: tengen.CommandConditional, Points: pts})
		return err
	}
	p := func(x, y int) goban.Point { return goban.Point{X: x, Y: y} }
	e.run(id, []step{{user: "black", cmd: "play 4 4", seq: 1}})

	for _, tt := range []struct {
		name string
		user int64
		game int64
		pts  []goban.Point
		code string
	}{
		{"on one's own turn", e.white.ID, id, []goban.Point{p(2, 2), p(3, 3)}, tengen.ECONFLICT},
		{"odd count", e.black.ID, id, []goban.Point{p(2, 2)}, tengen.EINVALID},
		{"occupied point", e.black.ID, id, []goban.Point{p(4, 4), p(3, 3)}, tengen.EINVALID},
		{"reply on the opponent's stone", e.black.ID, id, []goban.Point{p(2, 2), p(2, 2)}, tengen.EINVALID},
		{"off the board", e.black.ID, id, []goban.Point{p(9, 0), p(3, 3)}, tengen.EINVALID},
		{"spectator", e.carol.ID, id, []goban.Point{p(2, 2), p(3, 3)}, tengen.EFORBIDDEN},
		{"not correspondence", e.black.ID, live, nil, tengen.ECONFLICT},
		{"too long", e.black.ID, id, make([]goban.Point, tengen.MaxConditionalMoves+2), tengen.EINVALID},
	} {
		if tt.name == "not correspondence" {
			e.run(live, []step{{user: "black", cmd: "play 4 4", seq: 1}})
			tt.code, tt.pts = tengen.EINVALID, []goban.Point{p(2, 2), p(3, 3)}
		}
		wantCode(t, tt.name, cond(tt.user, tt.game, tt.pts...), tt.code)
		if snap := e.snap(id, e.black.ID); snap.Conditional != nil {
			t.Fatalf("%s: a refused plan was kept: %v", tt.name, snap.Conditional)
		}
	}

	plan := []goban.Point{p(2, 2), p(3, 3), p(6, 6), p(5, 5)}
	if err := cond(e.black.ID, id, plan...); err != nil {
		t.Fatal(err)
	}
	if got := e.snap(id, e.black.ID).Conditional; !reflect.DeepEqual(got, plan) {
		t.Fatalf("Black's plan = %v, want %v", got, plan)
	}
	if got := e.snap(id, e.white.ID).Conditional; got != nil {
		t.Fatalf("White sees Black's plan: %v", got)
	}
	// White plays the expected move: Black's reply follows at once.
	e.run(id, []step{{user: "white", cmd: "play 2 2", seq: 2}})
	snap := e.snap(id, e.black.ID)
	if snap.Game.MoveCount != 3 || snap.Game.ToMove != goban.White || snap.LastMove.X != 3 || snap.LastMove.Y != 3 || snap.LastMove.Color != goban.Black {
		t.Fatalf("after the expected move: %d moves, %v to move, last %+v; want Black's reply at 3 3", snap.Game.MoveCount, snap.Game.ToMove, snap.LastMove)
	}
	if !reflect.DeepEqual(snap.Conditional, plan[2:]) {
		t.Errorf("plan left = %v, want %v", snap.Conditional, plan[2:])
	}
	// It is stored: a restart keeps the rest of the plan.
	e.restart(0)
	if got := e.snap(id, e.black.ID).Conditional; !reflect.DeepEqual(got, plan[2:]) {
		t.Errorf("plan after a restart = %v, want %v", got, plan[2:])
	}
	// Another move clears it and nothing is played.
	e.run(id, []step{{user: "white", cmd: "play 7 7", seq: 4}})
	snap = e.snap(id, e.black.ID)
	if snap.Game.MoveCount != 4 || snap.Game.ToMove != goban.Black || snap.Conditional != nil {
		t.Errorf("after another move: %d moves, %v to move, plan %v; want 4, Black, none", snap.Game.MoveCount, snap.Game.ToMove, snap.Conditional)
	}
	// Clearing: set, then remove with no points.
	e.run(id, []step{{user: "black", cmd: "play 1 1", seq: 5}})
	if err := cond(e.black.ID, id, p(2, 6), p(6, 2)); err != nil {
		t.Fatal(err)
	}
	if err := cond(e.black.ID, id); err != nil || e.snap(id, e.black.ID).Conditional != nil {
		t.Errorf("clearing: %v, plan %v", err, e.snap(id, e.black.ID).Conditional)
	}
}

// slowBot passes after a minute's thought, so that its opponent has time
// to ask for a takeback.
type slowBot struct{}

func (slowBot) GenMove(ctx context.Context, req play.BotRequest) (goban.Move, error) {
	time.Sleep(time.Minute)
	return goban.PassMove(req.Color), nil
}

// TestBotTakeback: a bot answers a takeback request at once, as its
// operator set it; a game whose challenge turned takeback off refuses it.
func TestBotTakeback(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newBotEnv(t, func() []play.Bot {
			return []play.Bot{{Name: "Kind", Player: slowBot{}}, {Name: "Stern", Player: slowBot{}, DeclineTakeback: true}}
		}, nil)
		undo := func(id int64) *tengen.GameSnapshot {
			snap, err := e.svc.Do(context.Background(), id, e.human.ID, tengen.Command{Kind: tengen.CommandUndo})
			if err != nil {
				t.Fatal(err)
			}
			return snap
		}
		kind := e.playBot("Kind", nineByNine(tengen.ChooseBlack))
		e.move(kind, 1, tengen.MovePlay, 4, 4)
		if snap := undo(kind); snap.Game.MoveCount != 0 || snap.Takeback != nil || snap.Game.ToMove != goban.Black {
			t.Errorf("the accepting bot: %d moves, pending %+v, %s to move; want the move taken back", snap.Game.MoveCount, snap.Takeback, snap.Game.ToMove)
		}
		stern := e.playBot("Stern", nineByNine(tengen.ChooseBlack))
		e.move(stern, 1, tengen.MovePlay, 4, 4)
		if snap := undo(stern); snap.Game.MoveCount != 1 || snap.Takeback != nil {
			t.Errorf("the declining bot: %d moves, pending %+v; want the request declined", snap.Game.MoveCount, snap.Takeback)
		}
		time.Sleep(2 * time.Minute)
		synctest.Wait()
		// The bot's answer to the move taken back no longer fits; the
		// declined game goes on.
		if snap := e.waitFor(kind, "the game as it was", func(*tengen.GameSnapshot) bool { return true }); snap.Game.MoveCount != 0 {
			t.Errorf("after the bot's thought, the accepting bot's game has %d moves, want 0", snap.Game.MoveCount)
		}
		e.waitFor(stern, "the bot's pass", movesAtLeast(2))
	})
}

func TestNoTakeback(t *testing.T) {
	e := newEnv(t)
	set := settings(9, "japanese", noTime)
	set.NoTakeback = true
	id := e.newGame(set)
	e.run(id, []step{{user: "black", cmd: "play 4 4", seq: 1},
		{user: "black", cmd: "undo", code: tengen.EFORBIDDEN, msg: "Takeback is turned off in this game."}})
	if snap := e.snap(id, e.black.ID); snap.Game.MoveCount != 1 || snap.Takeback != nil || !snap.Game.Settings.NoTakeback {
		t.Errorf("after the refusal: %d moves, pending %+v, settings %+v", snap.Game.MoveCount, snap.Takeback, snap.Game.Settings)
	}
}
