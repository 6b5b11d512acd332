package tengen

import (
	"context"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// MaxChatLen is the longest chat message in characters (Unicode code
// points): a few sentences, enough for a comment on the game and short
// enough that one message cannot fill the panel.
const MaxChatLen = 500

// ChatRoom is where a chat message was said.
type ChatRoom string

// Chat rooms. Each game has two: the players' and the spectators'. Who may
// read and write which is decided by ChatVisible and ChatRoomFor.
const (
	ChatPlayers    ChatRoom = "players"
	ChatSpectators ChatRoom = "spectators"
	ChatLobby      ChatRoom = "lobby"
)

// ChatMessage is one message of a chat.
type ChatMessage struct {
	ID   int64    `json:"id"`
	Room ChatRoom `json:"room"`
	// GameID is the game of a players' or spectators' message, 0 in the
	// lobby.
	GameID   int64 `json:"gameId,omitempty"`
	AuthorID int64 `json:"authorId"`
	// AuthorName is filled in by storage from the author's account.
	AuthorName string `json:"author"`
	Text       string `json:"text"`
	// MoveNumber is the number of moves the game had when the message was
	// said (0 before the first move); storage sets it from the game in the
	// transaction that stores the message. It is 0 in the lobby.
	MoveNumber int       `json:"moveNumber"`
	CreatedAt  time.Time `json:"createdAt"`
	// Deleted marks a message an admin removed; Find leaves such messages
	// out unless asked for them.
	Deleted bool `json:"deleted,omitempty"`
}

// CheckNew checks the room and game of a message about to be stored and
// returns its text normalised with NormalizeChatText.
func (m *ChatMessage) CheckNew() (string, error) {
	switch m.Room {
	case ChatLobby:
		if m.GameID != 0 {
			return "", Errorf(EINVALID, "A lobby message belongs to no game.")
		}
	case ChatPlayers, ChatSpectators:
		if m.GameID <= 0 {
			return "", Errorf(EINVALID, "A game chat message needs its game.")
		}
	default:
		return "", Errorf(EINVALID, "Unknown chat room %q.", m.Room)
	}
	return NormalizeChatText(m.Text)
}

// NormalizeChatText returns text as it is stored: without surrounding white
// space. It refuses an empty message, one over MaxChatLen characters,
// invalid UTF-8 and control characters other than line breaks and tabs.
func NormalizeChatText(text string) (string, error) {
	if !utf8.ValidString(text) {
		return "", Errorf(EINVALID, "A chat message must be valid UTF-8.")
	}
	text = strings.TrimSpace(text)
	if text == "" {
		return "", Errorf(EINVALID, "A chat message cannot be empty.")
	}
	if n := utf8.RuneCountInString(text); n > MaxChatLen {
		return "", Errorf(EINVALID, "A chat message has at most %d characters (this one has %d).", MaxChatLen, n)
	}
	for _, r := range text {
		if unicode.IsControl(r) && r != '\n' && r != '\t' {
			return "", Errorf(EINVALID, "A chat message cannot contain control characters.")
		}
	}
	return text, nil
}

// ChatRoomFor returns the room of game g in which userID writes: the
// players' room for its two players, the spectators' room for everybody
// else.
func ChatRoomFor(g *Game, userID int64) ChatRoom {
	if userID != 0 && (userID == g.BlackID || userID == g.WhiteID) {
		return ChatPlayers
	}
	return ChatSpectators
}

// ChatVisible reports whether userID (0 for a visitor who is not logged in)
// may read the messages of room in game g. The players' room is the two
// players' until the game ends, when everybody may read it; the spectators'
// room is everybody's but the players', who may read it once the game has
// ended, so that remarks on their moves do not reach them while they play.
func ChatVisible(g *Game, userID int64, room ChatRoom) bool {
	player := userID != 0 && (userID == g.BlackID || userID == g.WhiteID)
	switch room {
	case ChatPlayers:
		return player || g.Status == GameFinished
	case ChatSpectators:
		return !player || g.Status == GameFinished
	}
	return false
}

// ChatFilter selects chat messages for FindChatMessages.
type ChatFilter struct {
	// Room is the room; GameID the game of a game room (ignored for the
	// lobby).
	Room   ChatRoom
	GameID int64
	// ViewerID, when not 0, leaves out the messages of the users the
	// viewer muted.
	ViewerID int64
	// BeforeID, when not 0, returns only messages with smaller ids, for
	// paging back.
	BeforeID int64
	// Limit is the most messages returned, the newest ones; 0 means all.
	Limit int
	// IncludeDeleted also returns messages an admin deleted.
	IncludeDeleted bool
}

// ChatService stores chat messages and who muted whom. Every method is one
// transaction.
type ChatService interface {
	// CreateChatMessage validates and stores m and sets its ID, AuthorName,
	// MoveNumber (game rooms) and CreatedAt. The text is normalised with
	// NormalizeChatText. An unknown author or game is ENOTFOUND; a disabled
	// author EFORBIDDEN; a lobby message with a game or a game message
	// without one EINVALID. Storage does not check who may write in which
	// room: that is the caller's rule (ChatRoomFor).
	CreateChatMessage(ctx context.Context, m *ChatMessage) error
	// FindChatMessages returns the messages the filter selects, oldest
	// first.
	FindChatMessages(ctx context.Context, filter ChatFilter) ([]*ChatMessage, error)
	// FindChatMessageByID returns the message, deleted or not, or
	// ENOTFOUND.
	FindChatMessageByID(ctx context.Context, id int64) (*ChatMessage, error)
	// DeleteChatMessage marks the message deleted and returns it; deleting
	// a deleted message changes nothing. An unknown id is ENOTFOUND.
	DeleteChatMessage(ctx context.Context, id int64) (*ChatMessage, error)
	// SetMuted records that muterID muted (true) or unmuted (false)
	// mutedID. Muting twice or unmuting someone not muted changes nothing.
	// Muting oneself is EINVALID; an unknown user ENOTFOUND.
	SetMuted(ctx context.Context, muterID, mutedID int64, muted bool) error
	// FindMutedUsers returns the names of the users muterID muted, in
	// alphabetical order.
	FindMutedUsers(ctx context.Context, muterID int64) ([]string, error)
	// FindMuters returns the ids of the users who muted mutedID, so that a
	// live message can skip their screens.
	FindMuters(ctx context.Context, mutedID int64) ([]int64, error)
}
