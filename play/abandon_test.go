package play_test

import (
	"testing"
	"testing/synctest"
	"time"

	"tengen"
	"tengen/clock"
	"tengen/play"
)

// TestAbandonedBotGames: games without time limit against a bot end after
// AbandonAfter without a move, through the sweep: a human who left on
// their turn loses by forfeit, a game left in the scoring phase is void;
// games with a move since, and games with a clock, go on.
func TestAbandonedBotGames(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		bot := &scriptBot{} // always passes
		e := newBotEnv(t, func() []play.Bot { return []play.Bot{{Name: "Passer", Player: bot}} },
			func(c *play.Config) { c.AbandonAfter = 2 * time.Hour })
		idle := e.playBot("Passer", nineByNine(tengen.ChooseBlack))
		active := e.playBot("Passer", nineByNine(tengen.ChooseBlack))
		scoring := e.playBot("Passer", nineByNine(tengen.ChooseBlack))
		timedSet := nineByNine(tengen.ChooseBlack)
		timedSet.TimeControl = clock.CorrespondenceDays(3, 10)
		timed := e.playBot("Passer", timedSet)
		e.move(scoring, 1, tengen.MovePass, 0, 0)
		e.waitFor(scoring, "the bot's pass and the scoring phase", func(s *tengen.GameSnapshot) bool { return s.Game.Status == tengen.GameScoring })

		time.Sleep(time.Hour)
		e.move(active, 1, tengen.MovePlay, 4, 4)
		e.waitFor(active, "the bot's pass", movesAtLeast(2))

		time.Sleep(time.Hour + time.Minute)
		synctest.Wait()
		status := func(id int64) (tengen.GameStatus, string) {
			s, err := e.svc.Snapshot(t.Context(), id, e.human.ID)
			if err != nil {
				t.Fatal(err)
			}
			return s.Game.Status, s.Game.Result
		}
		for _, tt := range []struct {
			name   string
			id     int64
			status tengen.GameStatus
			result string
		}{
			{"left on the human's turn", idle, tengen.GameFinished, "W+F"},
			{"left in the scoring phase", scoring, tengen.GameFinished, tengen.ResultVoid},
			{"moved an hour ago", active, tengen.GamePlaying, ""},
			{"with a clock", timed, tengen.GamePlaying, ""},
		} {
			if st, res := status(tt.id); st != tt.status || res != tt.result {
				t.Errorf("after 2 h: %s: %s %q, want %s %q", tt.name, st, res, tt.status, tt.result)
			}
		}
		// The sweep runs every 30 min here; by 3½ h the last move is more
		// than 2 h old.
		time.Sleep(90 * time.Minute)
		synctest.Wait()
		if st, res := status(active); st != tengen.GameFinished || res != "W+F" {
			t.Errorf("2 h after the last move: %s %q, want finished W+F", st, res)
		}
		if st, _ := status(timed); st != tengen.GamePlaying {
			t.Errorf("the correspondence game was ended: %s", st)
		}
	})
}
