package play_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"tengen"
	"tengen/clock"
	"tengen/goban"
)

// diagramSteps plays a diagram's stones (X Black, O White, rows from the
// top) as alternate moves from move seq+1 on, Black first; the side with
// fewer stones passes for the difference. It returns the steps and the
// number of the last move.
func diagramSteps(t *testing.T, diagram []string, seq int) ([]step, int) {
	t.Helper()
	var black, white []string
	for y, row := range diagram {
		for x, c := range strings.Fields(row) {
			switch c {
			case "X":
				black = append(black, itoa(x)+" "+itoa(y))
			case "O":
				white = append(white, itoa(x)+" "+itoa(y))
			}
		}
	}
	for len(black) < len(white) {
		black = append(black, "pass")
	}
	for len(white) < len(black) {
		white = append(white, "pass")
	}
	var steps []step
	add := func(user, at string) {
		seq++
		cmd := "play " + at
		if at == "pass" {
			cmd = "pass"
		}
		steps = append(steps, step{user: user, cmd: cmd, seq: seq})
	}
	for i := range black {
		add("black", black[i])
		add("white", white[i])
	}
	return steps, seq
}

// tripleKoSteps builds goban's triple-ko diagram (see goban's TripleKo) on
// 9×9 move by move and then plays the cycle `cycles` times: six captures
// that return to the same position with Black to move. It returns the steps
// and the number of moves.
func tripleKoSteps(t *testing.T, cycles int) ([]step, int) {
	t.Helper()
	steps, seq := diagramSteps(t, []string{
		". X O . . . O X .",
		"X O . O . O X . X",
		". X O . . . O X .",
		". . . . . . . . .",
		". . . . . . . . .",
		". X O . . . . . .",
		"X O . O . . . . .",
		". X O . . . . . .",
		". . . . . . . . .",
	}, 0)
	// B C8, W H8, B C3, W B8, B G8, W B3 in board coordinates.
	cycle := []string{"2 1", "7 1", "2 6", "1 1", "6 1", "1 6"}
	for range cycles {
		for i, at := range cycle {
			seq++
			steps = append(steps, step{user: []string{"black", "white"}[i%2], cmd: "play " + at, seq: seq})
		}
	}
	return steps, seq
}

// TestBentFourProposal: after two passes the server's proposal marks the
// bent four in the corner dead under the japanese ruleset (J89 Art. 7.2 and
// its commentary), and not under chinese, where the players settle the ko.
func TestBentFourProposal(t *testing.T) {
	diagram := []string{
		". X . X . . . . .",
		"X X X X . . . . .",
		". . . . X X X X X",
		"X X X X X . . . .",
		". . . . X . . . .",
		"X X X X X . . . .",
		"O O O O X . . . .",
		". O O O X . . . .",
		". . . O X . . . .",
	}
	corner := []goban.Point{{X: 0, Y: 6}, {X: 1, Y: 6}, {X: 2, Y: 6}, {X: 3, Y: 6}, {X: 1, Y: 7}, {X: 2, Y: 7}, {X: 3, Y: 7}, {X: 3, Y: 8}}
	for _, tc := range []struct {
		rules string
		dead  bool
	}{{"japanese", true}, {"chinese", false}} {
		t.Run(tc.rules, func(t *testing.T) {
			e := newEnv(t)
			id := e.newGame(settings(9, tc.rules, noTime))
			steps, seq := diagramSteps(t, diagram, 0)
			// White has fewer stones and passed last; Black's pass stops
			// the game.
			steps = append(steps, step{user: "black", cmd: "pass", seq: seq + 1})
			snap := e.run(id, steps)
			if snap.Game.Status != tengen.GameScoring {
				t.Fatalf("status %s, want scoring", snap.Game.Status)
			}
			deadCorner := true
			for _, p := range corner {
				if !slices.Contains(snap.Proposal.Dead, p) {
					deadCorner = false
				}
			}
			if deadCorner != tc.dead {
				t.Errorf("proposal %v: White's corner dead %v, want %v", snap.Proposal.Dead, deadCorner, tc.dead)
			}
		})
	}
}

