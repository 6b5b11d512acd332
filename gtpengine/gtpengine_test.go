package gtpengine

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"tengen/engine"
	"tengen/goban"
	"tengen/gtp"
)

// runGTP plays a GTP script against a GTP engine that serves the search
// engine and returns the responses.
func runGTP(t *testing.T, script string, opts engine.Options) []string {
	t.Helper()
	ge, err := NewEngine(engine.New(opts), gtp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := ge.Serve(context.Background(), strings.NewReader(script), &out); err != nil {
		t.Fatal(err)
	}
	var resp []string
	for _, r := range strings.Split(strings.TrimSpace(out.String()), "\n\n") {
		resp = append(resp, strings.TrimSpace(r))
	}
	return resp
}

// TestGTPPlayer plugs the engine into the GTP engine: genmove answers are
// legal moves, the same for the same seed, and kgs-genmove_cleanup works.
func TestGTPPlayer(t *testing.T) {
	script := "boardsize 7\nclear_board\nkomi 7.5\ngenmove b\ngenmove w\nplay b pass\ngenmove w\nkgs-genmove_cleanup b\nquit\n"
	opts := engine.Options{Threads: 1, Playouts: 300, Seed: 11}
	a := runGTP(t, script, opts)
	b := runGTP(t, script, opts)
	if len(a) != 9 {
		t.Fatalf("%d responses: %q", len(a), a)
	}
	for i, r := range a {
		if !strings.HasPrefix(r, "=") {
			t.Errorf("response %d: %q", i, r)
		}
		if r != b[i] {
			t.Errorf("response %d differs between runs with one seed: %q vs %q", i, r, b[i])
		}
	}
	for _, i := range []int{3, 4, 6, 7} {
		v := strings.TrimSpace(strings.TrimPrefix(a[i], "="))
		if _, _, err := goban.ParseVertex(v, 7, 7); err != nil {
			t.Errorf("genmove answered %q", v)
		}
	}
}

// TestGTPAnalyze registers the analysis commands: lz-genmove_analyze prints
// info lines and then its move; final_status_list uses DeadStones.
func TestGTPAnalyze(t *testing.T) {
	ge, err := NewEngine(engine.New(engine.Options{Threads: 1, Playouts: 400, Seed: 5}), gtp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	script := "boardsize 9\nclear_board\nlz-genmove_analyze b 50\nkata-genmove_analyze w 50 ownership true\nquit\n"
	var out bytes.Buffer
	if err := ge.Serve(context.Background(), strings.NewReader(script), &out); err != nil {
		t.Fatal(err)
	}
	resp := strings.Split(strings.TrimSpace(out.String()), "\n\n")
	if len(resp) != 5 {
		t.Fatalf("%d responses:\n%s", len(resp), out.String())
	}
	for i, want := range []string{"lz", "kata"} {
		lines := strings.Split(resp[2+i], "\n")
		if lines[0] != "=" || len(lines) < 3 {
			t.Fatalf("%s-genmove_analyze answered:\n%s", want, resp[2+i])
		}
		info := lines[len(lines)-2]
		if !strings.HasPrefix(info, "info move ") || !strings.Contains(info, " pv ") {
			t.Errorf("%s: analysis line %q", want, info)
		}
		if want == "kata" && !strings.Contains(info, " ownership ") {
			t.Errorf("kata line without ownership: %q", info)
		}
		if !strings.HasPrefix(lines[len(lines)-1], "play ") {
			t.Errorf("%s: last line %q, want the move", want, lines[len(lines)-1])
		}
	}
}

// TestGTPLzAnalyze streams lz-analyze until the next command arrives.
func TestGTPLzAnalyze(t *testing.T) {
	ge, err := NewEngine(engine.New(engine.Options{Threads: 1, Seed: 5}), gtp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	pr, pw := io.Pipe()
	// The engine's output goes through a pipe so that the test sends the
	// next command only once the first analysis line has come.
	outR, outW := io.Pipe()
	var out bytes.Buffer
	firstInfo := make(chan struct{})
	copied := make(chan struct{})
	go func() {
		defer close(copied)
		sc := bufio.NewScanner(outR)
		seen := false
		for sc.Scan() {
			out.WriteString(sc.Text() + "\n")
			if !seen && strings.HasPrefix(sc.Text(), "info move ") {
				seen = true
				close(firstInfo)
			}
		}
	}()
	done := make(chan error)
	go func() { done <- ge.Serve(context.Background(), pr, outW) }()
	io.WriteString(pw, "boardsize 9\nlz-analyze b 5\n")
	select {
	case <-firstInfo:
	case <-time.After(time.Minute):
		t.Fatal("no analysis line within a minute")
	}
	io.WriteString(pw, "name\nquit\n")
	pw.Close()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	outW.Close()
	<-copied
	resp := strings.Split(strings.TrimSpace(out.String()), "\n\n")
	if len(resp) != 4 {
		t.Fatalf("%d responses:\n%s", len(resp), out.String())
	}
	lines := strings.Split(resp[1], "\n")
	if lines[0] != "=" || len(lines) < 2 {
		t.Fatalf("lz-analyze answered:\n%s", resp[1])
	}
	for _, l := range lines[1:] {
		if !strings.HasPrefix(l, "info move ") {
			t.Errorf("line %q", l)
		}
	}
}

// TestGTPGenmoveInterrupted plays GoGui's part: a genmove with a long
// thinking time, stopped by the comment line "# interrupt", answers with the
// best move found so far instead of thinking on.
func TestGTPGenmoveInterrupted(t *testing.T) {
	e := engine.New(engine.Options{Threads: 1, Seed: 5, MoveTime: 10 * time.Minute, MaxTime: 10 * time.Minute})
	ge, err := NewEngine(e, gtp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	done := make(chan error, 1)
	go func() {
		done <- ge.Serve(context.Background(), strings.NewReader("boardsize 9\n1 genmove b\n# interrupt\n2 name\nquit\n"), &out)
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(2 * time.Minute):
		t.Fatal("genmove did not stop at # interrupt")
	}
	resp := strings.Split(strings.TrimSpace(out.String()), "\n\n")
	if len(resp) != 4 || !strings.HasPrefix(resp[1], "=1 ") {
		t.Fatalf("responses:\n%s", out.String())
	}
	// A pass or a resignation fails here too: an interrupted search still
	// has a board move to give.
	if _, pass, err := goban.ParseVertex(strings.TrimPrefix(resp[1], "=1 "), 9, 9); err != nil || pass {
		t.Errorf("interrupted genmove answered %q: %v", resp[1], err)
	}
}
