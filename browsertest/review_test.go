package browsertest

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// reviewRecord is a short 9×9 game: B C7, W G3, B C3.
const reviewRecord = "(;GM[1]FF[4]SZ[9]KM[7]PB[Ann]PW[Ben]RE[B+R];B[cc];W[gg];B[cg])"

// uploadReview pastes a record on the upload page and waits for its board.
func (p *person) uploadReview(record, visibility string) string {
	p.t.Helper()
	p.open("/reviews/new")
	p.do("paste the record",
		chromedp.SetValue(chromedp.CSS(`#upload-text`), record),
		chromedp.SetValue(chromedp.CSS(`#upload-visibility`), visibility),
		chromedp.Click(chromedp.CSS(`#upload-submit`)),
	)
	p.waitFor("the review board", `location.pathname.startsWith("/reviews/") && document.getElementById("review")?.dataset.ready === "1"`)
	return eval[string](p, `location.pathname`)
}

// key presses a key on the page (not in a text field).
func (p *person) key(k string) {
	p.t.Helper()
	eval[bool](p, `(document.activeElement.blur(), true)`)
	p.do("key", chromedp.KeyEvent(k))
}

// TestReviewBoard: a user uploads a record, walks it with the keyboard,
// branches a variation by playing a move, comments and marks it, edits the
// game information and downloads the record with all of it; the upload
// page lists the games of a collection with the repairs, refuses a broken
// record with its place, and sends a Shift_JIS file as its bytes.
func TestReviewBoard(t *testing.T) {
	s := newSite(t)
	ann := s.person(t, "ann")
	ann.signup("ann-password")
	path := ann.uploadReview(reviewRecord, "unlisted")
	eval[bool](ann, `(document.addEventListener("review:node", (e) => { window.lastNode = e.detail; }), true)`)

	ann.key(kb.End)
	ann.waitFor("the last move", `document.getElementById("node-status").textContent.startsWith("Move 3")`)
	if got := ann.stonesShown(); got["C7"] != "B" || got["G3"] != "W" || got["C3"] != "B" {
		t.Errorf("stones at the end %v", got)
	}
	ann.key(kb.ArrowLeft)
	ann.waitFor("move 2", `document.getElementById("node-status").textContent.startsWith("Move 2")`)
	if got := eval[int](ann, `window.lastNode.moves.length`); got != 2 {
		t.Errorf("review:node reports %d moves at move 2", got)
	}
	if got := eval[string](ann, `window.lastNode.toPlay + " " + window.lastNode.width + " " + window.lastNode.komi`); got != "black 9 7" {
		t.Errorf("review:node position %q", got)
	}

	// The engine analyses the line shown; its best moves at move 2 are
	// drawn on empty points of the board.
	ann.waitFor("the analysis panel", `!document.getElementById("analysis").hidden && !!document.querySelector(".analysis-start")`)
	ann.do("analyse", chromedp.SetValue(chromedp.CSS(".analysis-playouts select"), "50"), chromedp.Click(chromedp.CSS(".analysis-start")))
	ann.waitFor("the analysis of the line", `document.getElementById("analysis").dataset.state === "done"`)
	ann.waitFor("the best moves at move 2", `document.querySelectorAll("#board svg .analysis-best").length > 0`)
	eval[bool](ann, `(document.getElementById("nav-first").scrollIntoView(), true)`)
	t.Logf("analysis: %s", ann.screenshot("tengen-review-analysis-desktop.png"))

	// Black plays G7 instead of C3: a second variation at move 3.
	ann.clickPoint(6, 2)
	ann.waitFor("the new variation", `document.getElementById("node-status").textContent.includes("variation 2 of 2")`)
	if got := eval[int](ann, `document.querySelectorAll("#tree .tree-node").length`); got != 5 {
		t.Errorf("tree shows %d nodes, want 5 (root, 3 moves, 1 variation)", got)
	}
	ann.do("comment",
		chromedp.Click(chromedp.CSS(`#comment`)),
		chromedp.SendKeys(chromedp.CSS(`#comment`), "G7 is bigger <really>"),
	)
	ann.do("triangle tool", chromedp.Click(chromedp.CSS(`input[name="tool"][value="TR"]`)))
	ann.clickPoint(2, 6)
	ann.waitFor("the triangle", `!!document.querySelector("#board svg .mark-TR")`)
	ann.do("label tool", chromedp.Click(chromedp.CSS(`input[name="tool"][value="LB"]`)))
	ann.clickPoint(4, 4)
	ann.waitFor("the label", `document.querySelector("#board svg .mark-LB")?.textContent === "A"`)
	ann.do("game info",
		chromedp.Click(chromedp.CSS(`#info summary`)),
		chromedp.SetValue(chromedp.CSS(`#info-form input[name="EV"]`), "Club night"),
		chromedp.Click(chromedp.CSS(`#info-save`)),
	)
	ann.waitFor("saved", `document.getElementById("review-status").textContent === "Saved."`)
	eval[bool](ann, `(window.scrollTo(0, 0), true)`)
	t.Logf("desktop: %s", ann.screenshot("tengen-review-desktop.png"))

	// The download has the variation, the comment, the marks and the
	// game information.
	sgf := eval[string](ann, `fetch(document.getElementById("download").href).then((r) => r.text())`)
	for _, part := range []string{"EV[Club night]", "(;B[cg])", "(;B[gc]C[G7 is bigger <really>]TR[cg]LB[ee:A])"} {
		if !strings.Contains(sgf, part) {
			t.Errorf("download lacks %q:\n%s", part, sgf)
		}
	}
	// After a reload the board opens the same record.
	ann.open(path)
	ann.waitFor("the board again", `document.getElementById("review").dataset.ready === "1"`)
	ann.key(kb.End)
	ann.key(kb.ArrowLeft)
	ann.key(kb.ArrowRight)
	ann.key(kb.ArrowDown)
	ann.waitFor("the variation by keyboard", `document.getElementById("node-status").textContent.includes("variation 2 of 2")`)
	if got := eval[string](ann, `document.getElementById("comment").value`); got != "G7 is bigger <really>" {
		t.Errorf("comment after reload %q", got)
	}

	// A collection: each game is offered, with the repairs listed.
	ann.open("/reviews/new")
	ann.do("paste a collection",
		chromedp.SetValue(chromedp.CSS(`#upload-text`), "junk before (;SZ[9]PB[One];B[cc])(;SZ[9]PB[Two];B[gg])"),
		chromedp.Click(chromedp.CSS(`#upload-submit`)),
	)
	ann.waitFor("the list of games", `!document.getElementById("upload-result").hidden`)
	if got := eval[int](ann, `document.querySelectorAll("#upload-games a").length`); got != 2 {
		t.Errorf("%d games offered, want 2", got)
	}
	if got := eval[string](ann, `document.getElementById("upload-warnings").textContent`); !strings.Contains(got, "Line 1, column 1") {
		t.Errorf("warnings %q", got)
	}
	ann.allowConsole("status of 400") // the refused upload
	ann.open("/reviews/new")
	ann.do("paste a broken record",
		chromedp.SetValue(chromedp.CSS(`#upload-text`), "(;SZ[9];B[cc];W[cc])"),
		chromedp.Click(chromedp.CSS(`#upload-submit`)),
	)
	ann.waitFor("the error", `!document.getElementById("upload-error").hidden`)
	if got := eval[string](ann, `document.getElementById("upload-error").textContent`); !strings.Contains(got, "line 1, column") {
		t.Errorf("error %q", got)
	}
	ann.open("/reviews")
	ann.waitFor("the library", `document.querySelectorAll("table.reviews tbody tr").length === 3`)
	t.Logf("library: %s", ann.screenshot("tengen-review-library-desktop.png"))

	// A file goes up as its bytes: this one is Shift_JIS.
	file, err := filepath.Abs("../sgf/testdata/shift_jis.sgf")
	if err != nil {
		t.Fatal(err)
	}
	ann.open("/reviews/new")
	ann.do("choose a file", chromedp.SetUploadFiles(chromedp.CSS(`#upload-file`), []string{file}), chromedp.Click(chromedp.CSS(`#upload-submit`)))
	ann.waitFor("the file's board", `location.pathname.startsWith("/reviews/") && document.getElementById("review")?.dataset.ready === "1"`)
	if got := eval[string](ann, `document.getElementById("review-players").textContent`); !strings.Contains(got, "表示太郎") || !strings.Contains(got, "能力次郎") {
		t.Errorf("players of the Shift_JIS file: %q", got)
	}
	if got := eval[string](ann, `document.getElementById("comment").value`); got != "表と能は二バイト目が0x5Cです。" {
		t.Errorf("root comment of the Shift_JIS file: %q", got)
	}

	phone := s.person(t, "phone")
	phone.do("phone viewport", chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile, chromedp.EmulateTouch))
	phone.open(path)
	phone.waitFor("the board", `document.getElementById("review").dataset.ready === "1"`)
	t.Logf("phone: %s", phone.screenshot("tengen-review-phone.png"))

	// The owner deletes the first review; the library has the other three.
	ann.open(path)
	ann.waitFor("the board", `document.getElementById("review").dataset.ready === "1"`)
	eval[bool](ann, `(window.confirm = () => true, true)`)
	ann.do("delete", chromedp.Click(chromedp.CSS(`#delete-review`)))
	ann.waitFor("the library", `location.pathname === "/reviews" && document.querySelectorAll("table.reviews tbody tr").length === 3`)
	if got := eval[string](ann, `document.querySelector("table.reviews").textContent`); strings.Contains(got, "Ann – Ben") {
		t.Errorf("the deleted review is listed: %s", got)
	}
}

