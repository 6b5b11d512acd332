package postgres

import (
	"context"

	"tengen"
)

// Compile-time check that LessonService implements the interface.
var _ tengen.LessonService = (*LessonService)(nil)

// LessonService stores lesson progress in PostgreSQL.
type LessonService struct {
	db *DB
}

// NewLessonService returns a LessonService on db.
func NewLessonService(db *DB) *LessonService {
	return &LessonService{db: db}
}

// FindLessonProgress implements tengen.LessonService.
func (s *LessonService) FindLessonProgress(ctx context.Context, userID int64) (map[string]int, error) {
	tx, err := s.db.BeginTx(ctx, false)
	if err != nil {
		return nil, err
	}
	defer tx.rollback()
	rows, err := tx.Query(ctx, `SELECT lesson, steps FROM lesson_progress WHERE user_id = $1`, userID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var lesson string
		var steps int
		if err := rows.Scan(&lesson, &steps); err != nil {
			return nil, err
		}
		out[lesson] = steps
	}
	return out, rows.Err()
}

// SaveLessonProgress implements tengen.LessonService. The upsert keeps the
// larger count, so progress never goes back, even when two tabs save at
// once.
func (s *LessonService) SaveLessonProgress(ctx context.Context, userID int64, steps map[string]int) error {
	if err := tengen.ValidateLessonProgress(steps); err != nil {
		return err
	}
	tx, err := s.db.BeginTx(ctx, true)
	if err != nil {
		return err
	}
	defer tx.rollback()
	if _, err := findUser(ctx, tx, "id = $1", userID); err != nil {
		return err
	}
	for lesson, n := range steps {
		if _, err := tx.exec(ctx, `INSERT INTO lesson_progress (user_id, lesson, steps, updated_at) VALUES ($1, $2, $3, $4)
		ON CONFLICT (user_id, lesson) DO UPDATE SET steps = excluded.steps, updated_at = excluded.updated_at
		WHERE excluded.steps > lesson_progress.steps`, userID, lesson, n, tx.now); err != nil {
			return err
		}
	}
	return tx.commit(ctx)
}
