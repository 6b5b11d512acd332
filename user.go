package tengen

import (
	"context"
	"time"
	"unicode/utf8"
)

// Limits for user names and passwords.
const (
	MinUserNameLen = 3
	MaxUserNameLen = 20
	MinPasswordLen = 8
	// MaxPasswordLen is bcrypt's limit in bytes; longer passwords would be
	// silently truncated by some implementations, so they are refused.
	MaxPasswordLen = 72
)

// User is a registered account.
type User struct {
	ID int64 `json:"id"`
	// Name is the public, unique user name; uniqueness ignores ASCII case.
	Name string `json:"name"`
	// PasswordHash is the encoded password hash (bcrypt or argon2id); it is
	// never serialised.
	PasswordHash string `json:"-"`
	// Language is the preferred UI language ("" = from the browser).
	Language string `json:"language,omitempty"`
	// Bot marks an account whose moves the server plays: Tengen's own
	// engine at one level, or an external GTP engine. Bots cannot log in
	// (their PasswordHash matches no password) and games against them
	// start without a challenge (see BotService).
	Bot bool `json:"bot,omitempty"`
	// Admin marks an operator of the server: admins list users, disable
	// accounts, cancel games and remove challenges. The first person to
	// register becomes one, or the account named by `tengen serve --admin`.
	Admin bool `json:"admin,omitempty"`
	// Disabled marks an account an admin has shut: it cannot log in and
	// has no sessions.
	Disabled bool `json:"disabled,omitempty"`
	// Rating and Deviation are the player's Glicko-2 rating and its
	// uncertainty (about 95 % of the time the true strength is within two
	// deviations). Rank is the kyu/dan rank the rating maps to ("12k",
	// "3d"), with "?" while the rating is provisional ("12k?"); it is ""
	// for a bot without an anchor, which plays unrated games only. For
	// CreateUser, Rank may name the starting rank the player declared
	// ("" starts at the default rating); see StartingLevels.
	Rating    float64 `json:"rating"`
	Deviation float64 `json:"deviation"`
	Rank      string  `json:"rank"`
	// Volatility is the Glicko-2 volatility σ of the rating: how erratic
	// the player's results are. Storage reads it with the user so that
	// rating a game needs no second read; it is not shown.
	Volatility float64 `json:"-"`
	// Settings are the user's board options and Vacation the vacation
	// account; only the user sees them (GET /api/v1/me/settings).
	Settings  UserSettings `json:"-"`
	Vacation  Vacation     `json:"-"`
	CreatedAt time.Time    `json:"createdAt"`
	UpdatedAt time.Time    `json:"updatedAt"`
}

// Validate reports whether the user's fields may be stored.
func (u *User) Validate() error {
	if err := ValidateUserName(u.Name); err != nil {
		return err
	}
	if u.PasswordHash == "" {
		return Errorf(EINVALID, "Password hash required.")
	}
	return nil
}

// ValidateUserName reports whether name is an acceptable user name: 3 to 20
// ASCII letters, digits, '-' or '_', starting with a letter. The narrow
// alphabet keeps names unambiguous in URLs, SGF files and game lists.
func ValidateUserName(name string) error {
	if n := len(name); n < MinUserNameLen || n > MaxUserNameLen {
		return Errorf(EINVALID, "User name must be %d to %d characters long.", MinUserNameLen, MaxUserNameLen)
	}
	for i, r := range name {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z':
		case i > 0 && (r >= '0' && r <= '9' || r == '-' || r == '_'):
		default:
			return Errorf(EINVALID, "User name must start with a letter and contain only letters, digits, '-' and '_'.")
		}
	}
	return nil
}

// ValidatePassword reports whether password is acceptable as a new password.
func ValidatePassword(password string) error {
	if utf8.RuneCountInString(password) < MinPasswordLen {
		return Errorf(EINVALID, "Password must be at least %d characters long.", MinPasswordLen)
	}
	if len(password) > MaxPasswordLen {
		return Errorf(EINVALID, "Password must be at most %d bytes long.", MaxPasswordLen)
	}
	return nil
}

// UserNameKey returns the key under which name is unique: its ASCII lower
// case. Only ASCII letters fold: Unicode case rules would fold other
// characters into valid names (the Kelvin sign U+212A lower-cases to 'k'),
// so that a name nobody can register would find, and log into, another's
// account.
func UserNameKey(name string) string {
	b := []byte(name)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + ('a' - 'A')
		}
	}
	return string(b)
}

// UserService stores user accounts.
type UserService interface {
	// FindUserByID returns the user with the given id or ENOTFOUND.
	FindUserByID(ctx context.Context, id int64) (*User, error)
	// FindUserByName returns the user with the given name, ignoring case, or
	// ENOTFOUND.
	FindUserByName(ctx context.Context, name string) (*User, error)
	// CreateUser validates and stores a new user and sets its ID and
	// timestamps. A name that is taken (ignoring case) gives ECONFLICT.
	CreateUser(ctx context.Context, u *User) error
	// FindUsers returns the users in the order of their ids (the order
	// they registered), bots included, and the total number of users
	// ignoring Offset and Limit.
	FindUsers(ctx context.Context, filter UserFilter) ([]*User, int, error)
	// ClaimFirstAdmin makes user id an admin if no user is an admin yet and
	// reports whether it did; of two users registering at once only one
	// becomes the first admin. A bot never becomes one (false, no error).
	ClaimFirstAdmin(ctx context.Context, id int64) (bool, error)
	// SetUserAdmin grants or takes away the admin role and returns the
	// user. Bots cannot be admins (EINVALID).
	SetUserAdmin(ctx context.Context, id int64, admin bool) (*User, error)
	// SetUserDisabled disables or enables the account and returns the user.
	// Disabling deletes all of the user's sessions in the same
	// transaction, so that no client of theirs stays logged in, and closes
	// their open challenges: those they made are cancelled, those made to
	// them declined. Enabling restores neither.
	SetUserDisabled(ctx context.Context, id int64, disabled bool) (*User, error)
	// UpdateUserSettings stores the user's language ("" for the browser's)
	// and board options and returns the user; invalid settings get
	// EINVALID and change nothing.
	UpdateUserSettings(ctx context.Context, id int64, language string, s UserSettings) (*User, error)
	// SetPassword stores a new password hash and, in the same transaction,
	// deletes every session of the user except the one whose token is
	// keepToken ("" keeps none); it returns how many it deleted.
	SetPassword(ctx context.Context, id int64, hash, keepToken string) (int, error)
	// UpdateVacation lets change alter the user's vacation account inside
	// one transaction and stores the result; an error from change is
	// returned and nothing is stored.
	UpdateVacation(ctx context.Context, id int64, change func(*Vacation) error) (*User, error)
}

// UserFilter selects a page of users for FindUsers.
type UserFilter struct {
	Offset int
	Limit  int
}
