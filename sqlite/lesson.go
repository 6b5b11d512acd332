package sqlite

import (
	"context"

	"tengen"
)

// Compile-time check that LessonService implements the interface.
var _ tengen.LessonService = (*LessonService)(nil)

// LessonService stores lesson progress in SQLite.
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
	defer tx.Rollback()
	rows, err := tx.QueryContext(ctx, `SELECT lesson, steps FROM lesson_progress WHERE user_id = ?`, userID)
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

// SaveLessonProgress implements tengen.LessonService.
func (s *LessonService) SaveLessonProgress(ctx context.Context, userID int64, steps map[string]int) error {
	if err := tengen.ValidateLessonProgress(steps); err != nil {
		return err
	}
	tx, err := s.db.BeginTx(ctx, true)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := findUser(ctx, tx, "id = ?", userID); err != nil {
		return err
	}
	for lesson, n := range steps {
		if _, err := tx.ExecContext(ctx, `INSERT INTO lesson_progress (user_id, lesson, steps, updated_at) VALUES (?, ?, ?, ?)
		ON CONFLICT (user_id, lesson) DO UPDATE SET steps = excluded.steps, updated_at = excluded.updated_at
		WHERE excluded.steps > lesson_progress.steps`, userID, lesson, n, formatTime(tx.now)); err != nil {
			return err
		}
	}
	return tx.Commit()
}
