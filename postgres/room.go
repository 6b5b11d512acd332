package postgres

import (
	"context"
	"encoding/json"

	"tengen"
)

// The game room's account settings (issue 17): board options, password,
// vacation.

// UpdateUserSettings implements tengen.UserService.
func (s *UserService) UpdateUserSettings(ctx context.Context, id int64, language string, set tengen.UserSettings) (*tengen.User, error) {
	if err := set.Validate(); err != nil {
		return nil, err
	}
	b, err := json.Marshal(set)
	if err != nil {
		return nil, err
	}
	return s.setFlag(ctx, id, func(tx *Tx, u *tengen.User) error {
		u.Language, u.Settings = language, set
		_, err := tx.exec(ctx, `UPDATE users SET language = $1, board_settings = $2, updated_at = $3 WHERE id = $4`,
			language, string(b), tx.now, id)
		return err
	})
}

// SetPassword implements tengen.UserService.
func (s *UserService) SetPassword(ctx context.Context, id int64, hash, keepToken string) (int, error) {
	if hash == "" {
		return 0, tengen.Errorf(tengen.EINVALID, "Password hash required.")
	}
	var n int64
	_, err := s.setFlag(ctx, id, func(tx *Tx, u *tengen.User) error {
		if u.Bot {
			return tengen.Errorf(tengen.EINVALID, "A bot has no password.")
		}
		if _, err := tx.exec(ctx, `UPDATE users SET password_hash = $1, updated_at = $2 WHERE id = $3`, hash, tx.now, id); err != nil {
			return err
		}
		var err error
		n, err = tx.exec(ctx, `DELETE FROM sessions WHERE user_id = $1 AND token_hash <> $2`, id, hashToken(keepToken))
		return err
	})
	return int(n), err
}

// UpdateVacation implements tengen.UserService.
func (s *UserService) UpdateVacation(ctx context.Context, id int64, change func(*tengen.Vacation) error) (*tengen.User, error) {
	return s.setFlag(ctx, id, func(tx *Tx, u *tengen.User) error {
		if err := change(&u.Vacation); err != nil {
			return err
		}
		b, err := json.Marshal(u.Vacation)
		if err != nil {
			return err
		}
		_, err = tx.exec(ctx, `UPDATE users SET vacation = $1, updated_at = $2 WHERE id = $3`, string(b), tx.now, id)
		return err
	})
}
