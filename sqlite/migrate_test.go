package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"tengen"
	"tengen/clock"
	"tengen/goban"
)

// openVersion creates a database at path with only the first n migrations
// and returns its write pool, as an older Tengen left it.
func openVersion(t *testing.T, path string, n int) *sql.DB {
	t.Helper()
	db := NewDB(path)
	var err error
	if db.write, err = sql.Open("sqlite", db.dsn(false)); err != nil {
		t.Fatal(err)
	}
	db.write.SetMaxOpenConns(1)
	names, err := migrationNames()
	if err != nil {
		t.Fatal(err)
	}
	if err := db.migrateFiles(context.Background(), names[:n]); err != nil {
		t.Fatal(err)
	}
	return db.write
}

// TestMigrateConstraints converts a database of schema version 3 (before the
// constraints of 0004) with the rows older versions wrote, and checks that
// every row reads back the same, that the foreign keys and indexes are
// intact and that play goes on.
func TestMigrateConstraints(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "old.db")
	old := openVersion(t, path, 3)
	created := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	ts := formatTime(created)
	set := tengen.GameSettings{BoardSize: 9, Ruleset: "japanese", Color: tengen.ChooseBlack,
		TimeControl: clock.TimeControl{Kind: clock.ByoYomi, MainTime: 10 * time.Minute, Periods: 5, PeriodTime: 30 * time.Second}}
	stmts := []struct {
		query string
		args  []any
	}{
		{`UPDATE id_sequences SET last_id = 3 WHERE name = 'users'`, nil},
		{`UPDATE id_sequences SET last_id = 2 WHERE name IN ('games', 'challenges')`, nil},
		{`INSERT INTO users (id, name, name_key, password_hash, created_at, updated_at) VALUES (1, 'Alice', 'alice', 'h', ?, ?)`, []any{ts, ts}},
		{`INSERT INTO users (id, name, name_key, password_hash, created_at, updated_at) VALUES (2, 'Bob', 'bob', 'h', ?, ?)`, []any{ts, ts}},
		{`INSERT INTO users (id, name, name_key, password_hash, bot, created_at, updated_at) VALUES (3, 'Tengen-1', 'tengen-1', '!', TRUE, ?, ?)`, []any{ts, ts}},
		{`INSERT INTO sessions (token_hash, user_id, created_at, expires_at) VALUES ('t', 1, ?, ?)`, []any{ts, ts}},
		{`INSERT INTO challenges (id, challenger_id, opponent_id, ` + v1SettingsColumns + `, status, game_id, created_at, updated_at)
			VALUES (1, 1, NULL, ` + v1SettingsPlaceholders + `, 'accepted', 1, ?, ?)`, append(settingsArgs(set)[:15], ts, ts)},
		{`INSERT INTO challenges (id, challenger_id, opponent_id, ` + v1SettingsColumns + `, status, game_id, created_at, updated_at)
			VALUES (2, 2, 1, ` + v1SettingsPlaceholders + `, 'open', NULL, ?, ?)`, append(settingsArgs(set)[:15], ts, ts)},
		{`INSERT INTO games (id, challenge_id, black_id, white_id, ` + v1SettingsColumns + `, status, to_move, move_count, result, created_at, updated_at)
			VALUES (1, 1, 1, 2, ` + v1SettingsPlaceholders + `, 'playing', 'white', 3, '', ?, ?)`, append(settingsArgs(set)[:15], ts, ts)},
		{`INSERT INTO games (id, challenge_id, black_id, white_id, ` + v1SettingsColumns + `, status, to_move, move_count, result, created_at, updated_at)
			VALUES (2, NULL, 3, 2, ` + v1SettingsPlaceholders + `, 'finished', 'black', 1, 'W+R', ?, ?)`, append(settingsArgs(set)[:15], ts, ts)},
		// Migration 0002's moves had no clock; 0003 gave them ''.
		{`INSERT INTO moves (game_id, seq, color, kind, x, y, time_used_ms, created_at) VALUES (1, 1, 'black', 'play', 2, 2, 1500, ?)`, []any{ts}},
		{`INSERT INTO moves (game_id, seq, color, kind, x, y, time_used_ms, clock, created_at) VALUES (1, 2, 'white', 'play', 6, 6, 0, '{"mainTime":598,"overtime":false,"periods":0,"periodLeft":0,"stones":0,"timedOut":false}', ?)`, []any{ts}},
		{`INSERT INTO moves (game_id, seq, color, kind, x, y, time_used_ms, clock, created_at) VALUES (1, 3, 'black', 'pass', 0, 0, 200, '', ?)`, []any{ts}},
		{`INSERT INTO moves (game_id, seq, color, kind, x, y, time_used_ms, clock, created_at) VALUES (2, 1, 'black', 'resign', 0, 0, 0, '', ?)`, []any{ts}},
		{`INSERT INTO play_records (game_id, clock, proposal_seq, dead, accepted_black, accepted_white, resumptions, updated_at)
			VALUES (1, '{"control":{"kind":"absolute","mainTime":600},"black":{"mainTime":600,"overtime":false,"periods":0,"periodLeft":0,"stones":0,"timedOut":false},"white":{"mainTime":598,"overtime":false,"periods":0,"periodLeft":0,"stones":0,"timedOut":false},"turn":"white","running":false}', 1, '[[3,4]]', 0, 1, '[{"afterSeq":0,"color":"white"}]', ?)`, []any{ts}},
	}
	for _, st := range stmts {
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
	games := NewGameService(db)
	g, err := games.FindGameByID(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	if g.ChallengeID != 1 || g.BlackID != 1 || g.WhiteID != 2 || g.Black.Name != "Alice" || g.Status != tengen.GamePlaying ||
		g.ToMove != goban.White || g.MoveCount != 3 || !g.CreatedAt.Equal(created) || !reflect.DeepEqual(g.Settings, set) {
		t.Errorf("game 1 after the migration: %+v", g)
	}
	g2, err := games.FindGameByID(ctx, 2)
	if err != nil {
		t.Fatal(err)
	}
	if g2.ChallengeID != 0 || g2.Status != tengen.GameFinished || g2.Result != "W+R" || g2.Black == nil || !g2.Black.Bot {
		t.Errorf("game 2 after the migration: %+v", g2)
	}
	moves, err := games.FindMoves(ctx, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range moves {
		b, _ := json.Marshal(m)
		got = append(got, string(b))
	}
	want := []string{
		`{"gameId":1,"seq":1,"color":"black","kind":"play","x":2,"y":2,"createdAt":"2026-03-01T12:00:00Z","timeUsedMs":1500}`,
		`{"gameId":1,"seq":2,"color":"white","kind":"play","x":6,"y":6,"clock":{"mainTime":598,"overtime":false,"periods":0,"periodLeft":0,"stones":0,"timedOut":false},"createdAt":"2026-03-01T12:00:00Z","timeUsedMs":0}`,
		`{"gameId":1,"seq":3,"color":"black","kind":"pass","x":0,"y":0,"createdAt":"2026-03-01T12:00:00Z","timeUsedMs":200}`,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("moves after the migration:\n got %q\nwant %q", got, want)
	}
	rec, err := games.FindPlayRecord(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	var wantClock clock.GameClock
	if err := json.Unmarshal([]byte(`{"control":{"kind":"absolute","mainTime":600},"black":{"mainTime":600,"overtime":false,"periods":0,"periodLeft":0,"stones":0,"timedOut":false},"white":{"mainTime":598,"overtime":false,"periods":0,"periodLeft":0,"stones":0,"timedOut":false},"turn":"white","running":false}`), &wantClock); err != nil {
		t.Fatal(err)
	}
	wantRec := &tengen.PlayRecord{Clock: &wantClock, ProposalSeq: 1, Dead: []goban.Point{{X: 3, Y: 4}},
		AcceptedWhite: 1, Resumptions: []tengen.Resumption{{Color: goban.White}}}
	if !reflect.DeepEqual(rec, wantRec) {
		t.Errorf("play record after the migration = %+v, want %+v", rec, wantRec)
	}
	if c, err := NewChallengeService(db).FindChallengeByID(ctx, 2); err != nil || c.Status != tengen.ChallengeOpen || c.OpponentID != 1 {
		t.Errorf("open challenge after the migration = %+v, %v", c, err)
	}
	var sessions int
	if err := db.read.QueryRow(`SELECT COUNT(*) FROM sessions WHERE user_id = 1`).Scan(&sessions); err != nil || sessions != 1 {
		t.Errorf("sessions after the migration: %d, %v", sessions, err)
	}

	// The schema: integrity, foreign keys that name the rebuilt tables,
	// the indexes.
	var ok string
	if err := db.read.QueryRow(`PRAGMA integrity_check`).Scan(&ok); err != nil || ok != "ok" {
		t.Errorf("integrity_check = %q, %v", ok, err)
	}
	if rows, err := db.read.Query(`PRAGMA foreign_key_check`); err != nil {
		t.Fatal(err)
	} else {
		if rows.Next() {
			t.Error("foreign_key_check reports violations")
		}
		rows.Close()
	}
	for _, table := range []string{"moves", "play_records"} {
		var parent string
		if err := db.read.QueryRow(`SELECT "table" FROM pragma_foreign_key_list(?)`, table).Scan(&parent); err != nil || parent != "games" {
			t.Errorf("%s references %q, %v; want games", table, parent, err)
		}
	}
	var leftovers int
	if err := db.read.QueryRow(`SELECT COUNT(*) FROM sqlite_master WHERE name LIKE '%\_new' ESCAPE '\' OR sql LIKE '%\_new%' ESCAPE '\'`).Scan(&leftovers); err != nil || leftovers != 0 {
		t.Errorf("%d schema objects still name a *_new table, %v", leftovers, err)
	}
	for _, index := range []string{"games_black_id", "games_white_id", "games_status"} {
		var n int
		if err := db.read.QueryRow(`SELECT COUNT(*) FROM sqlite_master WHERE type = 'index' AND name = ? AND tbl_name = 'games'`, index).Scan(&n); err != nil || n != 1 {
			t.Errorf("index %s: %d, %v", index, n, err)
		}
	}

	// Play goes on under the new guards.
	m := &tengen.GameMove{GameID: 1, Seq: 4, Kind: tengen.MovePlay, X: 4, Y: 4}
	if _, err := games.AppendMove(ctx, 2, m, tengen.GameUpdate{ToMove: goban.Black, Status: tengen.GamePlaying}); err != nil {
		t.Errorf("move after the migration: %v", err)
	}
	_, err = games.AppendMove(ctx, 2, &tengen.GameMove{GameID: 2, Seq: 2, Kind: tengen.MovePass}, tengen.GameUpdate{ToMove: goban.Black, Status: tengen.GamePlaying})
	if tengen.ErrorCode(err) != tengen.ECONFLICT {
		t.Errorf("move in a finished game after the migration: %v, want ECONFLICT", err)
	}
}
