package main

import (
	"context"
	"errors"
	"io"
	"regexp"
	"strings"
	"testing"
	"time"

	"tengen/internal/syncbuf"
	"tengen/postgres/pgtest"
)

func TestListensEverywhere(t *testing.T) {
	for _, c := range []struct {
		addr string
		want bool
	}{
		{":8080", true},
		{"0.0.0.0:8080", true},
		{"[::]:8080", true},
		{"127.0.0.1:8080", false},
		{"[::1]:8080", false},
		{"localhost:8080", false},
		{"example.org:80", false},
		{"no port", false},
	} {
		if got := listensEverywhere(c.addr); got != c.want {
			t.Errorf("listensEverywhere(%q) = %v, want %v", c.addr, got, c.want)
		}
	}
}

// TestServeClusterFlags checks the flags of several instances: a timeout
// under a second is a usage error, and with PostgreSQL an address that
// names no host needs --advertise (flag or environment); with a host, the
// instance registers and says where it is reached.
func TestServeClusterFlags(t *testing.T) {
	for _, d := range []string{"500ms", "soon", "0"} {
		if _, _, err := runCmd(t, "", "serve", "--data-dir", t.TempDir(), "--instance-timeout", d); !errors.Is(err, errUsage) {
			t.Errorf("serve --instance-timeout %s: %v, want a usage error", d, err)
		}
	}
	url := pgtest.URL(t)
	if _, _, err := runCmd(t, "", "serve", "--db", url, "--addr", ":0"); err == nil || !strings.Contains(err.Error(), "--advertise") {
		t.Errorf("serve on PostgreSQL at :0 without --advertise: %v, want an error that asks for it", err)
	}
	t.Setenv("TENGEN_ADVERTISE", "http://127.0.0.1:1")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var logs syncbuf.Buffer
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"serve", "--db", url, "--addr", "127.0.0.1:0"}, strings.NewReader(""), io.Discard, &logs)
	}()
	re := regexp.MustCompile(`msg="tengen serving" .*instance=1 advertise=http://127.0.0.1:1 `)
	for i := 0; i < 100 && !re.MatchString(logs.String()); i++ {
		time.Sleep(50 * time.Millisecond)
	}
	cancel()
	if err := <-done; err != nil || !re.MatchString(logs.String()) {
		t.Fatalf("serve with TENGEN_ADVERTISE: %v\n%s", err, logs.String())
	}
}
