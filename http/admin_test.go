package http_test

import (
	"fmt"
	"log/slog"
	"net/url"
	"strings"
	"testing"

	"github.com/coder/websocket"

	"tengen"
	"tengen/internal/app"
	"tengen/internal/syncbuf"
)

// newAdminEnv is the whole server with its log in a buffer.
func newAdminEnv(t *testing.T, admin string) (*env, *syncbuf.Buffer) {
	logs := &syncbuf.Buffer{}
	e := newPlayEnvWith(t, func(c *app.Config) {
		c.Logger = slog.New(slog.NewTextHandler(logs, nil))
		c.Admin = admin
	})
	return e, logs
}

type usersOut struct {
	Users []*tengen.User
	Total int
}

// TestAdminAccess checks that every admin endpoint answers anonymous
// requests with 401 and non-admins with 403, and changes nothing then.
func TestAdminAccess(t *testing.T) {
	e, _ := newAdminEnv(t, "")
	root, alice := e.client(), e.client()
	if u := root.register("root"); !u.Admin {
		t.Fatalf("the first user is not an admin: %+v", u)
	}
	if u := alice.register("alice"); u.Admin {
		t.Fatalf("the second user is an admin: %+v", u)
	}
	var ch struct{ Challenge *tengen.Challenge }
	alice.api("POST", "/api/v1/challenges", map[string]any{"settings": settings9()}, 201, &ch)
	endpoints := []struct{ method, path string }{
		{"GET", "/api/v1/admin/users"},
		{"POST", "/api/v1/admin/users/root/disable"},
		{"POST", "/api/v1/admin/users/alice/enable"},
		{"POST", "/api/v1/admin/games/1/cancel"},
		{"POST", fmt.Sprintf("/api/v1/admin/challenges/%d/cancel", ch.Challenge.ID)},
	}
	anon := e.client()
	for _, ep := range endpoints {
		t.Run(ep.method+" "+ep.path, func(t *testing.T) {
			anon.apiError(ep.method, ep.path, nil, 401, tengen.EUNAUTHORIZED)
			alice.apiError(ep.method, ep.path, nil, 403, tengen.EFORBIDDEN)
		})
	}
	if got := anon.page("/admin", 401); !strings.Contains(got, "<html") {
		t.Errorf("the admin page for anonymous visitors: %.200s", got)
	}
	alice.page("/admin", 403)
	root.api("GET", "/api/v1/me", nil, 200, nil)
	var c struct{ Challenge *tengen.Challenge }
	alice.api("GET", fmt.Sprintf("/api/v1/challenges/%d", ch.Challenge.ID), nil, 200, &c)
	if c.Challenge.Status != tengen.ChallengeOpen {
		t.Errorf("a refused removal changed the challenge: %+v", c.Challenge)
	}
}

