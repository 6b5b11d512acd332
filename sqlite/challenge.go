package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
	"strings"
	"time"

	"tengen"
)

// Compile-time check that ChallengeService implements the interface.
var _ tengen.ChallengeService = (*ChallengeService)(nil)

// ChallengeService stores challenges in SQLite.
type ChallengeService struct {
	db *DB
}

// NewChallengeService returns a ChallengeService on db.
func NewChallengeService(db *DB) *ChallengeService {
	return &ChallengeService{db: db}
}

// FindChallengeByID implements tengen.ChallengeService.
func (s *ChallengeService) FindChallengeByID(ctx context.Context, id int64) (*tengen.Challenge, error) {
	tx, err := s.db.BeginTx(ctx, false)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	return findChallengeByID(ctx, tx, id)
}

// FindChallenges implements tengen.ChallengeService.
func (s *ChallengeService) FindChallenges(ctx context.Context, filter tengen.ChallengeFilter) ([]*tengen.Challenge, int, error) {
	tx, err := s.db.BeginTx(ctx, false)
	if err != nil {
		return nil, 0, err
	}
	defer tx.Rollback()
	return findChallenges(ctx, tx, filter)
}

// CreateChallenge implements tengen.ChallengeService.
func (s *ChallengeService) CreateChallenge(ctx context.Context, c *tengen.Challenge) error {
	if err := c.Validate(); err != nil {
		return err
	}
	tx, err := s.db.BeginTx(ctx, true)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	users, err := findUsers(ctx, tx, []int64{c.ChallengerID, c.OpponentID})
	if err != nil {
		return err
	}
	var open int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM challenges WHERE challenger_id = ? AND status = ?`,
		c.ChallengerID, string(tengen.ChallengeOpen)).Scan(&open); err != nil {
		return err
	}
	if open >= tengen.MaxOpenChallenges {
		return tengen.Errorf(tengen.ECONFLICT, "You have %d open challenges already; withdraw one first.", open)
	}
	id, err := tx.nextID(ctx, "challenges")
	if err != nil {
		return err
	}
	var opponent any // NULL for an open challenge
	if c.OpponentID != 0 {
		opponent = c.OpponentID
	}
	args := append([]any{id, c.ChallengerID, opponent}, settingsArgs(c.Settings)...)
	args = append(args, string(tengen.ChallengeOpen), formatTime(tx.now), formatTime(tx.now))
	if _, err := tx.ExecContext(ctx, `INSERT INTO challenges (id, challenger_id, opponent_id, `+settingsColumns+`, status, created_at, updated_at)
		VALUES (?, ?, ?, `+settingsPlaceholders+`, ?, ?, ?)`, args...); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	c.ID, c.Status, c.GameID, c.CreatedAt, c.UpdatedAt = id, tengen.ChallengeOpen, 0, tx.now, tx.now
	c.Challenger, c.Opponent = users[c.ChallengerID], users[c.OpponentID]
	return nil
}

// RemoveChallenge implements tengen.ChallengeService.
func (s *ChallengeService) RemoveChallenge(ctx context.Context, id int64) (*tengen.Challenge, error) {
	return s.closeChallenge(ctx, id, func(*tengen.Challenge) (tengen.ChallengeStatus, error) {
		return tengen.ChallengeCancelled, nil
	})
}

// ExpireChallenges implements tengen.ChallengeService.
func (s *ChallengeService) ExpireChallenges(ctx context.Context, before time.Time) ([]*tengen.Challenge, error) {
	tx, err := s.db.BeginTx(ctx, true)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	rows, err := tx.QueryContext(ctx, `UPDATE challenges SET status = ?, updated_at = ? WHERE status = ? AND created_at < ? RETURNING id`,
		string(tengen.ChallengeCancelled), formatTime(tx.now), string(tengen.ChallengeOpen), formatTime(before))
	if err != nil {
		return nil, err
	}
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return nil, err
		}
		ids = append(ids, id)
	}
	if err := errors.Join(rows.Err(), rows.Close()); err != nil {
		return nil, err
	}
	cs := make([]*tengen.Challenge, 0, len(ids))
	for _, id := range ids {
		c, err := findChallengeByID(ctx, tx, id)
		if err != nil {
			return nil, err
		}
		cs = append(cs, c)
	}
	return cs, tx.Commit()
}

// closeChallenge ends the open challenge id with the status that decide
// chooses for it, in one write transaction.
func (s *ChallengeService) closeChallenge(ctx context.Context, id int64, decide func(*tengen.Challenge) (tengen.ChallengeStatus, error)) (*tengen.Challenge, error) {
	tx, err := s.db.BeginTx(ctx, true)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	c, err := findChallengeByID(ctx, tx, id)
	if err != nil {
		return nil, err
	}
	status, err := decide(c)
	if err != nil {
		return nil, err
	}
	if c.Status != tengen.ChallengeOpen {
		return nil, tengen.Errorf(tengen.ECONFLICT, "This challenge is no longer open.")
	}
	if err := setChallengeStatus(ctx, tx, c, status, 0); err != nil {
		return nil, err
	}
	return c, tx.Commit()
}

// CancelChallenge implements tengen.ChallengeService.
func (s *ChallengeService) CancelChallenge(ctx context.Context, id, userID int64) (*tengen.Challenge, error) {
	return s.closeChallenge(ctx, id, func(c *tengen.Challenge) (tengen.ChallengeStatus, error) {
		switch {
		case userID == c.ChallengerID:
			return tengen.ChallengeCancelled, nil
		case userID != 0 && userID == c.OpponentID:
			return tengen.ChallengeDeclined, nil
		}
		return "", tengen.Errorf(tengen.EFORBIDDEN, "Only the challenger or the challenged user may cancel a challenge.")
	})
}

// setChallengeStatus moves c from open to status, guarding against a
// concurrent change with the status in the WHERE clause.
func setChallengeStatus(ctx context.Context, tx *Tx, c *tengen.Challenge, status tengen.ChallengeStatus, gameID int64) error {
	var game any
	if gameID != 0 {
		game = gameID
	}
	res, err := tx.ExecContext(ctx, `UPDATE challenges SET status = ?, game_id = ?, updated_at = ? WHERE id = ? AND status = ?`,
		string(status), game, formatTime(tx.now), c.ID, string(tengen.ChallengeOpen))
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil {
		return err
	} else if n != 1 {
		return tengen.Errorf(tengen.ECONFLICT, "This challenge is no longer open.")
	}
	c.Status, c.GameID, c.UpdatedAt = status, gameID, tx.now
	return nil
}

func findChallengeByID(ctx context.Context, tx *Tx, id int64) (*tengen.Challenge, error) {
	cs, _, err := findChallenges(ctx, tx, tengen.ChallengeFilter{ID: &id})
	if err != nil {
		return nil, err
	} else if len(cs) == 0 {
		return nil, tengen.Errorf(tengen.ENOTFOUND, "Challenge not found.")
	}
	return cs[0], nil
}

func findChallenges(ctx context.Context, tx *Tx, filter tengen.ChallengeFilter) ([]*tengen.Challenge, int, error) {
	where, args := []string{"1 = 1"}, []any{}
	if v := filter.ID; v != nil {
		where, args = append(where, "id = ?"), append(args, *v)
	}
	if v := filter.Status; v != nil {
		where, args = append(where, "status = ?"), append(args, string(*v))
	}
	if v := filter.VisibleTo; v != nil {
		where, args = append(where, "(opponent_id IS NULL OR challenger_id = ? OR opponent_id = ?)"), append(args, *v, *v)
	}
	if v := filter.UserID; v != nil {
		where, args = append(where, "(challenger_id = ? OR opponent_id = ?)"), append(args, *v, *v)
	}
	cond := strings.Join(where, " AND ")

	// Counting costs a second scan; lookups by id (every write path) skip it.
	total := -1
	if filter.ID == nil {
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM challenges WHERE `+cond, args...).Scan(&total); err != nil {
			return nil, 0, err
		}
	}
	rows, err := tx.QueryContext(ctx, `SELECT id, challenger_id, opponent_id, `+settingsColumns+`, status, game_id, created_at, updated_at
		FROM challenges WHERE `+cond+` ORDER BY created_at DESC, id DESC`+limitOffset(filter.Limit, filter.Offset), args...)
	if err != nil {
		return nil, 0, err
	}
	defer rows.Close()
	var cs []*tengen.Challenge
	var ids []int64
	for rows.Next() {
		var c tengen.Challenge
		var opponent, game sql.NullInt64
		sd, finish := settingsDest(&c.Settings)
		dest := append([]any{&c.ID, &c.ChallengerID, &opponent}, sd...)
		dest = append(dest, (*string)(&c.Status), &game, timeText{&c.CreatedAt}, timeText{&c.UpdatedAt})
		if err := rows.Scan(dest...); err != nil {
			return nil, 0, err
		}
		finish()
		c.OpponentID, c.GameID = opponent.Int64, game.Int64
		cs = append(cs, &c)
		ids = append(ids, c.ChallengerID, c.OpponentID)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, err
	}
	rows.Close()
	users, err := findUsers(ctx, tx, ids)
	if err != nil {
		return nil, 0, err
	}
	for _, c := range cs {
		c.Challenger, c.Opponent = users[c.ChallengerID], users[c.OpponentID]
	}
	if total < 0 {
		total = len(cs)
	}
	return cs, total, nil
}

// limitOffset returns a LIMIT/OFFSET clause; the numbers come from ints, so
// formatting them into the query is safe.
func limitOffset(limit, offset int) string {
	s := ""
	if limit > 0 {
		s += " LIMIT " + strconv.Itoa(limit)
	} else if offset > 0 {
		s += " LIMIT 2147483647" // "no limit" in a form both SQLite and PostgreSQL accept
	}
	if offset > 0 {
		s += " OFFSET " + strconv.Itoa(offset)
	}
	return s
}
