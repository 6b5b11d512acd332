package http_test

import (
	"slices"
	"testing"
)

type progressResp struct {
	Lessons  map[string]int `json:"lessons"`
	Problems []string       `json:"problems"`
}

// TestMergeProgress: POST /api/v1/me/progress adds a visitor's browser
// record to the account. Bad records are refused whole with a 400 and
// change nothing; a record sent twice, or one behind the account, loses
// nothing and counts nothing twice.
func TestMergeProgress(t *testing.T) {
	e := newEnv(t, nil)
	anon, ann := e.client(), e.client()
	good := map[string]any{"lessons": map[string]int{"liberties": 2}, "problems": []string{"p014", "p001", "p014"}}
	anon.apiError("POST", "/api/v1/me/progress", good, 401, "unauthorized")
	ann.register("ann")

	bad := []struct {
		name string
		body any
	}{
		{"an unknown lesson", map[string]any{"lessons": map[string]int{"nope": 1}}},
		{"more steps than the lesson has", map[string]any{"lessons": map[string]int{"liberties": 99}}},
		{"negative steps", map[string]any{"lessons": map[string]int{"liberties": -1}}},
		{"an unknown problem", map[string]any{"problems": []string{"p001", "p999"}}},
		{"steps as text", map[string]any{"lessons": map[string]string{"liberties": "2"}}},
		{"an unknown field", map[string]any{"rating": 3000}},
		{"good lessons with a bad problem", map[string]any{"lessons": map[string]int{"liberties": 2}, "problems": []string{""}}},
	}
	for _, tt := range bad {
		ann.apiError("POST", "/api/v1/me/progress", tt.body, 400, "invalid")
	}
	var got progressResp
	ann.api("POST", "/api/v1/me/progress", map[string]any{}, 200, &got)
	if len(got.Lessons) != 0 || len(got.Problems) != 0 {
		t.Fatalf("refused records changed the account: %+v", got)
	}

	for round := range 2 {
		ann.api("POST", "/api/v1/me/progress", good, 200, &got)
		if got.Lessons["liberties"] != 2 || !slices.Equal(got.Problems, []string{"p001", "p014"}) {
			t.Errorf("round %d: %+v", round, got)
		}
	}
	// An older record does not take the account's progress back.
	ann.api("POST", "/api/v1/me/progress", map[string]any{"lessons": map[string]int{"liberties": 1}}, 200, &got)
	if got.Lessons["liberties"] != 2 {
		t.Errorf("progress went back: %+v", got)
	}
	var list []problemInfo
	ann.api("GET", "/api/v1/problems", nil, 200, &list)
	for _, p := range list {
		if want := p.ID == "p001" || p.ID == "p014"; p.Solved == nil || *p.Solved != want {
			t.Errorf("problem %s solved = %v, want %v", p.ID, p.Solved, want)
		}
	}
	var attempt attemptResp
	// A merged problem is not rated, then or later: its record exists, so
	// an attempt on the account is not the first.
	ann.api("POST", "/api/v1/problems/p014/attempts", map[string]any{"moves": []map[string]any{{"x": 1, "y": 0}}}, 200, &attempt)
	if attempt.Rated != 0 {
		t.Errorf("after merging, rated = %d; a merged problem must not count for the rating", attempt.Rated)
	}
}
