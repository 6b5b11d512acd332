package sqlite

import (
	"context"
	"fmt"

	"tengen"
	"tengen/internal/rating"
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
// that tests can make the rating write fail.

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

// anchorDeviation is the deviation of an anchored bot: small, so that a
// game against it counts almost fully for its opponent, and below
// rating.ProvisionalDeviation, so that its rank shows without "?".
const anchorDeviation = 60.0

// SetAnchor implements tengen.RatingService.
func (s *RatingService) SetAnchor(ctx context.Context, userID int64, rank string) error {
	r := rating.New()
	fixed := rank != ""
	if fixed {
		k, err := rating.ParseRank(rank)
		if err != nil {
			return tengen.Errorf(tengen.EINVALID, "Anchor rank %q is not between 30k and 9d.", rank)
		}
		r = rating.NewAt(k)
		r.Deviation = anchorDeviation
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
	// The user's games through the games indexes, then their rows by the
	// history's primary key (see 0006_ratings.sql).
	rows, err := tx.QueryContext(ctx, `SELECT h.game_id, h.rating, h.deviation, h.rating_before, h.deviation_before, h.created_at
		FROM games g JOIN rating_history h ON h.game_id = g.id AND h.user_id = ?
		WHERE g.black_id = ? OR g.white_id = ?
		ORDER BY h.created_at DESC, h.game_id DESC`+limitOffset(limit, 0), userID, userID, userID)
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

// The statements of rating a game, on the path of the move that ends it
// (see hot). Both players' rows are written by one statement each, since
// every statement costs about as much as the row it writes.
var (
	setRatingQuery  = hot(`UPDATE users SET rating = ?, deviation = ?, volatility = ? WHERE id = ?`)
	setRatingsQuery = hot(`UPDATE users SET
		rating = CASE id WHEN ? THEN ? ELSE ? END,
		deviation = CASE id WHEN ? THEN ? ELSE ? END,
		volatility = CASE id WHEN ? THEN ? ELSE ? END
		WHERE id IN (?, ?)`)
	historyColumns      = `INSERT INTO rating_history (game_id, user_id, rating, deviation, volatility, rating_before, deviation_before, created_at) VALUES `
	ratingHistoryQuery  = hot(historyColumns + `(?, ?, ?, ?, ?, ?, ?, ?)`)
	ratingsHistoryQuery = hot(historyColumns + `(?, ?, ?, ?, ?, ?, ?, ?), (?, ?, ?, ?, ?, ?, ?, ?)`)
)

// player is a player's rating as read in the rating transaction.
type player struct {
	bot, fixed bool
	r          rating.Rating
}

func playerOf(u *tengen.User) player {
	return player{bot: u.Bot, fixed: u.Bot && u.Rank != "", r: rating.Rating{Rating: u.Rating, Deviation: u.Deviation, Volatility: u.Volatility}}
}

// rateGame updates the ratings of g's players after its result was stored
// in tx, if g is rated: both players from the ratings read in tx, each as
// a rating period of one game (Glicko-2 on a server rates game by game).
// An anchored bot's rating does not move; a game with a bot without anchor,
// and a result that names no winner nor a draw (Void, ?), rate nobody.
func (s *GameService) rateGame(ctx context.Context, tx *Tx, g *tengen.Game) error {
	if !g.Settings.Rated || g.Status != tengen.GameFinished {
		return nil
	}
	score, ok := rating.BlackScore(g.Result)
	if !ok {
		return nil
	}
	// The players as findGameByID read them in this transaction: their
	// ratings as they stand now, with no second read. A bot's rating is
	// fixed exactly when it has a rank (see rankText); a person's never is.
	if g.Black == nil || g.White == nil {
		return tengen.Errorf(tengen.ENOTFOUND, "User not found.")
	}
	black, white := playerOf(g.Black), playerOf(g.White)
	if black.bot && !black.fixed || white.bot && !white.fixed {
		return nil
	}
	rate := s.Rate
	if rate == nil {
		rate = rating.Game
	}
	type change struct {
		id     int64
		u      *tengen.User
		old, r rating.Rating
	}
	var changes []change
	for _, side := range []struct {
		id       int64
		u        *tengen.User
		me, them player
		score    float64
	}{{g.BlackID, g.Black, black, white, score}, {g.WhiteID, g.White, white, black, 1 - score}} {
		if side.me.fixed {
			continue
		}
		r, err := rate(side.me.r, side.them.r, side.score)
		if err != nil {
			return fmt.Errorf("sqlite: rating game %d for user %d: %w", g.ID, side.id, err)
		}
		changes = append(changes, change{side.id, side.u, side.me.r, r})
	}
	var history []any
	for _, c := range changes {
		history = append(history, g.ID, c.id, c.r.Rating, c.r.Deviation, c.r.Volatility, c.old.Rating, c.old.Deviation, formatTime(tx.now))
		c.u.Rating, c.u.Deviation, c.u.Volatility, c.u.Rank = c.r.Rating, c.r.Deviation, c.r.Volatility, c.r.RankString()
	}
	switch len(changes) {
	case 1:
		c := changes[0]
		if _, err := tx.ExecContext(ctx, setRatingQuery, c.r.Rating, c.r.Deviation, c.r.Volatility, c.id); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, ratingHistoryQuery, history...)
		return err
	case 2:
		a, b := changes[0], changes[1]
		if _, err := tx.ExecContext(ctx, setRatingsQuery, a.id, a.r.Rating, b.r.Rating, a.id, a.r.Deviation, b.r.Deviation,
			a.id, a.r.Volatility, b.r.Volatility, a.id, b.id); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, ratingsHistoryQuery, history...)
		return err
	}
	return nil
}
