package engine

import (
	"context"

	"tengen/goban"
	"tengen/gtp"
)

// The engine judges dead stones for the GTP engine's final_score and
// final_status_list.
var _ gtp.DeadStoneEstimator = (*Engine)(nil)

// LzAnalyze is a gtp.AnalyzeFunc for Leela Zero's lz-analyze: it searches
// the position until the next command and prints FormatLzAnalyze lines
// every interval. Register it with
// gtp.Engine.HandleAnalyze("lz-analyze", e.LzAnalyze). The keys minmoves,
// maxmoves, avoid and allow are not supported and are ignored.
func (e *Engine) LzAnalyze(ctx context.Context, req gtp.AnalyzeRequest, out *gtp.Stream) error {
	return e.streamAnalysis(ctx, req, out, FormatLzAnalyze)
}

// KataAnalyze is a gtp.AnalyzeFunc for KataGo's kata-analyze (and
// Sabaki's analyze): FormatKataAnalyze lines, with ownership when the
// request asks for it.
func (e *Engine) KataAnalyze(ctx context.Context, req gtp.AnalyzeRequest, out *gtp.Stream) error {
	return e.streamAnalysis(ctx, req, out, func(in Info) string { return FormatKataAnalyze(in, req.Ownership) })
}

// LzGenmoveAnalyze is a gtp.GenmoveAnalyzeFunc for lz-genmove_analyze: it
// thinks as genmove does, printing lz-analyze lines meanwhile, and returns
// its move. Register it with gtp.Engine.HandleGenmoveAnalyze.
func (e *Engine) LzGenmoveAnalyze(ctx context.Context, req gtp.AnalyzeRequest, out *gtp.Stream) (goban.Move, error) {
	return e.genmoveAnalysis(ctx, req, out, FormatLzAnalyze)
}

// KataGenmoveAnalyze is LzGenmoveAnalyze with kata-analyze lines.
func (e *Engine) KataGenmoveAnalyze(ctx context.Context, req gtp.AnalyzeRequest, out *gtp.Stream) (goban.Move, error) {
	return e.genmoveAnalysis(ctx, req, out, func(in Info) string { return FormatKataAnalyze(in, req.Ownership) })
}

func (e *Engine) streamAnalysis(ctx context.Context, req gtp.AnalyzeRequest, out *gtp.Stream, format func(Info) string) error {
	g := req.Game
	if g.ToMove() != req.Color {
		g = g.Clone()
		g.SetToMove(req.Color)
	}
	var werr error
	e.Analyze(ctx, g, req.Interval, func(in Info) {
		if werr == nil {
			werr = out.Println(format(in))
		}
	})
	return werr
}

func (e *Engine) genmoveAnalysis(ctx context.Context, req gtp.AnalyzeRequest, out *gtp.Stream, format func(Info) string) (goban.Move, error) {
	tc, st := TimeFromGTP(req.Time)
	var werr error
	m, err := e.Move(ctx, req.Game, Request{Color: req.Color, Time: tc, State: st, Interval: req.Interval,
		Analyze: func(in Info) {
			if werr == nil {
				werr = out.Println(format(in))
			}
		}})
	if err == nil {
		err = werr
	}
	return m, err
}
