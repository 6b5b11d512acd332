package http_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"tengen"
)

// settingsJSON is s as a request sends it, with "rated" left out unless
// rated is given.
func settingsJSON(t *testing.T, s tengen.GameSettings, rated *bool) map[string]any {
	t.Helper()
	data, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	delete(m, "rated")
	if rated != nil {
		m["rated"] = *rated
	}
	return m
}

// TestRatingsAPI checks the starting level of a new account, the user
// object's rating fields, the rated default of challenges and the ratings
// after a rated game, with the ranks on the pages and in the SGF.
func TestRatingsAPI(t *testing.T) {
	e := newEnv(t, nil)
	alice, bob, carol := e.client(), e.client(), e.client()
	var reg struct{ User *tengen.User }
	alice.api("POST", "/api/v1/register", map[string]string{"name": "alice", "password": "secret-alice", "level": "intermediate"}, 201, &reg)
	if reg.User.Rank != "12k?" || reg.User.Deviation != 350 {
		t.Errorf("alice declared intermediate: %+v, want 12k? ± 350", reg.User)
	}
	bob.register("bob")
	carol.apiError("POST", "/api/v1/register", map[string]string{"name": "carol", "password": "secret-carol", "level": "pro"}, 400, tengen.EINVALID)
	_, data := bob.do("GET", "/api/v1/me", nil)
	for _, field := range []string{`"rating":1500`, `"deviation":350`, `"rank":"6k?"`} {
		if !strings.Contains(string(data), field) {
			t.Errorf("GET /api/v1/me lacks %s: %s", field, data)
		}
	}

	yes, no := true, false
	handicap := settings9()
	handicap.Handicap = 2
	tests := []struct {
		name  string
		set   tengen.GameSettings
		rated *bool
		want  bool
	}{
		{"even, default", settings9(), nil, true},
		{"even, unrated", settings9(), &no, false},
		{"handicap, default", handicap, nil, false},
		{"handicap, rated", handicap, &yes, true},
	}
	for _, tt := range tests {
		var c challengeResp
		alice.api("POST", "/api/v1/challenges", map[string]any{"settings": settingsJSON(t, tt.set, tt.rated)}, 201, &c)
		if c.Challenge.Settings.Rated != tt.want {
			t.Errorf("%s: challenge rated %v, want %v", tt.name, c.Challenge.Settings.Rated, tt.want)
		}
		if tt.name == "even, default" {
			page := bob.page("/", 200)
			if !strings.Contains(page, `<td data-label="Rated" class="rated">rated</td>`) || !strings.Contains(page, `alice <span class="rank">[12k?]</span>`) {
				t.Errorf("the lobby does not show the challenge as rated by alice [12k?]")
			}
			var g gameResp
			bob.api("POST", fmt.Sprintf("/api/v1/challenges/%d/accept", c.Challenge.ID), nil, 201, &g)
			black, white := alice, bob
			if g.Game.Black.Name == "bob" {
				black, white = bob, alice
			}
			base := fmt.Sprintf("/api/v1/games/%d", g.Game.ID)
			black.api("POST", base+"/moves", map[string]any{"seq": 1, "kind": "play", "x": 2, "y": 2}, 200, nil)
			white.api("POST", base+"/moves", map[string]any{"seq": 2, "kind": "resign"}, 200, nil)
			var a, b struct {
				User    *tengen.User
				Record  *tengen.Record
				History []*tengen.RatingChange
			}
			alice.api("GET", "/api/v1/users/alice", nil, 200, &a)
			bob.api("GET", "/api/v1/users/bob", nil, 200, &b)
			start := map[string]float64{"alice": reg.User.Rating, "bob": 1500}
			winner, loser := a.User, b.User
			if black == bob {
				winner, loser = b.User, a.User
			}
			if winner.Rating <= start[winner.Name] || loser.Rating >= start[loser.Name] || winner.Deviation >= 350 || loser.Deviation >= 350 {
				t.Errorf("after the rated game: winner %+v (from %v), loser %+v (from %v)", winner, start[winner.Name], loser, start[loser.Name])
			}
			for _, p := range []struct {
				name string
				won  bool
				rec  *tengen.Record
				h    []*tengen.RatingChange
			}{{"alice", winner.Name == "alice", a.Record, a.History}, {"bob", winner.Name == "bob", b.Record, b.History}} {
				want := tengen.Record{Wins: 1}
				if !p.won {
					want = tengen.Record{Losses: 1}
				}
				if p.rec == nil || *p.rec != want || len(p.h) != 1 || p.h[0].GameID != g.Game.ID {
					t.Errorf("%s's profile: record %+v, history %+v; want %+v and the game", p.name, p.rec, p.h, want)
				}
			}
			if page := carol.page("/users/bob", 200); !strings.Contains(page, `id="rating-history"`) || !strings.Contains(page, fmt.Sprintf(`href="/games/%d"`, g.Game.ID)) {
				t.Errorf("bob's profile page shows no rating history")
			}
			sgfResp, sgf := alice.do("GET", base+"/sgf", nil)
			if sgfResp.StatusCode != 200 || !strings.Contains(string(sgf), "BR[") || !strings.Contains(string(sgf), "WR[") {
				t.Errorf("SGF without ranks: %s", sgf)
			}
			if p := alice.page(fmt.Sprintf("/games/%d", g.Game.ID), 200); !strings.Contains(p, `<span class="rank">[`) || !strings.Contains(p, `<span id="rated">rated</span>`) {
				t.Errorf("game page shows no ranks or rated flag")
			}
		}
	}
}
