package http_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"tengen"
)

// startGame has alice challenge bob on 9×9 and bob accept; it returns the game.
func startGame(t *testing.T, alice, bob *client) *tengen.Game {
	t.Helper()
	var ch struct{ Challenge *tengen.Challenge }
	alice.api("POST", "/api/v1/challenges", map[string]any{"settings": settings9()}, 201, &ch)
	var g struct{ Game *tengen.Game }
	bob.api("POST", fmt.Sprintf("/api/v1/challenges/%d/accept", ch.Challenge.ID), nil, 201, &g)
	return g.Game
}

func TestGamePage(t *testing.T) {
	e := newEnv(t, nil)
	alice, bob, carol := e.client(), e.client(), e.client()
	alice.register("alice")
	bob.register("bob")
	g := startGame(t, alice, bob)
	path := fmt.Sprintf("/games/%d", g.ID)

	for _, c := range []struct {
		who  *client
		you  string
		lang string
		want []string
	}{
		{alice, "black", "en", []string{"Download SGF", "Pass", "Resign", "Captures"}},
		{bob, "white", "de", []string{"SGF herunterladen", "Passen", "Aufgeben", "Gefangene"}},
		{carol, "", "en", []string{"Download SGF"}},
	} {
		page := c.who.page(path, 200, "Accept-Language", c.lang)
		for _, w := range append(c.want,
			fmt.Sprintf(`data-game-id="%d"`, g.ID), `data-size="9"`, fmt.Sprintf(`data-you="%s"`, c.you),
			fmt.Sprintf(`href="/games/%d/sgf"`, g.ID), `<span class="player-name black">alice</span>`) {
			if !strings.Contains(page, w) {
				t.Errorf("game page (%s, %s) lacks %q", c.you, c.lang, w)
			}
		}
		// The script texts are the catalogue's "js." entries, as JSON.
		m := regexp.MustCompile(`(?s)<script type="application/json" id="texts">(.*?)</script>`).FindStringSubmatch(page)
		if m == nil {
			t.Fatalf("game page has no script texts")
		}
		var texts map[string]string
		if err := json.Unmarshal([]byte(m[1]), &texts); err != nil {
			t.Fatalf("script texts: %v in %s", err, m[1])
		}
		wantMove := map[string]string{"en": "Your move.", "de": "Du bist am Zug."}[c.lang]
		if texts["yourMove"] != wantMove || texts["entryLabel"] == "" || len(texts) < 40 {
			t.Errorf("script texts (%s): yourMove %q, %d texts", c.lang, texts["yourMove"], len(texts))
		}
	}
	carol.page("/games/9999", 404)
	carol.page("/games/x", 404)
}

func TestMyGamesPage(t *testing.T) {
	e := newEnv(t, nil)
	alice, bob, anon := e.client(), e.client(), e.client()
	alice.register("alice")
	bob.register("bob")
	resp, _ := anon.do("GET", "/me/games", nil)
	if resp.StatusCode != 303 || resp.Header.Get("Location") != "/login" {
		t.Errorf("my games, anonymous: %d → %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	page := alice.page("/me/games", 200)
	if !strings.Contains(page, "You have no running games.") {
		t.Error("my games without games lacks the empty text")
	}
	g := startGame(t, alice, bob)
	// Alice has Black (settings9): it is her turn, not Bob's.
	page = alice.page("/me/games", 200)
	if !strings.Contains(page, fmt.Sprintf(`<tr data-game-id="%d" class="your-turn">`, g.ID)) ||
		!strings.Contains(page, fmt.Sprintf(`<a href="/games/%d">bob</a>`, g.ID)) {
		t.Errorf("alice's games do not show her turn against bob:\n%s", page)
	}
	page = bob.page("/me/games", 200, "Accept-Language", "de")
	if !strings.Contains(page, fmt.Sprintf(`<tr data-game-id="%d">`, g.ID)) || !strings.Contains(page, "Warten auf den Gegner") {
		t.Errorf("bob's games do not show the game waiting for alice")
	}
}

func TestAcceptFormOpensGame(t *testing.T) {
	e := newEnv(t, nil)
	alice, bob := e.client(), e.client()
	alice.register("alice")
	bob.register("bob")
	var ch struct{ Challenge *tengen.Challenge }
	alice.api("POST", "/api/v1/challenges", map[string]any{"settings": settings9()}, 201, &ch)
	resp, data := bob.do("POST", fmt.Sprintf("/challenges/%d/accept", ch.Challenge.ID), nil)
	var games struct{ Games []*tengen.Game }
	bob.api("GET", "/api/v1/games", nil, 200, &games)
	if len(games.Games) != 1 {
		t.Fatalf("games after accepting: %d", len(games.Games))
	}
	if want := fmt.Sprintf("/games/%d", games.Games[0].ID); resp.StatusCode != 303 || resp.Header.Get("Location") != want {
		t.Errorf("accept form: %d → %q, want 303 → %q (%s)", resp.StatusCode, resp.Header.Get("Location"), want, data)
	}
}

// TestScriptTextsExist checks that every text the scripts look up (T.name,
// and the score rows T[`score.${key}`]) is in both catalogues as "js.name",
// so that no page shows "undefined".
func TestScriptTextsExist(t *testing.T) {
	files, err := filepath.Glob("static/js/*.js")
	if err != nil || len(files) == 0 {
		t.Fatalf("no scripts: %v", err)
	}
	used := map[string]bool{}
	for _, k := range []string{"territory", "captures", "dead", "lost", "ownDead", "stones", "komi", "handicapBonus", "total"} {
		used["score."+k] = true
	}
	re := regexp.MustCompile(`\bT\.([A-Za-z]+)`)
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range re.FindAllStringSubmatch(string(data), -1) {
			used[m[1]] = true
		}
	}
	if len(used) < 30 {
		t.Fatalf("only %d texts found in the scripts", len(used))
	}
	for _, lang := range []string{"en", "de"} {
		data, err := os.ReadFile("locales/" + lang + ".json")
		if err != nil {
			t.Fatal(err)
		}
		var cat map[string]string
		if err := json.Unmarshal(data, &cat); err != nil {
			t.Fatal(err)
		}
		for k := range used {
			if cat["js."+k] == "" {
				t.Errorf("locales/%s.json lacks js.%s, which a script uses", lang, k)
			}
		}
		for k := range cat {
			if name, ok := strings.CutPrefix(k, "js."); ok && !used[name] {
				t.Errorf("locales/%s.json has %s, which no script uses", lang, k)
			}
		}
	}
}

func TestLobbyListsLiveGames(t *testing.T) {
	e := newEnv(t, nil)
	alice, bob, anon := e.client(), e.client(), e.client()
	alice.register("alice")
	bob.register("bob")
	if page := anon.page("/", 200); !strings.Contains(page, "No games are being played right now.") {
		t.Error("lobby without games lacks the empty text")
	}
	g := startGame(t, alice, bob)
	page := anon.page("/", 200, "Accept-Language", "de")
	if !strings.Contains(page, "Laufende Partien") || !strings.Contains(page, fmt.Sprintf(`<a href="/games/%d">ansehen</a>`, g.ID)) {
		t.Errorf("lobby does not offer the running game to watch")
	}
}
