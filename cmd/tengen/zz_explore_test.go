package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tengen/engine"
	"tengen/goban"
)

func TestZZExplore(t *testing.T) {
	files, _ := filepath.Glob("testdata/counted/*.sgf")
	est := engine.New(engine.Options{Threads: 1, ScoringPlayouts: 1000, Seed: 1})
	exact, winner, n := 0, 0, 0
	for _, f := range files {
		data, _ := os.ReadFile(f)
		want, ok, _ := recordedPoints(data)
		if !ok {
			continue
		}
		g, err := loadFinal(f, scoreFlags{}, nil, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		cache := "/tmp/h15c-dead/" + filepath.Base(f) + ".json"
		var dead []goban.Point
		if b, err := os.ReadFile(cache); err == nil && os.Getenv("FRESH") == "" {
			json.Unmarshal(b, &dead)
		} else {
			dead = est.DeadStones(g)
			b, _ := json.Marshal(dead)
			os.WriteFile(cache, b, 0o644)
		}
		s, err := g.Score(dead)
		if err != nil {
			t.Fatal(err)
		}
		got := s.Result.String()
		e, w, _ := compareResults(want, got)
		n++
		if e {
			exact++
		}
		if w {
			winner++
		}
		if !e && os.Getenv("V") != "" {
			fmt.Println(strings.TrimSuffix(filepath.Base(f), ".sgf"), want, got, w)
		}
	}
	fmt.Printf("exact %d winner %d of %d\n", exact, winner, n)
}
