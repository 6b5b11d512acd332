package http_test

import (
	"fmt"
	"strings"
	"testing"

	"tengen"
)

// playRated has black and white play a rated 9×9 game that white wins by
// resignation, and returns its id; the challenge is black's, aimed at
// white.
func playRated(t *testing.T, black, white *client, whiteName string) int64 {
	t.Helper()
	set := settings9()
	set.Color = tengen.ChooseBlack
	rated := true
	var c challengeResp
	black.api("POST", "/api/v1/challenges", map[string]any{"opponent": whiteName, "settings": settingsJSON(t, set, &rated)}, 201, &c)
	var g gameResp
	white.api("POST", fmt.Sprintf("/api/v1/challenges/%d/accept", c.Challenge.ID), nil, 201, &g)
	base := fmt.Sprintf("/api/v1/games/%d", g.Game.ID)
	black.api("POST", base+"/moves", map[string]any{"seq": 1, "kind": "resign"}, 200, nil)
	return g.Game.ID
}

// TestPlayersAPI checks the players search, the strongest active players,
// a user's statistics and rating history, and that bad input gets a 4xx
// with the error's code.
func TestPlayersAPI(t *testing.T) {
	e := newEnv(t, nil)
	ann, andy, bea := e.client(), e.client(), e.client()
	ann.register("Ann")
	andy.register("andy_k")
	bea.register("Bea")

	var top struct {
		ActiveDays int
		Users      []*tengen.User
	}
	ann.api("GET", "/api/v1/users", nil, 200, &top)
	if top.ActiveDays != 30 || len(top.Users) != 0 {
		t.Errorf("strongest active before any rated game: %+v", top)
	}
	id := playRated(t, ann, bea, "Bea")

	var found struct {
		Query string
		Users []*tengen.User
	}
	ann.api("GET", "/api/v1/users?q=AN", nil, 200, &found)
	if found.Query != "AN" || len(found.Users) != 2 || found.Users[0].Name != "andy_k" || found.Users[1].Name != "Ann" {
		t.Errorf("search AN: %+v", found)
	}
	ann.api("GET", "/api/v1/users?q=an&limit=1", nil, 200, &found)
	if len(found.Users) != 1 {
		t.Errorf("search an, limit 1: %d users", len(found.Users))
	}
	ann.api("GET", "/api/v1/users", nil, 200, &top)
	if len(top.Users) != 2 || top.Users[0].Name != "Bea" || top.Users[1].Name != "Ann" || top.Users[0].Rating <= top.Users[1].Rating {
		t.Errorf("strongest active after Bea beat Ann: %+v", top.Users)
	}

	var st tengen.UserStats
	ann.api("GET", "/api/v1/users/bea/stats", nil, 200, &st)
	if st.Total != (tengen.Record{Wins: 1}) || len(st.BySize) != 1 || st.BySize[0].BoardSize != 9 ||
		len(st.ByOpponent) != 3 || st.ByOpponent[1].Strength != tengen.Equal || st.ByOpponent[1].Wins != 1 {
		t.Errorf("Bea's stats: %+v", st)
	}
	var h struct{ History []*tengen.RatingChange }
	ann.api("GET", "/api/v1/users/Ann/ratings", nil, 200, &h)
	if len(h.History) != 1 || h.History[0].GameID != id || h.History[0].Rating >= h.History[0].RatingBefore {
		t.Errorf("Ann's history: %+v", h.History)
	}
	ann.api("GET", "/api/v1/users/Ann/ratings?limit=1", nil, 200, &h)
	if len(h.History) != 1 {
		t.Errorf("Ann's history, limit 1: %+v", h.History)
	}
	var p struct {
		Current, Recent []*tengen.Game
		Stats           *tengen.UserStats
	}
	ann.api("GET", "/api/v1/users/Ann", nil, 200, &p)
	if len(p.Current) != 0 || len(p.Recent) != 1 || p.Recent[0].ID != id || p.Stats == nil || p.Stats.Total.Losses != 1 {
		t.Errorf("Ann's profile: current %v, recent %v, stats %+v", p.Current, p.Recent, p.Stats)
	}

	for _, tt := range []struct {
		path   string
		status int
		code   string
	}{
		{"/api/v1/users?q=a%25", 400, tengen.EINVALID},
		{"/api/v1/users?q=%C3%A4", 400, tengen.EINVALID},
		{"/api/v1/users?q=" + strings.Repeat("a", 21), 400, tengen.EINVALID},
		{"/api/v1/users?q=an&limit=0", 400, tengen.EINVALID},
		{"/api/v1/users?limit=x", 400, tengen.EINVALID},
		{"/api/v1/users/nobody/stats", 404, tengen.ENOTFOUND},
		{"/api/v1/users/nobody/ratings", 404, tengen.ENOTFOUND},
		{"/api/v1/users/Ann/ratings?limit=0", 400, tengen.EINVALID},
		{"/api/v1/users/Ann/ratings?limit=1001", 400, tengen.EINVALID},
		{"/api/v1/users/Ann/ratings?limit=ten", 400, tengen.EINVALID},
	} {
		ann.apiError("GET", tt.path, nil, tt.status, tt.code)
	}
}

