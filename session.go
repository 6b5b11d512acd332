package tengen

import (
	"context"
	"time"
)

// Session is a logged-in browser or API client.
type Session struct {
	// Token is the secret that the client presents (in a cookie). It is set
	// only on the value returned by CreateSession; storage keeps a hash of it.
	Token     string    `json:"-"`
	UserID    int64     `json:"userId"`
	CreatedAt time.Time `json:"createdAt"`
	ExpiresAt time.Time `json:"expiresAt"`
}

// SessionService stores sessions.
type SessionService interface {
	// CreateSession creates a session for userID that expires at expiresAt
	// and returns it with a fresh random Token.
	CreateSession(ctx context.Context, userID int64, expiresAt time.Time) (*Session, error)
	// FindSession returns the unexpired session for token, or ENOTFOUND when
	// the token is unknown or expired.
	FindSession(ctx context.Context, token string) (*Session, error)
	// DeleteSession removes the session for token; deleting an unknown token
	// is not an error, so logging out twice is harmless.
	DeleteSession(ctx context.Context, token string) error
	// DeleteUserSessions removes every session of userID ("log out
	// everywhere") and returns how many it removed.
	DeleteUserSessions(ctx context.Context, userID int64) (int, error)
	// DeleteExpiredSessions removes sessions that expired before now and
	// returns how many it removed.
	DeleteExpiredSessions(ctx context.Context, now time.Time) (int, error)
}
