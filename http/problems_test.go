package http_test

import (
	"strings"
	"testing"
)

type problemInfo struct {
	ID     string `json:"id"`
	Level  string `json:"level"`
	Goal   string `json:"goal"`
	Ko     bool   `json:"ko"`
	Solved *bool  `json:"solved"`
}

type attemptResp struct {
	Solved bool    `json:"solved"`
	Rating float64 `json:"rating"`
	Rated  int     `json:"rated"`
}

// TestProblemsAPI: the list, the SGF, and attempts that the server judges
// from the moves against the problem's tree. p014 is the straight three:
// Black kills at B9 (1,0) and fails at C9 (2,0).
func TestProblemsAPI(t *testing.T) {
	e := newEnv(t, nil)
	anon, ann := e.client(), e.client()
	var list []problemInfo
	anon.api("GET", "/api/v1/problems", nil, 200, &list)
	if len(list) < 60 {
		t.Fatalf("%d problems", len(list))
	}
	if list[0].Level != "30k" || list[0].Solved != nil {
		t.Errorf("first problem %+v: want level 30k and no solved flag for a visitor", list[0])
	}
	for _, p := range list {
		if p.ID == "" || p.Level == "" || !strings.Contains("kill live capture save", p.Goal) {
			t.Errorf("problem %+v", p)
		}
	}
	resp, data := anon.do("GET", "/api/v1/problems/p014/sgf", nil)
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/x-go-sgf") ||
		!strings.Contains(string(data), "TG[kill]") || !strings.Contains(string(data), "TE[1]") {
		t.Errorf("SGF: %d %q %.80s", resp.StatusCode, resp.Header.Get("Content-Type"), data)
	}
	anon.api("GET", "/api/v1/problems/nope/sgf", nil, 404, nil)

	wrong := map[string]any{"moves": []map[string]any{{"x": 2, "y": 0}}}
	right := map[string]any{"moves": []map[string]any{{"x": 1, "y": 0}}}
	anon.api("POST", "/api/v1/problems/p014/attempts", right, 401, nil)
	ann.register("ann")
	tests := []struct {
		name   string
		body   any
		status int
		solved bool
		rated  int
	}{
		{"a move not in the tree", map[string]any{"moves": []map[string]any{{"x": 8, "y": 8}}}, 400, false, 0},
		{"no moves", map[string]any{"moves": []map[string]any{}}, 400, false, 0},
		{"moves after the end", map[string]any{"moves": []map[string]any{{"x": 1, "y": 0}, {"x": 0, "y": 0}}}, 400, false, 0},
		{"wrong first move", wrong, 200, false, 1},
		{"right after a failure: no new rating", right, 200, true, 1},
	}
	var rating float64
	for _, tt := range tests {
		var got attemptResp
		ann.api("POST", "/api/v1/problems/p014/attempts", tt.body, tt.status, &got)
		if tt.status != 200 {
			continue
		}
		if got.Solved != tt.solved || got.Rated != tt.rated {
			t.Errorf("%s: %+v", tt.name, got)
		}
		if tt.name == "wrong first move" {
			rating = got.Rating
			if rating >= 1000 {
				t.Errorf("failing lowered nothing: %v", rating)
			}
		} else if got.Rating != rating {
			t.Errorf("%s: rating %v, want %v unchanged", tt.name, got.Rating, rating)
		}
	}
	ann.api("GET", "/api/v1/problems", nil, 200, &list)
	for _, p := range list {
		if p.Solved == nil || *p.Solved != (p.ID == "p014") {
			t.Errorf("ann's list: %s solved %v", p.ID, p.Solved)
		}
	}
	page := ann.page("/problems", 200)
	if !strings.Contains(page, "You have solved 1 of") || !strings.Contains(page, `data-problem="p014" class="solved"`) {
		t.Errorf("problem list page lacks ann's progress")
	}
	if page := anon.page("/problems/p014", 200, "Accept-Language", "de"); !strings.Contains(page, "Schwarz am Zug: Töte die weiße Gruppe.") ||
		!strings.Contains(page, `id="problem-data"`) {
		t.Errorf("German problem page: %.300s", page)
	}
	anon.page("/problems/nope", 404)
}
