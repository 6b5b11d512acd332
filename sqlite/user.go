package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"strings"

	"tengen"
	"tengen/internal/rating"
	"tengen/internal/sqlrow"
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
	r, err := sqlrow.StartingRating(u.Rank)
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
	u.Settings = tengen.DefaultUserSettings
	u.Rating, u.Deviation, u.Rank = r.Rating, r.Deviation, rating.Label(u.Bot, false, r.Rating, r.Deviation)
	return nil
}

// userColumns are the columns of a user that userFields scans, the
// rating's (see userRatingColumns) and then the game room's settings and
// vacation (sqlrow.UserRoomColumns) last.
const userColumns = `id, name, password_hash, language, bot, admin, disabled, created_at, updated_at, ` + userRatingColumns + `, ` + sqlrow.UserRoomColumns

func userFields(u *tengen.User) []any {
	return append([]any{&u.ID, &u.Name, &u.PasswordHash, &u.Language, &u.Bot, &u.Admin, &u.Disabled, timeText{&u.CreatedAt}, timeText{&u.UpdatedAt}},
		append(sqlrow.RatingFields(u), sqlrow.UserRoomFields(u)...)...)
}

// FindUsers implements tengen.UserService.
func (s *UserService) FindUsers(ctx context.Context, filter tengen.UserFilter) ([]*tengen.User, int, error) {
	tx, err := s.db.BeginTx(ctx, false)
	if err != nil {
		return nil, 0, err
	}
	defer tx.Rollback()
	var total int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM users`).Scan(&total); err != nil {
		return nil, 0, err
	}
	limit := filter.Limit
	if limit <= 0 {
		limit = -1 // SQLite: no limit
	}
	rows, err := tx.QueryContext(ctx, `SELECT `+userColumns+` FROM users ORDER BY id LIMIT ? OFFSET ?`, limit, max(filter.Offset, 0))
	if err != nil {
		return nil, 0, err
	}
	defer rows.Close()
	var users []*tengen.User
	for rows.Next() {
		var u tengen.User
		if err := rows.Scan(userFields(&u)...); err != nil {
			return nil, 0, err
		}
		users = append(users, &u)
	}
	return users, total, rows.Err()
}

// ClaimFirstAdmin implements tengen.UserService.
func (s *UserService) ClaimFirstAdmin(ctx context.Context, id int64) (bool, error) {
	tx, err := s.db.BeginTx(ctx, true)
	if err != nil {
		return false, err
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, `UPDATE users SET admin = TRUE, updated_at = ?
		WHERE id = ? AND bot = FALSE AND NOT EXISTS (SELECT 1 FROM users WHERE admin)`, formatTime(tx.now), id)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, err
	}
	return n == 1, tx.Commit()
}

// SetUserAdmin implements tengen.UserService.
func (s *UserService) SetUserAdmin(ctx context.Context, id int64, admin bool) (*tengen.User, error) {
	return s.setFlag(ctx, id, func(tx *Tx, u *tengen.User) error {
		if admin && u.Bot {
			return tengen.Errorf(tengen.EINVALID, "A bot cannot be an admin.")
		}
		u.Admin = admin
		_, err := tx.ExecContext(ctx, `UPDATE users SET admin = ?, updated_at = ? WHERE id = ?`, admin, formatTime(tx.now), id)
		return err
	})
}

// SetUserDisabled implements tengen.UserService.
func (s *UserService) SetUserDisabled(ctx context.Context, id int64, disabled bool) (*tengen.User, error) {
	return s.setFlag(ctx, id, func(tx *Tx, u *tengen.User) error {
		u.Disabled = disabled
		if _, err := tx.ExecContext(ctx, `UPDATE users SET disabled = ?, updated_at = ? WHERE id = ?`, disabled, formatTime(tx.now), id); err != nil {
			return err
		}
		if !disabled {
			return nil
		}
		if _, err := deleteUserSessions(ctx, tx, id); err != nil {
			return err
		}
		// Nobody can start a game with a disabled account: its open
		// challenges are withdrawn and those addressed to it declined.
		for _, q := range []struct {
			status tengen.ChallengeStatus
			column string
		}{{tengen.ChallengeCancelled, "challenger_id"}, {tengen.ChallengeDeclined, "opponent_id"}} {
			if _, err := tx.ExecContext(ctx, `UPDATE challenges SET status = ?, updated_at = ? WHERE status = ? AND `+q.column+` = ?`,
				string(q.status), formatTime(tx.now), string(tengen.ChallengeOpen), id); err != nil {
				return err
			}
		}
		return nil
	})
}

// setFlag loads user id, lets set change it in the same write
// transaction, and commits.
func (s *UserService) setFlag(ctx context.Context, id int64, set func(*Tx, *tengen.User) error) (*tengen.User, error) {
	tx, err := s.db.BeginTx(ctx, true)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	u, err := findUser(ctx, tx, "id = ?", id)
	if err != nil {
		return nil, err
	}
	if err := set(tx, u); err != nil {
		return nil, err
	}
	u.UpdatedAt = tx.now
	return u, tx.Commit()
}

func findUser(ctx context.Context, tx *Tx, where string, args ...any) (*tengen.User, error) {
	var u tengen.User
	err := tx.QueryRowContext(ctx, `SELECT `+userColumns+` FROM users WHERE `+where, args...).Scan(userFields(&u)...)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, tengen.Errorf(tengen.ENOTFOUND, "User not found.")
	} else if err != nil {
		return nil, err
	}
	return &u, nil
}

// findUsers loads the users with the given ids (0 and repeats are
// skipped) in one query, for filling in Challenge and Game references.
// usersByIDQuery returns the query of findUsers for n ids.
func usersByIDQuery(n int) string {
	return `SELECT ` + userColumns + ` FROM users WHERE id IN (?` + strings.Repeat(", ?", n-1) + `)`
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
		if err := rows.Scan(userFields(&u)...); err != nil {
			return nil, err
		}
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
