package gtp

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"tengen/goban"
)

// newAnalyzeEngine registers stand-in analysis commands that report what
// they were asked, so that the transcripts show the parsing and the
// streaming protocol.
func newAnalyzeEngine(t *testing.T) server {
	e := newTestEngine(t)
	describe := func(req AnalyzeRequest) string {
		keys := make([]string, 0, len(req.Options))
		for k := range req.Options {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		var opts []string
		for _, k := range keys {
			opts = append(opts, k+"="+strings.Join(req.Options[k], ","))
		}
		return fmt.Sprintf("info color %v interval %v ownership %v options [%s] stones %d to-move %v",
			req.Color, req.Interval, req.Ownership, strings.Join(opts, " "),
			req.Game.Board().Stones(goban.Black)+req.Game.Board().Stones(goban.White), req.Game.ToMove())
	}
	e.HandleAnalyze("lz-analyze", func(ctx context.Context, req AnalyzeRequest, out *Stream) error {
		out.Println(describe(req))
		<-ctx.Done()
		return out.Println("info stopped")
	})
	e.HandleAnalyze("kata-analyze", func(ctx context.Context, req AnalyzeRequest, out *Stream) error {
		out.Println(describe(req))
		<-ctx.Done()
		return nil
	})
	e.HandleGenmoveAnalyze("lz-genmove_analyze", func(ctx context.Context, req AnalyzeRequest, out *Stream) (goban.Move, error) {
		out.Println(describe(req))
		legal := req.Game.LegalMoves(req.Color)
		return goban.PlayAt(req.Color, legal[0]), nil
	})
	return e
}

func TestAnalyzeTranscripts(t *testing.T) {
	runTranscripts(t, "testdata/analyze", newAnalyzeEngine)
}

// fixedDead is a player with its own dead-stone judgement.
type fixedDead struct {
	RandomPlayer
	dead []goban.Point
}

func (p *fixedDead) DeadStones(*goban.Game) []goban.Point { return p.dead }

func TestDeadStoneEstimatorUsed(t *testing.T) {
	// The player calls the black stone at A1 dead although goban's
	// estimate would not: the engine must follow the player.
	p := &fixedDead{RandomPlayer: *NewRandomPlayer(1), dead: []goban.Point{{X: 0, Y: 4}}}
	e, err := NewEngine(Options{Player: p})
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	in := "boardsize 5\nplay b A1\nplay b B1\nplay w E5\nfinal_status_list dead\nfinal_score\n"
	if err := e.Serve(context.Background(), strings.NewReader(in), &out); err != nil {
		t.Fatal(err)
	}
	want := "=\n\n=\n\n=\n\n=\n\n= A1 B1\n\n= W+32.5\n\n"
	if out.String() != want {
		t.Errorf("got %q, want %q", out.String(), want)
	}
}

// TestClientStream runs an analysis through the controller side: lines
// arrive while the analysis runs, cancelling the context stops it, and the
// client stays in step for the next command.
func TestClientStream(t *testing.T) {
	c := newPipeClient(t, newAnalyzeEngine(t))
	ctx, cancel := context.WithCancel(context.Background())
	lines := make(chan string, 10)
	errc := make(chan error, 1)
	go func() {
		errc <- c.Stream(ctx, func(l string) { lines <- l }, "lz-analyze", "b", "10")
	}()
	first := <-lines
	if !strings.HasPrefix(first, "info color black interval 100ms") {
		t.Errorf("first line %q", first)
	}
	cancel()
	if err := <-errc; err != nil {
		t.Fatalf("Stream: %v", err)
	}
	close(lines)
	var rest []string
	for l := range lines {
		rest = append(rest, l)
	}
	if !slices.Equal(rest, []string{"info stopped"}) {
		t.Errorf("lines after the first: %q", rest)
	}
	if got, err := c.Send(context.Background(), "list_stones", "black"); err != nil || got != "" {
		t.Errorf("after the stream: %q, %v", got, err)
	}
	err := c.Stream(context.Background(), func(string) {}, "kata-analyze", "ownership", "maybe")
	var gerr *Error
	if !errors.As(err, &gerr) || !strings.HasPrefix(gerr.Message, "syntax error") {
		t.Errorf("refused analysis: %v", err)
	}
}
