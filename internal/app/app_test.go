package app_test

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"log/slog"
	"net"
	nethttp "net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"tengen/internal/app"
	"tengen/postgres/pgtest"
)

func quiet() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// closed reports whether every connection to the database at path is
// closed: SQLite removes the write-ahead log when the last one closes.
func closed(t *testing.T, path string) bool {
	t.Helper()
	_, err := os.Stat(path + "-wal")
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.Fatal(err)
	}
	return err != nil
}

func TestOpenServeClose(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tengen.db")
	a, err := app.Open(context.Background(), app.Config{DBPath: path, Addr: "127.0.0.1:0", Logger: quiet(), BcryptCost: bcrypt.MinCost})
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + a.Addr().String() + "/healthz"
	resp, err := nethttp.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("/healthz: %s", resp.Status)
	}
	if closed(t, path) {
		t.Fatal("no write-ahead log while the database is open: the closed check below would prove nothing")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := a.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := nethttp.Get(url); err == nil {
		t.Error("the server still answers after Close")
	}
	if !closed(t, path) {
		t.Error("the database is still open after Close")
	}
	if got := a.Play.Bots(); len(got) != 0 {
		t.Errorf("bots without EngineBots or BotsFile: %v", got)
	}
}

// TestOpenUndoes checks that a failed Open closes what it had opened.
func TestOpenUndoes(t *testing.T) {
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	for _, tt := range []struct {
		name string
		cfg  app.Config
		want string
		nodb bool // the database must not even be created
	}{
		{name: "bots file", cfg: app.Config{BotsFile: "no-such-bots.json"}, want: "bots: open no-such-bots.json", nodb: true},
		{name: "base URL", cfg: app.Config{BaseURL: "ftp://go.example.org"}, want: "must be an absolute http or https URL"},
		{name: "listen", cfg: app.Config{Addr: busy.Addr().String()}, want: "listen tcp " + busy.Addr().String()},
		{name: "metrics listen", cfg: app.Config{Addr: "127.0.0.1:0", MetricsAddr: busy.Addr().String()}, want: "metrics: listen tcp " + busy.Addr().String()},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "tengen.db")
			cfg := tt.cfg
			cfg.DBPath, cfg.Logger, cfg.BcryptCost = path, quiet(), bcrypt.MinCost
			a, err := app.Open(context.Background(), cfg)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Open: %v, %v; want an error with %q", a, err, tt.want)
			}
			_, serr := os.Stat(path)
			if tt.nodb != errors.Is(serr, fs.ErrNotExist) {
				t.Errorf("database file after the failure: %v", serr)
			}
			if !closed(t, path) {
				t.Error("the database is still open after the failed Open")
			}
		})
	}
}

func TestOpenNeedsDatabase(t *testing.T) {
	if _, err := app.Open(context.Background(), app.Config{Logger: quiet()}); err == nil {
		t.Error("Open without a database path succeeded")
	}
}

// TestPostgres opens the whole server on PostgreSQL, checks that it
// answers, closes it, and opens it again on the same database, whose
// migrations are then applied already.
func TestPostgres(t *testing.T) {
	url := pgtest.URL(t)
	for i := range 2 {
		a, err := app.Open(context.Background(), app.Config{DBPath: url, Addr: "127.0.0.1:0", Logger: quiet(), BcryptCost: bcrypt.MinCost})
		if err != nil {
			t.Fatalf("open %d: %v", i, err)
		}
		if a.PG == nil || a.DB != nil {
			t.Errorf("open %d: PG %v, DB %v: want PostgreSQL only", i, a.PG, a.DB)
		}
		resp, err := nethttp.Get("http://" + a.Addr().String() + "/healthz")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Errorf("open %d: /healthz: %s", i, resp.Status)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		err = a.Close(ctx)
		cancel()
		if err != nil {
			t.Fatalf("close %d: %v", i, err)
		}
	}
}

// TestPostgresUnreachable checks that a PostgreSQL server that does not
// answer fails Open with an error that does not repeat the password.
func TestPostgresUnreachable(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close() // nothing listens there now
	_, err = app.Open(context.Background(), app.Config{DBPath: "postgres://tengen:s3cret@" + addr + "/tengen?connect_timeout=2", Logger: quiet()})
	if err == nil {
		t.Fatal("Open succeeded without a server")
	}
	if strings.Contains(err.Error(), "s3cret") {
		t.Errorf("error repeats the password: %v", err)
	}
}
