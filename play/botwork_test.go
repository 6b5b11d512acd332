package play_test

import (
	"context"
	"testing"
	"time"

	"tengen"
	"tengen/goban"
	"tengen/internal/workpool"
	"tengen/play"
)

// poolBot records whether analysis work ran beside its move in a pool of
// one slot: it must not, the bot's move comes first.
type poolBot struct {
	pool  *workpool.Pool
	loads chan [2]int
}

func (b poolBot) GenMove(_ context.Context, req play.BotRequest) (goban.Move, error) {
	u, bg, _ := b.pool.Load()
	b.loads <- [2]int{u, bg}
	return goban.PassMove(req.Color), nil
}

// TestBotWorkPreemptsAnalysis checks the hook that shares the worker pool
// with the analysis: a bot's move is urgent work, which preempts a
// background job holding the only slot, and the slot is given back after
// the move.
func TestBotWorkPreemptsAnalysis(t *testing.T) {
	pool := workpool.New(1)
	bot := poolBot{pool: pool, loads: make(chan [2]int, 4)}
	e := newBotEnv(t, func() []play.Bot { return []play.Bot{{Name: "Pooler", Player: bot}} },
		func(c *play.Config) { c.BotWork = pool.Urgent })
	// Analysis holds the only slot and runs until preempted.
	actx, release, err := pool.Background(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		<-actx.Done()
		release()
	}()
	id := e.playBot("Pooler", nineByNine(tengen.ChooseWhite)) // the bot is Black and moves first
	select {
	case l := <-bot.loads:
		if l[0] != 1 {
			t.Errorf("the bot's move ran as %d urgent jobs, want 1", l[0])
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the bot did not move while analysis held the pool's only slot")
	}
	e.waitFor(id, "the bot's pass", movesAtLeast(1))
	if context.Cause(actx) != workpool.ErrPreempted {
		t.Errorf("analysis job: cause %v, want ErrPreempted", context.Cause(actx))
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		u, bg, w := pool.Load()
		if u == 0 && bg == 0 && w == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("pool after the move: %d urgent, %d background, %d waiting", u, bg, w)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
