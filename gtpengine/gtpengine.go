// Package gtpengine serves Tengen's search engine over the Go Text
// Protocol. It is the one place that knows both package engine and package
// gtp: the engine knows nothing of the protocol, and the protocol knows
// nothing of the engine. It turns what a controller said (gtp.MoveRequest,
// gtp.AnalyzeRequest) into an engine.Request, plays the engine as a
// gtp.Player, judges dead stones for final_score and final_status_list,
// and registers the analysis commands (lz-analyze, kata-analyze and their
// genmove_analyze forms).
package gtpengine

import (
	"context"

	"tengen/clock"
	"tengen/engine"
	"tengen/goban"
	"tengen/gtp"
)

// Player is the engine as a gtp.Player. It is also a
// gtp.DeadStoneEstimator, so final_score and final_status_list use the
// engine's dead stones.
type Player struct {
	*engine.Engine
}

var (
	_ gtp.Player             = Player{}
	_ gtp.DeadStoneEstimator = Player{}
)

// GenMove implements gtp.Player: it asks the engine to move in the
// request's position with the controller's time information.
func (p Player) GenMove(ctx context.Context, req gtp.MoveRequest) (goban.Move, error) {
	return p.Move(ctx, Request(req.Game, req.Color, req.Time))
}

// Request is the engine request for colour c in position g with the time
// information ts that a GTP engine keeps. The engine gets the clock of c
// that the GTP engine keeps per colour, from time_left where the
// controller sends it and from the time of each genmove otherwise, so
// that a byo-yomi period is there again for every move. GTP's time_left is
// not passed on for the opponent: the engine does not use it.
func Request(g *goban.Game, c goban.Color, ts gtp.TimeState) engine.Request {
	req := engine.Request{Game: g, Color: c, Time: ts.Control}
	if ts.Control.Kind != clock.None {
		st := ts.Left
		req.State = &st
	}
	return req
}

// NewEngine returns a GTP engine that plays with e and answers the analysis
// commands lz-analyze, kata-analyze, lz-genmove_analyze and
// kata-genmove_analyze. opts.Player is replaced by e.
func NewEngine(e *engine.Engine, opts gtp.Options) (*gtp.Engine, error) {
	opts.Player = Player{e}
	ge, err := gtp.NewEngine(opts)
	if err != nil {
		return nil, err
	}
	ge.HandleAnalyze("lz-analyze", func(ctx context.Context, req gtp.AnalyzeRequest, out *gtp.Stream) error {
		return stream(ctx, e, req, out, engine.FormatLzAnalyze)
	})
	ge.HandleAnalyze("kata-analyze", func(ctx context.Context, req gtp.AnalyzeRequest, out *gtp.Stream) error {
		return stream(ctx, e, req, out, kataFormat(req))
	})
	ge.HandleGenmoveAnalyze("lz-genmove_analyze", func(ctx context.Context, req gtp.AnalyzeRequest, out *gtp.Stream) (goban.Move, error) {
		return genmove(ctx, e, req, out, engine.FormatLzAnalyze)
	})
	ge.HandleGenmoveAnalyze("kata-genmove_analyze", func(ctx context.Context, req gtp.AnalyzeRequest, out *gtp.Stream) (goban.Move, error) {
		return genmove(ctx, e, req, out, kataFormat(req))
	})
	return ge, nil
}

// kataFormat writes kata-analyze lines, with ownership when the request
// asks for it. The keys minmoves, maxmoves, avoid and allow of both
// analysis commands are not supported and are ignored.
func kataFormat(req gtp.AnalyzeRequest) func(engine.Info) string {
	return func(in engine.Info) string { return engine.FormatKataAnalyze(in, req.Ownership) }
}

// stream searches the position until the next command and prints a line
// every interval.
func stream(ctx context.Context, e *engine.Engine, req gtp.AnalyzeRequest, out *gtp.Stream, format func(engine.Info) string) error {
	g := req.Game
	if g.ToMove() != req.Color {
		g = g.Clone()
		g.SetToMove(req.Color)
	}
	var werr error
	e.Analyze(ctx, g, req.Interval, func(in engine.Info) {
		if werr == nil {
			werr = out.Println(format(in))
		}
	})
	return werr
}

// genmove thinks as genmove does, printing analysis lines meanwhile, and
// returns its move.
func genmove(ctx context.Context, e *engine.Engine, req gtp.AnalyzeRequest, out *gtp.Stream, format func(engine.Info) string) (goban.Move, error) {
	var werr error
	r := Request(req.Game, req.Color, req.Time)
	r.Interval = req.Interval
	r.Analyze = func(in engine.Info) {
		if werr == nil {
			werr = out.Println(format(in))
		}
	}
	m, err := e.Move(ctx, r)
	if err == nil {
		err = werr
	}
	return m, err
}
