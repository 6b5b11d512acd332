package postgres

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"time"

	"tengen"
)

// Compile-time check that SessionService implements the interface.
var _ tengen.SessionService = (*SessionService)(nil)

// SessionService stores sessions in PostgreSQL. Only a SHA-256 hash of each
// token is stored, so a leaked database does not let anyone log in. Every
// instance on the database sees every session.
type SessionService struct {
	db *DB
}

// NewSessionService returns a SessionService on db.
func NewSessionService(db *DB) *SessionService {
	return &SessionService{db: db}
}

func hashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// CreateSession implements tengen.SessionService.
func (s *SessionService) CreateSession(ctx context.Context, userID int64, expiresAt time.Time) (*tengen.Session, error) {
	var buf [32]byte
	if _, err := rand.Read(buf[:]); err != nil {
		return nil, err
	}
	token := base64.RawURLEncoding.EncodeToString(buf[:])
	tx, err := s.db.BeginTx(ctx, true)
	if err != nil {
		return nil, err
	}
	defer tx.rollback()
	if _, err := findUser(ctx, tx, "id = $1", userID); err != nil {
		return nil, err
	}
	expiresAt = expiresAt.UTC().Truncate(time.Microsecond)
	if _, err := tx.exec(ctx, `INSERT INTO sessions (token_hash, user_id, created_at, expires_at) VALUES ($1, $2, $3, $4)`,
		hashToken(token), userID, tx.now, expiresAt); err != nil {
		return nil, err
	}
	if err := tx.commit(ctx); err != nil {
		return nil, err
	}
	return &tengen.Session{Token: token, UserID: userID, CreatedAt: tx.now, ExpiresAt: expiresAt}, nil
}

// FindSession implements tengen.SessionService. It is one statement, so it
// runs alone, without BEGIN and ROLLBACK around it: every socket checks
// its session again every few seconds (http's wsSessionRecheck), hundreds of
// times a second on a busy server, and the two round trips more would be
// most of the cost.
func (s *SessionService) FindSession(ctx context.Context, token string) (*tengen.Session, error) {
	sess := tengen.Session{Token: token}
	now := s.db.Now().UTC().Truncate(time.Microsecond)
	err := s.db.pool.QueryRow(ctx, `SELECT user_id, created_at, expires_at FROM sessions WHERE token_hash = $1 AND expires_at > $2`,
		hashToken(token), now).Scan(&sess.UserID, &sess.CreatedAt, &sess.ExpiresAt)
	if noRows(err) {
		return nil, tengen.Errorf(tengen.ENOTFOUND, "Session not found or expired.")
	} else if err != nil {
		return nil, err
	}
	return &sess, nil
}

// DeleteSession implements tengen.SessionService.
func (s *SessionService) DeleteSession(ctx context.Context, token string) error {
	tx, err := s.db.BeginTx(ctx, true)
	if err != nil {
		return err
	}
	defer tx.rollback()
	if _, err := tx.exec(ctx, `DELETE FROM sessions WHERE token_hash = $1`, hashToken(token)); err != nil {
		return err
	}
	return tx.commit(ctx)
}

// DeleteUserSessions implements tengen.SessionService.
func (s *SessionService) DeleteUserSessions(ctx context.Context, userID int64) (int, error) {
	tx, err := s.db.BeginTx(ctx, true)
	if err != nil {
		return 0, err
	}
	defer tx.rollback()
	n, err := tx.exec(ctx, `DELETE FROM sessions WHERE user_id = $1`, userID)
	if err != nil {
		return 0, err
	}
	return int(n), tx.commit(ctx)
}

// DeleteExpiredSessions implements tengen.SessionService.
func (s *SessionService) DeleteExpiredSessions(ctx context.Context, now time.Time) (int, error) {
	tx, err := s.db.BeginTx(ctx, true)
	if err != nil {
		return 0, err
	}
	defer tx.rollback()
	n, err := tx.exec(ctx, `DELETE FROM sessions WHERE expires_at <= $1`, now.UTC())
	if err != nil {
		return 0, err
	}
	return int(n), tx.commit(ctx)
}
