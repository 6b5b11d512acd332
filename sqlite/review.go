package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"strings"

	"tengen"
	"tengen/internal/sqlrow"
)

// Compile-time check that ReviewService implements the interface.
var _ tengen.ReviewService = (*ReviewService)(nil)

// ReviewService stores reviews and their chat in SQLite.
type ReviewService struct {
	db *DB
}

// NewReviewService returns a ReviewService on db.
func NewReviewService(db *DB) *ReviewService { return &ReviewService{db: db} }

// reviewColumns are the columns reviewFields scans (all but the record).
const reviewColumns = `r.id, r.owner_id, o.name, r.controller_id, c.name, r.title, r.visibility, COALESCE(r.game_id, 0),
	r.black, r.white, r.black_rank, r.white_rank, r.date, r.result, r.event, r.size, r.created_at, r.updated_at`

const reviewFrom = ` FROM reviews r JOIN users o ON o.id = r.owner_id JOIN users c ON c.id = r.controller_id`

func reviewFields(r *tengen.Review) []any {
	return []any{&r.ID, &r.OwnerID, &r.OwnerName, &r.ControllerID, &r.ControllerName, &r.Title, &r.Visibility, &r.GameID,
		&r.Info.Black, &r.Info.White, &r.Info.BlackRank, &r.Info.WhiteRank, &r.Info.Date, &r.Info.Result, &r.Info.Event,
		&r.Info.Size, timeText{&r.CreatedAt}, timeText{&r.UpdatedAt}}
}

// quotaCheck refuses when owner's reviews, with extra more and extraBytes
// more bytes (the bytes of review skip, if not 0, left out), exceed quota.
func quotaCheck(ctx context.Context, tx *Tx, owner int64, more int, extraBytes int64, skip int64, q tengen.ReviewQuota) error {
	var n int
	var bytes int64
	if err := tx.QueryRowContext(ctx, `SELECT count(*), COALESCE(sum(length(CAST(sgf AS BLOB))), 0) FROM reviews WHERE owner_id = ? AND id <> ?`,
		owner, skip).Scan(&n, &bytes); err != nil {
		return err
	}
	return tengen.CheckReviewQuota(q, n, more, bytes+extraBytes)
}

// CreateReviews implements tengen.ReviewService.
func (s *ReviewService) CreateReviews(ctx context.Context, rs []*tengen.Review, quota tengen.ReviewQuota) error {
	if len(rs) == 0 {
		return nil
	}
	owner := rs[0].OwnerID
	var bytes int64
	for _, r := range rs {
		if r.OwnerID != owner {
			return tengen.Errorf(tengen.EINVALID, "Reviews created together have one owner.")
		}
		if err := r.Validate(); err != nil {
			return err
		}
		bytes += int64(len(r.SGF))
	}
	tx, err := s.db.BeginTx(ctx, true)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	u, err := findUser(ctx, tx, "id = ?", owner)
	if err != nil {
		return err
	}
	if err := quotaCheck(ctx, tx, owner, len(rs), bytes, 0, quota); err != nil {
		return err
	}
	for _, r := range rs {
		id, err := tx.nextID(ctx, "reviews")
		if err != nil {
			return err
		}
		var game any
		if r.GameID != 0 {
			game = r.GameID
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO reviews (id, owner_id, controller_id, game_id, title, visibility, sgf,
			black, white, black_rank, white_rank, date, result, event, size, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			id, owner, owner, game, r.Title, string(r.Visibility), r.SGF, r.Info.Black, r.Info.White, r.Info.BlackRank,
			r.Info.WhiteRank, r.Info.Date, r.Info.Result, r.Info.Event, r.Info.Size, formatTime(tx.now), formatTime(tx.now)); err != nil {
			return err
		}
		r.ID, r.ControllerID, r.OwnerName, r.ControllerName = id, owner, u.Name, u.Name
		r.CreatedAt, r.UpdatedAt = tx.now, tx.now
	}
	return tx.Commit()
}

// FindReview implements tengen.ReviewService.
func (s *ReviewService) FindReview(ctx context.Context, id int64) (*tengen.Review, error) {
	tx, err := s.db.BeginTx(ctx, false)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	var r tengen.Review
	err = tx.QueryRowContext(ctx, `SELECT `+reviewColumns+`, r.sgf`+reviewFrom+` WHERE r.id = ?`, id).
		Scan(append(reviewFields(&r), &r.SGF)...)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, tengen.Errorf(tengen.ENOTFOUND, "Review not found.")
	} else if err != nil {
		return nil, err
	}
	return &r, nil
}