// TestAdminDisable checks that disabling an account ends its sessions and
// sockets at once, that it cannot log in (with a clear message, given only
// for the right password) until it is enabled again, and that the action is
// logged.
func TestAdminDisable(t *testing.T) {
	e, logs := newAdminEnv(t, "")
	root := e.client()
	root.register("root")
	alice, bob, id := newPlayGame(e, settings9()) // blacky, whitey
	aw := alice.mustWS(id)
	aw.expect("game")
	alice2 := e.client()
	alice2.api("POST", "/api/v1/login", map[string]string{"name": "blacky", "password": "secret-blacky"}, 200, nil)

	var users usersOut
	root.api("GET", "/api/v1/admin/users?limit=2&offset=1", nil, 200, &users)
	if users.Total != 3 || len(users.Users) != 2 || users.Users[0].Name != "blacky" || users.Users[1].Name != "whitey" {
		t.Fatalf("users page: %+v", users)
	}

	var out struct{ User *tengen.User }
	root.api("POST", "/api/v1/admin/users/blacky/disable", nil, 200, &out)
	if !out.User.Disabled {
		t.Errorf("disable answered %+v", out.User)
	}
	wantClosed(t, "the disabled user's socket", aw, websocket.StatusPolicyViolation)
	for _, c := range []*client{alice, alice2} {
		c.apiError("GET", "/api/v1/me", nil, 401, tengen.EUNAUTHORIZED)
	}
	resp, data := e.client().do("POST", "/api/v1/login", map[string]string{"name": "blacky", "password": "secret-blacky"})
	if resp.StatusCode != 403 || !strings.Contains(string(data), "This account has been disabled by an admin.") {
		t.Errorf("login to a disabled account: %d %s", resp.StatusCode, data)
	}
	e.client().apiError("POST", "/api/v1/login", map[string]string{"name": "blacky", "password": "wrong-password"}, 401, tengen.EUNAUTHORIZED)
	if got := e.client().page("/login", 200); got == "" {
		t.Fatal("no login page")
	}
	bob.api("GET", "/api/v1/me", nil, 200, nil)

	root.apiError("POST", "/api/v1/admin/users/root/disable", nil, 400, tengen.EINVALID)
	root.apiError("POST", "/api/v1/admin/users/nobody/disable", nil, 404, tengen.ENOTFOUND)

	var enabled struct{ User *tengen.User }
	root.api("POST", "/api/v1/admin/users/blacky/enable", nil, 200, &enabled)
	if enabled.User.Disabled {
		t.Errorf("enable answered %+v", enabled.User)
	}
	alice.api("POST", "/api/v1/login", map[string]string{"name": "blacky", "password": "secret-blacky"}, 200, nil)
	alice.api("GET", "/api/v1/me", nil, 200, nil)

	log := logs.String()
	for _, want := range []string{
		`msg="admin action" id=`,
		`admin=root adminId=1 action="disable user" user=blacky userId=2 sockets=1`,
		`admin=root adminId=1 action="enable user" user=blacky userId=2 sockets=0`,
		`msg="admin action failed"`,
	} {
		if !strings.Contains(log, want) {
			t.Errorf("log lacks %q", want)
		}
	}
}

// TestAdminCancelGameAndChallenge checks that an admin's cancel ends a game
// as Void for every watcher and that removing a challenge takes it out of
// the lobby.
func TestAdminCancelGameAndChallenge(t *testing.T) {
	e, logs := newAdminEnv(t, "")
	root := e.client()
	root.register("root")
	black, white, id := newPlayGame(e, settings9())
	ww := white.mustWS(id)
	ww.expect("game")
	black.api("POST", fmt.Sprintf("/api/v1/games/%d/moves", id), map[string]any{"seq": 1, "kind": "play", "x": 4, "y": 4}, 200, nil)
	ww.expect("move")

	black.apiError("POST", fmt.Sprintf("/api/v1/admin/games/%d/cancel", id), nil, 403, tengen.EFORBIDDEN)
	var st stateOut
	root.api("POST", fmt.Sprintf("/api/v1/admin/games/%d/cancel", id), nil, 200, &st)
	if st.State.Game.Status != tengen.GameFinished || st.State.Game.Result != tengen.ResultVoid || st.State.Clock.RunningSince != nil {
		t.Errorf("cancel answered %+v, clock %+v", st.State.Game, st.State.Clock)
	}
	if m := ww.expect("phase")[0]; m.Game.Result != tengen.ResultVoid {
		t.Errorf("watcher got %+v", m.Game)
	}
	root.apiError("POST", fmt.Sprintf("/api/v1/admin/games/%d/cancel", id), nil, 409, tengen.ECONFLICT)
	root.apiError("POST", "/api/v1/admin/games/999/cancel", nil, 404, tengen.ENOTFOUND)
	white.apiError("POST", fmt.Sprintf("/api/v1/games/%d/moves", id), map[string]any{"seq": 2, "kind": "play", "x": 3, "y": 3}, 409, tengen.ECONFLICT)

	var ch struct{ Challenge *tengen.Challenge }
	black.api("POST", "/api/v1/challenges", map[string]any{"settings": settings9()}, 201, &ch)
	path := fmt.Sprintf("/api/v1/admin/challenges/%d/cancel", ch.Challenge.ID)
	root.api("POST", path, nil, 200, &ch)
	if ch.Challenge.Status != tengen.ChallengeCancelled {
		t.Errorf("removed challenge: %+v", ch.Challenge)
	}
	root.apiError("POST", path, nil, 409, tengen.ECONFLICT)
	var lobby struct{ Challenges []*tengen.Challenge }
	white.api("GET", "/api/v1/lobby", nil, 200, &lobby)
	if len(lobby.Challenges) != 0 {
		t.Errorf("lobby after the removal: %+v", lobby.Challenges)
	}
	log := logs.String()
	for _, want := range []string{
		fmt.Sprintf(`admin=root adminId=1 action="cancel game" game=%d black=blacky white=whitey moves=1`, id),
		fmt.Sprintf(`admin=root adminId=1 action="remove challenge" challenge=%d challenger=2`, ch.Challenge.ID),
	} {
		if !strings.Contains(log, want) {
			t.Errorf("log lacks %q", want)
		}
	}
}

