package storagetest

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"tengen"
)

// chatTexts returns the texts of msgs in order.
func chatTexts(msgs []*tengen.ChatMessage) []string {
	out := []string{}
	for _, m := range msgs {
		out = append(out, m.Text)
	}
	return out
}

// testChat: messages are stored per room with their author and move
// number, found oldest first, limited to the newest, hidden when deleted
// and when their author is muted by the viewer; bad messages change
// nothing.
func testChat(t *testing.T, b *Backend) {
	if b.Chat == nil {
		t.Fatal("the backend has no ChatService")
	}
	ctx := context.Background()
	s := b.Services
	alice, bob, carol := mustUser(t, s, "alice"), mustUser(t, s, "bob"), mustUser(t, s, "carol")
	g := mustGame(t, s, alice, bob, settings19())
	other := mustGame(t, s, bob, alice, settings19())

	say := func(room tengen.ChatRoom, gameID int64, author *tengen.User, text string) *tengen.ChatMessage {
		t.Helper()
		m := &tengen.ChatMessage{Room: room, GameID: gameID, AuthorID: author.ID, Text: text}
		if err := b.Chat.CreateChatMessage(ctx, m); err != nil {
			t.Fatalf("CreateChatMessage(%q): %v", text, err)
		}
		return m
	}
	first := say(tengen.ChatPlayers, g.ID, alice, "  have a good game\t")
	if first.ID == 0 || first.AuthorName != "alice" || first.Text != "have a good game" || first.MoveNumber != 0 || first.CreatedAt.IsZero() {
		t.Errorf("stored message %+v: want an id, author alice, trimmed text, move 0 and a time", first)
	}
	if _, err := play(s, g, alice, 1, tengen.MovePlay, 3, 3, false); err != nil {
		t.Fatal(err)
	}
	if _, err := play(s, g, bob, 2, tengen.MovePlay, 15, 15, false); err != nil {
		t.Fatal(err)
	}
	second := say(tengen.ChatPlayers, g.ID, bob, "thanks, you too")
	if second.MoveNumber != 2 {
		t.Errorf("message after two moves has move number %d, want 2", second.MoveNumber)
	}
	say(tengen.ChatSpectators, g.ID, carol, "nice opening")
	say(tengen.ChatPlayers, other.ID, bob, "other game")
	lobby := say(tengen.ChatLobby, 0, carol, "anyone for a 9x9?")
	if lobby.GameID != 0 || lobby.MoveNumber != 0 {
		t.Errorf("lobby message %+v: want no game and move 0", lobby)
	}

	find := func(f tengen.ChatFilter) []string {
		t.Helper()
		msgs, err := b.Chat.FindChatMessages(ctx, f)
		if err != nil {
			t.Fatalf("FindChatMessages(%+v): %v", f, err)
		}
		return chatTexts(msgs)
	}
	for _, tt := range []struct {
		name string
		f    tengen.ChatFilter
		want []string
	}{
		{"players", tengen.ChatFilter{Room: tengen.ChatPlayers, GameID: g.ID}, []string{"have a good game", "thanks, you too"}},
		{"spectators", tengen.ChatFilter{Room: tengen.ChatSpectators, GameID: g.ID}, []string{"nice opening"}},
		{"other game", tengen.ChatFilter{Room: tengen.ChatPlayers, GameID: other.ID}, []string{"other game"}},
		{"lobby", tengen.ChatFilter{Room: tengen.ChatLobby}, []string{"anyone for a 9x9?"}},
		{"newest one", tengen.ChatFilter{Room: tengen.ChatPlayers, GameID: g.ID, Limit: 1}, []string{"thanks, you too"}},
		{"before", tengen.ChatFilter{Room: tengen.ChatPlayers, GameID: g.ID, BeforeID: second.ID}, []string{"have a good game"}},
		{"unknown game", tengen.ChatFilter{Room: tengen.ChatPlayers, GameID: g.ID + other.ID + 100}, []string{}},
	} {
		if got := find(tt.f); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: got %q, want %q", tt.name, got, tt.want)
		}
	}

	// Deletion hides a message but keeps it.
	del, err := b.Chat.DeleteChatMessage(ctx, first.ID)
	if err != nil || !del.Deleted || del.Text != first.Text {
		t.Fatalf("DeleteChatMessage: %+v, %v; want the message marked deleted", del, err)
	}
	if _, err := b.Chat.DeleteChatMessage(ctx, first.ID); err != nil {
		t.Errorf("deleting twice: %v", err)
	}
	if got := find(tengen.ChatFilter{Room: tengen.ChatPlayers, GameID: g.ID}); !reflect.DeepEqual(got, []string{"thanks, you too"}) {
		t.Errorf("after deletion: %q", got)
	}
	if got := find(tengen.ChatFilter{Room: tengen.ChatPlayers, GameID: g.ID, IncludeDeleted: true}); len(got) != 2 {
		t.Errorf("with deleted: %q, want both", got)
	}
	if m, err := b.Chat.FindChatMessageByID(ctx, first.ID); err != nil || !m.Deleted || m.AuthorName != "alice" || m.GameID != g.ID {
		t.Errorf("FindChatMessageByID: %+v, %v", m, err)
	}
	_, err = b.Chat.DeleteChatMessage(ctx, first.ID+1000)
	wantCode(t, "delete unknown", err, tengen.ENOTFOUND)
	_, err = b.Chat.FindChatMessageByID(ctx, first.ID+1000)
	wantCode(t, "find unknown", err, tengen.ENOTFOUND)

	// Mutes are per muter.
	if err := b.Chat.SetMuted(ctx, alice.ID, bob.ID, true); err != nil {
		t.Fatal(err)
	}
	if err := b.Chat.SetMuted(ctx, alice.ID, bob.ID, true); err != nil {
		t.Errorf("muting twice: %v", err)
	}
	if err := b.Chat.SetMuted(ctx, carol.ID, bob.ID, true); err != nil {
		t.Fatal(err)
	}
	if got := find(tengen.ChatFilter{Room: tengen.ChatPlayers, GameID: g.ID, ViewerID: alice.ID}); len(got) != 0 {
		t.Errorf("alice muted bob but sees %q", got)
	}
	if got := find(tengen.ChatFilter{Room: tengen.ChatPlayers, GameID: g.ID, ViewerID: bob.ID}); len(got) != 1 {
		t.Errorf("bob sees %q, want his own message", got)
	}
	if names, err := b.Chat.FindMutedUsers(ctx, alice.ID); err != nil || !reflect.DeepEqual(names, []string{"bob"}) {
		t.Errorf("FindMutedUsers(alice) = %q, %v", names, err)
	}
	if ids, err := b.Chat.FindMuters(ctx, bob.ID); err != nil || !reflect.DeepEqual(ids, []int64{alice.ID, carol.ID}) {
		t.Errorf("FindMuters(bob) = %v, %v; want alice and carol", ids, err)
	}
	if err := b.Chat.SetMuted(ctx, alice.ID, bob.ID, false); err != nil {
		t.Fatal(err)
	}
	if err := b.Chat.SetMuted(ctx, alice.ID, carol.ID, false); err != nil {
		t.Errorf("unmuting someone not muted: %v", err)
	}
	if names, err := b.Chat.FindMutedUsers(ctx, alice.ID); err != nil || len(names) != 0 {
		t.Errorf("after unmuting: %q, %v", names, err)
	}
	wantCode(t, "mute oneself", b.Chat.SetMuted(ctx, alice.ID, alice.ID, true), tengen.EINVALID)
	wantCode(t, "mute unknown", b.Chat.SetMuted(ctx, alice.ID, alice.ID+bob.ID+carol.ID+100, true), tengen.ENOTFOUND)

	// Bad messages are refused and change nothing.
	for _, tt := range []struct {
		name string
		m    tengen.ChatMessage
		code string
	}{
		{"empty", tengen.ChatMessage{Room: tengen.ChatLobby, AuthorID: alice.ID, Text: " \n "}, tengen.EINVALID},
		{"too long", tengen.ChatMessage{Room: tengen.ChatLobby, AuthorID: alice.ID, Text: strings.Repeat("é", tengen.MaxChatLen+1)}, tengen.EINVALID},
		{"control", tengen.ChatMessage{Room: tengen.ChatLobby, AuthorID: alice.ID, Text: "a\x00b"}, tengen.EINVALID},
		{"bad utf-8", tengen.ChatMessage{Room: tengen.ChatLobby, AuthorID: alice.ID, Text: "a\xffb"}, tengen.EINVALID},
		{"unknown room", tengen.ChatMessage{Room: "kitchen", AuthorID: alice.ID, Text: "hi"}, tengen.EINVALID},
		{"lobby with game", tengen.ChatMessage{Room: tengen.ChatLobby, GameID: g.ID, AuthorID: alice.ID, Text: "hi"}, tengen.EINVALID},
		{"game without game", tengen.ChatMessage{Room: tengen.ChatPlayers, AuthorID: alice.ID, Text: "hi"}, tengen.EINVALID},
		{"unknown game", tengen.ChatMessage{Room: tengen.ChatSpectators, GameID: g.ID + other.ID + 100, AuthorID: carol.ID, Text: "hi"}, tengen.ENOTFOUND},
		{"unknown author", tengen.ChatMessage{Room: tengen.ChatLobby, AuthorID: alice.ID + bob.ID + carol.ID + 100, Text: "hi"}, tengen.ENOTFOUND},
	} {
		m := tt.m
		wantCode(t, tt.name, b.Chat.CreateChatMessage(ctx, &m), tt.code)
	}
	if got := find(tengen.ChatFilter{Room: tengen.ChatLobby, IncludeDeleted: true}); len(got) != 1 {
		t.Errorf("refused messages were stored: lobby holds %q", got)
	}
	// A message exactly at the limit is accepted.
	say(tengen.ChatLobby, 0, alice, strings.Repeat("é", tengen.MaxChatLen))

	// A disabled account cannot chat.
	if _, err := s.Users.SetUserDisabled(ctx, carol.ID, true); err != nil {
		t.Fatal(err)
	}
	m := tengen.ChatMessage{Room: tengen.ChatLobby, AuthorID: carol.ID, Text: "still here"}
	wantCode(t, "disabled author", b.Chat.CreateChatMessage(ctx, &m), tengen.EFORBIDDEN)
	if got := find(tengen.ChatFilter{Room: tengen.ChatLobby}); len(got) != 2 {
		t.Errorf("lobby after the disabled author's try: %q", got)
	}
}
