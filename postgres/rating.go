package postgres

import (
	"context"
	"fmt"

	"tengen"
	"tengen/internal/rating"
	"tengen/internal/sqlrow"
)

// Ratings are updated by storage, as in package sqlite (see its rating.go
// for why): the update is computed from the ratings as they stand inside
// the transaction that stores the result, so that a crash leaves both the
// result and the ratings or neither. PostgreSQL runs writers in parallel,
// so rateGame reads the players' ratings again with their rows locked: two
// games of one player that end at the same instant, even on two instances,
// are then rated one after the other.

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
	defer tx.rollback()
	u, err := findUser(ctx, tx, "id = $1 FOR NO KEY UPDATE", userID)
	if err != nil {
		return err
	}
	if !u.Bot {
		return tengen.Errorf(tengen.EINVALID, "Only a bot's rating can be fixed.")
	}
	if _, err := tx.exec(ctx, `UPDATE users SET rating = $1, deviation = $2, volatility = $3, rating_fixed = $4 WHERE id = $5`,
		r.Rating, r.Deviation, r.Volatility, fixed, userID); err != nil {
		return err
	}
	return tx.commit(ctx)
}

// FindRatingHistory implements tengen.RatingService.
func (s *RatingService) FindRatingHistory(ctx context.Context, userID int64, limit int) ([]*tengen.RatingChange, error) {
	tx, err := s.db.BeginTx(ctx, false)
	if err != nil {
		return nil, err
	}
	defer tx.rollback()
	if _, err := findUser(ctx, tx, "id = $1", userID); err != nil {
		return nil, err
	}
	// The user's rated games through the games indexes on black_id and
	// white_id; the ratings are in the games rows (0007_rating_games.sql).
	rows, err := tx.Query(ctx, `SELECT id, black_rating, black_deviation, black_rating_before, black_deviation_before, updated_at
			FROM games WHERE black_id = $1 AND black_rating IS NOT NULL
		UNION ALL
		SELECT id, white_rating, white_deviation, white_rating_before, white_deviation_before, updated_at
			FROM games WHERE white_id = $1 AND white_rating IS NOT NULL
		ORDER BY updated_at DESC, id DESC`+limitOffset(limit, 0), userID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []*tengen.RatingChange{}
	for rows.Next() {
		c := tengen.RatingChange{UserID: userID}
		if err := rows.Scan(&c.GameID, &c.Rating, &c.Deviation, &c.RatingBefore, &c.DeviationBefore, &c.CreatedAt); err != nil {
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
	defer tx.rollback()
	if _, err := findUser(ctx, tx, "id = $1", userID); err != nil {
		return r, err
	}
	// The winner is the colour before "+" of an SGF result; "0" and
	// "Draw" are draws; "Void" and "?" count as nothing.
	err = tx.QueryRow(ctx, `SELECT
			COUNT(*) FILTER (WHERE (black_id = $1 AND result LIKE 'B+%') OR (white_id = $1 AND result LIKE 'W+%')),
			COUNT(*) FILTER (WHERE (black_id = $1 AND result LIKE 'W+%') OR (white_id = $1 AND result LIKE 'B+%')),
			COUNT(*) FILTER (WHERE result IN ('0', 'Draw'))
		FROM games WHERE status = 'finished' AND (black_id = $1 OR white_id = $1)`, userID).Scan(&r.Wins, &r.Losses, &r.Draws)
	return r, err
}

// userRatingColumns are the columns of users that findUser and findUsers
// read for User.Rating, Deviation, Volatility and Rank (see
// sqlrow.RatingFields).
const userRatingColumns = `rating, deviation, volatility, rating_fixed`

// rateGame updates the ratings of g's players after its result was stored
// in tx, if g is rated: both players from their ratings as they stand,
// read again with the rows locked, each as a rating period of one game.
// An anchored bot's rating does not move; a game with a bot without
// anchor, and a result that names no winner nor a draw (Void, ?), rate
// nobody.
func (s *GameService) rateGame(ctx context.Context, tx *Tx, g *tengen.Game) error {
	if !g.Settings.Rated || g.Status != tengen.GameFinished {
		return nil
	}
	score, ok := rating.BlackScore(g.Result)
	if !ok {
		return nil
	}
	// Locked in id order, so that two games of the same two players that
	// end at once cannot wait for each other.
	rows, err := tx.Query(ctx, `SELECT `+userColumns+` FROM users WHERE id = ANY($1) ORDER BY id FOR NO KEY UPDATE`, []int64{g.BlackID, g.WhiteID})
	if err != nil {
		return err
	}
	users := map[int64]*tengen.User{}
	for rows.Next() {
		var u tengen.User
		if err := rows.Scan(userFields(&u)...); err != nil {
			rows.Close()
			return err
		}
		users[u.ID] = &u
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	black, white := users[g.BlackID], users[g.WhiteID]
	if black == nil || white == nil {
		return tengen.Errorf(tengen.ENOTFOUND, "User not found.")
	}
	g.Black, g.White = black, white
	fixed := sqlrow.RatingFixed
	if black.Bot && !fixed(black) || white.Bot && !fixed(white) {
		return nil
	}
	rate := s.Rate
	if rate == nil {
		rate = rating.Game
	}
	ratingOf := sqlrow.UserRating
	var stmts []statement
	// The game's row keeps each side's rating after the game and before
	// it (NULL for a side not rated), set once: the guard makes a second
	// rating of the same game change nothing, and the result's statement
	// before this one already refused to finish a finished game.
	hist := make([]any, 10, 11)
	for i, side := range []struct {
		me, them *tengen.User
		score    float64
	}{{black, white, score}, {white, black, 1 - score}} {
		if fixed(side.me) {
			continue
		}
		old := ratingOf(side.me)
		r, err := rate(old, ratingOf(side.them), side.score)
		if err != nil {
			return fmt.Errorf("postgres: rating game %d for user %d: %w", g.ID, side.me.ID, err)
		}
		copy(hist[5*i:], []any{r.Rating, r.Deviation, r.Volatility, old.Rating, old.Deviation})
		stmts = append(stmts,
			statement{`UPDATE users SET rating = $1, deviation = $2, volatility = $3 WHERE id = $4`,
				[]any{r.Rating, r.Deviation, r.Volatility, side.me.ID}})
		// The opponent's update below reads side.me's rating from
		// before this game: users holds the values read above.
		defer func(u *tengen.User, r rating.Rating) {
			u.Rating, u.Deviation, u.Volatility, u.Rank = r.Rating, r.Deviation, r.Volatility, r.RankString()
		}(side.me, r)
	}
	stmts = append(stmts, statement{`UPDATE games SET black_rating = $1, black_deviation = $2, black_volatility = $3,
			black_rating_before = $4, black_deviation_before = $5, white_rating = $6, white_deviation = $7,
			white_volatility = $8, white_rating_before = $9, white_deviation_before = $10
		WHERE id = $11 AND black_rating IS NULL AND white_rating IS NULL`, append(hist, g.ID)})
	_, err = tx.pipeline(ctx, stmts...)
	return err
}
