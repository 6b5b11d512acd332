package http_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"mime/multipart"
	nethttp "net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"tengen"
	"tengen/clock"
	tengenhttp "tengen/http"
	"tengen/internal/syncbuf"
)

// zeros is an endless reader of zero bytes.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// multipartUpload returns a multipart form with the fields of a login and a
// file part of size bytes, and its Content-Type.
func multipartUpload(size int64) (body io.Reader, length int64, ctype string) {
	var head bytes.Buffer
	mw := multipart.NewWriter(&head)
	mw.WriteField("name", "alice")
	mw.WriteField("password", "correct horse")
	mw.CreateFormFile("file", "big.bin")
	tail := "\r\n--" + mw.Boundary() + "--\r\n"
	length = int64(head.Len()) + size + int64(len(tail))
	return io.MultiReader(&head, io.LimitReader(zeros{}, size), strings.NewReader(tail)), length, mw.FormDataContentType()
}

// post sends body to path with the given Content-Type and returns the
// status, or 0 when the server closed the connection before answering
// (which a server that refuses a large body early may do).
func post(t *testing.T, c *nethttp.Client, u, ctype string, body io.Reader, length int64) int {
	t.Helper()
	req, err := nethttp.NewRequest("POST", u, body)
	if err != nil {
		t.Fatal(err)
	}
	req.ContentLength = length
	req.Header.Set("Content-Type", ctype)
	resp, err := c.Do(req)
	if err != nil {
		return 0
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}

// tempFiles returns the names in dir.
func tempFiles(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

// TestUploadsLeaveNothing posts 40 MB multipart forms to every kind of
// form, also when the answer is 429, and finds no temporary file left and
// no answer but a refusal. The server's temporary files go to TMPDIR.
func TestUploadsLeaveNothing(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	e := newEnv(t, func(c *tengenhttp.Config) { c.LoginBurst = 1 })
	alice := e.client()
	alice.register("alice")
	// Use up the address's login attempts: the login forms below would be
	// answered 429, the case in which the probe found files left too.
	e.client().do("POST", "/api/v1/login", map[string]string{"name": "alice", "password": "wrong password"})
	for _, path := range []string{"/login", "/signup", "/challenges", "/bots/play", "/logout", "/api/v1/login", "/api/v1/challenges", "/"} {
		t.Run(path, func(t *testing.T) {
			body, n, ctype := multipartUpload(40 << 20)
			status := post(t, alice.c, e.srv.URL+path, ctype, body, n)
			if status != 0 && status != nethttp.StatusBadRequest && status != nethttp.StatusMethodNotAllowed {
				t.Errorf("status %d, want 400 (or a closed connection)", status)
			}
			if names := tempFiles(t, tmp); len(names) > 0 {
				t.Errorf("temporary files left: %v", names)
				for _, n := range names {
					os.Remove(tmp + "/" + n)
				}
			}
		})
	}
	// A small multipart form is refused with a message that says why.
	body, n, ctype := multipartUpload(10)
	req, _ := nethttp.NewRequest("POST", e.srv.URL+"/api/v1/login", body)
	req.ContentLength = n
	req.Header.Set("Content-Type", ctype)
	resp, err := nethttp.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 400 || !strings.Contains(string(data), "Multipart bodies are not accepted") {
		t.Errorf("small multipart form: %d %s", resp.StatusCode, data)
	}
}

// TestBodyLimit refuses every body over the limit, announced or not.
func TestBodyLimit(t *testing.T) {
	e := newEnv(t, nil)
	big := strings.Repeat("x", 100<<10)
	tests := []struct {
		name, path, ctype, body string
		chunked                 bool
	}{
		{"form announced", "/login", "application/x-www-form-urlencoded", "name=alice&password=" + big, false},
		{"form chunked", "/login", "application/x-www-form-urlencoded", "name=alice&password=" + big, true},
		{"JSON chunked", "/api/v1/login", "application/json", `{"name": "alice", "password": "` + big + `"}`, true},
		{"no body expected", "/api/v1/logout", "application/json", big, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var body io.Reader = strings.NewReader(tt.body)
			n := int64(len(tt.body))
			if tt.chunked {
				body, n = io.MultiReader(body), -1 // hide the length
			}
			req, _ := nethttp.NewRequest("POST", e.srv.URL+tt.path, body)
			req.ContentLength = n
			req.Header.Set("Content-Type", tt.ctype)
			resp, err := nethttp.DefaultClient.Do(req)
			if err != nil {
				return // refused before the body was sent
			}
			data, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != 400 || (isAPIPath(tt.path) && !strings.Contains(string(data), "too large")) {
				t.Errorf("status %d %.200s, want 400 too large", resp.StatusCode, data)
			}
		})
	}
	// Ordinary forms and JSON bodies still work.
	bob := e.client()
	resp, _ := bob.do("POST", "/signup", url.Values{"name": {"bobby"}, "password": {"secret-bob"}, "password2": {"secret-bob"}})
	if resp.StatusCode != nethttp.StatusSeeOther {
		t.Errorf("sign-up form: %d", resp.StatusCode)
	}
	bob.api("POST", "/api/v1/login", map[string]string{"name": "bobby", "password": "secret-bob"}, 200, nil)
}

func isAPIPath(p string) bool { return strings.HasPrefix(p, "/api/") }

// TestRepeatedUploadsStayFlat is the load test of issue 14: ten 40 MB
// uploads to the sign-up form over loopback, two at a time, leave no
// temporary file and no lasting heap.
func TestRepeatedUploadsStayFlat(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	e := newEnv(t, nil)
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	uploads(t, e, 10)
	runtime.GC()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	if names := tempFiles(t, tmp); len(names) > 0 {
		t.Errorf("temporary files left: %v", names)
	}
	const slack = 16 << 20
	grow := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	t.Logf("heap after GC: %d KiB before, %d KiB after 10 uploads of 40 MB; %d temporary files",
		before.HeapAlloc>>10, after.HeapAlloc>>10, len(tempFiles(t, tmp)))
	if grow > slack {
		t.Errorf("heap grew by %d MB after 10 uploads of 40 MB", grow>>20)
	}
}

// uploads posts n 40 MB multipart forms to /signup, two at a time, within
// a minute.
func uploads(t *testing.T, e *env, n int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var wg sync.WaitGroup
	sem := make(chan struct{}, 2)
	for i := range n {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			body, length, ctype := multipartUpload(40 << 20)
			req, _ := nethttp.NewRequestWithContext(ctx, "POST", e.srv.URL+"/signup", body)
			req.ContentLength = length
			req.Header.Set("Content-Type", ctype)
			resp, err := nethttp.DefaultClient.Do(req)
			if err != nil {
				return
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != 400 {
				t.Errorf("upload %d: status %d", i, resp.StatusCode)
			}
		}()
	}
	wg.Wait()
	if ctx.Err() != nil {
		t.Fatal("uploads took more than a minute")
	}
}

// abandoned is a request body that ends early, as when the client goes
// away: it cancels the request's context and fails.
type abandoned struct {
	r      io.Reader
	cancel context.CancelFunc
}

func (a *abandoned) Read(p []byte) (int, error) {
	n, err := a.r.Read(p)
	if err == io.EOF {
		a.cancel()
		return n, io.ErrUnexpectedEOF
	}
	return n, err
}

// TestAbandonedRequests: a client that goes away in the middle of its body
// is neither a 500 nor an ERROR log line.
func TestAbandonedRequests(t *testing.T) {
	var logs syncbuf.Buffer
	e := newEnv(t, func(c *tengenhttp.Config) {
		c.Logger = slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	})
	alice := e.client()
	alice.register("alice")
	mp, _, mpType := multipartUpload(1 << 20)
	mpHead, _ := io.ReadAll(io.LimitReader(mp, 4000))
	tests := []struct {
		name, path, ctype, body string
	}{
		{"login form", "/login", "application/x-www-form-urlencoded", "name=alice&pass"},
		{"sign-up form", "/signup", "application/x-www-form-urlencoded", "name=bobby&password=secret-bob&pass"},
		{"challenge form", "/challenges", "application/x-www-form-urlencoded", "boardSize=9&ruleset=jap"},
		{"multipart login", "/login", mpType, string(mpHead)},
		{"API login", "/api/v1/login", "application/json", `{"name": "alice", "pass`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := len(logs.String())
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			req := httptest.NewRequestWithContext(ctx, "POST", tt.path, &abandoned{r: strings.NewReader(tt.body), cancel: cancel})
			req.ContentLength = int64(len(tt.body)) + 1000
			req.Header.Set("Content-Type", tt.ctype)
			for _, ck := range alice.c.Jar.Cookies(mustURL(e.srv.URL)) {
				req.AddCookie(ck)
			}
			rec := httptest.NewRecorder()
			e.srv.Config.Handler.ServeHTTP(rec, req)
			if rec.Code >= 500 || rec.Code < 400 {
				t.Errorf("status %d, want 4xx", rec.Code)
			}
			if logged := logs.String()[start:]; strings.Contains(logged, "level=ERROR") {
				t.Errorf("error logged:\n%s", logged)
			}
		})
	}
}

