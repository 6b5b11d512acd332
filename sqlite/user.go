package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"strings"

	"tengen"
)

// Compile-time check that UserService implements the interface.
var _ tengen.UserService = (*UserService)(nil)

// UserService stores users in SQLite.
type UserService struct {
	db *DB
}

// NewUserService returns a UserService on db.
func NewUserService(db *DB) *UserService {
	return &UserService{db: db}
}

// FindUserByID implements tengen.UserService.
func (s *UserService) FindUserByID(ctx context.Context, id int64) (*tengen.User, error) {
	tx, err := s.db.BeginTx(ctx, false)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	return findUser(ctx, tx, "id = ?", id)
}

// FindUserByName implements tengen.UserService.
func (s *UserService) FindUserByName(ctx context.Context, name string) (*tengen.User, error) {
	tx, err := s.db.BeginTx(ctx, false)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	return findUser(ctx, tx, "name_key = ?", tengen.UserNameKey(name))
}

// CreateUser implements tengen.UserService.
func (s *UserService) CreateUser(ctx context.Context, u *tengen.User) error {
	if err := u.Validate(); err != nil {
		return err
	}
	tx, err := s.db.BeginTx(ctx, true)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	// The write connection serialises writers, so checking first is
	// race-free here; the UNIQUE index is the backstop.
	if _, err := findUser(ctx, tx, "name_key = ?", tengen.UserNameKey(u.Name)); err == nil {
		return tengen.Errorf(tengen.ECONFLICT, "The user name %q is taken.", u.Name)
	} else if tengen.ErrorCode(err) != tengen.ENOTFOUND {
		return err
	}
	r, err := startingRating(u.Rank)
	if err != nil {
		return err
	}
	id, err := tx.nextID(ctx, "users")
	if err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO users (id, name, name_key, password_hash, language, bot, rating, deviation, volatility, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		id, u.Name, tengen.UserNameKey(u.Name), u.PasswordHash, u.Language, u.Bot, r.Rating, r.Deviation, r.Volatility, formatTime(tx.now), formatTime(tx.now))
	if err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	u.ID, u.CreatedAt, u.UpdatedAt = id, tx.now, tx.now
	u.Rating, u.Deviation, u.Rank = r.Rating, r.Deviation, rankText(u.Bot, false, r.Rating, r.Deviation)
	return nil
}

func findUser(ctx context.Context, tx *Tx, where string, args ...any) (*tengen.User, error) {
	var u tengen.User
	rd, rank := ratingDest(&u)
	err := tx.QueryRowContext(ctx, `SELECT id, name, password_hash, language, bot, created_at, updated_at, `+userRatingColumns+` FROM users WHERE `+where, args...).
		Scan(append([]any{&u.ID, &u.Name, &u.PasswordHash, &u.Language, &u.Bot, timeText{&u.CreatedAt}, timeText{&u.UpdatedAt}}, rd...)...)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, tengen.Errorf(tengen.ENOTFOUND, "User not found.")
	} else if err != nil {
		return nil, err
	}
	rank()
	return &u, nil
}

// findUsers loads the users with the given ids (0 and repeats are
// skipped) in one query, for filling in Challenge and Game references.
// usersByIDQuery returns the query of findUsers for n ids.
func usersByIDQuery(n int) string {
	return `SELECT id, name, password_hash, language, bot, created_at, updated_at, ` + userRatingColumns + ` FROM users WHERE id IN (?` + strings.Repeat(", ?", n-1) + `)`
}

// The players of a game, read on the move path (see hot).
var _ = hot(usersByIDQuery(2))

func findUsers(ctx context.Context, tx *Tx, ids []int64) (map[int64]*tengen.User, error) {
	m := make(map[int64]*tengen.User, len(ids))
	var args []any
	seen := map[int64]bool{0: true}
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			args = append(args, id)
		}
	}
	if len(args) == 0 {
		return m, nil
	}
	rows, err := tx.QueryContext(ctx, usersByIDQuery(len(args)), args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var u tengen.User
		rd, rank := ratingDest(&u)
		if err := rows.Scan(append([]any{&u.ID, &u.Name, &u.PasswordHash, &u.Language, &u.Bot, timeText{&u.CreatedAt}, timeText{&u.UpdatedAt}}, rd...)...); err != nil {
			return nil, err
		}
		rank()
		m[u.ID] = &u
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if len(m) != len(args) {
		return nil, tengen.Errorf(tengen.ENOTFOUND, "User not found.")
	}
	return m, nil
}
