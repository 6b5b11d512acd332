package gtpengine_test

import (
	"context"
	"os"

	"tengen/engine"
	"tengen/gtp"
	"tengen/gtpengine"
)

// This serves GTP on standard input and output with the search engine and
// its analysis commands (what `tengen gtp` does).
func Example() {
	ge, err := gtpengine.NewEngine(engine.New(engine.Options{Threads: 2}), gtp.Options{})
	if err != nil {
		panic(err)
	}
	ge.Serve(context.Background(), os.Stdin, os.Stdout)
}
