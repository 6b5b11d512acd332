package engine

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"tengen/goban"
	"tengen/gtp"
)

// runGTP plays a GTP script against a gtp.Engine with this engine as its
// player and returns the responses.
func runGTP(t *testing.T, script string, opts Options) []string {
	t.Helper()
	ge, err := gtp.NewEngine(gtp.Options{Player: New(opts)})
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
	opts := Options{Threads: 1, Playouts: 300, Seed: 11}
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
