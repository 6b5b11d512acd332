package play_test

import (
	"context"
	"maps"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"

	"tengen"
	"tengen/goban"
	"tengen/play"
)

// gatedBot plays once its gate is closed, on the fifth column, each move
// a line further down, and tells called of each move it was asked for.
type gatedBot struct {
	gate   chan struct{}
	called chan struct{}
	moves  *atomic.Int32
}

func (b gatedBot) GenMove(ctx context.Context, req play.BotRequest) (goban.Move, error) {
	b.called <- struct{}{}
	select {
	case <-b.gate:
	case <-ctx.Done():
		return goban.Move{}, ctx.Err()
	}
	return goban.PlayAt(req.Color, goban.Point{X: 4, Y: int(b.moves.Add(1))}), nil
}

// TestMetricsHooks checks what the service reports for metrics: the games
// in memory, the bot queue and busy workers while a bot thinks, and each
// stored move by kind.
func TestMetricsHooks(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		bot := gatedBot{gate: make(chan struct{}), called: make(chan struct{}, 4), moves: new(atomic.Int32)}
		var mu sync.Mutex // guards stored
		stored := map[tengen.MoveKind]int{}
		e := newBotEnv(t, func() []play.Bot { return []play.Bot{{Name: "Gated", Player: bot}} }, func(c *play.Config) {
			c.BotWorkers, c.BotQueue = 1, 4
			c.MoveStored = func(k tengen.MoveKind) {
				mu.Lock()
				stored[k]++
				mu.Unlock()
			}
		})
		if n := e.svc.LiveGames(); n != 0 {
			t.Fatalf("%d live games before any", n)
		}
		if w, b, n := e.svc.BotLoad(); w != 0 || b != 0 || n != 1 {
			t.Fatalf("bot load before any game: %d waiting, %d busy, %d workers", w, b, n)
		}
		// The bot plays Black in three games; its one worker takes the
		// first, the others wait in the queue.
		var ids []int64
		for range 3 {
			ids = append(ids, e.playBot("Gated", nineByNine(tengen.ChooseWhite)))
		}
		<-bot.called
		synctest.Wait()
		if w, b, n := e.svc.BotLoad(); w != 2 || b != 1 || n != 1 {
			t.Errorf("bot load while it thinks: %d waiting, %d busy, %d workers; want 2, 1, 1", w, b, n)
		}
		if n := e.svc.LiveGames(); n != 3 {
			t.Errorf("%d live games; want 3", n)
		}
		close(bot.gate)
		for _, id := range ids {
			e.waitFor(id, "the bot's move", movesAtLeast(1))
		}
		e.move(ids[0], 2, tengen.MovePass, 0, 0)
		e.waitFor(ids[0], "the bot's answer to a pass", movesAtLeast(3))
		e.move(ids[1], 2, tengen.MoveResign, 0, 0)
		synctest.Wait()
		if w, b, _ := e.svc.BotLoad(); w != 0 || b != 0 {
			t.Errorf("bot load after the moves: %d waiting, %d busy", w, b)
		}
		mu.Lock()
		defer mu.Unlock()
		if want := map[tengen.MoveKind]int{tengen.MovePlay: 4, tengen.MovePass: 1, tengen.MoveResign: 1}; !maps.Equal(stored, want) {
			t.Errorf("stored moves %v; want %v", stored, want)
		}
	})
}