// TestSharedReview: the owner drives and a spectator in another browser
// follows; the owner hands control over, and the new controller's moves
// reach the owner; the chat is relayed as text.
func TestSharedReview(t *testing.T) {
	s := newSite(t)
	ann, ben := s.person(t, "ann"), s.person(t, "ben")
	ann.signup("ann-password")
	ben.signup("ben-password")
	path := ann.uploadReview(reviewRecord, "unlisted")
	ann.waitFor("the socket", `document.getElementById("review").dataset.live === "1"`)
	ben.open(path)
	ben.waitFor("ben's board", `document.getElementById("review").dataset.live === "1"`)
	if got := eval[bool](ben, `document.getElementById("tools").hidden && document.getElementById("comment").readOnly`); !got {
		t.Error("the spectator can edit")
	}

	ann.key(kb.End)
	ben.waitFor("ben follows to the end", `document.getElementById("node-status").textContent.startsWith("Move 3")`)
	ann.key(kb.ArrowLeft)
	ben.waitFor("ben follows back", `document.getElementById("node-status").textContent.startsWith("Move 2")`)
	ann.clickPoint(6, 2)
	ben.waitFor("ann's variation on ben's board", `document.querySelector('#board svg .stone.black[data-point="G7"]') !== null`)
	ben.waitFor("ben's tree", `document.querySelectorAll("#tree .tree-node").length === 5`)

	ben.do("chat", chromedp.SetValue(chromedp.CSS(`#review-chat-text`), "<b>nice</b> move"), chromedp.Click(chromedp.CSS(`#review-chat-form button`)))
	ann.waitFor("the chat", `document.getElementById("review-chat-log").textContent.includes("<b>nice</b> move")`)
	if got := eval[int](ann, `document.querySelectorAll("#review-chat-log b").length`); got != 0 {
		t.Error("chat markup was rendered")
	}
	// The owner moderates: ann deletes ben's line, and it leaves both pages;
	// ben, who does not own the board, has no delete button.
	if n := eval[int](ben, `document.querySelectorAll("#review-chat-log .chat-delete").length`); n != 0 {
		t.Errorf("ben sees %d delete buttons", n)
	}
	ben.do("chat again", chromedp.SetValue(chromedp.CSS(`#review-chat-text`), "second line"), chromedp.Click(chromedp.CSS(`#review-chat-form button`)))
	ann.waitFor("the second line", `document.getElementById("review-chat-log").textContent.includes("second line")`)
	ann.do("delete ben's line", chromedp.Click(chromedp.CSS(`#review-chat-log li:last-child .chat-delete`)))
	for _, p := range []*person{ann, ben} {
		p.waitFor("the line gone", `!document.getElementById("review-chat-log").textContent.includes("second line") && document.getElementById("review-chat-log").textContent.includes("nice")`)
	}

	ann.do("hand over", chromedp.SetValue(chromedp.CSS(`#control-user`), "ben"), chromedp.Click(chromedp.CSS(`#control-form button`)))
	ben.waitFor("ben controls", `!document.getElementById("tools").hidden`)
	ann.waitFor("ann follows", `document.getElementById("tools").hidden && !document.getElementById("take-back").hidden`)
	// Ben answers at C3 (2,6) in the variation.
	ben.clickPoint(2, 6)
	ann.waitFor("ben's move on ann's board", `document.querySelector('#board svg .stone.white[data-point="C3"]') !== null`)
	ben.waitFor("saved", `document.getElementById("review-status").textContent === "Saved."`)
	t.Logf("controller: %s, spectator: %s", ben.screenshot("tengen-review-shared-ben.png"), ann.screenshot("tengen-review-shared-ann.png"))
	ann.do("take back", chromedp.Click(chromedp.CSS(`#take-back`)))
	ann.waitFor("ann controls again", `!document.getElementById("tools").hidden`)
	ben.waitFor("ben follows again", `document.getElementById("tools").hidden`)
	if got := eval[string](ann, fmt.Sprintf(`fetch(%q).then((r) => r.text())`, "/api/v1"+path+"/sgf")); !strings.Contains(got, "(;B[gc];W[cg])") {
		t.Errorf("record after the shared review:\n%s", got)
	}
}

