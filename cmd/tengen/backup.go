package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"tengen/postgres"
	"tengen/sqlite"
)

func init() {
	commands["backup"] = command{
		summary: "copy the SQLite database consistently to a new file, also while the server runs",
		run:     runBackup,
	}
}

// runBackup copies the database that `tengen serve` with the same flags
// (or environment) uses to FILE. It is a separate process from the server:
// SQLite lets it read a consistent snapshot while the server goes on
// writing. docs/OPERATIONS.md describes the restore.
func runBackup(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("backup", "FILE", stderr)
	dataDir, dbPath := dbFlags(fs)
	if err := fs.Parse(args); err != nil {
		return errUsage
	}
	if fs.NArg() != 1 || fs.Arg(0) == "" {
		fs.Usage()
		return errUsage
	}
	src, dst := *dbPath, fs.Arg(0)
	if src == "" {
		src = defaultDB(*dataDir)
	}
	if postgres.IsURL(src) {
		return errors.New("backup: the database is PostgreSQL; back it up with pg_dump (see docs/OPERATIONS.md, \"PostgreSQL\")")
	}
	if err := sqlite.Backup(ctx, src, dst); err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	fi, err := os.Stat(dst)
	if err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	fmt.Fprintf(stdout, "backed up %s to %s (%d bytes)\n", src, dst, fi.Size())
	return nil
}