// FindReviews implements tengen.ReviewService. LIKE ignores ASCII case in
// SQLite.
func (s *ReviewService) FindReviews(ctx context.Context, f tengen.ReviewFilter) ([]*tengen.Review, int, error) {
	tx, err := s.db.BeginTx(ctx, false)
	if err != nil {
		return nil, 0, err
	}
	defer tx.Rollback()
	where, args := []string{}, []any{}
	if f.OwnerID != 0 {
		where, args = append(where, "r.owner_id = ?"), append(args, f.OwnerID)
	} else {
		where = append(where, "r.visibility = 'public'")
	}
	if f.Player != "" {
		where = append(where, `(r.black LIKE ? ESCAPE '\' OR r.white LIKE ? ESCAPE '\')`)
		args = append(args, sqlrow.LikeContains(f.Player), sqlrow.LikeContains(f.Player))
	}
	if f.Date != "" {
		where, args = append(where, `r.date LIKE ? ESCAPE '\'`), append(args, sqlrow.LikeContains(f.Date))
	}
	if f.Result != "" {
		where, args = append(where, `r.result LIKE ? ESCAPE '\'`), append(args, sqlrow.LikeContains(f.Result))
	}
	cond := " WHERE " + strings.Join(where, " AND ")
	var total int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM reviews r`+cond, args...).Scan(&total); err != nil {
		return nil, 0, err
	}
	limit, offset := f.Clamped()
	rows, err := tx.QueryContext(ctx, `SELECT `+reviewColumns+reviewFrom+cond+` ORDER BY r.updated_at DESC, r.id DESC LIMIT ? OFFSET ?`,
		append(args, limit, offset)...)
	if err != nil {
		return nil, 0, err
	}
	defer rows.Close()
	var out []*tengen.Review
	for rows.Next() {
		var r tengen.Review
		if err := rows.Scan(reviewFields(&r)...); err != nil {
			return nil, 0, err
		}
		out = append(out, &r)
	}
	return out, total, rows.Err()
}

// UpdateReview implements tengen.ReviewService.
func (s *ReviewService) UpdateReview(ctx context.Context, r *tengen.Review, quota tengen.ReviewQuota) error {
	if err := r.Validate(); err != nil {
		return err
	}
	tx, err := s.db.BeginTx(ctx, true)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var owner int64
	err = tx.QueryRowContext(ctx, `SELECT owner_id FROM reviews WHERE id = ?`, r.ID).Scan(&owner)
	if errors.Is(err, sql.ErrNoRows) {
		return tengen.Errorf(tengen.ENOTFOUND, "Review not found.")
	} else if err != nil {
		return err
	}
	ctl, err := findUser(ctx, tx, "id = ?", r.ControllerID)
	if err != nil {
		return err
	}
	if err := quotaCheck(ctx, tx, owner, 0, int64(len(r.SGF)), r.ID, tengen.ReviewQuota{Bytes: quota.Bytes}); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE reviews SET controller_id = ?, title = ?, visibility = ?, sgf = ?, black = ?, white = ?,
		black_rank = ?, white_rank = ?, date = ?, result = ?, event = ?, size = ?, updated_at = ? WHERE id = ?`,
		r.ControllerID, r.Title, string(r.Visibility), r.SGF, r.Info.Black, r.Info.White, r.Info.BlackRank, r.Info.WhiteRank,
		r.Info.Date, r.Info.Result, r.Info.Event, r.Info.Size, formatTime(tx.now), r.ID); err != nil {
		return err
	}
	r.UpdatedAt, r.ControllerName = tx.now, ctl.Name
	return tx.Commit()
}

// DeleteReview implements tengen.ReviewService.
func (s *ReviewService) DeleteReview(ctx context.Context, id int64) error {
	tx, err := s.db.BeginTx(ctx, true)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `DELETE FROM review_chat WHERE review_id = ?`, id); err != nil {
		return err
	}
	res, err := tx.ExecContext(ctx, `DELETE FROM reviews WHERE id = ?`, id)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil {
		return err
	} else if n == 0 {
		return tengen.Errorf(tengen.ENOTFOUND, "Review not found.")
	}
	return tx.Commit()
}

// DeleteReviewChat implements tengen.ReviewService.
func (s *ReviewService) DeleteReviewChat(ctx context.Context, reviewID, id int64) error {
	tx, err := s.db.BeginTx(ctx, true)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, `DELETE FROM review_chat WHERE id = ? AND review_id = ?`, id, reviewID)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil {
		return err
	} else if n == 0 {
		return tengen.Errorf(tengen.ENOTFOUND, "Chat message not found.")
	}
	return tx.Commit()
}

// AddReviewChat implements tengen.ReviewService.
func (s *ReviewService) AddReviewChat(ctx context.Context, m *tengen.ReviewChatMessage) error {
	if err := m.ValidateChat(); err != nil {
		return err
	}
	tx, err := s.db.BeginTx(ctx, true)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var one int
	err = tx.QueryRowContext(ctx, `SELECT 1 FROM reviews WHERE id = ?`, m.ReviewID).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return tengen.Errorf(tengen.ENOTFOUND, "Review not found.")
	} else if err != nil {
		return err
	}
	u, err := findUser(ctx, tx, "id = ?", m.UserID)
	if err != nil {
		return err
	}
	if err := tx.QueryRowContext(ctx, `INSERT INTO review_chat (review_id, user_id, text, created_at) VALUES (?, ?, ?, ?) RETURNING id`,
		m.ReviewID, m.UserID, m.Text, formatTime(tx.now)).Scan(&m.ID); err != nil {
		return err
	}
	m.UserName, m.Time = u.Name, tx.now
	return tx.Commit()
}

// FindReviewChat implements tengen.ReviewService.
func (s *ReviewService) FindReviewChat(ctx context.Context, reviewID int64, limit int) ([]*tengen.ReviewChatMessage, error) {
	tx, err := s.db.BeginTx(ctx, false)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	rows, err := tx.QueryContext(ctx, `SELECT * FROM (SELECT m.id, m.review_id, m.user_id, u.name, m.text, m.created_at
		FROM review_chat m JOIN users u ON u.id = m.user_id WHERE m.review_id = ? ORDER BY m.id DESC LIMIT ?) ORDER BY id`, reviewID, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []*tengen.ReviewChatMessage
	for rows.Next() {
		var m tengen.ReviewChatMessage
		if err := rows.Scan(&m.ID, &m.ReviewID, &m.UserID, &m.UserName, &m.Text, timeText{&m.Time}); err != nil {
			return nil, err
		}
		out = append(out, &m)
	}
	return out, rows.Err()
}
