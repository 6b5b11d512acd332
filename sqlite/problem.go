package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"tengen"
)

// Compile-time check that ProblemService implements the interface.
var _ tengen.ProblemProgressService = (*ProblemService)(nil)

// ProblemService stores users' problem records and ratings in SQLite.
type ProblemService struct {
	db *DB
}

// NewProblemService returns a ProblemService on db.
func NewProblemService(db *DB) *ProblemService { return &ProblemService{db: db} }

// RecordProblemAttempt implements tengen.ProblemProgressService.
func (s *ProblemService) RecordProblemAttempt(ctx context.Context, userID int64, problemID string, solved bool, difficulty float64, at time.Time) (*tengen.ProblemProgress, error) {
	if problemID == "" {
		return nil, tengen.Errorf(tengen.EINVALID, "Problem id required.")
	}
	tx, err := s.db.BeginTx(ctx, true)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	if _, err := findUser(ctx, tx, "id = ?", userID); err != nil {
		return nil, err
	}
	var attempts int
	err = tx.QueryRowContext(ctx, `SELECT attempts FROM problem_records WHERE user_id = ? AND problem_id = ?`, userID, problemID).Scan(&attempts)
	first := errors.Is(err, sql.ErrNoRows)
	if err != nil && !first {
		return nil, err
	}
	var solvedAt any
	if solved {
		solvedAt = formatTime(at.UTC().Truncate(time.Microsecond))
	}
	if first {
		_, err = tx.ExecContext(ctx, `INSERT INTO problem_records (user_id, problem_id, solved, attempts, solved_at, updated_at) VALUES (?, ?, ?, 1, ?, ?)`,
			userID, problemID, solved, solvedAt, formatTime(tx.now))
	} else {
		// solved_at keeps the first solution; solved never goes back.
		_, err = tx.ExecContext(ctx, `UPDATE problem_records SET attempts = attempts + 1, solved = MAX(solved, ?),
			solved_at = COALESCE(solved_at, ?), updated_at = ? WHERE user_id = ? AND problem_id = ?`,
			solved, solvedAt, formatTime(tx.now), userID, problemID)
	}
	if err != nil {
		return nil, err
	}
	if first {
		rating, rated, err := problemRating(ctx, tx, userID)
		if err != nil {
			return nil, err
		}
		rating = tengen.ProblemRatingUpdate(rating, difficulty, solved)
		if _, err := tx.ExecContext(ctx, `INSERT INTO problem_ratings (user_id, rating, rated) VALUES (?, ?, ?)
			ON CONFLICT (user_id) DO UPDATE SET rating = excluded.rating, rated = excluded.rated`, userID, rating, rated+1); err != nil {
			return nil, err
		}
	}
	p, err := problemProgress(ctx, tx, userID)
	if err != nil {
		return nil, err
	}
	return p, tx.Commit()
}

// ProblemProgress implements tengen.ProblemProgressService.
func (s *ProblemService) ProblemProgress(ctx context.Context, userID int64) (*tengen.ProblemProgress, error) {
	tx, err := s.db.BeginTx(ctx, false)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	return problemProgress(ctx, tx, userID)
}

func problemRating(ctx context.Context, tx *Tx, userID int64) (float64, int, error) {
	rating, rated := float64(tengen.InitialProblemRating), 0
	err := tx.QueryRowContext(ctx, `SELECT rating, rated FROM problem_ratings WHERE user_id = ?`, userID).Scan(&rating, &rated)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return 0, 0, err
	}
	return rating, rated, nil
}

func problemProgress(ctx context.Context, tx *Tx, userID int64) (*tengen.ProblemProgress, error) {
	p := &tengen.ProblemProgress{}
	var err error
	if p.Rating, p.Rated, err = problemRating(ctx, tx, userID); err != nil {
		return nil, err
	}
	rows, err := tx.QueryContext(ctx, `SELECT problem_id, solved, attempts, solved_at FROM problem_records WHERE user_id = ? ORDER BY problem_id`, userID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var r tengen.ProblemRecord
		var at sql.NullString
		if err := rows.Scan(&r.ProblemID, &r.Solved, &r.Attempts, &at); err != nil {
			return nil, err
		}
		if at.Valid {
			if r.SolvedAt, err = parseTime(at.String); err != nil {
				return nil, err
			}
		}
		p.Records = append(p.Records, r)
	}
	return p, rows.Err()
}

// MarkProblemsSolved implements tengen.ProblemProgressService.
func (s *ProblemService) MarkProblemsSolved(ctx context.Context, userID int64, problemIDs []string, at time.Time) (*tengen.ProblemProgress, error) {
	for _, id := range problemIDs {
		if id == "" {
			return nil, tengen.Errorf(tengen.EINVALID, "Problem id required.")
		}
	}
	tx, err := s.db.BeginTx(ctx, true)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	if _, err := findUser(ctx, tx, "id = ?", userID); err != nil {
		return nil, err
	}
	solvedAt := formatTime(at.UTC().Truncate(time.Microsecond))
	for _, id := range problemIDs {
		if _, err := tx.ExecContext(ctx, `INSERT INTO problem_records (user_id, problem_id, solved, attempts, solved_at, updated_at) VALUES (?, ?, 1, 1, ?, ?)
			ON CONFLICT (user_id, problem_id) DO UPDATE SET solved = 1, solved_at = COALESCE(solved_at, excluded.solved_at),
				updated_at = excluded.updated_at`, userID, id, solvedAt, formatTime(tx.now)); err != nil {
			return nil, err
		}
	}
	p, err := problemProgress(ctx, tx, userID)
	if err != nil {
		return nil, err
	}
	return p, tx.Commit()
}
