package http_test

import (
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"tengen"
	"tengen/clock"
	"tengen/engine"
	"tengen/goban"
	"tengen/internal/app"
)

// newBotEnv is newPlayEnv with Tengen's engine levels as bots (small,
// fixed searches).
func newBotEnv(t *testing.T) *env {
	t.Helper()
	return newPlayEnvWith(t, func(c *app.Config) {
		c.BotWorkers = 2
		c.EngineBots = &engine.Options{Threads: 1, Seed: 5, MaxTime: time.Second, ScoringPlayouts: 100}
	})
}

func TestPlayComputerForm(t *testing.T) {
	e := newBotEnv(t)
	alice := e.client()
	alice.register("alice")

	for _, lang := range []string{"en", "de"} {
		page := alice.page("/", 200, "Accept-Language", lang)
		want := map[string][]string{
			"en": {"Play the computer"},
			"de": {"Gegen den Computer spielen"},
		}[lang]
		// Every level with its rank; a rank that no match has measured
		// says so.
		estimated := map[string]string{"en": " (estimated)", "de": " (geschätzt)"}[lang]
		for _, sp := range engine.Levels() {
			label := fmt.Sprintf("Tengen-%s — %d kyu", sp.Name, sp.Kyu)
			if !sp.Measured {
				label += estimated
			}
			want = append(want, label+"</option>")
		}
		for _, w := range append(want, `id="bot-form"`, `<option value="atari">`) {
			if !strings.Contains(page, w) {
				t.Errorf("lobby (%s) lacks %q", lang, w)
			}
		}
	}
	if page := e.client().page("/", 200); strings.Contains(page, `id="bot-form"`) {
		t.Error("anonymous visitors see the bot form")
	}

	form := url.Values{"bot": {"Tengen-beginner"}, "boardSize": {"9"}, "ruleset": {"atari"}, "handicap": {"0"},
		"color": {"black"}, "tcKind": {"byoyomi"}, "mainMinutes": {"5"}, "periods": {"3"}, "periodSeconds": {"30"}}
	resp, data := alice.do("POST", "/bots/play", form)
	if resp.StatusCode != 303 || !strings.HasPrefix(resp.Header.Get("Location"), "/games/") {
		t.Fatalf("bot form: %d to %q: %s", resp.StatusCode, resp.Header.Get("Location"), data)
	}
	var id int64
	fmt.Sscanf(resp.Header.Get("Location"), "/games/%d", &id)
	base := fmt.Sprintf("/api/v1/games/%d", id)
	var st stateOut
	alice.api("GET", base+"/state", nil, 200, &st)
	g := st.State.Game
	if st.State.You != goban.Black || g.White == nil || !g.White.Bot || g.White.Name != "Tengen-beginner" ||
		g.Settings.Ruleset != "atari" || g.Settings.TimeControl.Kind != clock.ByoYomi {
		t.Fatalf("game from the bot form: you %q, %+v", st.State.You, g)
	}
	alice.api("POST", base+"/moves", map[string]any{"seq": 1, "kind": "play", "x": 4, "y": 4}, 200, nil)
	deadline := time.Now().Add(20 * time.Second)
	for st.State.Game.MoveCount < 2 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
		alice.api("GET", base+"/state", nil, 200, &st)
	}
	if st.State.Game.MoveCount < 2 || st.State.Moves[1].Color != goban.White {
		t.Fatalf("the bot did not answer: %d moves", st.State.Game.MoveCount)
	}

	// A refused form comes back with the typed values and the reason.
	bad := url.Values{"bot": {"Tengen-novice"}, "boardSize": {"30"}, "ruleset": {"chinese"}, "handicap": {"0"}, "color": {"white"}, "tcKind": {"none"}}
	resp, data = alice.do("POST", "/bots/play", bad)
	page := string(data)
	if resp.StatusCode != 400 || !strings.Contains(page, "Board size must be between 5 and 25.") ||
		!strings.Contains(page, `<option value="Tengen-novice" selected>`) || !strings.Contains(page, `value="30"`) {
		t.Errorf("bad bot form: %d", resp.StatusCode)
	}
	resp, _ = e.client().do("POST", "/bots/play", form)
	if resp.StatusCode != 303 || resp.Header.Get("Location") != "/login" {
		t.Errorf("anonymous bot form: %d to %q", resp.StatusCode, resp.Header.Get("Location"))
	}

	// The API: list, start, refusals.
	var bots struct{ Bots []tengen.BotInfo }
	alice.api("GET", "/api/v1/bots", nil, 200, &bots)
	if first := engine.Levels()[0]; len(bots.Bots) != len(engine.Levels()) || bots.Bots[0].Name != "Tengen-beginner" ||
		bots.Bots[0].Rank != fmt.Sprintf("%d kyu", first.Kyu) || bots.Bots[0].RankEstimated == first.Measured {
		t.Errorf("bots: %+v", bots.Bots)
	}
	var out struct{ Game *tengen.Game }
	alice.api("POST", "/api/v1/bots/Tengen-club/games", map[string]any{"settings": map[string]any{"boardSize": 9, "ruleset": "chinese",
		"color": "white", "timeControl": map[string]any{"kind": "none"}}}, 201, &out)
	if out.Game == nil || out.Game.BlackID == 0 || out.Game.White == nil || out.Game.White.Name != "alice" {
		t.Errorf("API bot game: %+v", out.Game)
	}
	alice.apiError("POST", "/api/v1/bots/Nobody/games", map[string]any{"settings": map[string]any{"boardSize": 9, "ruleset": "chinese",
		"color": "white", "timeControl": map[string]any{"kind": "none"}}}, 404, "not_found")

	// Bots take no challenges and cannot log in.
	alice.apiError("POST", "/api/v1/challenges", map[string]any{"opponent": "Tengen-full", "settings": settings9()}, 400, "invalid")
	e.client().apiError("POST", "/api/v1/login", map[string]string{"name": "Tengen-full", "password": "!bot-password"}, 401, "unauthorized")
}