// TestAdminNamed checks the admin setting: the named account is the admin
// when it registers, and the first person to register is not.
func TestAdminNamed(t *testing.T) {
	e, _ := newAdminEnv(t, "Carol")
	if u := e.client().register("first"); u.Admin {
		t.Errorf("the first user is an admin although the setting names another: %+v", u)
	}
	carol := e.client()
	if u := carol.register("carol"); !u.Admin {
		t.Errorf("the named user is not an admin: %+v", u)
	}
	carol.api("GET", "/api/v1/admin/users", nil, 200, nil)
}

// TestAdminPageForms checks the admin page's forms: each action goes back
// to the page of users it came from, and a refused one shows the page with
// the reason in the page's language.
func TestAdminPageForms(t *testing.T) {
	e, _ := newAdminEnv(t, "")
	root := e.client()
	root.register("root")
	black, white, id := newPlayGame(e, settings9())
	page := root.page("/admin", 200)
	for _, want := range []string{`data-user="blacky"`, `action="/admin/users/blacky/disable"`, fmt.Sprintf(`action="/admin/games/%d/cancel"`, id)} {
		if !strings.Contains(page, want) {
			t.Errorf("admin page lacks %s", want)
		}
	}
	if strings.Contains(page, `action="/admin/users/root/disable"`) {
		t.Error("the admin page offers to disable the admin's own account")
	}
	if !strings.Contains(root.page("/", 200), `href="/admin"`) || strings.Contains(black.page("/", 200), `href="/admin"`) {
		t.Error("the admin link is not shown to the admin only")
	}
	tests := []struct {
		path   string
		status int
		where  string // Location of the redirect, or a text of the page
	}{
		{"/admin/users/blacky/disable", 303, "/admin?offset=50"},
		{"/admin/users/blacky/enable", 303, "/admin?offset=50"},
		{fmt.Sprintf("/admin/games/%d/cancel", id), 303, "/admin?offset=50"},
		{fmt.Sprintf("/admin/games/%d/cancel", id), 409, "Die Partie ist beendet."},
		{"/admin/users/root/disable", 400, "Du kannst dein eigenes Konto nicht sperren."},
	}
	for _, tt := range tests {
		resp, data := root.do("POST", tt.path, url.Values{"offset": {"50"}}, "Accept-Language", "de")
		if resp.StatusCode != tt.status {
			t.Errorf("%s: status %d, want %d", tt.path, resp.StatusCode, tt.status)
		}
		if got := resp.Header.Get("Location") + string(data); !strings.Contains(got, tt.where) {
			t.Errorf("%s: %q lacks %q", tt.path, got[:min(len(got), 300)], tt.where)
		}
	}
	// Disabling blacky above ended black's session; whitey's is alive.
	if resp, _ := white.do("POST", "/admin/users/root/disable", url.Values{}); resp.StatusCode != 403 {
		t.Errorf("a player's admin form: %d, want 403", resp.StatusCode)
	}
}
