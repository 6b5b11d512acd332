package postgres

import (
	"context"
	"time"

	"tengen"
)

// Compile-time check that ProblemService implements the interface.
var _ tengen.ProblemProgressService = (*ProblemService)(nil)

// ProblemService stores users' problem records and ratings in PostgreSQL.
type ProblemService struct {
	db *DB
}

// NewProblemService returns a ProblemService on db.
func NewProblemService(db *DB) *ProblemService { return &ProblemService{db: db} }

// RecordProblemAttempt implements tengen.ProblemProgressService. The user's
// row is locked first, so that two attempts of one user (two tabs, two
// instances) are recorded one after the other: the first attempt of a
// problem rates once, and the rating moves from the one the other left.
func (s *ProblemService) RecordProblemAttempt(ctx context.Context, userID int64, problemID string, solved bool, difficulty float64, at time.Time) (*tengen.ProblemProgress, error) {
	if problemID == "" {
		return nil, tengen.Errorf(tengen.EINVALID, "Problem id required.")
	}
	tx, err := s.db.BeginTx(ctx, true)
	if err != nil {
		return nil, err
	}
	defer tx.rollback()
	if _, err := findUser(ctx, tx, "id = $1 FOR NO KEY UPDATE", userID); err != nil {
		return nil, err
	}
	var solvedAt *time.Time
	if solved {
		t := at.UTC().Truncate(time.Microsecond)
		solvedAt = &t
	}
	// xmax = 0 tells an inserted row from an updated one: the first
	// attempt of a problem. solved_at keeps the first solution; solved
	// never goes back.
	var first bool
	err = tx.QueryRow(ctx, `INSERT INTO problem_records (user_id, problem_id, solved, attempts, solved_at, updated_at) VALUES ($1, $2, $3, 1, $4, $5)
		ON CONFLICT (user_id, problem_id) DO UPDATE SET attempts = problem_records.attempts + 1,
			solved = problem_records.solved OR excluded.solved,
			solved_at = COALESCE(problem_records.solved_at, excluded.solved_at), updated_at = excluded.updated_at
		RETURNING xmax = 0`, userID, problemID, solved, solvedAt, tx.now).Scan(&first)
	if err != nil {
		return nil, constraintError(err)
	}
	if first {
		rating, rated, err := problemRating(ctx, tx, userID)
		if err != nil {
			return nil, err
		}
		rating = tengen.ProblemRatingUpdate(rating, difficulty, solved)
		if _, err := tx.exec(ctx, `INSERT INTO problem_ratings (user_id, rating, rated) VALUES ($1, $2, $3)
			ON CONFLICT (user_id) DO UPDATE SET rating = excluded.rating, rated = excluded.rated`, userID, rating, rated+1); err != nil {
			return nil, err
		}
	}
	p, err := problemProgress(ctx, tx, userID)
	if err != nil {
		return nil, err
	}
	return p, tx.commit(ctx)
}

// ProblemProgress implements tengen.ProblemProgressService.
func (s *ProblemService) ProblemProgress(ctx context.Context, userID int64) (*tengen.ProblemProgress, error) {
	tx, err := s.db.BeginTx(ctx, false)
	if err != nil {
		return nil, err
	}
	defer tx.rollback()
	return problemProgress(ctx, tx, userID)
}

func problemRating(ctx context.Context, tx *Tx, userID int64) (float64, int, error) {
	rating, rated := float64(tengen.InitialProblemRating), 0
	err := tx.QueryRow(ctx, `SELECT rating, rated FROM problem_ratings WHERE user_id = $1`, userID).Scan(&rating, &rated)
	if err != nil && !noRows(err) {
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
	rows, err := tx.Query(ctx, `SELECT problem_id, solved, attempts, solved_at FROM problem_records WHERE user_id = $1 ORDER BY problem_id`, userID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var r tengen.ProblemRecord
		var at *time.Time
		if err := rows.Scan(&r.ProblemID, &r.Solved, &r.Attempts, &at); err != nil {
			return nil, err
		}
		if at != nil {
			r.SolvedAt = *at
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
	defer tx.rollback()
	if _, err := findUser(ctx, tx, "id = $1 FOR NO KEY UPDATE", userID); err != nil {
		return nil, err
	}
	solvedAt := at.UTC().Truncate(time.Microsecond)
	for _, id := range problemIDs {
		if _, err := tx.exec(ctx, `INSERT INTO problem_records (user_id, problem_id, solved, attempts, solved_at, updated_at) VALUES ($1, $2, TRUE, 1, $3, $4)
			ON CONFLICT (user_id, problem_id) DO UPDATE SET solved = TRUE,
				solved_at = COALESCE(problem_records.solved_at, excluded.solved_at), updated_at = excluded.updated_at`,
			userID, id, solvedAt, tx.now); err != nil {
			return nil, constraintError(err)
		}
	}
	p, err := problemProgress(ctx, tx, userID)
	if err != nil {
		return nil, err
	}
	return p, tx.commit(ctx)
}