// TestMoveNeedsCoordinates: a play without x or y, or with null ones, is
// refused and stores nothing (it used to be played at 0).
func TestMoveNeedsCoordinates(t *testing.T) {
	e := newPlayEnv(t)
	set := settings9()
	set.TimeControl = clock.TimeControl{Kind: clock.None}
	black, _, id := newPlayGame(e, set)
	base := fmt.Sprintf("/api/v1/games/%d", id)
	for _, body := range []string{
		`{"seq": 1, "kind": "play"}`,
		`{"seq": 1, "kind": "play", "x": 3}`,
		`{"seq": 1, "kind": "play", "y": 3}`,
		`{"seq": 1, "kind": "play", "x": null, "y": null}`,
		`{"seq": 1, "kind": "play", "x": 3, "y": null}`,
	} {
		resp, data := black.do("POST", base+"/moves", body)
		if resp.StatusCode != 400 || !strings.Contains(string(data), "needs x and y") {
			t.Errorf("%s: %d %s", body, resp.StatusCode, data)
		}
	}
	var st stateOut
	black.api("GET", base+"/state", nil, 200, &st)
	if st.State.Game.MoveCount != 0 || st.State.Board[0][0] != '.' {
		t.Errorf("after refused moves: move count %d, corner %q", st.State.Game.MoveCount, st.State.Board[0][0])
	}
	// A pass needs no point, and a play with both coordinates is played.
	black.api("POST", base+"/moves", `{"seq": 1, "kind": "play", "x": 0, "y": 0}`, 200, nil)
	black.api("GET", base+"/state", nil, 200, &st)
	if st.State.Game.MoveCount != 1 || st.State.Board[0][0] != 'B' {
		t.Errorf("after a move at (0, 0): move count %d, corner %q", st.State.Game.MoveCount, st.State.Board[0][0])
	}
}

