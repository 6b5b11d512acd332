package tengen

import (
	"context"
	"time"
)

// ChallengeStatus is where a challenge is in its life.
type ChallengeStatus string

// Challenge states. A challenge starts open and ends in one of the others.
const (
	ChallengeOpen      ChallengeStatus = "open"
	ChallengeAccepted  ChallengeStatus = "accepted"
	ChallengeCancelled ChallengeStatus = "cancelled"
	ChallengeDeclined  ChallengeStatus = "declined"
)

// Challenge is an offer to play a game. An open challenge (OpponentID 0) may
// be accepted by anyone but the challenger; a direct challenge only by the
// named opponent.
type Challenge struct {
	ID           int64 `json:"id"`
	ChallengerID int64 `json:"challengerId"`
	// Challenger is filled in by the Find methods.
	Challenger *User `json:"challenger,omitempty"`
	// OpponentID is the invited user, or 0 for an open challenge.
	OpponentID int64 `json:"opponentId,omitempty"`
	// Opponent is filled in by the Find methods for direct challenges.
	Opponent *User           `json:"opponent,omitempty"`
	Settings GameSettings    `json:"settings"`
	Status   ChallengeStatus `json:"status"`
	// GameID is the game created when the challenge was accepted.
	GameID    int64     `json:"gameId,omitempty"`
	CreatedAt time.Time `json:"createdAt"`
	UpdatedAt time.Time `json:"updatedAt"`
}

// IsOpen reports whether anyone may accept the challenge.
func (c *Challenge) IsOpen() bool { return c.OpponentID == 0 }

// Validate reports whether a new challenge may be stored.
func (c *Challenge) Validate() error {
	if c.ChallengerID == 0 {
		return Errorf(EINVALID, "Challenger required.")
	}
	if c.OpponentID == c.ChallengerID {
		return Errorf(EINVALID, "You cannot challenge yourself.")
	}
	return c.Settings.Validate()
}

// CanAccept reports why userID may not accept c, or nil if it may.
func (c *Challenge) CanAccept(userID int64) error {
	switch {
	case c.Status != ChallengeOpen:
		return Errorf(ECONFLICT, "This challenge is no longer open.")
	case userID == c.ChallengerID:
		return Errorf(EFORBIDDEN, "You cannot accept your own challenge.")
	case c.OpponentID != 0 && userID != c.OpponentID:
		return Errorf(EFORBIDDEN, "This challenge is addressed to someone else.")
	}
	return nil
}

// ChallengeFilter selects challenges. Zero fields do not filter.
type ChallengeFilter struct {
	ID     *int64
	Status *ChallengeStatus
	// VisibleTo selects the challenges a user sees in the lobby: open
	// challenges, and direct challenges the user made or received. A
	// pointer to 0 stands for an anonymous visitor: open challenges only.
	VisibleTo *int64
	// UserID selects challenges the user made or received.
	UserID *int64
	Offset int
	Limit  int
}

// MaxOpenChallenges is the most open challenges one user may have at a
// time, so that one account cannot fill the lobby.
const MaxOpenChallenges = 10

// ChallengeService stores challenges. Accepting a challenge is part of
// GameService because it creates a game in the same transaction.
type ChallengeService interface {
	// FindChallengeByID returns the challenge or ENOTFOUND.
	FindChallengeByID(ctx context.Context, id int64) (*Challenge, error)
	// FindChallenges returns matching challenges, newest first, and the total
	// number of matches ignoring Offset and Limit.
	FindChallenges(ctx context.Context, filter ChallengeFilter) ([]*Challenge, int, error)
	// CreateChallenge validates and stores c as an open challenge and sets
	// its ID, Status and timestamps. An unknown opponent gives ENOTFOUND; a
	// challenger who has MaxOpenChallenges open challenges already gets
	// ECONFLICT (counted in the same transaction, so that parallel requests
	// cannot pass the cap).
	CreateChallenge(ctx context.Context, c *Challenge) error
	// CancelChallenge withdraws (challenger) or declines (direct opponent)
	// an open challenge on behalf of userID. Others get EFORBIDDEN; a
	// challenge that is no longer open gives ECONFLICT.
	CancelChallenge(ctx context.Context, id, userID int64) (*Challenge, error)
	// RemoveChallenge cancels an open challenge on behalf of an admin,
	// whoever made it; a challenge that is no longer open gives ECONFLICT.
	RemoveChallenge(ctx context.Context, id int64) (*Challenge, error)
	// ExpireChallenges cancels every open challenge created before
	// before (open and direct alike) and returns the challenges it
	// cancelled, as they are now. When several instances expire at once,
	// each challenge is returned to exactly one of them, so that one
	// instance tells of it.
	ExpireChallenges(ctx context.Context, before time.Time) ([]*Challenge, error)
}

// DefaultChallengeTTL is how long a challenge stays open unless the
// operator sets another time.
const DefaultChallengeTTL = time.Hour
