package postgres

import (
	"context"

	"tengen"
	"tengen/internal/rating"
	"tengen/internal/sqlrow"
)

// Compile-time check that UserService implements the interface.
var _ tengen.UserService = (*UserService)(nil)

// UserService stores users in PostgreSQL.
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
	defer tx.rollback()
	return findUser(ctx, tx, "id = $1", id)
}

// FindUserByName implements tengen.UserService.
func (s *UserService) FindUserByName(ctx context.Context, name string) (*tengen.User, error) {
	tx, err := s.db.BeginTx(ctx, false)
	if err != nil {
		return nil, err
	}
	defer tx.rollback()
	return findUser(ctx, tx, "name_key = $1", tengen.UserNameKey(name))
}

// CreateUser implements tengen.UserService. Writers run in parallel here,
// so the name is claimed by the insert itself: ON CONFLICT DO NOTHING
// inserts no row when the name is taken, even by a concurrent call.
func (s *UserService) CreateUser(ctx context.Context, u *tengen.User) error {
	if err := u.Validate(); err != nil {
		return err
	}
	r, err := sqlrow.StartingRating(u.Rank)
	if err != nil {
		return err
	}
	tx, err := s.db.BeginTx(ctx, true)
	if err != nil {
		return err
	}
	defer tx.rollback()
	id, err := tx.insertID(ctx, `INSERT INTO users (name, name_key, password_hash, language, bot, rating, deviation, volatility, created_at, updated_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9) ON CONFLICT (name_key) DO NOTHING RETURNING id`,
		u.Name, tengen.UserNameKey(u.Name), u.PasswordHash, u.Language, u.Bot, r.Rating, r.Deviation, r.Volatility, tx.now)
	if noRows(err) {
		return tengen.Errorf(tengen.ECONFLICT, "The user name %q is taken.", u.Name)
	} else if err != nil {
		return err
	}
	if err := tx.commit(ctx); err != nil {
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
	return append([]any{&u.ID, &u.Name, &u.PasswordHash, &u.Language, &u.Bot, &u.Admin, &u.Disabled, &u.CreatedAt, &u.UpdatedAt},
		append(sqlrow.RatingFields(u), sqlrow.UserRoomFields(u)...)...)
}

// FindUsers implements tengen.UserService.
func (s *UserService) FindUsers(ctx context.Context, filter tengen.UserFilter) ([]*tengen.User, int, error) {
	tx, err := s.db.BeginTx(ctx, false)
	if err != nil {
		return nil, 0, err
	}
	defer tx.rollback()
	var total int
	if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM users`).Scan(&total); err != nil {
		return nil, 0, err
	}
	var limit *int // NULL: no limit
	if filter.Limit > 0 {
		limit = &filter.Limit
	}
	rows, err := tx.Query(ctx, `SELECT `+userColumns+` FROM users ORDER BY id LIMIT $1 OFFSET $2`, limit, max(filter.Offset, 0))
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

// firstAdminLock is the key of the advisory lock that ClaimFirstAdmin
// holds: without it, two concurrent claims would each see no admin.
const firstAdminLock = 0x7465_6e67_0001

// ClaimFirstAdmin implements tengen.UserService.
func (s *UserService) ClaimFirstAdmin(ctx context.Context, id int64) (bool, error) {
	tx, err := s.db.BeginTx(ctx, true)
	if err != nil {
		return false, err
	}
	defer tx.rollback()
	if _, err := tx.exec(ctx, `SELECT pg_advisory_xact_lock($1)`, int64(firstAdminLock)); err != nil {
		return false, err
	}
	n, err := tx.exec(ctx, `UPDATE users SET admin = TRUE, updated_at = $1
		WHERE id = $2 AND NOT bot AND NOT EXISTS (SELECT 1 FROM users WHERE admin)`, tx.now, id)
	if err != nil {
		return false, err
	}
	return n == 1, tx.commit(ctx)
}

// SetUserAdmin implements tengen.UserService.
func (s *UserService) SetUserAdmin(ctx context.Context, id int64, admin bool) (*tengen.User, error) {
	return s.setFlag(ctx, id, func(tx *Tx, u *tengen.User) error {
		if admin && u.Bot {
			return tengen.Errorf(tengen.EINVALID, "A bot cannot be an admin.")
		}
		u.Admin = admin
		_, err := tx.exec(ctx, `UPDATE users SET admin = $1, updated_at = $2 WHERE id = $3`, admin, tx.now, id)
		return err
	})
}

// SetUserDisabled implements tengen.UserService.
func (s *UserService) SetUserDisabled(ctx context.Context, id int64, disabled bool) (*tengen.User, error) {
	return s.setFlag(ctx, id, func(tx *Tx, u *tengen.User) error {
		u.Disabled = disabled
		if _, err := tx.exec(ctx, `UPDATE users SET disabled = $1, updated_at = $2 WHERE id = $3`, disabled, tx.now, id); err != nil {
			return err
		}
		if !disabled {
			return nil
		}
		if _, err := tx.exec(ctx, `DELETE FROM sessions WHERE user_id = $1`, id); err != nil {
			return err
		}
		// Nobody can start a game with a disabled account: its open
		// challenges are withdrawn and those addressed to it declined.
		_, err := tx.exec(ctx, `UPDATE challenges SET updated_at = $1,
			status = CASE WHEN challenger_id = $2 THEN $3 ELSE $4 END
			WHERE status = $5 AND (challenger_id = $2 OR opponent_id = $2)`,
			tx.now, id, string(tengen.ChallengeCancelled), string(tengen.ChallengeDeclined), string(tengen.ChallengeOpen))
		return err
	})
}

// setFlag loads user id, locking its row, lets set change it in the same
// write transaction, and commits.
func (s *UserService) setFlag(ctx context.Context, id int64, set func(*Tx, *tengen.User) error) (*tengen.User, error) {
	tx, err := s.db.BeginTx(ctx, true)
	if err != nil {
		return nil, err
	}
	defer tx.rollback()
	u, err := findUser(ctx, tx, "id = $1 FOR NO KEY UPDATE", id)
	if err != nil {
		return nil, err
	}
	if err := set(tx, u); err != nil {
		return nil, err
	}
	u.UpdatedAt = tx.now
	return u, tx.commit(ctx)
}

func findUser(ctx context.Context, tx *Tx, where string, args ...any) (*tengen.User, error) {
	var u tengen.User
	err := tx.QueryRow(ctx, `SELECT `+userColumns+` FROM users WHERE `+where, args...).Scan(userFields(&u)...)
	if noRows(err) {
		return nil, tengen.Errorf(tengen.ENOTFOUND, "User not found.")
	} else if err != nil {
		return nil, err
	}
	return &u, nil
}

// findUsers loads the users with the given ids (0 and repeats are skipped)
// in one query, for filling in Challenge and Game references.
func findUsers(ctx context.Context, tx *Tx, ids []int64) (map[int64]*tengen.User, error) {
	m := make(map[int64]*tengen.User, len(ids))
	var want []int64
	seen := map[int64]bool{0: true}
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			want = append(want, id)
		}
	}
	if len(want) == 0 {
		return m, nil
	}
	rows, err := tx.Query(ctx, `SELECT `+userColumns+` FROM users WHERE id = ANY($1)`, want)
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
	if len(m) != len(want) {
		return nil, tengen.Errorf(tengen.ENOTFOUND, "User not found.")
	}
	return m, nil
}
