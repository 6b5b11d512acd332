package browsertest

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"tengen"
	"tengen/engine"
	"tengen/goban"
)

// TestPlayTheComputer: a user starts a 9×9 game against the beginner bot
// from the lobby's form, plays a few moves by clicking, and sees the bot
// answer each of them on the board.
func TestPlayTheComputer(t *testing.T) {
	s := newSite(t)
	ada := s.person(t, "ada")
	ada.signup("ada-password")
	ada.open("/")
	want := fmt.Sprintf("Tengen-beginner — %d kyu", engine.Levels()[0].Kyu)
	if got := eval[string](ada, `document.querySelector('#bot-form select[name="bot"] option').textContent`); !strings.HasPrefix(got, want) {
		t.Errorf("first bot offered: %q, want the beginner with its kyu label", got)
	}
	// The time fields of other kinds are hidden, as in the challenge form.
	if !eval[bool](ada, `document.querySelector('#bot-form input[name="periods"]').closest("label").hidden`) {
		t.Error("byo-yomi fields shown for a game without time limit")
	}
	ada.do("start a game against the beginner",
		chromedp.SetValue(chromedp.CSS(`#bot-form select[name="bot"]`), "Tengen-beginner"),
		chromedp.SetValue(chromedp.CSS(`#bot-form input[name="boardSize"]`), "9"),
		chromedp.SetValue(chromedp.CSS(`#bot-form select[name="ruleset"]`), "japanese"),
		chromedp.SetValue(chromedp.CSS(`#bot-form select[name="color"]`), "black"),
		chromedp.Click(chromedp.CSS(`#bot-form button[type="submit"]`)),
	)
	ada.waitFor("the game page", `/^\/games\/\d+$/.test(location.pathname) && !!document.querySelector("#board svg")`)
	// The board is drawn before the game's socket is open; a click before
	// that is refused on the page ("offline"), as it would be for a person.
	ada.waitFor("the game's connection", `document.getElementById("game").dataset.connected === "true"`)
	id, err := strconv.ParseInt(strings.TrimPrefix(eval[string](ada, `location.pathname`), "/games/"), 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	st := s.gameState(t, id)
	if st.Game.White == nil || st.Game.White.Name != "Tengen-beginner" || st.Game.Black == nil || st.Game.Black.Name != "ada" {
		t.Fatalf("game %d: %+v", id, st.Game)
	}

	for seq := 1; seq <= 5; seq += 2 {
		p := emptyPoint(t, st)
		ada.clickPoint(p.X, p.Y)
		// The bot's answer arrives over the WebSocket.
		ada.waitMoves(seq + 1)
		st = s.gameState(t, id)
		if st.Game.Status != tengen.GamePlaying {
			t.Fatalf("after move %d the game is %s (%s)", seq+1, st.Game.Status, st.Game.Result)
		}
		if m := st.Moves[seq]; m.Color != goban.White {
			t.Fatalf("move %d is %+v, want the bot's", seq+1, m)
		}
		if got, want := ada.stonesShown(), stonesOf(st.Board); !sameStones(got, want) {
			t.Fatalf("after the bot's move %d the page shows %v, the server has %v", seq+1, got, want)
		}
	}
	if got := eval[string](ada, `document.getElementById("status").textContent`); !strings.HasPrefix(got, "White played ") || !strings.HasSuffix(got, "Your move.") {
		t.Errorf("status after the bot's answer: %q, want the bot's move and \"Your move.\"", got)
	}
}

// emptyPoint returns an empty point near the centre of the board that is
// not an obvious self-atari: one with at least two empty neighbours.
func emptyPoint(t *testing.T, st *tengen.GameSnapshot) goban.Point {
	t.Helper()
	n := len(st.Board)
	empty := func(x, y int) bool { return x >= 0 && y >= 0 && x < n && y < n && st.Board[y][x] == '.' }
	for _, p := range []goban.Point{{X: 2, Y: 2}, {X: 6, Y: 6}, {X: 2, Y: 6}, {X: 6, Y: 2}, {X: 4, Y: 4}, {X: 4, Y: 2}, {X: 2, Y: 4}, {X: 6, Y: 4}, {X: 4, Y: 6}} {
		libs := 0
		for _, d := range [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
			if empty(p.X+d[0], p.Y+d[1]) {
				libs++
			}
		}
		if empty(p.X, p.Y) && libs >= 2 {
			return p
		}
	}
	for y := range n {
		for x := range n {
			if empty(x, y) {
				return goban.Point{X: x, Y: y}
			}
		}
	}
	t.Fatalf("no empty point on %v", st.Board)
	return goban.Point{}
}