// TestUnknownFieldsRefused: unknown fields are refused at any depth of a
// request, inside timeControl too.
func TestUnknownFieldsRefused(t *testing.T) {
	e := newEnv(t, nil)
	alice := e.client()
	alice.register("alice")
	for _, body := range []string{
		`{"settings": {"boardSize": 9, "ruleset": "japanese", "color": "black", "timeControl": {"kind": "absolute", "mainTime": 600, "bogus": 1}}}`,
		`{"settings": {"boardSize": 9, "ruleset": "japanese", "color": "black", "bogus": 1, "timeControl": {"kind": "absolute", "mainTime": 600}}}`,
		`{"bogus": 1, "settings": {"boardSize": 9, "ruleset": "japanese", "color": "black", "timeControl": {"kind": "absolute", "mainTime": 600}}}`,
	} {
		resp, data := alice.do("POST", "/api/v1/challenges", body)
		if resp.StatusCode != 400 || !strings.Contains(string(data), "bogus") {
			t.Errorf("%s: %d %s", body, resp.StatusCode, data)
		}
	}
	alice.api("POST", "/api/v1/challenges", `{"settings": {"boardSize": 9, "ruleset": "japanese", "color": "black", "timeControl": {"kind": "absolute", "mainTime": 600}}}`, 201, nil)
}

// TestMoveAnswerIsSmall: the answer to a move is the move, the game and the
// clock, the same size at move 40 as at move 1 (it used to be the whole
// game, 97 KiB at 400 moves).
func TestMoveAnswerIsSmall(t *testing.T) {
	e := newPlayEnv(t)
	set := settings9()
	set.TimeControl = clock.TimeControl{Kind: clock.Absolute, MainTime: time.Hour}
	black, white, id := newPlayGame(e, set)
	path := fmt.Sprintf("/api/v1/games/%d/moves", id)
	var first int
	for i := range 40 {
		p := black
		if i%2 == 1 {
			p = white
		}
		resp, data := p.do("POST", path, map[string]any{"seq": i + 1, "kind": "play", "x": i % 9, "y": i / 9})
		if resp.StatusCode != 200 {
			t.Fatalf("move %d: %d %s", i+1, resp.StatusCode, data)
		}
		var mv moveOut
		if err := json.Unmarshal(data, &mv); err != nil {
			t.Fatal(err)
		}
		if mv.Move == nil || mv.Move.Seq != i+1 || mv.Game == nil || mv.Game.MoveCount != i+1 || mv.Game.Black == nil || mv.Game.White == nil || mv.Clock == nil || mv.ServerTime.IsZero() {
			t.Fatalf("answer to move %d: %s", i+1, data)
		}
		if strings.Contains(string(data), `"board"`) || strings.Contains(string(data), `"moves"`) {
			t.Fatalf("answer to move %d carries the game: %s", i+1, data)
		}
		if i == 0 {
			first = len(data)
		} else if len(data) > first+100 {
			t.Fatalf("answer to move %d is %d bytes, the first was %d", i+1, len(data), first)
		}
	}
}