// TestRepetitionOffer: under the japanese ruleset the third occurrence of a
// situation with no pass in between does not end the game; both players are
// asked, and only both agreements end it as "Void" (1989 Japanese rules,
// Art. 12). A refusal, or the next move, lets play go on.
func TestRepetitionOffer(t *testing.T) {
	t.Run("both agree", func(t *testing.T) {
		e := newEnv(t)
		id := e.newGame(settings(9, "japanese", clock.TimeControl{Kind: clock.Absolute, MainTime: time.Hour}))
		steps, n := tripleKoSteps(t, 2)
		snap := e.run(id, steps)
		if snap.Game.Status != tengen.GamePlaying {
			t.Fatalf("after the third occurrence: status %s result %q; want the game to go on", snap.Game.Status, snap.Game.Result)
		}
		if snap.Repetition == nil || snap.Repetition.Seq != n || len(snap.Repetition.AgreedBy) != 0 {
			t.Fatalf("repetition offer %+v, want one for move %d", snap.Repetition, n)
		}
		e.watch(id)
		snap = e.run(id, []step{
			{user: "carol", cmd: "agree-void", seq: n, code: tengen.EFORBIDDEN},
			{user: "black", cmd: "agree-void", seq: n - 1, code: tengen.ECONFLICT, msg: "The offer of move 33 has lapsed; the game is at move 34."},
			{user: "black", cmd: "agree-void", seq: n},
			{user: "black", cmd: "agree-void", seq: n}, // again: no change
		})
		if snap.Game.Status != tengen.GamePlaying || !slices.Equal(snap.Repetition.AgreedBy, []goban.Color{goban.Black}) {
			t.Fatalf("after Black agreed: status %s offer %+v", snap.Game.Status, snap.Repetition)
		}
		snap = e.run(id, []step{{user: "white", cmd: "agree-void", seq: n}})
		if snap.Game.Status != tengen.GameFinished || snap.Game.Result != "Void" || snap.Repetition != nil {
			t.Fatalf("after both agreed: status %s result %q offer %+v", snap.Game.Status, snap.Game.Result, snap.Repetition)
		}
		if snap.Clock == nil || snap.Clock.Running != goban.Empty {
			t.Errorf("clock still runs: %+v", snap.Clock)
		}
		if got := e.eventTypes(); got != "repetition repetition phase" {
			t.Errorf("events %q, want repetition repetition phase", got)
		}
		e.run(id, []step{{user: "white", cmd: "agree-void", seq: n}}) // a repeated agreement
		stored, err := e.games.FindGameByID(context.Background(), id)
		if err != nil || stored.Result != "Void" || stored.Status != tengen.GameFinished {
			t.Fatalf("stored %+v, %v", stored, err)
		}
		data, err := e.svc.SGF(context.Background(), id)
		if err != nil || !strings.Contains(string(data), "RE[Void]") {
			t.Errorf("SGF without RE[Void]: %v\n%s", err, data)
		}
	})
	t.Run("declined", func(t *testing.T) {
		e := newEnv(t)
		id := e.newGame(settings(9, "japanese", noTime))
		steps, n := tripleKoSteps(t, 2)
		e.run(id, steps)
		e.run(id, []step{
			{user: "white", cmd: "decline-void", seq: n},
			{user: "black", cmd: "agree-void", seq: n, code: tengen.ECONFLICT, msg: "Your opponent declined; play goes on."},
		})
		snap, err := e.svc.Snapshot(context.Background(), id, e.black.ID)
		if err != nil {
			t.Fatal(err)
		}
		if snap.Game.Status != tengen.GamePlaying || !slices.Equal(snap.Repetition.DeclinedBy, []goban.Color{goban.White}) {
			t.Fatalf("after White declined: status %s offer %+v", snap.Game.Status, snap.Repetition)
		}
		// Play goes on: the next play of the cycle repeats again and
		// makes a new offer, with no answers yet.
		snap = e.run(id, []step{{user: "black", cmd: "play 2 1", seq: n + 1}})
		if snap.Repetition == nil || snap.Repetition.Seq != n+1 || len(snap.Repetition.DeclinedBy) != 0 {
			t.Fatalf("after the next move: offer %+v", snap.Repetition)
		}
		// A play elsewhere ends the cycle: no offer.
		snap = e.run(id, []step{{user: "white", cmd: "play 4 4", seq: n + 2}})
		if snap.Repetition != nil {
			t.Fatalf("after a play outside the cycle: offer %+v", snap.Repetition)
		}
		e.run(id, []step{{user: "black", cmd: "agree-void", seq: n + 2, code: tengen.ECONFLICT, msg: "There is no repetition to agree on."}})
	})
	t.Run("chinese ends at once", func(t *testing.T) {
		e := newEnv(t)
		id := e.newGame(settings(9, "chinese", noTime))
		steps, _ := tripleKoSteps(t, 2)
		snap := e.run(id, steps)
		if snap.Game.Status != tengen.GameFinished || snap.Game.Result != "Void" || snap.Repetition != nil {
			t.Fatalf("status %s result %q offer %+v; want Void at once", snap.Game.Status, snap.Game.Result, snap.Repetition)
		}
	})
}

