package match

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"tengen/goban"
	"tengen/gtp"
)

// helperArg marks a run of the test binary as a helper engine: the test
// binary starts itself as `match.test helper-engine KIND NAME [PARAM]` to
// get GTP engines that behave well or badly on purpose, without building
// anything.
const helperArg = "helper-engine"

func TestMain(m *testing.M) {
	if len(os.Args) >= 4 && os.Args[1] == helperArg {
		os.Exit(helperEngine(os.Args[2], os.Args[3], os.Args[4:]))
	}
	os.Exit(m.Run())
}

// helper returns the spec of a helper engine of the given kind:
//
//	tengen   Tengen's engine with its random player (PARAM: seed, then
//	         the playouts of its dead-stone estimate)
//	crash    plays like tengen, then exits at genmove number PARAM
//	illegal  answers genmove with a point that is already occupied
//	garbage  answers genmove with "Z99"
//	refuse   fails every play command
//	slow     sleeps PARAM (a duration) before each move
//	resign   resigns at its first move
//	script   plays the vertices of PARAM (comma-separated, "pass" allowed)
//	         in turn, again from the start when they run out
//	untold   plays like tengen but fails time_left, to notice that it came
func helper(t testing.TB, kind, name string, param ...string) EngineSpec {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return EngineSpec{Command: append([]string{exe, helperArg, kind, name}, param...)}
}

// playerFunc makes a gtp.Player of a function.
type playerFunc struct {
	name string
	fn   func(ctx context.Context, req gtp.MoveRequest) (goban.Move, error)
}

func (p playerFunc) Name() string { return p.name }
func (p playerFunc) GenMove(ctx context.Context, req gtp.MoveRequest) (goban.Move, error) {
	return p.fn(ctx, req)
}

func helperEngine(kind, name string, params []string) int {
	param := ""
	if len(params) > 0 {
		param = params[0]
	}
	seed := uint64(7)
	if kind == "tengen" && param != "" {
		s, err := strconv.ParseUint(param, 10, 64)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		seed = s
	}
	random := gtp.NewRandomPlayer(seed)
	var player gtp.Player = random
	switch kind {
	case "crash":
		n, _ := strconv.Atoi(param)
		calls := 0
		player = playerFunc{"crashing", func(ctx context.Context, req gtp.MoveRequest) (goban.Move, error) {
			calls++
			if calls >= n {
				fmt.Fprintln(os.Stderr, "helper: crashing on purpose")
				os.Exit(3)
			}
			return random.GenMove(ctx, req)
		}}
	case "slow":
		d, err := time.ParseDuration(param)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		player = playerFunc{"slow", func(ctx context.Context, req gtp.MoveRequest) (goban.Move, error) {
			time.Sleep(d)
			return random.GenMove(ctx, req)
		}}
	case "resign":
		player = playerFunc{"resigning", func(_ context.Context, req gtp.MoveRequest) (goban.Move, error) {
			return goban.ResignMove(req.Color), nil
		}}
	case "script":
		moves, next := strings.Split(param, ","), 0
		player = playerFunc{"scripted", func(_ context.Context, req gtp.MoveRequest) (goban.Move, error) {
			v := moves[next%len(moves)]
			next++
			p, pass, err := goban.ParseVertex(v, req.Game.Width(), req.Game.Height())
			if err != nil {
				return goban.Move{}, err
			}
			if pass {
				return goban.PassMove(req.Color), nil
			}
			return goban.PlayAt(req.Color, p), nil
		}}
	}
	playouts := 1000
	if kind == "tengen" && len(params) > 1 {
		playouts, _ = strconv.Atoi(params[1])
	}
	e, err := gtp.NewEngine(gtp.Options{Name: name, Version: "test", Player: player, ScoringPlayouts: playouts})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	srv := e.Server()
	switch kind {
	case "illegal":
		srv.Handle("genmove", func(context.Context, gtp.Command) (string, error) {
			b := e.Game().Board()
			for y := range b.Height() {
				for x := range b.Width() {
					if p := (goban.Point{X: x, Y: y}); b.At(p) != goban.Empty {
						return goban.FormatVertex(p, b.Height()), nil
					}
				}
			}
			return "pass", nil
		})
	case "garbage":
		srv.Handle("genmove", func(context.Context, gtp.Command) (string, error) { return "Z99", nil })
	case "refuse":
		srv.Handle("play", func(context.Context, gtp.Command) (string, error) {
			return "", errors.New("I refuse")
		})
	case "untold":
		srv.Handle("time_left", func(context.Context, gtp.Command) (string, error) {
			return "", errors.New("time_left was sent")
		})
	}
	if err := e.Serve(context.Background(), os.Stdin, os.Stdout); err != nil && !errors.Is(err, gtp.ErrQuit) {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}
