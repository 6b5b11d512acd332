package sqlite

import (
	"context"

	"tengen"
	"tengen/internal/sqlrow"
)

// FindStats implements tengen.RatingService. Each finished game is read
// once, as Black or as White through the games indexes on black_id and
// white_id, with the ratings before the game that its row keeps (see
// migrations/0011_rating_games.sql); an anchored bot opponent, whose side
// the game did not rate, stands at its fixed rating.
func (s *RatingService) FindStats(ctx context.Context, userID int64) (*tengen.UserStats, error) {
	tx, err := s.db.BeginTx(ctx, false)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	if _, err := findUser(ctx, tx, "id = ?", userID); err != nil {
		return nil, err
	}
	rows, err := tx.QueryContext(ctx, `SELECT g.board_size, 1, g.result, g.black_rating_before,
			CASE WHEN g.black_rating IS NULL THEN NULL ELSE COALESCE(g.white_rating_before, CASE WHEN o.rating_fixed THEN o.rating END) END
			FROM games g JOIN users o ON o.id = g.white_id
			WHERE g.black_id = ? AND g.status = 'finished'
		UNION ALL
		SELECT g.board_size, 0, g.result, g.white_rating_before,
			CASE WHEN g.white_rating IS NULL THEN NULL ELSE COALESCE(g.black_rating_before, CASE WHEN o.rating_fixed THEN o.rating END) END
			FROM games g JOIN users o ON o.id = g.black_id
			WHERE g.white_id = ? AND g.status = 'finished'`, userID, userID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var st sqlrow.Stats
	for rows.Next() {
		var g sqlrow.StatsGame
		if err := rows.Scan(g.Dest()...); err != nil {
			return nil, err
		}
		st.Add(g)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return st.Stats(), nil
}

// FindPlayers implements tengen.RatingService. A name search reads the
// unique index on name_key as a range (the key is the name in ASCII lower
// case, and every character that may follow a prefix sorts below 0x7f);
// the strongest active players start from the recently finished rated
// games (the games_status index), so that neither needs an index on
// users.rating, which every rated game would have to write.
func (s *RatingService) FindPlayers(ctx context.Context, f tengen.PlayerFilter) ([]*tengen.User, error) {
	limit := sqlrow.PlayerLimit(f.Limit)
	var query string
	var args []any
	if f.Prefix != "" {
		if err := tengen.ValidatePlayerPrefix(f.Prefix); err != nil {
			return nil, err
		}
		key := tengen.UserNameKey(f.Prefix)
		query = `SELECT ` + userColumns + ` FROM users WHERE name_key >= ? AND name_key < ? AND NOT disabled
			ORDER BY name_key LIMIT ?`
		args = []any{key, key + "\x7f", limit}
	} else {
		since := formatTime(f.ActiveSince)
		query = `SELECT ` + userColumns + ` FROM users WHERE id IN (
				SELECT black_id FROM games WHERE status = 'finished' AND updated_at >= ? AND black_rating IS NOT NULL
				UNION
				SELECT white_id FROM games WHERE status = 'finished' AND updated_at >= ? AND white_rating IS NOT NULL)
			AND NOT bot AND NOT disabled
			ORDER BY rating DESC, id LIMIT ?`
		args = []any{since, since, limit}
	}
	tx, err := s.db.BeginTx(ctx, false)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	rows, err := tx.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	users := []*tengen.User{}
	for rows.Next() {
		var u tengen.User
		if err := rows.Scan(userFields(&u)...); err != nil {
			return nil, err
		}
		users = append(users, &u)
	}
	return users, rows.Err()
}
