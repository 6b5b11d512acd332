package postgres

import (
	"context"
	"strings"

	"tengen"
	"tengen/internal/sqlrow"
)

// FindStats implements tengen.RatingService, as in package sqlite: each
// finished game once, with the ratings before the game that its row keeps;
// an anchored bot opponent stands at its fixed rating.
func (s *RatingService) FindStats(ctx context.Context, userID int64) (*tengen.UserStats, error) {
	tx, err := s.db.BeginTx(ctx, false)
	if err != nil {
		return nil, err
	}
	defer tx.rollback()
	if _, err := findUser(ctx, tx, "id = $1", userID); err != nil {
		return nil, err
	}
	rows, err := tx.Query(ctx, `SELECT g.board_size, TRUE, g.result, g.black_rating_before,
			CASE WHEN g.black_rating IS NULL THEN NULL ELSE COALESCE(g.white_rating_before, CASE WHEN o.rating_fixed THEN o.rating END) END
			FROM games g JOIN users o ON o.id = g.white_id
			WHERE g.black_id = $1 AND g.status = 'finished'
		UNION ALL
		SELECT g.board_size, FALSE, g.result, g.white_rating_before,
			CASE WHEN g.white_rating IS NULL THEN NULL ELSE COALESCE(g.black_rating_before, CASE WHEN o.rating_fixed THEN o.rating END) END
			FROM games g JOIN users o ON o.id = g.black_id
			WHERE g.white_id = $1 AND g.status = 'finished'`, userID)
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

// FindPlayers implements tengen.RatingService. A name search is a LIKE on
// name_key (its prefix index, migrations/0006_players.sql) with '_', a
// wildcard of LIKE and a character of names, escaped; the strongest active
// players start from the recently finished rated games.
func (s *RatingService) FindPlayers(ctx context.Context, f tengen.PlayerFilter) ([]*tengen.User, error) {
	limit := sqlrow.PlayerLimit(f.Limit)
	var query string
	var args []any
	if f.Prefix != "" {
		if err := tengen.ValidatePlayerPrefix(f.Prefix); err != nil {
			return nil, err
		}
		pattern := strings.ReplaceAll(tengen.UserNameKey(f.Prefix), "_", `\_`) + "%"
		query = `SELECT ` + userColumns + ` FROM users WHERE name_key LIKE $1 AND NOT disabled
			ORDER BY name_key COLLATE "C" LIMIT $2`
		args = []any{pattern, limit}
	} else {
		query = `SELECT ` + userColumns + ` FROM users WHERE id IN (
				SELECT black_id FROM games WHERE status = 'finished' AND updated_at >= $1 AND black_rating IS NOT NULL
				UNION
				SELECT white_id FROM games WHERE status = 'finished' AND updated_at >= $1 AND white_rating IS NOT NULL)
			AND NOT bot AND NOT disabled
			ORDER BY rating DESC, id LIMIT $2`
		args = []any{f.ActiveSince, limit}
	}
	tx, err := s.db.BeginTx(ctx, false)
	if err != nil {
		return nil, err
	}
	defer tx.rollback()
	rows, err := tx.Query(ctx, query, args...)
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
