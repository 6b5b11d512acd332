package sqlite

import (
	"context"
	"path/filepath"
	"testing"
)

func TestOpenWALAndMigrationsOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.db")
	for i := range 2 {
		db := NewDB(path)
		if err := db.Open(); err != nil {
			t.Fatalf("open %d: %v", i, err)
		}
		var mode string
		if err := db.write.QueryRow("PRAGMA journal_mode").Scan(&mode); err != nil || mode != "wal" {
			t.Errorf("journal_mode = %q, %v; want wal", mode, err)
		}
		var n int
		if err := db.read.QueryRow("SELECT COUNT(*) FROM schema_migrations").Scan(&n); err != nil {
			t.Fatal(err)
		}
		names, _ := migrationFS.ReadDir("migrations")
		if n != len(names) {
			t.Errorf("open %d: %d migrations recorded, want %d", i, n, len(names))
		}
		if _, err := db.read.Exec("INSERT INTO id_sequences (name, last_id) VALUES ('x', 1)"); err == nil {
			t.Error("read pool accepted a write")
		}
		if err := db.Ping(context.Background()); err != nil {
			t.Error(err)
		}
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

func TestOpenRejectsMemory(t *testing.T) {
	if err := NewDB(":memory:").Open(); err == nil {
		t.Error("Open(:memory:) succeeded")
	}
}
