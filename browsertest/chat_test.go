package browsertest

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"tengen"
	"tengen/sqlite"
)

// chatTexts returns the texts of the chat messages a page shows.
func (p *person) chatTexts() []string {
	return eval[[]string](p, `[...document.querySelectorAll("#chat-log li[data-id] .chat-text")].map((e) => e.textContent)`)
}

// sendChat writes a message into the chat panel and sends it.
func (p *person) sendChat(text string) {
	p.t.Helper()
	p.do("chat "+text,
		chromedp.SetValue(chromedp.CSS(`#chat-text`), text),
		chromedp.Click(chromedp.CSS(`#chat-form button[type="submit"]`)),
	)
}

// waitChat waits until the page shows a chat message with exactly text.
func (p *person) waitChat(text string) {
	p.t.Helper()
	p.waitFor("the chat message "+text, fmt.Sprintf(
		`[...document.querySelectorAll("#chat-log li[data-id] .chat-text")].some((e) => e.textContent === %q)`, text))
}

// TestChat is issue 17's chat in two browsers: alice (desktop, the admin)
// and bob (phone) chat both ways during their game; markup in a message is
// shown as text and never run; bob mutes and unmutes alice; alice deletes
// one of bob's messages and it leaves bob's page at once; the lobby has
// its chat too, live over the site socket.
func TestChat(t *testing.T) {
	s := newSite(t)
	alice := s.person(t, "alice")
	bob := s.person(t, "bob")
	bob.do("phone viewport", chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile, chromedp.EmulateTouch))
	alice.signup("alice-password") // the first account: an admin
	bob.signup("bob-password")
	gameID := startGame(t, alice, bob)
	for _, p := range []*person{alice, bob} {
		p.waitFor("the chat panel", `!!document.getElementById("chat-form") && document.querySelector("#chat-log li")`)
		if note := eval[string](p, `document.getElementById("chat-room-note").textContent`); !strings.Contains(note, "players") {
			t.Errorf("%s's room note %q does not say the players' chat", p.name, note)
		}
	}

	// Both ways, and markup stays text.
	evil := `<script>window.pwned = 1</script><b>bold</b> <img src=x onerror="window.pwned = 2">`
	alice.sendChat(evil)
	bob.waitChat(evil)
	bob.sendChat("thanks, have a good game")
	alice.waitChat("thanks, have a good game")
	alice.waitChat(evil)
	for _, p := range []*person{alice, bob} {
		if n := eval[int](p, `document.querySelectorAll("#chat-log b, #chat-log script, #chat-log img").length`); n != 0 {
			t.Errorf("%s's chat holds %d elements from a message's markup", p.name, n)
		}
		if pwned := eval[bool](p, `window.pwned !== undefined`); pwned {
			t.Errorf("%s's page ran a message's script", p.name)
		}
		if got := p.chatTexts(); len(got) != 2 || got[0] != evil || got[1] != "thanks, have a good game" {
			t.Errorf("%s's chat shows %q", p.name, got)
		}
	}
	alice.do("show chat", chromedp.ScrollIntoView(chromedp.CSS("#chat")))
	alice.screenshot("tengen-chat-game-desktop.png")
	bob.do("show chat", chromedp.ScrollIntoView(chromedp.CSS("#chat")))
	bob.screenshot("tengen-chat-game-phone.png")

	// Bob mutes alice: her messages leave his page; unmuted, they are back.
	bob.do("mute alice", chromedp.Click(chromedp.CSS(`#chat-log .chat-mute`)))
	bob.waitFor("alice's message hidden", `!document.getElementById("chat-muted").hidden && document.querySelectorAll("#chat-log li[data-id]").length === 1`)
	alice.sendChat("are you there?")
	bob.sendChat("thinking")
	alice.waitChat("thinking")
	if got := bob.chatTexts(); len(got) != 2 || got[1] != "thinking" {
		t.Errorf("bob, who muted alice, sees %q", got)
	}
	bob.do("unmute alice", chromedp.Click(chromedp.CSS(`#chat-muted button[data-unmute="alice"]`)))
	bob.waitChat("are you there?")
	bob.waitFor("the muted line gone", `document.getElementById("chat-muted").hidden`)

	// The admin deletes bob's "thinking"; bob's page drops it at once.
	eval[bool](alice, `(window.confirm = () => true, true)`)
	alice.do("delete", chromedp.Click(chromedp.CSS(`#chat-log li[data-id]:last-child .chat-delete`)))
	bob.waitFor("the deleted message gone", `![...document.querySelectorAll("#chat-log .chat-text")].some((e) => e.textContent === "thinking")`)
	if n := eval[int](bob, `document.querySelectorAll("#chat-log .chat-delete").length`); n != 0 {
		t.Errorf("bob, no admin, sees %d delete buttons", n)
	}

	// A visitor watching the game reads the spectators' room only, and
	// cannot write.
	carol := s.person(t, "carol")
	carol.open(fmt.Sprintf("/games/%d", gameID))
	carol.waitFor("the spectators' chat", `!document.getElementById("chat-tab-spectators").hidden && document.querySelector("#chat-log li.chat-empty")`)
	if eval[bool](carol, `!document.getElementById("chat-tab-players").hidden || !!document.getElementById("chat-form")`) {
		t.Error("a visitor sees the players' tab or a chat form during the game")
	}
	if got := carol.chatTexts(); len(got) != 0 {
		t.Errorf("a visitor reads %q of the players' chat during the game", got)
	}

	// Alice resigns: now everybody reads both rooms.
	alice.do("resign", chromedp.Click(chromedp.CSS("#resign")), chromedp.Click(chromedp.CSS("#resign-yes")))
	carol.waitFor("both rooms after the game", `!document.getElementById("chat-tab-players").hidden && !document.getElementById("chat-tab-spectators").hidden`)
	carol.do("players' tab", chromedp.Click(chromedp.CSS("#chat-tab-players")))
	carol.waitChat(evil)
	bob.waitFor("the note after the game", `document.getElementById("chat-room-note").textContent.includes("over")`)
	bob.do("show chat", chromedp.ScrollIntoView(chromedp.CSS("#chat")))
	bob.screenshot("tengen-chat-finished-phone.png")

	// The lobby's chat.
	alice.open("/")
	alice.waitFor("the lobby chat", `!!document.getElementById("chat-form") && document.querySelector("#chat-log li")`)
	alice.sendChat("anyone for a <i>9×9</i>?")
	alice.waitChat("anyone for a <i>9×9</i>?")
	bob.open("/")
	bob.waitChat("anyone for a <i>9×9</i>?")
	bob.sendChat("after this game")
	bob.waitChat("after this game")
	// Alice's lobby, open all along, gets bob's message live over the site
	// socket.
	alice.waitChat("after this game")
	for _, p := range []*person{alice, bob} {
		if n := eval[int](p, `document.querySelectorAll("#chat-log i").length`); n != 0 {
			t.Errorf("%s's lobby chat holds markup", p.name)
		}
	}
	alice.do("show lobby chat", chromedp.ScrollIntoView(chromedp.CSS("#chat")))
	alice.screenshot("tengen-chat-lobby-desktop.png")
	bob.do("show lobby chat", chromedp.ScrollIntoView(chromedp.CSS("#chat")))
	bob.screenshot("tengen-chat-lobby-phone.png")

	// A line said while alice's lobby was away (the server restarting:
	// written straight into storage, so no socket hears of it) is there
	// when her page is back.
	for _, p := range []*person{alice, bob} {
		p.allowConsole("WebSocket connection to")
	}
	s.stop()
	writeLobbyChat(t, s.dbPath, "bob", "said while you were away")
	s.start(t)
	alice.waitChat("said while you were away")
}

// writeLobbyChat stores a lobby chat line of the named user directly in
// the database of a stopped site.
func writeLobbyChat(t *testing.T, dbPath, name, text string) {
	t.Helper()
	db := sqlite.NewDB(dbPath)
	if err := db.Open(); err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	u, err := sqlite.NewUserService(db).FindUserByName(ctx, name)
	if err != nil {
		t.Fatal(err)
	}
	if err := sqlite.NewChatService(db).CreateChatMessage(ctx, &tengen.ChatMessage{Room: tengen.ChatLobby, AuthorID: u.ID, Text: text}); err != nil {
		t.Fatal(err)
	}
}
