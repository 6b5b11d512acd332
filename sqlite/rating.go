package sqlite

import (
	"context"
	"fmt"

	"tengen"
	"tengen/internal/rating"
	"tengen/internal/sqlrow"
)

// Ratings are updated by storage, not by package play, because the update
// must be computed from the ratings as they stand inside the transaction
// that stores the result: SQLite serialises writers, so two games of one
// player that end at the same instant are rated one after the other, the
// second from the rating the first left, and a crash leaves both the
// result and the ratings or neither. Package sqlite therefore imports
// internal/rating directly: it is a standard-library-only leaf like goban,
// and passing its Update in from internal/app would add an indirection
// without a second implementation behind it. GameService.Rate exists so
// that tests can make the rating fail.
//
// The new ratings are computed before the statement that stores the result
// and written by it: into the game's row, and by the trigger
// games_rating into the players' rows (migrations/0011_rating_games.sql).
// Two more statements cost 13-15 % of finishing a game; the columns and the
// trigger cost 8-11 %, most of it the page of the users rows
// (docs/PERFORMANCE.md).

// Compile-time check that RatingService implements the interface.
var _ tengen.RatingService = (*RatingService)(nil)

// RatingService stores bot anchors and reads rating histories.
type RatingService struct {
	db *DB
}

// NewRatingService returns a RatingService on db.
func NewRatingService(db *DB) *RatingService {
	return &RatingService{db: db}
}

// SetAnchor implements tengen.RatingService.
func (s *RatingService) SetAnchor(ctx context.Context, userID int64, rank string) error {
	r, fixed, err := sqlrow.AnchorRating(rank)
	if err != nil {
		return err
	}
	tx, err := s.db.BeginTx(ctx, true)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	u, err := findUser(ctx, tx, "id = ?", userID)
	if err != nil {
		return err
	}
	if !u.Bot {
		return tengen.Errorf(tengen.EINVALID, "Only a bot's rating can be fixed.")
	}
	if _, err := tx.ExecContext(ctx, `UPDATE users SET rating = ?, deviation = ?, volatility = ?, rating_fixed = ? WHERE id = ?`,
		r.Rating, r.Deviation, r.Volatility, fixed, userID); err != nil {
		return err
	}
	return tx.Commit()
}

