package engine_test

import (
	"context"
	"fmt"
	"time"

	"tengen/clock"
	"tengen/engine"
	"tengen/goban"
)

// A server asks for a move directly, with the game's clock.
func ExampleEngine_Move() {
	g := goban.MustNewGame(9, 9, goban.MustRuleset("japanese"))
	e := engine.New(engine.Options{Level: engine.LevelCasual})
	tc := clock.ByoYomiTime(5*time.Minute, 3, 30*time.Second)
	st := tc.NewState()
	m, err := e.Move(context.Background(), engine.Request{Game: g, Color: goban.Black, Time: tc, State: &st})
	if err != nil {
		panic(err)
	}
	fmt.Println(goban.FormatMoveVertex(m, g.Height()))
}

// Analysis for GUIs: kata-analyze lines every 100 ms for a second.
func ExampleEngine_Analyze() {
	g := goban.MustNewGame(19, 19, goban.MustRuleset("chinese"))
	e := engine.New(engine.Options{})
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	e.Analyze(ctx, g, 100*time.Millisecond, func(in engine.Info) {
		fmt.Println(engine.FormatKataAnalyze(in, true))
	})
}
