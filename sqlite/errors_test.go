package sqlite

import (
	"context"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"tengen"
	"tengen/clock"
	"tengen/goban"
)

// TestConstraintErrors violates every constraint of the schema with a raw
// statement and checks the application error it comes back as. It also
// fails when the schema has a named constraint that the table below does not
// violate, so that every new constraint gets a case.
func TestConstraintErrors(t *testing.T) {
	ctx := context.Background()
	db := NewDB(filepath.Join(t.TempDir(), "t.db"))
	if err := db.Open(); err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	users := NewUserService(db)
	black, white := &tengen.User{Name: "black", PasswordHash: "h"}, &tengen.User{Name: "white", PasswordHash: "h"}
	for _, u := range []*tengen.User{black, white} {
		if err := users.CreateUser(ctx, u); err != nil {
			t.Fatal(err)
		}
	}
	c := &tengen.Challenge{ChallengerID: black.ID, Settings: tengen.GameSettings{BoardSize: 9, Ruleset: "japanese",
		Color: tengen.ChooseBlack, TimeControl: clock.TimeControl{Kind: clock.None}}}
	if err := NewChallengeService(db).CreateChallenge(ctx, c); err != nil {
		t.Fatal(err)
	}
	games := NewGameService(db)
	g, err := games.CreateGameFromChallenge(ctx, c.ID, white.ID, &tengen.PlayRecord{})
	if err != nil {
		t.Fatal(err)
	}
	m := &tengen.GameMove{GameID: g.ID, Seq: 1, Kind: tengen.MovePlay, X: 2, Y: 2, TimeUsed: time.Second}
	if _, err := games.AppendMove(ctx, black.ID, m, tengen.GameUpdate{ToMove: goban.White, Status: tengen.GamePlaying}); err != nil {
		t.Fatal(err)
	}

	const insertMove = `INSERT INTO moves (game_id, seq, color, kind, x, y, time_used_ms, clock, created_at) VALUES (?, ?, 'white', 'play', 3, 3, 0, '', '')`
	generic := map[string]*tengen.Error{
		tengen.EINVALID:  tengen.Errorf(tengen.EINVALID, "The change would store malformed data."),
		tengen.ECONFLICT: tengen.Errorf(tengen.ECONFLICT, "The change clashes with stored data; reload and try again."),
	}
	tests := []struct {
		constraint string
		query      string
		args       []any
		code       string // of a constraint without an entry in constraintErrors
	}{
		{"games_status", `UPDATE games SET status = 'bogus' WHERE id = ?`, []any{g.ID}, ""},
		{"games_to_move", `UPDATE games SET to_move = '' WHERE id = ?`, []any{g.ID}, ""},
		{"games_move_count", `UPDATE games SET move_count = -1 WHERE id = ?`, []any{g.ID}, tengen.EINVALID},
		{"games_result_finished", `UPDATE games SET result = 'B+R' WHERE id = ?`, []any{g.ID}, ""},
		{"games_result_sgf", `UPDATE games SET status = 'finished', result = 'B+x' WHERE id = ?`, []any{g.ID}, ""},
		{"moves_seq", insertMove, []any{g.ID, 0}, ""},
		{"moves_color", `UPDATE moves SET color = 'red' WHERE game_id = ?`, []any{g.ID}, ""},
		{"moves_kind", `UPDATE moves SET kind = 'jump' WHERE game_id = ?`, []any{g.ID}, ""},
		{"moves_point", `UPDATE moves SET x = -1 WHERE game_id = ?`, []any{g.ID}, ""},
		{"moves_point", `UPDATE moves SET kind = 'pass' WHERE game_id = ?`, []any{g.ID}, ""},
		{"moves_time_used", `UPDATE moves SET time_used_ms = -1 WHERE game_id = ?`, []any{g.ID}, ""},
		{"moves_clock", `UPDATE moves SET clock = '{' WHERE game_id = ?`, []any{g.ID}, ""},
		{"moves.game_id, moves.seq", insertMove, []any{g.ID, 1}, ""},
		{"play_records_clock", `UPDATE play_records SET clock = '{' WHERE game_id = ?`, []any{g.ID}, ""},
		{"play_records_dead", `UPDATE play_records SET dead = '' WHERE game_id = ?`, []any{g.ID}, tengen.EINVALID},
		{"play_records_resumptions", `UPDATE play_records SET resumptions = '[' WHERE game_id = ?`, []any{g.ID}, tengen.EINVALID},
		{"play_records_proposals", `UPDATE play_records SET accepted_white = -1 WHERE game_id = ?`, []any{g.ID}, tengen.EINVALID},
		{"play_records_comforts", `UPDATE play_records SET comforts = '{' WHERE game_id = ?`, []any{g.ID}, tengen.EINVALID},
		{"users_board_settings", `UPDATE users SET board_settings = '{' WHERE id = ?`, []any{white.ID}, tengen.EINVALID},
		{"users_vacation", `UPDATE users SET vacation = '' WHERE id = ?`, []any{white.ID}, tengen.EINVALID},
		{"FOREIGN KEY", insertMove, []any{g.ID + 1, 1}, tengen.EINVALID},
		{"games.result", `UPDATE games SET result = NULL WHERE id = ?`, []any{g.ID}, tengen.EINVALID},
		{"users.name_key", `UPDATE users SET name_key = 'black' WHERE id = ?`, []any{white.ID}, tengen.ECONFLICT},
		{"users_deviation", `UPDATE users SET deviation = -1 WHERE id = ?`, []any{white.ID}, tengen.EINVALID},
		{"users_volatility", `UPDATE users SET volatility = 0 WHERE id = ?`, []any{white.ID}, tengen.EINVALID},
		{"games_black_rating", `UPDATE games SET black_rating = 1500 WHERE id = ?`, []any{g.ID}, tengen.EINVALID},
		{"games_white_rating", `UPDATE games SET white_rating = 1500, white_deviation = 0, white_volatility = 0.06,
			white_rating_before = 1500, white_deviation_before = 350 WHERE id = ?`, []any{g.ID}, tengen.EINVALID},
		{"games_rating_once", `UPDATE games SET black_rating = 1500, black_deviation = 300, black_volatility = 0.06,
			black_rating_before = 1500, black_deviation_before = 350 WHERE id = ?`, []any{g.ID}, tengen.EINVALID},
	}
	tested := map[string]bool{}
	for _, tt := range tests {
		tested[tt.constraint] = true
		want, ok := constraintErrors[tt.constraint]
		if !ok {
			want = generic[tt.code]
		}
		tx, err := db.BeginTx(ctx, true)
		if err != nil {
			t.Fatal(err)
		}
		_, err = tx.ExecContext(ctx, tt.query, tt.args...)
		tx.Rollback()
		if tengen.ErrorCode(err) != want.Code || tengen.ErrorMessage(err) != want.Message {
			t.Errorf("%s: error %v, want %s %q", tt.constraint, err, want.Code, want.Message)
		}
	}

	for name := range constraintErrors {
		if !tested[name] {
			t.Errorf("constraintErrors has %q, which no case violates", name)
		}
	}
	rows, err := db.read.Query(`SELECT sql FROM sqlite_master WHERE sql IS NOT NULL`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	named := regexp.MustCompile(`CONSTRAINT (\w+)`)
	for rows.Next() {
		var schema string
		if err := rows.Scan(&schema); err != nil {
			t.Fatal(err)
		}
		for _, m := range named.FindAllStringSubmatch(schema, -1) {
			if !tested[m[1]] {
				t.Errorf("no case violates constraint %s", m[1])
			}
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
}