// moveOut is the answer to a move over HTTP.
type moveOut struct {
	Move       *tengen.GameMove
	Game       *tengen.Game
	Clock      *tengen.ClockView
	ServerTime time.Time
}

// TestGameObjectsAsDocumented: the game objects of the API have the fields
// docs/API.md shows: result ("" until the end) in every Game, moves ([]
// before the first) in GET /api/v1/games/{id}.
func TestGameObjectsAsDocumented(t *testing.T) {
	e := newPlayEnv(t)
	black, _, id := newPlayGame(e, settings9())
	for _, path := range []string{fmt.Sprintf("/api/v1/games/%d", id), "/api/v1/games", "/api/v1/lobby", "/api/v1/users/blacky",
		fmt.Sprintf("/api/v1/games/%d/state", id)} {
		resp, data := black.do("GET", path, nil)
		if resp.StatusCode != 200 {
			t.Fatalf("GET %s: %d", path, resp.StatusCode)
		}
		if !strings.Contains(string(data), `"result":""`) {
			t.Errorf("GET %s: no result in %s", path, data)
		}
	}
	_, data := black.do("GET", fmt.Sprintf("/api/v1/games/%d", id), nil)
	if !strings.Contains(string(data), `"moves":[]`) {
		t.Errorf("GET /api/v1/games/%d: no moves in %s", id, data)
	}
}

// TestLoginNameFoldsASCIIOnly: the Kelvin sign does not log into "kelvin",
// and a look-alike name cannot be registered beside it.
func TestLoginNameFoldsASCIIOnly(t *testing.T) {
	e := newEnv(t, nil)
	e.client().register("kelvin")
	c := e.client()
	c.api("POST", "/api/v1/login", map[string]string{"name": "Kelvin", "password": "secret-kelvin"}, 200, nil)
	c.apiError("POST", "/api/v1/login", map[string]string{"name": "\u212Aelvin", "password": "secret-kelvin"}, 401, "unauthorized")
	c.apiError("GET", "/api/v1/users/\u212Aelvin", nil, 404, "not_found")
	c.apiError("POST", "/api/v1/register", map[string]string{"name": "\u212Aelvin", "password": "secret-kelvin"}, 400, "invalid")
}

// TestChallengeCaps: one user has at most tengen.MaxOpenChallenges open
// challenges (409), and one address may create only so many challenges
// whoever is logged in there (429).
func TestChallengeCaps(t *testing.T) {
	e := newEnv(t, func(c *tengenhttp.Config) { c.ChallengeBurst = tengen.MaxOpenChallenges + 2 })
	alice, bob := e.client(), e.client()
	alice.register("alice")
	bob.register("bob")
	body := map[string]any{"settings": settings9()}
	for range tengen.MaxOpenChallenges {
		alice.api("POST", "/api/v1/challenges", body, 201, nil)
	}
	alice.apiError("POST", "/api/v1/challenges", body, 409, "conflict")
	resp, _ := alice.do("POST", "/challenges", url.Values{"boardSize": {"9"}, "ruleset": {"japanese"}, "handicap": {"0"},
		"color": {"black"}, "tcKind": {"absolute"}, "mainMinutes": {"10"}})
	if resp.StatusCode != 409 {
		t.Errorf("challenge form over the cap: %d", resp.StatusCode)
	}
	// The address has used its burst; bob, at the same address, is limited.
	resp, _ = bob.do("POST", "/api/v1/challenges", body)
	if resp.StatusCode != 429 || resp.Header.Get("Retry-After") == "" {
		t.Errorf("challenge over the address's limit: %d, Retry-After %q", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
	var open struct{ Total int }
	bob.api("GET", "/api/v1/challenges", nil, 200, &open)
	if open.Total != tengen.MaxOpenChallenges {
		t.Errorf("%d open challenges, want %d", open.Total, tengen.MaxOpenChallenges)
	}
}
