package sqlite

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
		_, err := tx.ExecContext(ctx, `UPDATE users SET language = ?, board_settings = ?, updated_at = ? WHERE id = ?`,
			language, string(b), formatTime(tx.now), id)
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
		if _, err := tx.ExecContext(ctx, `UPDATE users SET password_hash = ?, updated_at = ? WHERE id = ?`, hash, formatTime(tx.now), id); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `DELETE FROM sessions WHERE user_id = ? AND token_hash <> ?`, id, hashToken(keepToken))
		if err != nil {
			return err
		}
		n, err = res.RowsAffected()
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
		_, err = tx.ExecContext(ctx, `UPDATE users SET vacation = ?, updated_at = ? WHERE id = ?`, string(b), formatTime(tx.now), id)
		return err
	})
}
