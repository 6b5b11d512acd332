package tengen

import (
	"context"
	"time"
)

// Visibility says who may see a review.
type Visibility string

// The visibilities of a review.
const (
	// Private reviews are seen by their owner and their controller only.
	Private Visibility = "private"
	// Unlisted reviews are seen by anyone who has the link, but are not
	// listed in the public library.
	Unlisted Visibility = "unlisted"
	// Public reviews are listed in the library and searchable.
	Public Visibility = "public"
)

// Valid reports whether v is one of the three visibilities.
func (v Visibility) Valid() bool { return v == Private || v == Unlisted || v == Public }

// Limits of reviews, which storage checks (docs/API.md, "Reviews").
const (
	// MaxReviewTitleLen is the longest title, in bytes.
	MaxReviewTitleLen = 200
	// MaxReviewSGF is the largest record of one review, in bytes of its
	// canonical form.
	MaxReviewSGF = 1 << 20
	// MaxReviewInfoLen bounds each search field (players, ranks, date,
	// result, event), in bytes; longer values are cut at a character
	// boundary before they are stored.
	MaxReviewInfoLen = 200
)

// ReviewQuota is how much one user may keep in reviews; storage refuses a
// change that would exceed it with EFORBIDDEN. Zero fields mean no limit.
type ReviewQuota struct {
	// Reviews is the most reviews one user may own.
	Reviews int
	// Bytes is the most bytes of records one user may own in all.
	Bytes int64
}

// ReviewInfo is the game information of a review's record that the library
// searches: PB, PW, BR, WR, DT, RE, EV and SZ of the first game's root, as
// written (unescaped).
type ReviewInfo struct {
	Black     string `json:"black"`
	White     string `json:"white"`
	BlackRank string `json:"blackRank,omitempty"`
	WhiteRank string `json:"whiteRank,omitempty"`
	Date      string `json:"date,omitempty"`
	Result    string `json:"result,omitempty"`
	Event     string `json:"event,omitempty"`
	Size      int    `json:"size"`
}

// Review is one game record kept for study: an uploaded SGF or a finished
// game of this server, with its variations, comments and markup.
type Review struct {
	ID      int64 `json:"id"`
	OwnerID int64 `json:"ownerId"`
	// OwnerName is filled in by reads.
	OwnerName string `json:"owner"`
	// ControllerID is who drives the shared board and may edit the record
	// besides the owner; the owner when nobody else was given control.
	ControllerID int64 `json:"controllerId"`
	// ControllerName is filled in by reads.
	ControllerName string     `json:"controller"`
	Title          string     `json:"title"`
	Visibility     Visibility `json:"visibility"`
	// GameID is the game of this server the record came from, 0 for an
	// uploaded record.
	GameID int64 `json:"gameId,omitempty"`
	// SGF is the record in canonical form (FF[4], UTF-8, see package sgf's
	// Format): one game tree. Lists leave it empty.
	SGF       string     `json:"-"`
	Info      ReviewInfo `json:"info"`
	CreatedAt time.Time  `json:"createdAt"`
	UpdatedAt time.Time  `json:"updatedAt"`
}

// ReviewFilter selects reviews for a list. Text fields match parts of the
// stored values, ignoring ASCII case.
type ReviewFilter struct {
	// OwnerID, when not 0, lists that user's reviews of every visibility;
	// when 0, only public reviews are listed.
	OwnerID int64
	// Player matches either player's name.
	Player string
	// Date matches DT (for example "2024" or "2024-03").
	Date string
	// Result matches RE (for example "B+" or "W+R").
	Result string
	// Limit is the most reviews returned (at most 100; 0 means 50), Offset
	// how many of the matches to skip. Newest updates come first.
	Limit, Offset int
}

// ReviewChatMessage is one line of a review's chat.
type ReviewChatMessage struct {
	ID       int64     `json:"id"`
	ReviewID int64     `json:"reviewId"`
	UserID   int64     `json:"userId"`
	UserName string    `json:"user"` // filled in by reads and by AddReviewChat
	Text     string    `json:"text"`
	Time     time.Time `json:"time"`
}

