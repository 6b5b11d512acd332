package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
)

// Backup writes a consistent copy of the database file src to the new file
// dst with VACUUM INTO, while a server may be using src: the copy is the
// database as of one moment (SQLite's read transaction on the write-ahead
// log), holding every transaction committed before it, none after, and no
// part of one. It needs no lock that writers wait for. Backup opens src on a
// connection of its own, never migrates it, and refuses to overwrite dst:
// the copy is written to a temporary file next to dst, synced, checked with
// PRAGMA quick_check and only then linked to dst, so that dst never names a
// partial copy.
func Backup(ctx context.Context, src, dst string) (err error) {
	if _, err := os.Stat(src); err != nil {
		return fmt.Errorf("sqlite: backup: %w", err)
	}
	if _, err := os.Lstat(dst); err == nil {
		return fmt.Errorf("sqlite: backup: %s exists; not overwriting it", dst)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("sqlite: backup: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(dst), "."+filepath.Base(dst)+".tmp-*")
	if err != nil {
		return fmt.Errorf("sqlite: backup: %w", err)
	}
	tmpName := tmp.Name()
	tmp.Close()
	defer os.Remove(tmpName) // after the link, dst keeps the file
	// VACUUM INTO wants no file or an empty one; CreateTemp made an empty
	// one, which also reserves the name.

	q := url.Values{}
	q.Set("_busy_timeout", "10000")
	q.Set("mode", "ro")
	conn, err := sql.Open("sqlite", "file:"+src+"?"+q.Encode())
	if err != nil {
		return fmt.Errorf("sqlite: backup: %w", err)
	}
	defer conn.Close()
	conn.SetMaxOpenConns(1)
	// A file that is not an SQLite database would otherwise give a copy of
	// nothing: ask for the schema first.
	var tables int
	if err := conn.QueryRowContext(ctx, `SELECT COUNT(*) FROM sqlite_schema WHERE name = 'schema_migrations'`).Scan(&tables); err != nil {
		return fmt.Errorf("sqlite: backup: reading %s: %w", src, err)
	}
	if tables == 0 {
		return fmt.Errorf("sqlite: backup: %s is not a Tengen database", src)
	}
	if _, err := conn.ExecContext(ctx, `VACUUM INTO ?`, tmpName); err != nil {
		return fmt.Errorf("sqlite: backup: %w", err)
	}
	if err := conn.Close(); err != nil {
		return fmt.Errorf("sqlite: backup: %w", err)
	}
	// VACUUM INTO does not sync what it wrote.
	if err := syncFile(tmpName); err != nil {
		return fmt.Errorf("sqlite: backup: %w", err)
	}
	if err := quickCheck(ctx, tmpName); err != nil {
		return fmt.Errorf("sqlite: backup: checking the copy: %w", err)
	}
	// A link, unlike a rename, fails when dst has appeared meanwhile.
	if err := os.Link(tmpName, dst); err != nil {
		return fmt.Errorf("sqlite: backup: %w", err)
	}
	if err := syncFile(filepath.Dir(dst)); err != nil {
		return fmt.Errorf("sqlite: backup: %w", err)
	}
	return nil
}

// syncFile flushes the file or directory name to disk.
func syncFile(name string) error {
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	err = f.Sync()
	return errors.Join(err, f.Close())
}

// quickCheck runs PRAGMA quick_check on the database file name.
func quickCheck(ctx context.Context, name string) error {
	conn, err := sql.Open("sqlite", "file:"+name+"?_query_only=1")
	if err != nil {
		return err
	}
	defer conn.Close()
	var res string
	if err := conn.QueryRowContext(ctx, `PRAGMA quick_check`).Scan(&res); err != nil {
		return err
	}
	if res != "ok" {
		return fmt.Errorf("quick_check: %s", res)
	}
	return nil
}