// TestPlayerPages checks the players page (search, the strongest active
// players, a refused search) and the profile: rank, the rating graph with
// rank labels, the statistics, recent games and the challenge button that
// opens the lobby's form aimed at the player.
func TestPlayerPages(t *testing.T) {
	e := newEnv(t, nil)
	ann, bea, guest := e.client(), e.client(), e.client()
	ann.register("Ann")
	bea.register("Bea")
	if page := guest.page("/players", 200); !strings.Contains(page, `id="players-empty"`) || !strings.Contains(page, "30") {
		t.Errorf("players page before any rated game lacks the empty note")
	}
	id := playRated(t, ann, bea, "Bea")

	page := guest.page("/players?q=be", 200)
	if !strings.Contains(page, `<a href="/users/Bea">Bea</a>`) || strings.Contains(page, `<a href="/users/Ann">`) {
		t.Errorf("search be: page does not list just Bea")
	}
	page = guest.page("/players", 200)
	if strings.Index(page, `<a href="/users/Bea">`) > strings.Index(page, `<a href="/users/Ann">`) || !strings.Contains(page, `<a href="/users/Ann">`) {
		t.Errorf("strongest active: Bea (who won) should come before Ann")
	}
	if page := guest.page("/players?q=a%25", 400); !strings.Contains(page, "Search text may contain only letters") {
		t.Errorf("refused search shows no message")
	}
	if page := guest.page("/players?q=a%25", 400, "Accept-Language", "de"); !strings.Contains(page, "Der Suchtext darf nur") {
		t.Errorf("refused search shows no German message")
	}

	page = guest.page("/users/Bea", 200)
	for _, want := range []string{`<span class="rank">[`, `id="rating-graph"`, `<polyline points="`, `class="rank-label"`,
		`id="stats-size"`, `id="stats-opponent"`, `id="recent-games"`, fmt.Sprintf(`href="/games/%d"`, id),
		`href="/?opponent=Bea#new-challenge"`, "won"} {
		if !strings.Contains(page, want) {
			t.Errorf("Bea's profile lacks %s", want)
		}
	}
	if page := bea.page("/users/Bea", 200); strings.Contains(page, `id="challenge-player"`) {
		t.Errorf("own profile offers to challenge oneself")
	}
	if page := ann.page("/?opponent=Bea", 200); !strings.Contains(page, `name="opponent" value="Bea"`) {
		t.Errorf("the lobby's challenge form is not aimed at Bea")
	}
	if page := ann.page("/?opponent=%3Cx%3E", 200); strings.Contains(page, `value="&lt;x&gt;"`) {
		t.Errorf("the lobby takes an invalid opponent name")
	}
	if page := guest.page("/users/Bea", 200, "Accept-Language", "de"); !strings.Contains(page, "Wertung im Verlauf") || !strings.Contains(page, "gewonnen") {
		t.Errorf("German profile lacks the graph heading or the outcome")
	}
}
