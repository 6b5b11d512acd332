package sqlite

import (
	"context"
	"path/filepath"
	"testing"
)

// TestMigrateAdmin converts a database of schema version 4 (before the admin
// role) whose earliest account is a bot, and checks that the earliest person
// became the admin and nobody is disabled.
func TestMigrateAdmin(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "old.db")
	old := openVersion(t, path, 4)
	ts := "2026-03-01T12:00:00.000000Z"
	for _, q := range []string{
		`INSERT INTO users (id, name, name_key, password_hash, bot, created_at, updated_at) VALUES (1, 'Tengen-1', 'tengen-1', '!', TRUE, ?, ?)`,
		`INSERT INTO users (id, name, name_key, password_hash, created_at, updated_at) VALUES (2, 'Alice', 'alice', 'h', ?, ?)`,
		`INSERT INTO users (id, name, name_key, password_hash, created_at, updated_at) VALUES (3, 'Bob', 'bob', 'h', ?, ?)`,
		`UPDATE id_sequences SET last_id = 3 WHERE name = 'users' AND ? = ?`,
	} {
		if _, err := old.Exec(q, ts, ts); err != nil {
			t.Fatalf("%s: %v", q, err)
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
	users := NewUserService(db)
	for _, tt := range []struct {
		id    int64
		admin bool
	}{{1, false}, {2, true}, {3, false}} {
		u, err := users.FindUserByID(ctx, tt.id)
		if err != nil {
			t.Fatal(err)
		}
		if u.Admin != tt.admin || u.Disabled {
			t.Errorf("user %s after the migration: admin %v disabled %v, want admin %v, not disabled", u.Name, u.Admin, u.Disabled, tt.admin)
		}
	}
	if ok, err := users.ClaimFirstAdmin(ctx, 3); ok || err != nil {
		t.Errorf("ClaimFirstAdmin after the migration = %v, %v; want false (Alice is the admin)", ok, err)
	}
}
