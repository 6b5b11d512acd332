package app_test

import (
	"context"
	nethttp "net/http"
	"net/http/cookiejar"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"tengen/internal/app"
	"tengen/postgres/pgtest"
)

// TestRateLimitsAcrossInstances: behind a load balancer the limits on
// logins hold for the deployment, not once per instance. Two instances on
// one database share the buckets: an account's failed logins spread over
// both are refused after the third, a successful login forgets them on
// both, and one address's logins count against one budget.
func TestRateLimitsAcrossInstances(t *testing.T) {
	url := pgtest.URL(t)
	var bases [2]string
	for i := range bases {
		// Per address 8 logins at once; per account max(8/4, 3) = 3
		// failures.
		a, err := app.Open(context.Background(), app.Config{DBPath: url, Addr: "127.0.0.1:0", Logger: quiet(), BcryptCost: bcrypt.MinCost, LoginBurst: 8})
		if err != nil {
			t.Fatalf("instance %d: %v", i, err)
		}
		t.Cleanup(func() {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			a.Close(ctx)
		})
		bases[i] = "http://" + a.Addr().String()
	}
	jar, _ := cookiejar.New(nil)
	c := &nethttp.Client{Jar: jar, Timeout: 10 * time.Second}
	at := func(i int) *user { return &user{t: t, c: c, base: bases[i%2]} }
	for _, name := range []string{"eve", "kim"} {
		at(0).must("POST", "/api/v1/register", map[string]string{"name": name, "password": "secret-" + name}, nil, 201)
	}
	login := func(n int, name, password string, want int) {
		t.Helper()
		at(n).must("POST", "/api/v1/login", map[string]string{"name": name, "password": password}, nil, want)
	}
	// eve's account: three failures over both instances, then refused.
	login(0, "eve", "wrong", 401)
	login(1, "eve", "wrong", 401)
	login(0, "eve", "wrong", 401)
	login(1, "eve", "wrong", 429)
	// kim's: a success forgets the failures on both instances.
	login(0, "kim", "wrong", 401)
	login(1, "kim", "wrong", 401)
	login(0, "kim", "secret-kim", 200)
	login(1, "kim", "wrong", 401)
	// Eight logins from this address so far: the budget is spent, on
	// both instances together (each alone has seen four).
	refused := 0
	for i := range 3 {
		resp, err := c.Post(bases[i%2]+"/api/v1/login", "application/json", strings.NewReader(`{"name": "ann", "password": "guess"}`))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode == nethttp.StatusTooManyRequests {
			refused++
		}
	}
	if refused == 0 {
		t.Error("three more logins from one address after its burst of 8: none refused")
	}
}
