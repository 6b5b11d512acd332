package http_test

import (
	"fmt"
	"strings"
	"testing"

	"tengen/learn"
)

type checkResp struct {
	Right   bool     `json:"right"`
	Reason  string   `json:"reason"`
	Message string   `json:"message"`
	After   []string `json:"after"`
	Saved   bool     `json:"saved"`
}

type lessonsResp struct {
	Lessons []struct {
		ID    string `json:"id"`
		Title string `json:"title"`
		Steps int    `json:"steps"`
		Done  int    `json:"done"`
	} `json:"lessons"`
}

// TestLessonAPI: the server judges answers with the rules core, explains
// them in the request's language and saves a logged-in user's progress.
func TestLessonAPI(t *testing.T) {
	e := newEnv(t, nil)
	anon, alice := e.client(), e.client()
	alice.register("alice")

	var r checkResp
	anon.api("POST", "/api/v1/lessons/capture/steps/1", map[string]any{"point": "E2"}, 200, &r)
	if !r.Right || r.Saved || r.Message == "" || len(r.After) != 9 {
		t.Errorf("right capture: %+v", r)
	}
	r = checkResp{}
	anon.api("POST", "/api/v1/lessons/suicide/steps/3", map[string]any{"point": "G5"}, 200, &r)
	if r.Right || r.Reason != "noCapture" || !strings.Contains(r.Message, "captures nothing") {
		t.Errorf("wrong move: %+v", r)
	}
	// A suicide is refused by goban, and the reason explained in German.
	_, body := anon.do("POST", "/api/v1/lessons/capture/steps/1", map[string]any{"point": "E1"}, "Accept-Language", "de")
	if !strings.Contains(string(body), "liegt schon ein Stein") {
		t.Errorf("occupied point in German: %s", body)
	}
	r = checkResp{}
	alice.api("POST", "/api/v1/lessons/liberties/steps/1", map[string]any{"points": []string{"A5", "B4", "B6", "C5"}}, 200, &r)
	if !r.Right || !r.Saved {
		t.Errorf("alice's right marks: %+v", r)
	}
	r = checkResp{}
	alice.api("POST", "/api/v1/lessons/liberties/steps/2", map[string]any{"points": []string{"C1", "D2"}}, 200, &r)
	if r.Right || r.Reason != "missing" || !strings.Contains(r.Message, "1 are still missing") {
		t.Errorf("alice's missing mark: %+v", r)
	}
	r = checkResp{}
	alice.api("POST", "/api/v1/lessons/counting/steps/2", map[string]any{"count": 7}, 200, &r)
	if !r.Right {
		t.Errorf("count 7: %+v", r)
	}

	var ls lessonsResp
	alice.api("GET", "/api/v1/lessons", nil, 200, &ls)
	if len(ls.Lessons) != len(learn.Lessons()) {
		t.Fatalf("%d lessons listed", len(ls.Lessons))
	}
	done := map[string]int{}
	for _, l := range ls.Lessons {
		done[l.ID] = l.Done
	}
	if done["liberties"] != 1 || done["counting"] != 2 || done["capture"] != 0 {
		t.Errorf("alice's progress %v", done)
	}

	anon.apiError("POST", "/api/v1/lessons/nope/steps/1", map[string]any{"point": "A1"}, 404, "not_found")
	anon.apiError("POST", "/api/v1/lessons/ko/steps/9", map[string]any{"point": "A1"}, 404, "not_found")
	anon.apiError("POST", "/api/v1/lessons/ko/steps/1", map[string]any{"nope": 1}, 400, "invalid")
}

// TestLearnPages: every lesson page, the rules, the glossary and the help
// page render in both languages.
func TestLearnPages(t *testing.T) {
	e := newEnv(t, nil)
	c := e.client()
	pages := []struct{ path, en, de string }{
		{"/learn", "Learn Go", "Go lernen"},
		{"/rules", "Superko: no move may bring back any earlier position.", "Flächenzählung"},
		{"/glossary", "Agehama", "Gefangene"},
		{"/help", "ask to take back your last move", "Korschelts Buchstaben ohne j"},
		{"/help", "Glicko-2", "Anfangsstufe"},
		{"/learn", `href="/learn/masters"`, `href="/learn/masters"`},
		{"/learn/masters", "Not recovered:", "Nicht wiederhergestellt:"},
		{"/learn/masters", "Katsuda Eidzuke (White), 16 August 1835", "Murase Shuho (Weiß, 7. Rang), 21. März 1880"},
	}
	for _, l := range learn.Lessons() {
		pages = append(pages, struct{ path, en, de string }{"/learn/" + l.ID, `id="lesson-data"`, `id="lesson-data"`})
	}
	for _, p := range pages {
		en := c.page(p.path, 200, "Accept-Language", "en")
		de := c.page(p.path, 200, "Accept-Language", "de")
		if !strings.Contains(en, p.en) {
			t.Errorf("%s in English lacks %q", p.path, p.en)
		}
		if !strings.Contains(de, p.de) {
			t.Errorf("%s in German lacks %q", p.path, p.de)
		}
	}
	c.page("/learn/nope", 404)
	if page := c.page("/learn/capture", 200); !strings.Contains(page, `href="/login"`) || !strings.Contains(page, "Atari-Go") {
		t.Error("the capture lesson offers no Atari-Go game to a visitor")
	}
	if page := c.page("/rules", 200); !strings.Contains(page, `id="tromp-taylor"`) {
		t.Error("the rules table has no anchor per ruleset")
	}
	for _, id := range []string{"atari", "seki", "komi", "nigiri", "tsumego", "byoyomi", "tesuji", "hane", "jigo", "dame", "agehama"} {
		if page := c.page("/glossary", 200); !strings.Contains(page, fmt.Sprintf(`id="%s"`, id)) {
			t.Errorf("glossary lacks %s", id)
		}
	}
}