// TestPlaceHandicapAtOnce: Black places all free handicap stones in one
// command (seed 003: "welche er beim ersten Zug miteinander setzen kann");
// they are stored as Black's first moves and White moves next.
func TestPlaceHandicapAtOnce(t *testing.T) {
	e := newEnv(t)
	set := settings(9, "chinese", clock.TimeControl{Kind: clock.Absolute, MainTime: time.Hour})
	set.Handicap, set.FreeHandicap = 3, true
	id := e.newGame(set)
	e.watch(id)
	place := func(user string, seq int, pts ...goban.Point) (*tengen.GameSnapshot, error) {
		return e.svc.Do(context.Background(), id, e.user(user), tengen.Command{Kind: tengen.CommandPlaceHandicap, Seq: seq, Points: pts})
	}
	three := []goban.Point{{X: 2, Y: 2}, {X: 6, Y: 6}, {X: 6, Y: 2}}
	for _, tc := range []struct {
		name, user string
		seq        int
		pts        []goban.Point
		code, msg  string
	}{
		{"white", "white", 1, three, tengen.EFORBIDDEN, "Only Black places the handicap stones."},
		{"spectator", "carol", 1, three, tengen.EFORBIDDEN, "You are not playing in this game."},
		{"too few", "black", 1, three[:2], tengen.EINVALID, "Place exactly 3 handicap stones."},
		{"stale number", "black", 2, three, tengen.ECONFLICT, "Move 2 is not the next move; the game is at move 0."},
		{"twice the same point", "black", 1, []goban.Point{{X: 2, Y: 2}, {X: 2, Y: 2}, {X: 6, Y: 6}}, tengen.EINVALID, "Illegal move: the point is occupied."},
		{"off the board", "black", 1, []goban.Point{{X: 2, Y: 2}, {X: 9, Y: 2}, {X: 6, Y: 6}}, tengen.EINVALID, ""},
		{"placed", "black", 1, three, "", ""},
		{"repeated submission", "black", 1, three, "", ""},
		{"nothing left to place", "black", 4, three, tengen.ECONFLICT, "There are no handicap stones to place."},
	} {
		_, err := place(tc.user, tc.seq, tc.pts...)
		wantCode(t, tc.name, err, tc.code)
		if tc.msg != "" && tengen.ErrorMessage(err) != tc.msg {
			t.Errorf("%s: message %q, want %q", tc.name, tengen.ErrorMessage(err), tc.msg)
		}
	}
	if got := e.eventTypes(); got != "move move move" {
		t.Errorf("events %q, want one move event per stone", got)
	}
	check := func(when string) {
		t.Helper()
		snap, err := e.svc.Snapshot(context.Background(), id, e.black.ID)
		if err != nil {
			t.Fatal(err)
		}
		if snap.Game.MoveCount != 3 || snap.Game.ToMove != goban.White || len(snap.Handicap.Points) != 3 {
			t.Fatalf("%s: move count %d, %s to move, handicap %v; want 3 stones and White to move", when, snap.Game.MoveCount, snap.Game.ToMove, snap.Handicap.Points)
		}
		if snap.Clock == nil || snap.Clock.Running != goban.White {
			t.Errorf("%s: clock %+v, want White's running", when, snap.Clock)
		}
		for _, p := range three {
			if snap.Board[p.Y][p.X] != 'B' {
				t.Errorf("%s: no black stone at %v", when, p)
			}
		}
	}
	check("after placing")
	e.restart(time.Minute)
	check("after a restart")
	e.run(id, []step{{user: "white", cmd: "play 4 4", seq: 4}})
	data, err := e.svc.SGF(context.Background(), id)
	if err != nil || !strings.Contains(string(data), "HA[3]") || !strings.Contains(string(data), "AB[") {
		t.Errorf("SGF without the handicap: %v\n%s", err, data)
	}
}

// TestTrompTaylorAllStonesAlive: under tromp-taylor every stone on the
// board counts as alive; the server proposes no dead stones and refuses to
// mark any.
func TestTrompTaylorAllStonesAlive(t *testing.T) {
	e := newEnv(t)
	id := e.newGame(settings(9, "tromp-taylor", noTime))
	var steps []step
	seq := 0
	for y := 0; y < 9; y++ {
		seq++
		steps = append(steps, step{user: "black", cmd: "play 2 " + itoa(y), seq: seq})
		seq++
		steps = append(steps, step{user: "white", cmd: "play 4 " + itoa(y), seq: seq})
	}
	steps = append(steps,
		step{user: "black", cmd: "pass", seq: seq + 1},
		step{user: "white", cmd: "play 0 4", seq: seq + 2}, // dead by agreement elsewhere, alive here
		step{user: "black", cmd: "pass", seq: seq + 3},
		step{user: "white", cmd: "pass", seq: seq + 4},
		step{user: "black", cmd: "toggle 0 4", code: tengen.EINVALID, msg: "Under these rules every stone on the board counts as alive; dead stones must be captured before the passes."},
	)
	snap := e.run(id, steps)
	if snap.Game.Status != tengen.GameScoring || len(snap.Proposal.Dead) != 0 {
		t.Fatalf("status %s, proposal %+v; want the scoring phase with no dead stones", snap.Game.Status, snap.Proposal)
	}
}
