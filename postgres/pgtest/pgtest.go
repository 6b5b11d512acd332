// Package pgtest gives tests a fresh PostgreSQL database of their own. The
// server comes from the environment: TENGEN_TEST_POSTGRES holds the URL of
// a database on it whose user may create databases (.ci/postgres starts a
// throwaway cluster and prints it). A test that needs PostgreSQL skips with
// a clear message when the variable is unset, unless TENGEN_REQUIRE_POSTGRES
// is set, as .ci/run does, and then fails.
package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// The environment variables that name the server and make it required.
const (
	EnvURL     = "TENGEN_TEST_POSTGRES"
	EnvRequire = "TENGEN_REQUIRE_POSTGRES"
)

// URL creates a new, empty database for t and returns its URL; the
// database is dropped when t ends. When no server is configured, t is
// skipped, or fails when EnvRequire is set.
func URL(t testing.TB) string {
	t.Helper()
	base := os.Getenv(EnvURL)
	if base == "" {
		if os.Getenv(EnvRequire) != "" {
			t.Fatalf("PostgreSQL is required (%s is set) but %s is not: start one with .ci/postgres start DIR", EnvRequire, EnvURL)
		}
		t.Skipf("%s is not set (start a cluster with `eval \"$(.ci/postgres start /tmp/pg)\"`); skipping the PostgreSQL test", EnvURL)
	}
	u, err := url.Parse(base)
	if err != nil {
		t.Fatalf("%s: %v", EnvURL, err)
	}
	var b [8]byte
	rand.Read(b[:])
	name := "tengen_test_" + hex.EncodeToString(b[:])

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, base)
	if err != nil {
		t.Fatalf("connect to %s: %v", EnvURL, err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		t.Fatalf("create test database: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		conn, err := pgx.Connect(ctx, base)
		if err != nil {
			t.Errorf("drop test database %s: %v", name, err)
			return
		}
		defer conn.Close(ctx)
		// FORCE ends the connections of a pool the test left open.
		if _, err := conn.Exec(ctx, "DROP DATABASE "+name+" WITH (FORCE)"); err != nil {
			t.Errorf("drop test database %s: %v", name, err)
		}
	})
	u.Path = "/" + name
	return u.String()
}
