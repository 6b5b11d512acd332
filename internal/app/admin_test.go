package app_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/crypto/bcrypt"

	"tengen"
	"tengen/engine"
	"tengen/internal/app"
)

// TestAdminSetting checks Config.Admin at start: an existing account named
// by it becomes an admin, a name not registered yet is accepted, and a
// malformed name or a computer player's is refused before the server runs.
func TestAdminSetting(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "tengen.db")
	open := func(admin string) (*app.App, error) {
		return app.Open(ctx, app.Config{DBPath: path, Logger: quiet(), BcryptCost: bcrypt.MinCost, Admin: admin,
			EngineBots: &engine.Options{Threads: 1}})
	}
	a, err := open("")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"alice", "Carol"} {
		if err := a.Users.CreateUser(ctx, &tengen.User{Name: name, PasswordHash: "x"}); err != nil {
			t.Fatal(err)
		}
	}
	bots := a.Play.Bots()
	if err := a.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if len(bots) == 0 {
		t.Fatal("no bots")
	}

	tests := []struct {
		admin   string
		wantErr string
	}{
		{"carol", ""},
		{"nobody_yet", ""},
		{"not a name", "admin"},
		{bots[0].Name, "computer player"},
	}
	for _, tt := range tests {
		a, err := open(tt.admin)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("Admin %q: error %v, want %q", tt.admin, err, tt.wantErr)
			}
			if err == nil {
				a.Close(ctx)
			}
			continue
		}
		if err != nil {
			t.Fatalf("Admin %q: %v", tt.admin, err)
		}
		if u, err := a.Users.FindUserByName(ctx, tt.admin); err == nil && !u.Admin {
			t.Errorf("Admin %q: the account is not an admin", tt.admin)
		}
		if u, err := a.Users.FindUserByName(ctx, "alice"); err != nil || u.Admin {
			t.Errorf("alice became an admin: %+v, %v", u, err)
		}
		if err := a.Close(ctx); err != nil {
			t.Fatal(err)
		}
	}
}
