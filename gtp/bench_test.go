package gtp

import (
	"context"
	"io"
	"strconv"
	"strings"
	"testing"
)

func BenchmarkParseCommand(b *testing.B) {
	for b.Loop() {
		if _, _, err := ParseCommand("123 play black Q16 # comment"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkServePlay measures the protocol and rules overhead per command on
// a game of play commands.
func BenchmarkServePlay(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("boardsize 19\n")
	for i := range 150 {
		sb.WriteString("play b " + string("ABCDEFGHJKLMNOPQRST"[i%19]) + strconv.Itoa(1+i/19) + "\n")
	}
	script := sb.String()
	b.ReportAllocs()
	for b.Loop() {
		e, err := NewEngine(Options{Seed: 1})
		if err != nil {
			b.Fatal(err)
		}
		if err := e.Serve(context.Background(), strings.NewReader(script), io.Discard); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGenmoveRandom measures the random player on 19x19 in the opening.
func BenchmarkGenmoveRandom(b *testing.B) {
	e, err := NewEngine(Options{Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	cmd := Command{Name: "reg_genmove", Args: []string{"b"}}
	for b.Loop() {
		if _, err := e.genmove(context.Background(), cmd); err != nil {
			b.Fatal(err)
		}
	}
}
