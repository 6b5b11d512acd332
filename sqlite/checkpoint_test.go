package sqlite

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestCheckpoints writes through the group commit without pause and checks
// what the checkpointer (checkpoint.go) promises: the pages reach the
// database file while the writer has wal_autocheckpoint off, and the WAL
// stays bounded although the commits never stop long enough for a PASSIVE
// checkpoint alone to let SQLite start it over. Without the checkpointer,
// the database file keeps its size and the WAL grows with every commit.
func TestCheckpoints(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.db")
	db := NewDB(path)
	db.CheckpointEvery = time.Millisecond
	db.WALLimit = 64
	if err := db.Open(); err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var auto int
	if err := db.write.QueryRow("PRAGMA wal_autocheckpoint").Scan(&auto); err != nil || auto != 0 {
		t.Fatalf("writer's wal_autocheckpoint = %d, %v; want 0", auto, err)
	}
	ctx := context.Background()
	if _, err := db.write.ExecContext(ctx, "CREATE TABLE ckpt_test (id INTEGER PRIMARY KEY, payload TEXT NOT NULL)"); err != nil {
		t.Fatal(err)
	}
	// The size of the database file before the rows: they reach it only
	// through a checkpoint.
	before := fileSize(t, path)

	// 8 writers, 3,000 commits of a 2 KiB row each: without checkpoints
	// the WAL would hold at least 1,500 pages of 4 KiB.
	const writers, commits = 8, 3000
	payload := strings.Repeat("x", 2048)
	var maxWAL int64
	stopWatch := make(chan struct{})
	watched := make(chan struct{})
	go func() {
		defer close(watched)
		for {
			maxWAL = max(maxWAL, fileSize(t, path+"-wal"))
			select {
			case <-stopWatch:
				return
			default:
				time.Sleep(time.Millisecond)
			}
		}
	}()
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	for w := range writers {
		wg.Go(func() {
			for i := w; i < commits; i += writers {
				err := db.inBatch(ctx, func(ctx context.Context, tx *Tx) error {
					_, err := tx.ExecContext(ctx, "INSERT INTO ckpt_test (id, payload) VALUES (?, ?)", i, payload)
					return err
				})
				if err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(stopWatch)
	<-watched
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}

	const page = 4096
	written := int64(commits * len(payload))
	if maxWAL > written/2 {
		t.Errorf("the WAL grew to %d bytes for %d bytes of rows: not started over", maxWAL, written)
	}
	// The checkpointer copies the last commits a little later.
	deadline := time.Now().Add(30 * time.Second)
	for fileSize(t, path) < before+written && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if got := fileSize(t, path); got < before+written {
		t.Errorf("database file %d bytes after %d bytes of rows were committed (before: %d): not checkpointed", got, written, before)
	}
	t.Logf("database file %d → %d bytes, largest WAL %d bytes (%d pages)", before, fileSize(t, path), maxWAL, maxWAL/page)
}

func fileSize(t *testing.T, name string) int64 {
	fi, err := os.Stat(name)
	if os.IsNotExist(err) {
		return 0
	} else if err != nil {
		t.Error(err)
		return 0
	}
	return fi.Size()
}