// FindRatingHistory implements tengen.RatingService.
func (s *RatingService) FindRatingHistory(ctx context.Context, userID int64, limit int) ([]*tengen.RatingChange, error) {
	tx, err := s.db.BeginTx(ctx, false)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	if _, err := findUser(ctx, tx, "id = ?", userID); err != nil {
		return nil, err
	}
	// The user's rated games through the games indexes on black_id and
	// white_id; the ratings are in the games rows (0011_rating_games.sql).
	rows, err := tx.QueryContext(ctx, `SELECT id, black_rating, black_deviation, black_rating_before, black_deviation_before, updated_at
			FROM games WHERE black_id = ? AND black_rating IS NOT NULL
		UNION ALL
		SELECT id, white_rating, white_deviation, white_rating_before, white_deviation_before, updated_at
			FROM games WHERE white_id = ? AND white_rating IS NOT NULL
		ORDER BY updated_at DESC, id DESC`+limitOffset(limit, 0), userID, userID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []*tengen.RatingChange{}
	for rows.Next() {
		c := tengen.RatingChange{UserID: userID}
		if err := rows.Scan(&c.GameID, &c.Rating, &c.Deviation, &c.RatingBefore, &c.DeviationBefore, timeText{&c.CreatedAt}); err != nil {
			return nil, err
		}
		c.Rank = rating.Rating{Rating: c.Rating, Deviation: c.Deviation}.RankString()
		out = append(out, &c)
	}
	return out, rows.Err()
}

// FindRecord implements tengen.RatingService.
func (s *RatingService) FindRecord(ctx context.Context, userID int64) (tengen.Record, error) {
	var r tengen.Record
	tx, err := s.db.BeginTx(ctx, false)
	if err != nil {
		return r, err
	}
	defer tx.Rollback()
	if _, err := findUser(ctx, tx, "id = ?", userID); err != nil {
		return r, err
	}
	// The winner is the colour before "+" of an SGF result; "0" and
	// "Draw" are draws; "Void" and "?" count as nothing.
	err = tx.QueryRowContext(ctx, `SELECT
			COALESCE(SUM(CASE WHEN (black_id = ? AND result LIKE 'B+%') OR (white_id = ? AND result LIKE 'W+%') THEN 1 ELSE 0 END), 0),
			COALESCE(SUM(CASE WHEN (black_id = ? AND result LIKE 'W+%') OR (white_id = ? AND result LIKE 'B+%') THEN 1 ELSE 0 END), 0),
			COALESCE(SUM(CASE WHEN result IN ('0', 'Draw') THEN 1 ELSE 0 END), 0)
		FROM games WHERE status = 'finished' AND (black_id = ? OR white_id = ?)`,
		userID, userID, userID, userID, userID, userID).Scan(&r.Wins, &r.Losses, &r.Draws)
	return r, err
}

// userRatingColumns are the columns of users that findUser and findUsers
// read for User.Rating, Deviation, Volatility and Rank (see
// sqlrow.RatingFields).
const userRatingColumns = `rating, deviation, volatility, rating_fixed`

// ratingColumns are the games columns of each side's rating after the game
// and before it (see migrations/0011_rating_games.sql), in the order of
// ratedFinish.args; the finishing statements set them with the result.
const ratingColumns = `black_rating = ?, black_deviation = ?, black_volatility = ?, black_rating_before = ?, black_deviation_before = ?,
	white_rating = ?, white_deviation = ?, white_volatility = ?, white_rating_before = ?, white_deviation_before = ?`

// player is a player's rating as read in the rating transaction.
type player struct {
	bot, fixed bool
	r          rating.Rating
}

func playerOf(u *tengen.User) player {
	return player{bot: u.Bot, fixed: sqlrow.RatingFixed(u), r: sqlrow.UserRating(u)}
}

// ratingChange is one player's rating before a game and after it.
type ratingChange struct {
	u      *tengen.User
	old, r rating.Rating
}

// ratedFinish is what finishing a rated game writes besides the result:
// the change of each side it rates (nil for an anchored bot).
type ratedFinish struct {
	black, white *ratingChange
}

// args returns the values of ratingColumns: NULL for a side not rated.
func (f *ratedFinish) args() []any {
	out := make([]any, 0, 10)
	for _, c := range []*ratingChange{f.black, f.white} {
		if c == nil {
			out = append(out, nil, nil, nil, nil, nil)
			continue
		}
		out = append(out, c.r.Rating, c.r.Deviation, c.r.Volatility, c.old.Rating, c.old.Deviation)
	}
	return out
}

// apply gives the players of the stored game their new ratings.
func (f *ratedFinish) apply() {
	for _, c := range []*ratingChange{f.black, f.white} {
		if c != nil {
			c.u.Rating, c.u.Deviation, c.u.Volatility, c.u.Rank = c.r.Rating, c.r.Deviation, c.r.Volatility, c.r.RankString()
		}
	}
}

// rateFinish returns the rating changes of g's players if upd finishes g
// as a rated game, and nil if it rates nobody: an unrated game, a result
// that names no winner nor a draw (Void, ?), a game with a bot without an
// anchor. Each player is rated as a rating period of one game (Glicko-2 on
// a server rates game by game) from the ratings findGameByID read in the
// transaction that will store the result, so two games of one player that
// end at once are rated one after the other. An anchored bot's rating does
// not move.
func (s *GameService) rateFinish(g *tengen.Game, upd tengen.GameUpdate) (*ratedFinish, error) {
	if !g.Settings.Rated || upd.Status != tengen.GameFinished || g.Status == tengen.GameFinished {
		return nil, nil
	}
	score, ok := rating.BlackScore(upd.Result)
	if !ok {
		return nil, nil
	}
	if g.Black == nil || g.White == nil {
		return nil, tengen.Errorf(tengen.ENOTFOUND, "User not found.")
	}
	// A bot's rating is fixed exactly when it has a rank (see rankText);
	// a person's never is.
	black, white := playerOf(g.Black), playerOf(g.White)
	if black.bot && !black.fixed || white.bot && !white.fixed {
		return nil, nil
	}
	rate := s.Rate
	if rate == nil {
		rate = rating.Game
	}
	var f ratedFinish
	for _, side := range []struct {
		id       int64
		u        *tengen.User
		me, them player
		score    float64
		out      **ratingChange
	}{{g.BlackID, g.Black, black, white, score, &f.black}, {g.WhiteID, g.White, white, black, 1 - score, &f.white}} {
		if side.me.fixed {
			continue
		}
		r, err := rate(side.me.r, side.them.r, side.score)
		if err != nil {
			return nil, fmt.Errorf("sqlite: rating game %d for user %d: %w", g.ID, side.id, err)
		}
		*side.out = &ratingChange{side.u, side.me.r, r}
	}
	return &f, nil
}
