package gtp

import (
	"context"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden .out files of the transcript tests")

// server is what the transcript tests drive: a [Server] or an [Engine].
type server interface {
	Serve(ctx context.Context, r io.Reader, w io.Writer) error
}

// runTranscripts feeds every dir/*.gtp file to a fresh server and compares
// the output with dir/*.out (rewritten with -update).
func runTranscripts(t *testing.T, dir string, newServer func(t *testing.T) server) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.gtp"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("no transcripts in %s", dir)
	}
	for _, in := range files {
		name := strings.TrimSuffix(filepath.Base(in), ".gtp")
		t.Run(name, func(t *testing.T) {
			input, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			var out strings.Builder
			if err := newServer(t).Serve(context.Background(), strings.NewReader(string(input)), &out); err != nil {
				t.Fatalf("Serve: %v", err)
			}
			checkGolden(t, strings.TrimSuffix(in, ".gtp")+".out", out.String())
		})
	}
}

// checkGolden compares got with the golden file, or rewrites the file with
// -update.
func checkGolden(t *testing.T, golden, got string) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s (run with -update to accept)\n--- got ---\n%s\n--- want ---\n%s", golden, got, want)
	}
}
