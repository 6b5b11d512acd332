package postgres

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"tengen"
)

// Compile-time check that ChallengeService implements the interface.
var _ tengen.ChallengeService = (*ChallengeService)(nil)

// ChallengeService stores challenges in PostgreSQL.
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
	defer tx.rollback()
	return findChallengeByID(ctx, tx, id, false)
}

// FindChallenges implements tengen.ChallengeService.
func (s *ChallengeService) FindChallenges(ctx context.Context, filter tengen.ChallengeFilter) ([]*tengen.Challenge, int, error) {
	tx, err := s.db.BeginTx(ctx, false)
	if err != nil {
		return nil, 0, err
	}
	defer tx.rollback()
	return findChallenges(ctx, tx, filter, false)
}

// CreateChallenge implements tengen.ChallengeService. The challenger's row
// is locked first, so that concurrent calls of one user count each other's
// challenges against tengen.MaxOpenChallenges.
func (s *ChallengeService) CreateChallenge(ctx context.Context, c *tengen.Challenge) error {
	if err := c.Validate(); err != nil {
		return err
	}
	tx, err := s.db.BeginTx(ctx, true)
	if err != nil {
		return err
	}
	defer tx.rollback()
	if _, err := findUser(ctx, tx, "id = $1 FOR NO KEY UPDATE", c.ChallengerID); err != nil {
		return err
	}
	users, err := findUsers(ctx, tx, []int64{c.ChallengerID, c.OpponentID})
	if err != nil {
		return err
	}
	var open int
	if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM challenges WHERE challenger_id = $1 AND status = $2`,
		c.ChallengerID, string(tengen.ChallengeOpen)).Scan(&open); err != nil {
		return err
	}
	if open >= tengen.MaxOpenChallenges {
		return tengen.Errorf(tengen.ECONFLICT, "You have %d open challenges already; withdraw one first.", open)
	}
	var opponent *int64 // NULL for an open challenge
	if c.OpponentID != 0 {
		opponent = &c.OpponentID
	}
	args := append([]any{c.ChallengerID, opponent}, settingsArgs(c.Settings)...)
	args = append(args, string(tengen.ChallengeOpen), tx.now)
	n := len(args)
	id, err := tx.insertID(ctx, `INSERT INTO challenges (challenger_id, opponent_id, `+settingsColumns+`, status, created_at, updated_at)
		VALUES (`+placeholders(1, n)+fmt.Sprintf(`, $%d) RETURNING id`, n), args...)
	if err != nil {
		return err
	}
	if err := tx.commit(ctx); err != nil {
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

// ExpireChallenges implements tengen.ChallengeService. The UPDATE's
// condition is checked again on rows another transaction changed first, so
// two instances that expire at once cancel, and return, each challenge
// once.
func (s *ChallengeService) ExpireChallenges(ctx context.Context, before time.Time) ([]*tengen.Challenge, error) {
	tx, err := s.db.BeginTx(ctx, true)
	if err != nil {
		return nil, err
	}
	defer tx.rollback()
	rows, err := tx.Query(ctx, `UPDATE challenges SET status = $1, updated_at = $2 WHERE status = $3 AND created_at < $4 RETURNING id`,
		string(tengen.ChallengeCancelled), tx.now, string(tengen.ChallengeOpen), before)
	if err != nil {
		return nil, constraintError(err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil {
		return nil, err
	}
	cs := make([]*tengen.Challenge, 0, len(ids))
	for _, id := range ids {
		c, err := findChallengeByID(ctx, tx, id, false)
		if err != nil {
			return nil, err
		}
		cs = append(cs, c)
	}
	return cs, tx.commit(ctx)
}

// closeChallenge ends the open challenge id with the status that decide
// chooses for it, in one write transaction.
func (s *ChallengeService) closeChallenge(ctx context.Context, id int64, decide func(*tengen.Challenge) (tengen.ChallengeStatus, error)) (*tengen.Challenge, error) {
	tx, err := s.db.BeginTx(ctx, true)
	if err != nil {
		return nil, err
	}
	defer tx.rollback()
	c, err := findChallengeByID(ctx, tx, id, true)
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
	return c, tx.commit(ctx)
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
// concurrent change with the status in the WHERE clause: of two
// transactions that race, the second finds the row no longer open once the
// first commits.
func setChallengeStatus(ctx context.Context, tx *Tx, c *tengen.Challenge, status tengen.ChallengeStatus, gameID int64) error {
	var game *int64
	if gameID != 0 {
		game = &gameID
	}
	n, err := tx.exec(ctx, `UPDATE challenges SET status = $1, game_id = $2, updated_at = $3 WHERE id = $4 AND status = $5`,
		string(status), game, tx.now, c.ID, string(tengen.ChallengeOpen))
	if err != nil {
		return err
	}
	if n != 1 {
		return tengen.Errorf(tengen.ECONFLICT, "This challenge is no longer open.")
	}
	c.Status, c.GameID, c.UpdatedAt = status, gameID, tx.now
	return nil
}

// findChallengeByID loads challenge id, locking its row when forUpdate is
// set so that a concurrent change waits for this transaction.
func findChallengeByID(ctx context.Context, tx *Tx, id int64, forUpdate bool) (*tengen.Challenge, error) {
	cs, _, err := findChallenges(ctx, tx, tengen.ChallengeFilter{ID: &id}, forUpdate)
	if err != nil {
		return nil, err
	} else if len(cs) == 0 {
		return nil, tengen.Errorf(tengen.ENOTFOUND, "Challenge not found.")
	}
	return cs[0], nil
}

// conditions collects the WHERE conditions of a query with their numbered
// placeholders.
type conditions struct {
	where []string
	args  []any
}

// add appends cond, in which every "?" stands for the next argument.
func (c *conditions) add(cond string, args ...any) {
	for _, a := range args {
		c.args = append(c.args, a)
		cond = strings.Replace(cond, "?", "$"+strconv.Itoa(len(c.args)), 1)
	}
	c.where = append(c.where, cond)
}

// next returns the placeholder of one more argument.
func (c *conditions) next(arg any) string {
	c.args = append(c.args, arg)
	return "$" + strconv.Itoa(len(c.args))
}

func (c *conditions) String() string {
	if len(c.where) == 0 {
		return "TRUE"
	}
	return strings.Join(c.where, " AND ")
}

func findChallenges(ctx context.Context, tx *Tx, filter tengen.ChallengeFilter, forUpdate bool) ([]*tengen.Challenge, int, error) {
	var c conditions
	if v := filter.ID; v != nil {
		c.add("id = ?", *v)
	}
	if v := filter.Status; v != nil {
		c.add("status = ?", string(*v))
	}
	if v := filter.VisibleTo; v != nil {
		c.add("(opponent_id IS NULL OR challenger_id = ? OR opponent_id = ?)", *v, *v)
	}
	if v := filter.UserID; v != nil {
		c.add("(challenger_id = ? OR opponent_id = ?)", *v, *v)
	}
	cond := c.String()

	// Counting costs a second scan; lookups by id (every write path) skip it.
	total := -1
	if filter.ID == nil {
		if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM challenges WHERE `+cond, c.args...).Scan(&total); err != nil {
			return nil, 0, err
		}
	}
	lock := ""
	if forUpdate {
		lock = " FOR UPDATE"
	}
	rows, err := tx.Query(ctx, `SELECT id, challenger_id, opponent_id, `+settingsColumns+`, status, game_id, created_at, updated_at
		FROM challenges WHERE `+cond+` ORDER BY created_at DESC, id DESC`+limitOffset(filter.Limit, filter.Offset)+lock, c.args...)
	if err != nil {
		return nil, 0, err
	}
	defer rows.Close()
	var cs []*tengen.Challenge
	var ids []int64
	for rows.Next() {
		var ch tengen.Challenge
		var opponent, game *int64
		sd, finish := settingsDest(&ch.Settings)
		dest := append([]any{&ch.ID, &ch.ChallengerID, &opponent}, sd...)
		dest = append(dest, (*string)(&ch.Status), &game, &ch.CreatedAt, &ch.UpdatedAt)
		if err := rows.Scan(dest...); err != nil {
			return nil, 0, err
		}
		finish()
		if opponent != nil {
			ch.OpponentID = *opponent
		}
		if game != nil {
			ch.GameID = *game
		}
		cs = append(cs, &ch)
		ids = append(ids, ch.ChallengerID, ch.OpponentID)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, err
	}
	rows.Close()
	users, err := findUsers(ctx, tx, ids)
	if err != nil {
		return nil, 0, err
	}
	for _, ch := range cs {
		ch.Challenger, ch.Opponent = users[ch.ChallengerID], users[ch.OpponentID]
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
	}
	if offset > 0 {
		s += " OFFSET " + strconv.Itoa(offset)
	}
	return s
}
