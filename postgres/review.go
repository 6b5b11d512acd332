package postgres

import (
	"context"
	"strconv"
	"strings"

	"tengen"
	"tengen/internal/sqlrow"
)

// Compile-time check that ReviewService implements the interface.
var _ tengen.ReviewService = (*ReviewService)(nil)

// ReviewService stores reviews and their chat in PostgreSQL.
type ReviewService struct {
	db *DB
}

// NewReviewService returns a ReviewService on db.
func NewReviewService(db *DB) *ReviewService { return &ReviewService{db: db} }

// reviewColumns are the columns reviewFields scans.
const reviewColumns = `r.id, r.owner_id, o.name, r.controller_id, c.name, r.title, r.visibility, COALESCE(r.game_id, 0),
	r.black, r.white, r.black_rank, r.white_rank, r.date, r.result, r.event, r.size, r.created_at, r.updated_at`

const reviewFrom = ` FROM reviews r JOIN users o ON o.id = r.owner_id JOIN users c ON c.id = r.controller_id`

func reviewFields(r *tengen.Review) []any {
	return []any{&r.ID, &r.OwnerID, &r.OwnerName, &r.ControllerID, &r.ControllerName, &r.Title, &r.Visibility, &r.GameID,
		&r.Info.Black, &r.Info.White, &r.Info.BlackRank, &r.Info.WhiteRank, &r.Info.Date, &r.Info.Result, &r.Info.Event,
		&r.Info.Size, &r.CreatedAt, &r.UpdatedAt}
}

