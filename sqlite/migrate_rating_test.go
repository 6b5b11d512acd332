package sqlite

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tengen"
	"tengen/clock"
	"tengen/goban"
)

// TestMigrateRatingHistory converts a database from before the history
// moved into the games rows (0011_rating_games.sql) with a rated game, its
// two rating_history rows and an unrated game, and checks that the
// histories read back the same and that the next rated game goes on from
// the stored ratings.
func TestMigrateRatingHistory(t *testing.T) {
	ctx := context.Background()
	names, err := migrationNames()
	if err != nil {
		t.Fatal(err)
	}
	n := -1
	for i, name := range names {
		if strings.HasSuffix(name, "_rating_games.sql") {
			n = i
		}
	}
	if n < 0 {
		t.Fatal("no *_rating_games.sql migration")
	}
	path := filepath.Join(t.TempDir(), "old.db")
	old := openVersion(t, path, n)
	ended := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	ts := formatTime(ended)
	set := tengen.GameSettings{BoardSize: 9, Ruleset: "japanese", Color: tengen.ChooseBlack, TimeControl: clock.TimeControl{Kind: clock.None}}
	args := func(rated bool) []any {
		a := settingsArgs(set)[:15]
		return append(append([]any{}, a...), rated, ts, ts)
	}
	for _, st := range []struct {
		query string
		args  []any
	}{
		{`UPDATE id_sequences SET last_id = 2 WHERE name IN ('users', 'games')`, nil},
		{`INSERT INTO users (id, name, name_key, password_hash, rating, deviation, volatility, created_at, updated_at)
			VALUES (1, 'Alice', 'alice', 'h', 1662.3, 290.1, 0.06, ?, ?)`, []any{ts, ts}},
		{`INSERT INTO users (id, name, name_key, password_hash, rating, deviation, volatility, created_at, updated_at)
			VALUES (2, 'Bob', 'bob', 'h', 1337.7, 290.1, 0.06, ?, ?)`, []any{ts, ts}},
		{`INSERT INTO games (id, challenge_id, black_id, white_id, ` + v1SettingsColumns + `, rated, status, to_move, move_count, result, created_at, updated_at)
			VALUES (1, NULL, 1, 2, ` + v1SettingsPlaceholders + `, ?, 'finished', 'white', 1, 'B+R', ?, ?)`, args(true)},
		{`INSERT INTO games (id, challenge_id, black_id, white_id, ` + v1SettingsColumns + `, rated, status, to_move, move_count, result, created_at, updated_at)
			VALUES (2, NULL, 2, 1, ` + v1SettingsPlaceholders + `, ?, 'finished', 'white', 1, 'B+R', ?, ?)`, args(false)},
		{`INSERT INTO rating_history (game_id, user_id, rating, deviation, volatility, rating_before, deviation_before, created_at)
			VALUES (1, 1, 1662.3, 290.1, 0.06, 1500, 350, ?), (1, 2, 1337.7, 290.1, 0.06, 1500, 350, ?)`, []any{ts, ts}},
	} {
		if _, err := old.Exec(st.query, st.args...); err != nil {
			t.Fatalf("%s: %v", st.query, err)
		}
	}
	if err := old.Close(); err != nil {
		t.Fatal(err)
	}

	db := NewDB(path)
	if err := db.Open(); err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ratings := NewRatingService(db)
	for _, tt := range []struct {
		user          int64
		after, before float64
	}{{1, 1662.3, 1500}, {2, 1337.7, 1500}} {
		h, err := ratings.FindRatingHistory(ctx, tt.user, 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(h) != 1 || h[0].GameID != 1 || h[0].Rating != tt.after || h[0].Deviation != 290.1 || h[0].RatingBefore != tt.before ||
			h[0].DeviationBefore != 350 || !h[0].CreatedAt.Equal(ended) {
			t.Errorf("user %d's history after the migration: %+v", tt.user, h)
		}
	}
	var tables int
	if err := db.read.QueryRow(`SELECT COUNT(*) FROM sqlite_master WHERE name = 'rating_history'`).Scan(&tables); err != nil || tables != 0 {
		t.Errorf("rating_history still there: %d, %v", tables, err)
	}
	// The next rated game starts from the ratings the migration kept.
	c := &tengen.Challenge{ChallengerID: 2, Settings: set}
	c.Settings.Rated = true
	if err := NewChallengeService(db).CreateChallenge(ctx, c); err != nil {
		t.Fatal(err)
	}
	games := NewGameService(db)
	g, err := games.CreateGameFromChallenge(ctx, c.ID, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	m := &tengen.GameMove{GameID: g.ID, Seq: 1, Kind: tengen.MoveResign}
	if _, err := games.AppendMove(ctx, 2, m, tengen.GameUpdate{ToMove: goban.White, Status: tengen.GameFinished, Result: "W+R"}); err != nil {
		t.Fatal(err)
	}
	if h, err := ratings.FindRatingHistory(ctx, 1, 0); err != nil || len(h) != 2 || h[0].GameID != g.ID || h[0].RatingBefore != 1662.3 || h[0].Rating <= 1662.3 {
		t.Errorf("Alice's history after the next game: %+v, %v", h, err)
	}
	// The unrated game has no ratings, so that setting them now is
	// refused; and the rated one's are set once.
	for _, id := range []int64{1, 2} {
		_, err := db.write.Exec(`UPDATE games SET black_rating = 1, black_deviation = 1, black_volatility = 0.06,
			black_rating_before = 1, black_deviation_before = 1 WHERE id = ?`, id)
		if err == nil || !strings.Contains(err.Error(), "games_rating_once") {
			t.Errorf("setting game %d's ratings again: %v", id, err)
		}
	}
}