// TestReviewThisGame: when a game ends, its page offers "Review this game",
// which opens the record on the review board with the clocks.
func TestReviewThisGame(t *testing.T) {
	s := newSite(t)
	ann, ben := s.person(t, "ann"), s.person(t, "ben")
	ann.signup("ann-password")
	ben.signup("ben-password")
	startGame(t, ann, ben)
	if got := eval[bool](ann, `document.getElementById("review-game-form").hidden`); !got {
		t.Error("a running game offers a review")
	}
	ann.clickPoint(2, 2)
	ben.waitMoves(1)
	ben.clickPoint(6, 6)
	ann.waitMoves(2)
	ben.do("resign", chromedp.Click(chromedp.CSS("#resign")), chromedp.Click(chromedp.CSS("#resign-yes")))
	ann.waitFor("the offer", `!document.getElementById("review-game-form").hidden`)
	ann.do("review this game", chromedp.Click(chromedp.CSS("#review-game")))
	ann.waitFor("the review board", `location.pathname.startsWith("/reviews/") && document.getElementById("review")?.dataset.ready === "1"`)
	ann.key(kb.End)
	ann.waitFor("the last move", `document.getElementById("node-status").textContent.startsWith("Move 2")`)
	if got := ann.stonesShown(); got["C7"] != "B" || got["G3"] != "W" {
		t.Errorf("stones %v", got)
	}
	sgf := eval[string](ann, `fetch(document.getElementById("download").href).then((r) => r.text())`)
	for _, part := range []string{"PB[ann]", "PW[ben]", "RE[B+R]", ";B[cc]BL[", ";W[gg]WL["} {
		if !strings.Contains(sgf, part) {
			t.Errorf("record lacks %q:\n%s", part, sgf)
		}
	}
}
