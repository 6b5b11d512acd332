package http_test

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"tengen"
	"tengen/clock"
)

// BenchmarkFinishGameAPI measures finishing a game as a client sees it: a
// resignation posted to the JSON API of the whole server (app.Open, an
// SQLite file with synchronous=FULL by default) until the response, for
// rated and unrated games alternately, so that the load of a shared machine
// weighs on both alike. It reports the median of each kind and the rated
// games' overhead in per cent; docs/PERFORMANCE.md has the figures.
func BenchmarkFinishGameAPI(b *testing.B) {
	for _, sync := range []string{"FULL", "NORMAL"} {
		b.Run(sync, func(b *testing.B) { benchFinishGameAPI(b, sync) })
	}
}

func benchFinishGameAPI(b *testing.B, syncMode string) {
	srv := benchServer(b, filepath.Join(b.TempDir(), "tengen.db"), syncMode)
	var cookies [2]string
	for c := range 2 {
		cookies[c] = benchRegister(b, srv, fmt.Sprintf("player%d", c))
	}
	post := func(cookie, path, body string, want int, out any) { benchPost(b, srv, cookie, path, body, want, out) }
	var took [2][]time.Duration
	b.ResetTimer()
	for i := range b.N {
		b.StopTimer()
		set := tengen.GameSettings{BoardSize: 19, Ruleset: "japanese", Color: tengen.ChooseBlack,
			TimeControl: clock.TimeControl{Kind: clock.Fischer, MainTime: time.Hour, Increment: 10 * time.Second, MaxTime: 2 * time.Hour},
			Rated:       i%2 == 1}
		setJSON, _ := json.Marshal(map[string]any{"settings": set})
		var ch struct{ Challenge tengen.Challenge }
		post(cookies[0], "/api/v1/challenges", string(setJSON), 201, &ch)
		var g struct{ Game tengen.Game }
		post(cookies[1], fmt.Sprintf("/api/v1/challenges/%d/accept", ch.Challenge.ID), "", 201, &g)
		b.StartTimer()
		t0 := time.Now()
		post(cookies[0], fmt.Sprintf("/api/v1/games/%d/moves", g.Game.ID), `{"seq": 1, "kind": "resign"}`, 200, nil)
		took[i%2] = append(took[i%2], time.Since(t0))
	}
	b.StopTimer()
	if len(took[0]) > 0 && len(took[1]) > 0 {
		slices.Sort(took[0])
		slices.Sort(took[1])
		unrated, rated := float64(took[0][len(took[0])/2]), float64(took[1][len(took[1])/2])
		b.ReportMetric(unrated, "unrated-ns/game")
		b.ReportMetric(rated, "rated-ns/game")
		b.ReportMetric(100*(rated-unrated)/unrated, "overhead-%")
	}
}
