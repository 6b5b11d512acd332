package browsertest

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"tengen/goban"
	"tengen/learn"
)

// clickLessonPoint clicks a point, given in GTP form, of the lesson board.
func (p *person) clickLessonPoint(name string) {
	p.t.Helper()
	w := eval[float64](p, `Number(document.querySelector("#lesson-board svg").dataset.width)`)
	h := eval[float64](p, `Number(document.querySelector("#lesson-board svg").dataset.height)`)
	pt, _, err := goban.ParseVertex(name, int(w), int(h))
	if err != nil {
		p.t.Fatal(err)
	}
	p.clickBoardPoint("#lesson-board svg", pt.X, pt.Y)
}

// doLesson answers every step of a lesson by clicking: the moves given for
// the play steps, and for the mark steps the points the rules core wants.
// shot names a screenshot taken after the first right answer.
func (p *person) doLesson(id string, moves map[int]string, shot string) {
	p.t.Helper()
	l, ok := learn.Find(id)
	if !ok {
		p.t.Fatalf("no lesson %s", id)
	}
	p.open("/learn/" + id)
	for i, st := range l.Steps {
		p.waitFor(fmt.Sprintf("%s step %d", id, i+1), fmt.Sprintf(`document.getElementById("step-count").textContent.startsWith("%s")`,
			eval[string](p, fmt.Sprintf(`JSON.parse(document.getElementById("lesson-data").textContent).ui.step.replace("%%d", "%d").split("%%d")[0]`, i+1))))
		switch st.Kind {
		case learn.PlayKind:
			p.clickLessonPoint(moves[i])
		case learn.MarkKind:
			sol, err := st.Solution()
			if err != nil {
				p.t.Fatal(err)
			}
			_, h := st.Size()
			for _, q := range sol {
				p.clickLessonPoint(goban.FormatVertex(q, h))
			}
			p.do("check", chromedp.Click(chromedp.CSS("#check")))
		default:
			p.t.Fatalf("%s step %d: kind %s is not clicked in this test", id, i+1, st.Kind)
		}
		p.waitFor(fmt.Sprintf("%s step %d right", id, i+1), `document.getElementById("verdict").classList.contains("right")`)
		if i == 0 && shot != "" {
			p.t.Logf("%s: %s", id, p.screenshot(shot))
		}
		p.do("next", chromedp.Click(chromedp.CSS("#next")))
	}
	p.waitFor(id+" complete", `!document.getElementById("lesson-end").hidden`)
}

// TestFirstLessons: a visitor completes the first three lessons by
// clicking, sees a wrong move refused with its reason, and finds the
// progress on the lesson list; at desktop and phone width.
func TestFirstLessons(t *testing.T) {
	s := newSite(t)
	p := s.person(t, "learner")
	p.do("desktop viewport", chromedp.EmulateViewport(1280, 900))
	p.doLesson("liberties", nil, "tengen-lesson-liberties-desktop.png")

	// A wrong move first: the rules core says why.
	p.open("/learn/capture")
	p.waitFor("capture lesson", `document.querySelector("#lesson-board svg")`)
	p.clickLessonPoint("E1")
	p.waitFor("refused", `document.getElementById("verdict").classList.contains("wrong")`)
	if got := eval[string](p, `document.getElementById("verdict").textContent`); got != "Not yet. There is already a stone on that point." {
		t.Errorf("verdict of an occupied point: %q", got)
	}
	// The lesson goes on where it is: the step is still the first one.
	p.doLesson("capture", map[int]string{0: "E2", 1: "D4", 2: "A7", 3: "D3"}, "")
	if !eval[bool](p, `!!document.querySelector("#atari-go")`) {
		t.Error("the capture lesson offers no Atari-Go game")
	}

	p.do("phone viewport", chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile))
	p.doLesson("suicide", map[int]string{2: "D5"}, "tengen-lesson-suicide-phone.png")
	if w := eval[float64](p, `document.documentElement.scrollWidth`); w > 390 {
		t.Errorf("the lesson page is %v px wide on a 390 px phone", w)
	}
	p.open("/learn")
	for _, id := range []string{"liberties", "capture", "suicide"} {
		if !eval[bool](p, fmt.Sprintf(`document.querySelector('#lessons li[data-lesson="%s"]').classList.contains("done")`, id)) {
			t.Errorf("the list does not show %s as done", id)
		}
	}
	if eval[bool](p, `document.querySelector('#lessons li[data-lesson="ko"]').classList.contains("done")`) {
		t.Error("the list shows ko as done")
	}
	t.Logf("lesson list, phone: %s", p.screenshot("tengen-learn-phone.png"))

	// The glossary draws its diagrams with the board module.
	p.open("/glossary")
	p.waitFor("glossary diagrams", `document.querySelectorAll(".mini-board svg").length >= 8`)
	t.Logf("glossary, phone: %s", p.screenshot("tengen-glossary-phone.png"))
	// On a phone the rules table has no header row: every cell names its
	// ruleset.
	p.open("/rules")
	if got := eval[string](p, `getComputedStyle(document.querySelector("#rules-table tbody td"), "::before").content`); !strings.Contains(got, "Japanese") {
		t.Errorf("the first cell of the rules table on a phone is labelled %s, want the ruleset", got)
	}
	t.Logf("rules, phone: %s", p.screenshot("tengen-rules-phone.png"))
	p.do("desktop viewport", chromedp.EmulateViewport(1280, 900))
	p.open("/rules")
	t.Logf("rules, desktop: %s", p.screenshot("tengen-rules-desktop.png"))
}

// TestAtariGoFromLesson: the end of the capture lessons starts a game of
// Atari-Go against a built-in engine through the lobby's bot form, and the
// engine answers under the atari ruleset.
func TestAtariGoFromLesson(t *testing.T) {
	s := newSite(t)
	ada := s.person(t, "ada")
	ada.signup("ada-password")
	ada.open("/learn/atari-go")
	ada.do("start Atari-Go", chromedp.Click(chromedp.CSS(`#atari-form button[type="submit"]`)))
	ada.waitFor("the game page", `/^\/games\/\d+$/.test(location.pathname) && !!document.querySelector("#board svg")`)
	id, err := strconv.ParseInt(strings.TrimPrefix(eval[string](ada, `location.pathname`), "/games/"), 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	st := s.gameState(t, id)
	if st.Game.Settings.Ruleset != "atari" || st.Game.Settings.BoardSize != 9 || st.Game.Black == nil || st.Game.Black.Name != "ada" ||
		st.Game.White == nil || !st.Game.White.Bot {
		t.Fatalf("game %d: %+v", id, st.Game)
	}
	p := emptyPoint(t, st)
	// The page takes clicks once its socket has brought the game.
	ada.waitFor("the game over the socket", `document.getElementById("status").textContent.includes("Your move")`)
	ada.clickPoint(p.X, p.Y)
	ada.waitMoves(2)
	if st = s.gameState(t, id); st.Moves[1].Color != goban.White {
		t.Errorf("second move %+v, want the engine's", st.Moves[1])
	}
}