// ReviewService stores reviews. It checks integrity (visibility, lengths,
// sizes, quotas, that the users exist), not permissions: who may read or
// change a review is decided by the caller.
type ReviewService interface {
	// CreateReviews stores new reviews, all or none, setting their ids and
	// times. All must have the same owner; the controller starts as the
	// owner. Refuses with EFORBIDDEN when the owner would exceed quota,
	// with EINVALID for a bad title, visibility or an empty or too large
	// record, ENOTFOUND for an unknown owner.
	CreateReviews(ctx context.Context, rs []*Review, quota ReviewQuota) error
	// FindReview returns a review with its record; ENOTFOUND if there is none.
	FindReview(ctx context.Context, id int64) (*Review, error)
	// FindReviews lists reviews without their records, and the number of
	// matches in all.
	FindReviews(ctx context.Context, f ReviewFilter) ([]*Review, int, error)
	// UpdateReview stores r's title, visibility, record, info and
	// controller, and sets r.UpdatedAt. The owner, game and creation time
	// never change. The quota's Bytes applies to the owner's reviews with
	// the new record.
	UpdateReview(ctx context.Context, r *Review, quota ReviewQuota) error
	// DeleteReview removes a review and its chat.
	DeleteReview(ctx context.Context, id int64) error
	// AddReviewChat stores a chat message (checked as ValidateChat does),
	// setting its id, time and user name.
	AddReviewChat(ctx context.Context, m *ReviewChatMessage) error
	// FindReviewChat returns the last limit messages of a review, oldest
	// first.
	FindReviewChat(ctx context.Context, reviewID int64, limit int) ([]*ReviewChatMessage, error)
	// DeleteReviewChat removes message id of a review's chat; ENOTFOUND
	// if the review has no such message.
	DeleteReviewChat(ctx context.Context, reviewID, id int64) error
}

// SGFWarning is a repair or oddity found in an uploaded record, at a line
// and column of the input (0 when it has no place).
type SGFWarning struct {
	Line    int    `json:"line"`
	Col     int    `json:"col"`
	Message string `json:"message"`
}

// ImportedGame is one game of an uploaded record, in canonical form.
type ImportedGame struct {
	SGF  string
	Info ReviewInfo
}

// RecordService reads and writes game records for reviews; package review
// implements it with package sgf.
type RecordService interface {
	// Import checks data as "tengen sgf check" does (every FF, the
	// charsets, the repairs) and returns each game in canonical form with
	// the warnings. A record with errors is refused with an EINVALID whose
	// message names the first error's line and column.
	Import(data []byte) ([]ImportedGame, []SGFWarning, error)
}

// Validate checks what storage checks of a review before it writes one:
// title, visibility and the size of the record.
func (r *Review) Validate() error {
	if len(r.Title) > MaxReviewTitleLen {
		return Errorf(EINVALID, "A review title has at most %d characters.", MaxReviewTitleLen)
	}
	if !r.Visibility.Valid() {
		return Errorf(EINVALID, "Visibility must be private, unlisted or public.")
	}
	if r.SGF == "" {
		return Errorf(EINVALID, "A review needs a game record.")
	}
	if len(r.SGF) > MaxReviewSGF {
		return Errorf(EINVALID, "A game record has at most %d bytes.", MaxReviewSGF)
	}
	return nil
}

// ValidateChat checks a review chat message's text as the game chat's
// (NormalizeChatText) and stores it normalised.
func (m *ReviewChatMessage) ValidateChat() error {
	text, err := NormalizeChatText(m.Text)
	if err != nil {
		return err
	}
	m.Text = text
	return nil
}

// Clamped returns the filter's limit within its bounds.
func (f ReviewFilter) Clamped() (limit, offset int) {
	limit, offset = f.Limit, max(f.Offset, 0)
	if limit <= 0 {
		limit = 50
	}
	return min(limit, 100), offset
}

// CheckReviewQuota refuses with EFORBIDDEN when an owner who has n reviews
// would have n+more reviews or bytes bytes of records in all, beyond q.
func CheckReviewQuota(q ReviewQuota, n, more int, bytes int64) error {
	if q.Reviews > 0 && more > 0 && n+more > q.Reviews {
		return Errorf(EFORBIDDEN, "You may keep at most %d reviews; delete some first.", q.Reviews)
	}
	if q.Bytes > 0 && bytes > q.Bytes {
		return Errorf(EFORBIDDEN, "Your reviews may hold at most %d kB of records; delete some first.", q.Bytes>>10)
	}
	return nil
}
