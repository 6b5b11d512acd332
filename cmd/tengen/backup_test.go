package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"tengen"
	"tengen/clock"
	"tengen/sqlite"
)

// TestBackupCommand checks the command's arguments and refusals; the
// copying itself is sqlite.Backup's (tested in package sqlite) and
// TestBackupUnderLoad's.
func TestBackupCommand(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "data", "tengen.db")
	if err := os.Mkdir(filepath.Join(dir, "data"), 0o700); err != nil {
		t.Fatal(err)
	}
	if out, errOut, err := runCmd(t, "", "backup", "--data-dir", filepath.Join(dir, "data"), filepath.Join(dir, "missing.db")); err == nil || !strings.Contains(err.Error(), "no such file") {
		t.Fatalf("backup without a database: %v\n%s%s", err, out, errOut)
	}
	mustCreateDB(t, db)
	existing := filepath.Join(dir, "existing.db")
	if err := os.WriteFile(existing, []byte("keep"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name string
		args []string
		want string // in the error, or in the output when it succeeds
	}{
		{"no file", []string{"--db", db}, "usage"},
		{"two files", []string{"--db", db, "a.db", "b.db"}, "usage"},
		{"existing file", []string{"--db", db, existing}, "exists; not overwriting"},
		{"postgres", []string{"--db", "postgres://tengen@localhost/tengen", filepath.Join(dir, "pg.db")}, "pg_dump"},
		{"by --db", []string{"--db", db, filepath.Join(dir, "one.db")}, "backed up " + db + " to " + filepath.Join(dir, "one.db")},
		{"by --data-dir", []string{"--data-dir", filepath.Join(dir, "data"), filepath.Join(dir, "two.db")}, "to " + filepath.Join(dir, "two.db")},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out, _, err := runCmd(t, "", append([]string{"backup"}, tt.args...)...)
			if got := fmt.Sprint(err); err == nil {
				got = out
			} else if !strings.Contains(got, tt.want) {
				t.Fatalf("error %q; want %q in it", got, tt.want)
			} else {
				return
			}
			if !strings.Contains(out, tt.want) {
				t.Fatalf("output %q; want %q in it", out, tt.want)
			}
		})
	}
	if data, _ := os.ReadFile(existing); string(data) != "keep" {
		t.Errorf("the existing file was overwritten: %q", data)
	}
}

// mustCreateDB creates a Tengen database at path.
func mustCreateDB(t *testing.T, path string) {
	t.Helper()
	db := sqlite.NewDB(path)
	if err := db.Open(); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestBackupUnderLoad runs `tengen backup` as its own process against the
// database of a `tengen serve` process while four games commit moves as
// fast as the server acknowledges them. It then restores the backup as
// docs/OPERATIONS.md says (stop the server, even with SIGKILL; move the
// database with its -wal and -shm files aside; copy the backup into place;
// start) and finds every move acknowledged before the backup started, each
// game whole and able to go on.
func TestBackupUnderLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the server binary")
	}
	bin := buildTengen(t)
	dir := t.TempDir()
	db := filepath.Join(dir, "tengen.db")
	srv := startServer(t, bin, db, freeAddr(t))

	const games, perGame = 4, 100 // spacedPoint has room for 100 moves
	type pair struct {
		players [2]*apiClient
		path    string
		acked   atomic.Int64 // moves acknowledged so far
	}
	pairs := make([]*pair, games)
	set := tengen.GameSettings{BoardSize: 19, Ruleset: "japanese", Color: tengen.ChooseBlack,
		TimeControl: clock.TimeControl{Kind: clock.Absolute, MainTime: time.Hour}}
	for i := range pairs {
		p := &pair{}
		for j := range p.players {
			p.players[j] = newAPIClient(t, srv.base)
			name := fmt.Sprintf("player%d%c", i, 'a'+j)
			p.players[j].must("POST", "/api/v1/register", map[string]string{"name": name, "password": "secret-" + name}, nil, 201)
		}
		var ch struct{ Challenge tengen.Challenge }
		p.players[0].must("POST", "/api/v1/challenges", map[string]any{"settings": set}, &ch, 201)
		var g struct{ Game tengen.Game }
		p.players[1].must("POST", fmt.Sprintf("/api/v1/challenges/%d/accept", ch.Challenge.ID), nil, &g, 201)
		p.path = fmt.Sprintf("/api/v1/games/%d", g.Game.ID)
		pairs[i] = p
	}

	var stop atomic.Bool
	var wg sync.WaitGroup
	for _, p := range pairs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < perGame && !stop.Load(); i++ {
				x, y := spacedPoint(i)
				status, err := p.players[i%2].call("POST", p.path+"/moves", map[string]any{"seq": i + 1, "kind": "play", "x": x, "y": y}, nil)
				if err != nil || status != 200 {
					t.Errorf("move %d of %s: status %d, %v", i+1, p.path, status, err)
					return
				}
				p.acked.Store(int64(i + 1))
			}
		}()
	}
	for _, p := range pairs {
		for p.acked.Load() < 10 {
			time.Sleep(time.Millisecond)
		}
	}
	// Every move acknowledged now must be in the backup.
	var before [games]int
	for i, p := range pairs {
		before[i] = int(p.acked.Load())
	}
	backup := filepath.Join(dir, "backup.db")
	out, err := exec.Command(bin, "backup", "--db", db, backup).CombinedOutput()
	if err != nil {
		t.Fatalf("tengen backup: %v\n%s", err, out)
	}
	var during int
	for i, p := range pairs {
		during += int(p.acked.Load()) - before[i]
	}
	stop.Store(true)
	wg.Wait()
	t.Logf("%s; %d moves were acknowledged while it ran", strings.TrimSpace(string(out)), during)
	var final [games]int
	for i, p := range pairs {
		final[i] = int(p.acked.Load())
	}

	// Restore: stop the server hard, move the live files aside, copy the
	// backup into place and start again.
	srv.kill()
	for _, suffix := range []string{"", "-wal", "-shm"} {
		if err := os.Rename(db+suffix, filepath.Join(dir, "old"+suffix)); err != nil && suffix == "" {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(backup)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(db, data, 0o600); err != nil {
		t.Fatal(err)
	}
	srv = startServer(t, bin, db, freeAddr(t))
	for i, p := range pairs {
		for _, c := range p.players {
			c.base = srv.base // the sessions are in the backup too
		}
		var st struct{ State tengen.GameSnapshot }
		p.players[0].must("GET", p.path+"/state", nil, &st, 200)
		n := st.State.Game.MoveCount
		// A move may have been committed without its answer reaching us.
		if n < before[i] || n > final[i]+1 || len(st.State.Moves) != n {
			t.Fatalf("%s after the restore: %d moves (%d listed); %d were acknowledged before the backup, %d in all", p.path, n, len(st.State.Moves), before[i], final[i])
		}
		for j, m := range st.State.Moves {
			x, y := spacedPoint(j)
			if m.Seq != j+1 || m.X != x || m.Y != y || m.Kind != tengen.MovePlay {
				t.Errorf("%s: move %d after the restore: %+v", p.path, j+1, m)
			}
		}
		// The game goes on from the restored position.
		if n < perGame {
			x, y := spacedPoint(n)
			p.players[n%2].must("POST", p.path+"/moves", map[string]any{"seq": n + 1, "kind": "play", "x": x, "y": y}, nil, 200)
		}
	}
}
