package browsertest

import (
	"encoding/json"
	"fmt"
	"io"
	nethttp "net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"tengen"
)

// userRank returns a user's rank as the API gives it.
func (s *site) userRank(t *testing.T, name string) string {
	t.Helper()
	resp, err := nethttp.Get(s.url + "/api/v1/users/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	var out struct{ User *tengen.User }
	if err := json.Unmarshal(data, &out); err != nil || out.User == nil {
		t.Fatalf("user %s: %v in %s", name, err, data)
	}
	return out.User.Rank
}

// TestRankAfterRatedGame: ada signs up as a dan player, bob as a beginner;
// the lobby shows their provisional ranks beside their names and the
// challenge as rated; ada loses a rated game to bob by resignation, and
// bob's new rank shows in the lobby (beside his name in the navigation and
// beside his next challenge) and on the game page.
func TestRankAfterRatedGame(t *testing.T) {
	s := newSite(t)
	ada, bob := s.person(t, "ada"), s.person(t, "bob")
	ada.signupAt("ada-password", "dan")
	if got := eval[string](ada, `document.querySelector("nav .rank").textContent`); got != "[3d?]" {
		t.Errorf("ada's rank in the navigation: %q, want [3d?]", got)
	}
	bob.signup("bob-password") // the form's default level: beginner
	if got := eval[string](bob, `document.querySelector("nav .rank").textContent`); got != "[25k?]" {
		t.Errorf("bob's rank in the navigation: %q, want [25k?]", got)
	}

	gameID := startGame(t, ada, bob)
	if got := eval[string](bob, `document.getElementById("rated").textContent`); got != "rated" {
		t.Errorf("the game page says %q, want rated", got)
	}
	if got := eval[string](bob, `[...document.querySelectorAll(".game-title .rank")].map(e => e.textContent).join(" ")`); got != "[3d?] [25k?]" {
		t.Errorf("ranks in the game's title: %q", got)
	}
	ada.clickPoint(2, 2)
	bob.waitMoves(1)
	ada.do("resign", chromedp.Click(chromedp.CSS("#resign")), chromedp.Click(chromedp.CSS("#resign-yes")))
	bob.waitFor("the result", `document.getElementById("result").dataset.result === "W+R"`)

	newRank := s.userRank(t, "bob")
	if newRank == "25k?" || !strings.HasSuffix(newRank, "?") {
		t.Fatalf("bob's rank after beating a 3d: %q, want a higher provisional rank", newRank)
	}
	bob.do("reload", chromedp.Reload())
	bob.waitFor("the finished game", `document.getElementById("game").dataset.status === "finished"`)
	if got := eval[string](bob, `document.querySelector(".player[data-color=white] .rank").textContent`); got != "["+newRank+"]" {
		t.Errorf("bob's rank on the game page: %q, want [%s]", got, newRank)
	}

	// Bob's next challenge shows his new rank in ada's lobby.
	bob.open("/")
	bob.do("challenge", chromedp.SetValue(chromedp.CSS(`#challenge-form input[name="boardSize"]`), "13"),
		chromedp.Click(chromedp.CSS(`#challenge-form button[type="submit"]`)))
	bob.waitFor("his challenge", `!!document.querySelector("#challenge-list form[action$='/cancel']")`)
	if got := eval[string](bob, `document.querySelector("nav .rank").textContent`); got != "["+newRank+"]" {
		t.Errorf("bob's rank in the navigation: %q, want [%s]", got, newRank)
	}
	ada.open("/")
	row := `document.querySelector("#challenge-list tbody tr")`
	if got := eval[string](ada, row+`.cells[0].textContent.trim()`); got != fmt.Sprintf("bob [%s]", newRank) {
		t.Errorf("the challenge's name cell: %q, want bob [%s]", got, newRank)
	}
	if got := eval[string](ada, row+`.querySelector(".rated").textContent`); got != "rated" {
		t.Errorf("the challenge is shown as %q, want rated", got)
	}
	for _, vp := range []struct {
		name string
		w, h int64
	}{{"desktop", 1280, 900}, {"phone", 390, 844}} {
		ada.do("viewport "+vp.name, chromedp.EmulateViewport(vp.w, vp.h))
		// The challenge list fits the phone's width or scrolls inside itself.
		t.Logf("%s screenshot of the lobby: %s", vp.name, ada.screenshot("tengen-rank-lobby-"+vp.name+".png"))
	}
	// Bob's profile: his rank, rating, record and the rated game.
	bob.open("/users/bob")
	if got := eval[int](bob, `document.querySelectorAll("#rating-history tbody tr").length`); got != 1 {
		t.Errorf("bob's profile lists %d rating changes, want 1", got)
	}
	if got := eval[string](bob, `document.getElementById("record").textContent`); !strings.HasPrefix(got, "Wins: 1 · losses: 0 · draws: 0") {
		t.Errorf("bob's record: %q", got)
	}
	bob.do("phone", chromedp.EmulateViewport(390, 844))
	t.Logf("phone screenshot of bob's profile: %s", bob.screenshot("tengen-rank-profile-phone.png"))
	ada.open(fmt.Sprintf("/games/%d", gameID))
	ada.waitFor("the game page", `document.getElementById("game").dataset.status === "finished"`)
	t.Logf("phone screenshot of the game page: %s", ada.screenshot("tengen-rank-game-phone.png"))
}