// quotaCheck refuses when the owner's reviews (review skip left out), with
// more more reviews and extraBytes more bytes, exceed the quota. The
// owner's row is locked first, so that two uploads at once count each
// other.
func quotaCheck(ctx context.Context, tx *Tx, owner int64, more int, extraBytes int64, skip int64, q tengen.ReviewQuota) error {
	if _, err := tx.exec(ctx, `SELECT 1 FROM users WHERE id = $1 FOR UPDATE`, owner); err != nil {
		return err
	}
	var n int
	var bytes int64
	if err := tx.QueryRow(ctx, `SELECT count(*), COALESCE(sum(octet_length(sgf)), 0) FROM reviews WHERE owner_id = $1 AND id <> $2`,
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
	defer tx.rollback()
	u, err := findUser(ctx, tx, "id = $1", owner)
	if err != nil {
		return err
	}
	if err := quotaCheck(ctx, tx, owner, len(rs), bytes, 0, quota); err != nil {
		return err
	}
	for _, r := range rs {
		var game any
		if r.GameID != 0 {
			game = r.GameID
		}
		id, err := tx.insertID(ctx, `INSERT INTO reviews (owner_id, controller_id, game_id, title, visibility, sgf,
			black, white, black_rank, white_rank, date, result, event, size, created_at, updated_at)
			VALUES ($1, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $14) RETURNING id`,
			owner, game, r.Title, string(r.Visibility), r.SGF, r.Info.Black, r.Info.White, r.Info.BlackRank,
			r.Info.WhiteRank, r.Info.Date, r.Info.Result, r.Info.Event, r.Info.Size, tx.now)
		if err != nil {
			return err
		}
		r.ID, r.ControllerID, r.OwnerName, r.ControllerName = id, owner, u.Name, u.Name
		r.CreatedAt, r.UpdatedAt = tx.now, tx.now
	}
	return tx.commit(ctx)
}

// FindReview implements tengen.ReviewService.
func (s *ReviewService) FindReview(ctx context.Context, id int64) (*tengen.Review, error) {
	tx, err := s.db.BeginTx(ctx, false)
	if err != nil {
		return nil, err
	}
	defer tx.rollback()
	var r tengen.Review
	err = tx.QueryRow(ctx, `SELECT `+reviewColumns+`, r.sgf`+reviewFrom+` WHERE r.id = $1`, id).
		Scan(append(reviewFields(&r), &r.SGF)...)
	if noRows(err) {
		return nil, tengen.Errorf(tengen.ENOTFOUND, "Review not found.")
	} else if err != nil {
		return nil, err
	}
	r.CreatedAt, r.UpdatedAt = r.CreatedAt.UTC(), r.UpdatedAt.UTC()
	return &r, nil
}

// FindReviews implements tengen.ReviewService.
func (s *ReviewService) FindReviews(ctx context.Context, f tengen.ReviewFilter) ([]*tengen.Review, int, error) {
	tx, err := s.db.BeginTx(ctx, false)
	if err != nil {
		return nil, 0, err
	}
	defer tx.rollback()
	var where []string
	var args []any
	arg := func(v any) string {
		args = append(args, v)
		return "$" + strconv.Itoa(len(args))
	}
	if f.OwnerID != 0 {
		where = append(where, "r.owner_id = "+arg(f.OwnerID))
	} else {
		where = append(where, "r.visibility = 'public'")
	}
	if f.Player != "" {
		p := arg(sqlrow.LikeContains(f.Player))
		where = append(where, `(r.black ILIKE `+p+` OR r.white ILIKE `+p+`)`)
	}
	if f.Date != "" {
		where = append(where, `r.date ILIKE `+arg(sqlrow.LikeContains(f.Date)))
	}
	if f.Result != "" {
		where = append(where, `r.result ILIKE `+arg(sqlrow.LikeContains(f.Result)))
	}
	cond := " WHERE " + strings.Join(where, " AND ")
	var total int
	if err := tx.QueryRow(ctx, `SELECT count(*) FROM reviews r`+cond, args...).Scan(&total); err != nil {
		return nil, 0, err
	}
	limit, offset := f.Clamped()
	q := `SELECT ` + reviewColumns + reviewFrom + cond + ` ORDER BY r.updated_at DESC, r.id DESC LIMIT ` + arg(limit) + ` OFFSET ` + arg(offset)
	rows, err := tx.Query(ctx, q, args...)
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
		r.CreatedAt, r.UpdatedAt = r.CreatedAt.UTC(), r.UpdatedAt.UTC()
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
	defer tx.rollback()
	var owner int64
	err = tx.QueryRow(ctx, `SELECT owner_id FROM reviews WHERE id = $1`, r.ID).Scan(&owner)
	if noRows(err) {
		return tengen.Errorf(tengen.ENOTFOUND, "Review not found.")
	} else if err != nil {
		return err
	}
	ctl, err := findUser(ctx, tx, "id = $1", r.ControllerID)
	if err != nil {
		return err
	}
	if err := quotaCheck(ctx, tx, owner, 0, int64(len(r.SGF)), r.ID, tengen.ReviewQuota{Bytes: quota.Bytes}); err != nil {
		return err
	}
	if _, err := tx.exec(ctx, `UPDATE reviews SET controller_id = $1, title = $2, visibility = $3, sgf = $4, black = $5, white = $6,
		black_rank = $7, white_rank = $8, date = $9, result = $10, event = $11, size = $12, updated_at = $13 WHERE id = $14`,
		r.ControllerID, r.Title, string(r.Visibility), r.SGF, r.Info.Black, r.Info.White, r.Info.BlackRank, r.Info.WhiteRank,
		r.Info.Date, r.Info.Result, r.Info.Event, r.Info.Size, tx.now, r.ID); err != nil {
		return err
	}
	r.UpdatedAt, r.ControllerName = tx.now, ctl.Name
	return tx.commit(ctx)
}

// DeleteReview implements tengen.ReviewService; the chat goes with the
// review (ON DELETE CASCADE).
func (s *ReviewService) DeleteReview(ctx context.Context, id int64) error {
	tx, err := s.db.BeginTx(ctx, true)
	if err != nil {
		return err
	}
	defer tx.rollback()
	n, err := tx.exec(ctx, `DELETE FROM reviews WHERE id = $1`, id)
	if err != nil {
		return err
	} else if n == 0 {
		return tengen.Errorf(tengen.ENOTFOUND, "Review not found.")
	}
	return tx.commit(ctx)
}

// DeleteReviewChat implements tengen.ReviewService.
func (s *ReviewService) DeleteReviewChat(ctx context.Context, reviewID, id int64) error {
	tx, err := s.db.BeginTx(ctx, true)
	if err != nil {
		return err
	}
	defer tx.rollback()
	n, err := tx.exec(ctx, `DELETE FROM review_chat WHERE id = $1 AND review_id = $2`, id, reviewID)
	if err != nil {
		return err
	} else if n == 0 {
		return tengen.Errorf(tengen.ENOTFOUND, "Chat message not found.")
	}
	return tx.commit(ctx)
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
	defer tx.rollback()
	var one int
	err = tx.QueryRow(ctx, `SELECT 1 FROM reviews WHERE id = $1`, m.ReviewID).Scan(&one)
	if noRows(err) {
		return tengen.Errorf(tengen.ENOTFOUND, "Review not found.")
	} else if err != nil {
		return err
	}
	u, err := findUser(ctx, tx, "id = $1", m.UserID)
	if err != nil {
		return err
	}
	if m.ID, err = tx.insertID(ctx, `INSERT INTO review_chat (review_id, user_id, text, created_at) VALUES ($1, $2, $3, $4) RETURNING id`,
		m.ReviewID, m.UserID, m.Text, tx.now); err != nil {
		return err
	}
	m.UserName, m.Time = u.Name, tx.now
	return tx.commit(ctx)
}

// FindReviewChat implements tengen.ReviewService.
func (s *ReviewService) FindReviewChat(ctx context.Context, reviewID int64, limit int) ([]*tengen.ReviewChatMessage, error) {
	tx, err := s.db.BeginTx(ctx, false)
	if err != nil {
		return nil, err
	}
	defer tx.rollback()
	rows, err := tx.Query(ctx, `SELECT * FROM (SELECT m.id, m.review_id, m.user_id, u.name, m.text, m.created_at
		FROM review_chat m JOIN users u ON u.id = m.user_id WHERE m.review_id = $1 ORDER BY m.id DESC LIMIT $2) t ORDER BY id`, reviewID, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []*tengen.ReviewChatMessage
	for rows.Next() {
		var m tengen.ReviewChatMessage
		if err := rows.Scan(&m.ID, &m.ReviewID, &m.UserID, &m.UserName, &m.Text, &m.Time); err != nil {
			return nil, err
		}
		m.Time = m.Time.UTC()
		out = append(out, &m)
	}
	return out, rows.Err()
}
