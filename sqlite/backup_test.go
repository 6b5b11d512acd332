package sqlite_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"tengen"
	"tengen/sqlite"
	"tengen/storagetest"
)

// TestBackup copies a database that is open and has a write-ahead log, and
// finds the copy complete, openable on its own and its source unchanged.
func TestBackup(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "tengen.db")
	db, s := open(t, src)
	defer db.Close()
	ctx := context.Background()
	u := &tengen.User{Name: "backed-up", PasswordHash: "x"}
	if err := s.Users.CreateUser(ctx, u); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(src + "-wal"); err != nil || fi.Size() == 0 {
		t.Fatalf("the write is not in the write-ahead log (%v), so the test would not show the backup reads it", err)
	}
	dst := filepath.Join(dir, "copy.db")
	if err := sqlite.Backup(ctx, src, dst); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dst + "-wal"); err == nil {
		t.Error("the copy left a write-ahead log behind")
	}
	if fi, err := os.Stat(dst); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("the copy's mode: %v, %v; want 0600: it holds password hashes and sessions", fi.Mode(), err)
	}
	copyDB, cs := open(t, dst)
	defer copyDB.Close()
	got, err := cs.Users.FindUserByName(ctx, "backed-up")
	if err != nil || got.ID != u.ID {
		t.Fatalf("user in the copy: %+v, %v", got, err)
	}
	// The source goes on.
	if err := s.Users.CreateUser(ctx, &tengen.User{Name: "later", PasswordHash: "x"}); err != nil {
		t.Fatal(err)
	}
	if _, err := cs.Users.FindUserByName(ctx, "later"); tengen.ErrorCode(err) != tengen.ENOTFOUND {
		t.Errorf("a user created after the backup is in the copy: %v", err)
	}

	// A stopped server's database, without a write-ahead log, is copied
	// too, and not changed.
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	before, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	dst2 := filepath.Join(dir, "copy2.db")
	if err := sqlite.Backup(ctx, src, dst2); err != nil {
		t.Fatal(err)
	}
	if after, err := os.ReadFile(src); err != nil || !bytes.Equal(before, after) {
		t.Errorf("the backup changed the stopped database (%v)", err)
	}
	copy2, cs2 := open(t, dst2)
	defer copy2.Close()
	if _, err := cs2.Users.FindUserByName(ctx, "later"); err != nil {
		t.Errorf("user in the copy of the stopped database: %v", err)
	}
}

func TestBackupRefuses(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "tengen.db")
	db, _ := open(t, src)
	defer db.Close()
	existing := filepath.Join(dir, "existing.db")
	notDB := filepath.Join(dir, "notes.txt")
	for name, data := range map[string]string{existing: "keep me", notDB: "not a database"} {
		if err := os.WriteFile(name, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for _, tt := range []struct {
		name     string
		src, dst string
		want     string
	}{
		{"existing target", src, existing, "exists; not overwriting"},
		{"missing source", filepath.Join(dir, "missing.db"), filepath.Join(dir, "a.db"), "no such file"},
		{"not a database", notDB, filepath.Join(dir, "b.db"), "not a database"},
		{"missing target directory", src, filepath.Join(dir, "nodir", "c.db"), "no such file"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := sqlite.Backup(context.Background(), tt.src, tt.dst)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Backup: %v; want an error with %q", err, tt.want)
			}
		})
	}
	if data, err := os.ReadFile(existing); err != nil || !bytes.Equal(data, []byte("keep me")) {
		t.Errorf("the existing target changed: %q, %v", data, err)
	}
	// Nothing is left behind: no copy, no temporary file.
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		switch e.Name() {
		case "tengen.db", "tengen.db-wal", "tengen.db-shm", "existing.db", "notes.txt":
		default:
			t.Errorf("left behind: %s", e.Name())
		}
	}
}

// BenchmarkBackup measures a backup of a database of 60,000 moves while
// another game commits moves as fast as it can, and reports the copy's size
// and the slowest move commit during the backups (and, for comparison, in a
// second without a backup).
func BenchmarkBackup(b *testing.B) {
	dir := b.TempDir()
	db, s := openBench(b, filepath.Join(dir, "bench.db"), "NORMAL")
	defer db.Close()
	ctx := context.Background()
	const games, moves = 101, 600
	type game struct {
		g     *tengen.Game
		users [2]*tengen.User
	}
	gs := make([]game, games)
	for i := range gs {
		gs[i].g, gs[i].users = storagetest.BenchGame(b, s, i)
	}
	appendMove := func(g game, seq int) error {
		u := g.users[(seq-1)%2]
		m := &tengen.GameMove{GameID: g.g.ID, Seq: seq, Kind: tengen.MovePlay, X: seq % 25, Y: (seq / 25) % 25}
		m.Color = g.g.ColorOf(u.ID)
		_, err := s.Games.AppendMove(ctx, u.ID, m, tengen.NextState(*m, false))
		return err
	}
	// The first 100 games fill the database, 16 writers at a time.
	var wg sync.WaitGroup
	next := make(chan game)
	for range 16 {
		wg.Go(func() {
			for g := range next {
				for seq := 1; seq <= moves; seq++ {
					if err := appendMove(g, seq); err != nil {
						b.Error(err)
						return
					}
				}
			}
		})
	}
	for _, g := range gs[:games-1] {
		next <- g
	}
	close(next)
	wg.Wait()

	// The last game plays on during the backups.
	var slowest atomic.Int64
	stop := make(chan struct{})
	writer := make(chan error, 1)
	go func() {
		for seq := 1; ; seq++ {
			select {
			case <-stop:
				writer <- nil
				return
			default:
			}
			start := time.Now()
			if err := appendMove(gs[games-1], seq); err != nil {
				writer <- err
				return
			}
			if d := int64(time.Since(start)); d > slowest.Load() {
				slowest.Store(d)
			}
		}
	}()
	// The same writer without a backup, for comparison.
	time.Sleep(time.Second)
	alone := slowest.Swap(0)
	var size int64
	i := 0
	for b.Loop() {
		i++
		dst := filepath.Join(dir, fmt.Sprintf("copy%d.db", i))
		if err := sqlite.Backup(ctx, filepath.Join(dir, "bench.db"), dst); err != nil {
			b.Fatal(err)
		}
		fi, err := os.Stat(dst)
		if err != nil {
			b.Fatal(err)
		}
		size = fi.Size()
		os.Remove(dst)
	}
	close(stop)
	if err := <-writer; err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(size)/(1<<20), "MiB")
	b.ReportMetric(float64(slowest.Load())/1e6, "slowest-move-ms")
	b.ReportMetric(float64(alone)/1e6, "slowest-move-alone-ms")
}
