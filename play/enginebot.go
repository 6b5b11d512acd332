package play

import (
	"context"
	"fmt"
	"sync"

	"tengen/engine"
	"tengen/goban"
)

// EngineBot plays with Tengen's own search engine at one level. Each
// engine searches one position at a time, so the bot keeps a free list of
// engines and uses as many at once as workers ask it to move (the worker
// pool bounds that).
type EngineBot struct {
	opts engine.Options

	mu   sync.Mutex       // guards idle
	idle []*engine.Engine // engines not searching now
}

// NewEngineBot returns a bot that plays with engines made from opts. A
// server wants opts.Threads 1 (the worker pool gives the parallelism) and
// opts.MaxTime as the cap of every move's thinking time.
func NewEngineBot(opts engine.Options) *EngineBot {
	return &EngineBot{opts: opts}
}

// GenMove implements BotPlayer with the game's clock, which the engine's
// time management honours.
func (b *EngineBot) GenMove(ctx context.Context, req BotRequest) (goban.Move, error) {
	b.mu.Lock()
	var e *engine.Engine
	if n := len(b.idle); n > 0 {
		e, b.idle = b.idle[n-1], b.idle[:n-1]
	}
	b.mu.Unlock()
	if e == nil {
		e = engine.New(b.opts)
	}
	defer func() {
		b.mu.Lock()
		b.idle = append(b.idle, e)
		b.mu.Unlock()
	}()
	if b.opts.MaxTime > 0 {
		// The levels with a fixed number of playouts ignore MaxTime; a
		// deadline stops their search too, and the engine then plays the
		// best move it has.
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, b.opts.MaxTime)
		defer cancel()
	}
	return e.Move(ctx, req.Request)
}

// EngineBots returns one bot per engine level, weakest first, named
// "Tengen-<level>" and labelled with the level's kyu rank, which anchors
// its rating when a match measured it. opts.Level is replaced by each level.
func EngineBots(opts engine.Options) []Bot {
	var bots []Bot
	for _, sp := range engine.Levels() {
		o := opts
		o.Level = sp.Level
		// Only a measured rank (docs/STRENGTH.md) anchors a rating.
		anchor := ""
		if sp.Measured {
			anchor = fmt.Sprintf("%dk", sp.Kyu)
		}
		bots = append(bots, Bot{Name: "Tengen-" + sp.Name, Level: sp.Name, Rank: fmt.Sprintf("%d kyu", sp.Kyu),
			RankEstimated: !sp.Measured, Anchor: anchor, Player: NewEngineBot(o)})
	}
	return bots
}
