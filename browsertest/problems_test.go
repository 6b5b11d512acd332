package browsertest

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestSolveProblem: a user opens the problem list, picks p024 (the bulky
// five: Black kills at the vital point B9), plays a wrong move first and
// sees the refutation, tries again and solves the problem by clicking; the
// opponent's answer comes from the tree, and the solved problem is kept
// for the user. A visitor on a phone solves it too.
func TestSolveProblem(t *testing.T) {
	s := newSite(t)
	ann := s.person(t, "ann")
	ann.signup("ann-password")
	ann.open("/problems")
	ann.do("open p024", chromedp.Click(chromedp.CSS(`li[data-problem="p024"] a`)))
	ann.waitFor("the problem page", `location.pathname === "/problems/p024" && document.getElementById("problem").dataset.state === "playing"`)
	if got := eval[string](ann, `document.getElementById("problem-statement").textContent`); got != "Black to play: kill the white group." {
		t.Errorf("statement %q", got)
	}

	// B8 (1,1) is wrong: White answers at B9 (1,0) and lives.
	ann.clickPoint(1, 1)
	ann.waitFor("the refutation", `document.getElementById("problem").dataset.state === "failed"`)
	if got := ann.stonesShown(); got["B8"] != "B" || got["B9"] != "W" {
		t.Errorf("after the wrong move the board shows %v, want Black B8 and White's answer B9", got)
	}
	if got := eval[string](ann, `document.getElementById("problem-comment").textContent`); got != "Wrong: after White's answer the group lives." {
		t.Errorf("refutation comment %q", got)
	}
	ann.do("try again", chromedp.Click(chromedp.CSS(`#problem-retry`)))
	ann.waitFor("the start position", `document.getElementById("problem").dataset.state === "playing"`)

	// B9 (1,0), White answers B8 (1,1), A9 (0,0) kills.
	ann.clickPoint(1, 0)
	ann.waitFor("White's answer", `!!document.querySelector('#board svg .stone.white[data-point="B8"]')`)
	ann.clickPoint(0, 0)
	ann.waitFor("solved", `document.getElementById("problem").dataset.state === "solved" && !!document.getElementById("problem").dataset.rating`)
	if got := eval[string](ann, `document.getElementById("problem-status").textContent`); got != "Solved!" {
		t.Errorf("status %q", got)
	}
	desktop := ann.screenshot("tengen-problem-desktop.png")
	ann.open("/problems")
	ann.waitFor("p024 marked solved", `document.querySelector('li[data-problem="p024"]').classList.contains("solved")`)
	if got := eval[string](ann, `document.getElementById("problem-rating").textContent`); !strings.HasPrefix(got, "You have solved 1 of ") {
		t.Errorf("rating line %q", got)
	}
	t.Logf("problem list: %s", ann.screenshot("tengen-problem-list-desktop.png"))

	phone := s.person(t, "visitor")
	phone.do("phone viewport", chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile, chromedp.EmulateTouch))
	phone.open("/problems/p024")
	phone.waitFor("the problem page", `document.getElementById("problem").dataset.state === "playing"`)
	// On a touch screen the first tap shows the stone, the second plays it.
	for _, p := range [][2]int{{1, 0}, {1, 0}} {
		phone.clickPoint(p[0], p[1])
	}
	phone.waitFor("White's answer", `!!document.querySelector('#board svg .stone.white[data-point="B8"]')`)
	phone.clickPoint(0, 0)
	phone.clickPoint(0, 0)
	phone.waitFor("solved", `document.getElementById("problem").dataset.state === "solved"`)
	if got := eval[string](phone, `localStorage.getItem("tengen.problems.solved")`); got != `["p024"]` {
		t.Errorf("the visitor's browser keeps %q", got)
	}
	eval[bool](phone, `(document.getElementById("problem-status").scrollIntoView(), true)`)
	t.Logf("screenshots: %s, %s", desktop, phone.screenshot("tengen-problem-phone.png"))

	// A capture problem marks its target: p001's white stone at C7.
	phone.open("/problems/p001")
	phone.waitFor("the target mark", `!!document.querySelector("#board svg .target-mark")`)
	t.Logf("capture problem: %s", phone.screenshot("tengen-problem-capture-phone.png"))
}
