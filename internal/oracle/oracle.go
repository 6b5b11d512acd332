// Package oracle finds the external programs that Tengen's tests use as
// oracles and opponents, such as GNU Go. A test that needs one skips with a
// clear message when it is missing, unless the environment asks for it, as
// .ci/run does, and then fails.
package oracle

import (
	"os"
	"os/exec"
	"testing"
)

// RequireGNUGo is the environment variable that turns a missing GNU Go from
// a skip into a failure.
const RequireGNUGo = "TENGEN_REQUIRE_GNUGO"

// GNUGo returns the path of GNU Go, looked up on PATH and in /usr/games
// where Debian installs it. When it is missing the test is skipped with a
// message naming what is skipped, or fails when RequireGNUGo is set.
func GNUGo(t testing.TB, skipping string) string {
	t.Helper()
	for _, p := range []string{"gnugo", "/usr/games/gnugo"} {
		if path, err := exec.LookPath(p); err == nil {
			return path
		}
	}
	if os.Getenv(RequireGNUGo) != "" {
		t.Fatalf("gnugo is required (%s is set) but not installed: apt-get install gnugo", RequireGNUGo)
	}
	t.Skipf("gnugo is not installed (apt-get install gnugo); skipping %s", skipping)
	return ""
}
