package tengen_test

import (
	"strings"
	"testing"

	"tengen"
)

// TestChatVisible is the table of who reads which room of a game, and
// where each writes.
func TestChatVisible(t *testing.T) {
	const black, white, spectator, anonymous = 1, 2, 3, 0
	playing := &tengen.Game{BlackID: black, WhiteID: white, Status: tengen.GamePlaying}
	scoring := &tengen.Game{BlackID: black, WhiteID: white, Status: tengen.GameScoring}
	finished := &tengen.Game{BlackID: black, WhiteID: white, Status: tengen.GameFinished}
	for _, tt := range []struct {
		name       string
		g          *tengen.Game
		user       int64
		players    bool
		spectators bool
		writes     tengen.ChatRoom
	}{
		{"black playing", playing, black, true, false, tengen.ChatPlayers},
		{"white playing", playing, white, true, false, tengen.ChatPlayers},
		{"spectator playing", playing, spectator, false, true, tengen.ChatSpectators},
		{"anonymous playing", playing, anonymous, false, true, tengen.ChatSpectators},
		{"black counting", scoring, black, true, false, tengen.ChatPlayers},
		{"spectator counting", scoring, spectator, false, true, tengen.ChatSpectators},
		{"black finished", finished, black, true, true, tengen.ChatPlayers},
		{"white finished", finished, white, true, true, tengen.ChatPlayers},
		{"spectator finished", finished, spectator, true, true, tengen.ChatSpectators},
		{"anonymous finished", finished, anonymous, true, true, tengen.ChatSpectators},
	} {
		if got := tengen.ChatVisible(tt.g, tt.user, tengen.ChatPlayers); got != tt.players {
			t.Errorf("%s: players' room visible %v, want %v", tt.name, got, tt.players)
		}
		if got := tengen.ChatVisible(tt.g, tt.user, tengen.ChatSpectators); got != tt.spectators {
			t.Errorf("%s: spectators' room visible %v, want %v", tt.name, got, tt.spectators)
		}
		if tengen.ChatVisible(tt.g, tt.user, tengen.ChatLobby) {
			t.Errorf("%s: the lobby is no room of a game", tt.name)
		}
		if got := tengen.ChatRoomFor(tt.g, tt.user); got != tt.writes {
			t.Errorf("%s: writes in %q, want %q", tt.name, got, tt.writes)
		}
	}
}

func TestNormalizeChatText(t *testing.T) {
	for _, tt := range []struct {
		in, want string
		ok       bool
	}{
		{"hello", "hello", true},
		{"  two\nlines\t ", "two\nlines", true},
		{"<script>alert(1)</script>", "<script>alert(1)</script>", true}, // escaped on display, stored as said
		{strings.Repeat("碁", tengen.MaxChatLen), strings.Repeat("碁", tengen.MaxChatLen), true},
		{strings.Repeat("碁", tengen.MaxChatLen+1), "", false},
		{"", "", false},
		{" \n\t", "", false},
		{"bell\a", "", false},
		{"esc\x1b[31m", "", false},
		{"bad \xff", "", false},
		{"del\u007f", "", false},
	} {
		got, err := tengen.NormalizeChatText(tt.in)
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("NormalizeChatText(%q) = %q, %v; want %q, ok %v", tt.in, got, err, tt.want, tt.ok)
		}
		if err != nil && tengen.ErrorCode(err) != tengen.EINVALID {
			t.Errorf("NormalizeChatText(%q): code %q", tt.in, tengen.ErrorCode(err))
		}
	}
}

// FuzzNormalizeChatText: any input either is refused with EINVALID or comes
// back as a valid message that normalises to itself.
func FuzzNormalizeChatText(f *testing.F) {
	for _, s := range []string{"hello", " a\nb ", "<b>x</b>", "\xff", "a\x00", strings.Repeat("碁", tengen.MaxChatLen)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		out, err := tengen.NormalizeChatText(in)
		if err != nil {
			if tengen.ErrorCode(err) != tengen.EINVALID {
				t.Fatalf("%q: code %q", in, tengen.ErrorCode(err))
			}
			return
		}
		again, err := tengen.NormalizeChatText(out)
		if err != nil || again != out || out == "" || len([]rune(out)) > tengen.MaxChatLen {
			t.Fatalf("%q gave %q, which normalises to %q, %v", in, out, again, err)
		}
	})
}
