package sqlite

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"time"

	"tengen"
)

// Compile-time check that SessionService implements the interface.
var _ tengen.SessionService = (*SessionService)(nil)

// SessionService stores sessions in SQLite. Only a SHA-256 hash of each
// token is stored, so a leaked database file does not let anyone log in.
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
	defer tx.Rollback()
	if _, err := findUser(ctx, tx, "id = ?", userID); err != nil {
		return nil, err
	}
	expiresAt = expiresAt.UTC().Truncate(time.Microsecond)
	if _, err := tx.ExecContext(ctx, `INSERT INTO sessions (token_hash, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)`,
		hashToken(token), userID, formatTime(tx.now), formatTime(expiresAt)); err != nil {
		return nil, err
	}
	if err := tx.Commit(); err != nil {
		return nil, err
	}
	return &tengen.Session{Token: token, UserID: userID, CreatedAt: tx.now, ExpiresAt: expiresAt}, nil
}

// findSessionQuery runs for every request of a logged-in user and every few
// seconds for each of their WebSockets (see hot).
var findSessionQuery = hot(`SELECT user_id, created_at, expires_at FROM sessions WHERE token_hash = ? AND expires_at > ?`)

// FindSession implements tengen.SessionService.
func (s *SessionService) FindSession(ctx context.Context, token string) (*tengen.Session, error) {
	tx, err := s.db.BeginTx(ctx, false)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	sess := tengen.Session{Token: token}
	err = tx.QueryRowContext(ctx, findSessionQuery, hashToken(token), formatTime(tx.now)).Scan(&sess.UserID, timeText{&sess.CreatedAt}, timeText{&sess.ExpiresAt})
	if errors.Is(err, sql.ErrNoRows) {
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
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `DELETE FROM sessions WHERE token_hash = ?`, hashToken(token)); err != nil {
		return err
	}
	return tx.Commit()
}

// DeleteUserSessions implements tengen.SessionService.
func (s *SessionService) DeleteUserSessions(ctx context.Context, userID int64) (int, error) {
	tx, err := s.db.BeginTx(ctx, true)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	n, err := deleteUserSessions(ctx, tx, userID)
	if err != nil {
		return 0, err
	}
	return n, tx.Commit()
}

func deleteUserSessions(ctx context.Context, tx *Tx, userID int64) (int, error) {
	res, err := tx.ExecContext(ctx, `DELETE FROM sessions WHERE user_id = ?`, userID)
	if err != nil {
		return 0, err
	}
	n, err := res.RowsAffected()
	return int(n), err
}

// DeleteExpiredSessions implements tengen.SessionService.
func (s *SessionService) DeleteExpiredSessions(ctx context.Context, now time.Time) (int, error) {
	tx, err := s.db.BeginTx(ctx, true)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, `DELETE FROM sessions WHERE expires_at <= ?`, formatTime(now))
	if err != nil {
		return 0, err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, err
	}
	return int(n), tx.Commit()
}
