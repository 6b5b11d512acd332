package play_test

import (
	"context"
	"encoding/json"
	"testing"
	"testing/synctest"
	"time"

	"tengen"
	"tengen/clock"
	"tengen/play"
)

// TestCheckpointSkipsRecent runs the minute's clock checkpoints of a live
// game: a tick ten seconds after a move writes nothing (the move stored
// the clock), a tick seventy seconds after it writes the clock.
func TestCheckpointSkipsRecent(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx := context.Background()
		e := newRealTimeEnv(t, func(c *play.Config) { c.CheckpointEvery, c.ChallengeTTL = time.Minute, -1 })
		id := e.newGame(settings(9, "japanese", clock.AbsoluteTime(30*time.Minute)))
		// stored returns the clock as stored, encoded.
		stored := func() string {
			t.Helper()
			rec, err := e.games.FindPlayRecord(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			b, err := json.Marshal(rec.Clock)
			if err != nil {
				t.Fatal(err)
			}
			return string(b)
		}
		time.Sleep(50 * time.Second)
		if _, err := e.svc.Do(ctx, id, e.black.ID, tengen.Command{Kind: tengen.CommandMove, Move: tengen.MoveCommand{Seq: 1, Kind: tengen.MovePlay, X: 2, Y: 2}}); err != nil {
			t.Fatal(err)
		}
		afterMove := stored()
		time.Sleep(15 * time.Second) // the tick at one minute
		synctest.Wait()
		if got := stored(); got != afterMove {
			t.Errorf("the tick 10 s after the move wrote the clock: %s, after the move %s", got, afterMove)
		}
		time.Sleep(time.Minute) // the tick at two minutes
		synctest.Wait()
		if got := stored(); got == afterMove {
			t.Errorf("the tick 70 s after the move did not write the clock: %s", got)
		}
	})
}
