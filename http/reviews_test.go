package http_test

import (
	"context"
	"encoding/json"
	"fmt"
	nethttp "net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"tengen"
	"tengen/internal/app"
	"tengen/sgf"
)

// sgfReq sends a record with the SGF content type, or with ctype if given.
func (c *client) sgfReq(method, path string, body []byte, ctype ...string) (*nethttp.Response, []byte) {
	c.e.t.Helper()
	if len(ctype) > 0 && ctype[0] != "" {
		return c.do(method, path, body, "Content-Type", ctype[0])
	}
	return c.do(method, path, body)
}

type createOut struct {
	ID      int64
	Reviews []struct {
		ID         int64
		Title      string
		Visibility tengen.Visibility
		Info       tengen.ReviewInfo
		GameID     int64
	}
	Warnings []tengen.SGFWarning
}

// upload posts a record and wants it stored.
func (c *client) upload(data []byte, query string) createOut {
	c.e.t.Helper()
	resp, body := c.sgfReq("POST", "/api/v1/reviews"+query, data)
	if resp.StatusCode != 201 {
		c.e.t.Fatalf("upload: status %d: %s", resp.StatusCode, body)
	}
	var out createOut
	if err := json.Unmarshal(body, &out); err != nil {
		c.e.t.Fatal(err)
	}
	return out
}

// reviewSGF fetches a review's record.
func (c *client) reviewSGF(id int64, wantStatus int) string {
	c.e.t.Helper()
	resp, body := c.do("GET", fmt.Sprintf("/api/v1/reviews/%d/sgf", id), nil)
	if resp.StatusCode != wantStatus {
		c.e.t.Fatalf("GET sgf %d: status %d, want %d: %s", id, resp.StatusCode, wantStatus, body)
	}
	if wantStatus == 200 && !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/x-go-sgf") {
		c.e.t.Errorf("Content-Type %q", resp.Header.Get("Content-Type"))
	}
	return string(body)
}

// canonical is what "tengen sgf convert FILE" writes (cmd/tengen/sgf.go:
// sgf.Parse, then Collection.Format).
func canonical(t *testing.T, data []byte) string {
	t.Helper()
	c, err := sgf.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	out, err := c.Format()
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// richRecord has variations within variations, comments with escapes,
// every markup the board draws and unknown properties.
const richRecord = `(;GM[1]FF[4]SZ[19]KM[6.5]PB[Honinbo Shusaku]PW[Gennan Inseki]DT[1846-09-11]RE[B+2]
C[The ear-reddening game. A comment with \] and \\ and
two lines.]XX[kept]
;B[qd]LB[dd:A][pp:long label]TR[dp]SQ[pd]CR[dc]MA[cd]
;W[dc]C[move 2]
(;B[pq];W[oc](;B[cp]C[main])(;B[dq]C[variation in a variation]TR[cp][cq]))
(;B[oq]C[second variation]
;W[pp]SQ[aa:cc]))
`

func TestReviewRoundTrip(t *testing.T) { onBothBackends(t, testReviewRoundTrip) }

func testReviewRoundTrip(t *testing.T, e *env) {
	alice := e.client()
	alice.register("alice")
	files, err := filepath.Glob("../sgf/testdata/*.sgf")
	if err != nil || len(files) < 10 {
		t.Fatalf("test records: %v, %v", files, err)
	}
	records := map[string][]byte{"rich": []byte(richRecord)}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if rep := sgf.Check(data, sgf.Options{}); len(rep.Errors) > 0 {
			continue // refused; see TestReviewMalformed
		}
		records[filepath.Base(f)] = data
	}
	names := make([]string, 0, len(records))
	for n := range records {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		data := records[name]
		out := alice.upload(data, "?visibility=unlisted")
		want := canonical(t, data)
		c, _ := sgf.Parse(data)
		if len(out.Reviews) != len(c.Games) || out.ID != out.Reviews[0].ID {
			t.Fatalf("%s: %d reviews for %d games, id %d", name, len(out.Reviews), len(c.Games), out.ID)
		}
		if wantW := len(sgf.Check(data, sgf.Options{}).Warnings); len(out.Warnings) != wantW {
			t.Errorf("%s: %d warnings, want %d as sgf check gives", name, len(out.Warnings), wantW)
		}
		var got strings.Builder
		for _, r := range out.Reviews {
			got.WriteString(alice.reviewSGF(r.ID, 200))
		}
		if got.String() != want {
			t.Errorf("%s: round trip\n%s\nwant (sgf convert)\n%s", name, got.String(), want)
		}
	}
	// The rich record keeps its tree, texts and markup byte for byte, and
	// its search fields come from the root.
	out := alice.upload([]byte(richRecord), "?visibility=public&title=Ear-reddening")
	r := out.Reviews[0]
	if r.Title != "Ear-reddening" || r.Visibility != tengen.Public || r.Info.Black != "Honinbo Shusaku" ||
		r.Info.White != "Gennan Inseki" || r.Info.Date != "1846-09-11" || r.Info.Result != "B+2" || r.Info.Size != 19 {
		t.Errorf("rich record stored as %+v", r)
	}
	got := alice.reviewSGF(r.ID, 200)
	for _, part := range []string{`LB[dd:A][pp:long label]TR[dp]SQ[pd]CR[dc]MA[cd]`, `with \] and \\ and`, `XX[kept]`,
		`(;B[dq]C[variation in a variation]TR[cp][cq])`, `SQ[aa:cc]`} {
		if !strings.Contains(got, part) {
			t.Errorf("record lost %q:\n%s", part, got)
		}
	}
}

// TestReviewCharsets: records in GB18030 (Fox), Shift_JIS, EUC-KR and
// Latin-1 without CA come back as UTF-8 text.
func TestReviewCharsets(t *testing.T) {
	e := newPlayEnv(t)
	alice := e.client()
	alice.register("alice")
	for _, c := range []struct {
		file, black, text string
		warned            bool
	}{
		{"fox_komi_gb18030.sgf", "柯洁", "中文评论", false},
		{"shift_jis.sgf", "表示太郎", "表と能は二バイト目が0x5Cです。", false},
		{"euc_kr.sgf", "이세돌", "좋은 수", false},
		{"no_ca_latin1.sgf", "Müller", "Café", true},
	} {
		data, err := os.ReadFile("../sgf/testdata/" + c.file)
		if err != nil {
			t.Fatal(err)
		}
		out := alice.upload(data, "")
		if out.Reviews[0].Info.Black != c.black || out.Reviews[0].Visibility != tengen.Private {
			t.Errorf("%s: stored %+v", c.file, out.Reviews[0])
		}
		if c.warned && (len(out.Warnings) == 0 || out.Warnings[0].Line == 0) {
			t.Errorf("%s: warnings %+v, want the charset guess at a line", c.file, out.Warnings)
		}
		got := alice.reviewSGF(out.ID, 200)
		if !strings.Contains(got, "CA[UTF-8]") || !strings.Contains(got, c.text) {
			t.Errorf("%s: record %s", c.file, got)
		}
	}
}

// TestReviewMalformed: bad records and requests get a 400 that says where,
// and nothing is stored.
func TestReviewMalformed(t *testing.T) {
	e := newPlayEnvWith(t, func(c *app.Config) { c.MaxSGFBytes = 4 << 10 })
	alice := e.client()
	alice.register("alice")
	illegal, err := os.ReadFile("../sgf/testdata/illegal_moves.sgf")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, body, ctype, want string
	}{
		{"no game", "hello", "", "no SGF game tree"},
		{"unterminated value", "(;FF[4]\n;B[pd]C[never ends", "", "line 2, column"},
		{"illegal move", string(illegal), "", "line "},
		{"off the board", "(;SZ[9];B[tt];W[zz])", "", "line 1, column"},
		{"empty", "", "", "empty"},
		{"json content type", richRecord, "application/json", "application/x-go-sgf"},
		{"too large", "(;C[" + strings.Repeat("x", 5<<10) + "])", "", "too large"},
	} {
		resp, body := alice.sgfReq("POST", "/api/v1/reviews", []byte(c.body), c.ctype)
		var out struct {
			Error struct{ Code, Message string }
		}
		json.Unmarshal(body, &out)
		if resp.StatusCode != 400 || out.Error.Code != tengen.EINVALID || !strings.Contains(out.Error.Message, c.want) {
			t.Errorf("%s: %d %s, want 400 naming %q", c.name, resp.StatusCode, body, c.want)
		}
	}
	for _, q := range []string{"?visibility=secret", "?title=" + strings.Repeat("x", 201)} {
		resp, body := alice.sgfReq("POST", "/api/v1/reviews"+q, []byte(richRecord))
		if resp.StatusCode != 400 {
			t.Errorf("%s: %d %s", q[:12], resp.StatusCode, body)
		}
	}
	anon := e.client()
	if resp, _ := anon.sgfReq("POST", "/api/v1/reviews", []byte(richRecord)); resp.StatusCode != 401 {
		t.Errorf("anonymous upload: %d", resp.StatusCode)
	}
	var list struct{ Total int }
	alice.api("GET", "/api/v1/reviews?mine=1", nil, 200, &list)
	if list.Total != 0 {
		t.Errorf("%d reviews stored after refusals", list.Total)
	}

	// A save that breaks the record is refused and changes nothing.
	out := alice.upload([]byte(richRecord), "")
	before := alice.reviewSGF(out.ID, 200)
	path := fmt.Sprintf("/api/v1/reviews/%d/sgf", out.ID)
	for _, body := range []string{"(;B[pd", string(illegal), "(;B[aa])(;W[bb])"} {
		if resp, data := alice.sgfReq("PUT", path, []byte(body)); resp.StatusCode != 400 {
			t.Errorf("PUT %q: %d %s", body, resp.StatusCode, data)
		}
	}
	if after := alice.reviewSGF(out.ID, 200); after != before {
		t.Errorf("refused saves changed the record to %s", after)
	}
}

// TestReviewLimits: the count and byte quotas per user refuse whole
// uploads; the user's other reviews and other users are not affected.
func TestReviewLimits(t *testing.T) {
	e := newPlayEnvWith(t, func(c *app.Config) { c.ReviewQuota = tengen.ReviewQuota{Reviews: 3, Bytes: 2 << 10} })
	alice, bob := e.client(), e.client()
	alice.register("alice")
	bob.register("bob")
	two := "(;PB[a];B[aa])(;PB[b];B[bb])"
	alice.upload([]byte(two), "")
	resp, body := alice.sgfReq("POST", "/api/v1/reviews", []byte(two))
	if resp.StatusCode != 403 || !strings.Contains(string(body), "at most 3 reviews") {
		t.Errorf("over the count: %d %s", resp.StatusCode, body)
	}
	var list struct{ Total int }
	alice.api("GET", "/api/v1/reviews?mine=1", nil, 200, &list)
	if list.Total != 2 {
		t.Errorf("alice has %d reviews, want 2 (the refused upload stores none)", list.Total)
	}
	bob.upload([]byte(two), "")
	big := "(;C[" + strings.Repeat("x", 2<<10) + "])"
	if resp, body := alice.sgfReq("POST", "/api/v1/reviews", []byte(big)); resp.StatusCode != 403 {
		t.Errorf("over the bytes: %d %s", resp.StatusCode, body)
	}
	var one createOut
	json.Unmarshal(func() []byte { _, b := alice.sgfReq("POST", "/api/v1/reviews", []byte("(;B[cc])")); return b }(), &one)
	if one.ID == 0 {
		t.Fatal("the third review was refused")
	}
	if resp, body := alice.sgfReq("PUT", fmt.Sprintf("/api/v1/reviews/%d/sgf", one.ID), []byte(big)); resp.StatusCode != 403 {
		t.Errorf("save over the bytes: %d %s", resp.StatusCode, body)
	}
}

func TestReviewVisibility(t *testing.T) { onBothBackends(t, testReviewVisibility) }

func testReviewVisibility(t *testing.T, e *env) {
	alice, bob, anon := e.client(), e.client(), e.client()
	alice.register("alice")
	bob.register("bob")
	ids := map[tengen.Visibility]int64{}
	for _, v := range []tengen.Visibility{tengen.Private, tengen.Unlisted, tengen.Public} {
		ids[v] = alice.upload([]byte(fmt.Sprintf("(;PB[%s black]PW[W]RE[B+R];B[pd])", v)), "?visibility="+string(v)).ID
	}
	for _, c := range []*client{bob, anon} {
		c.reviewSGF(ids[tengen.Private], 404)
		c.apiError("GET", fmt.Sprintf("/api/v1/reviews/%d", ids[tengen.Private]), nil, 404, tengen.ENOTFOUND)
		c.page(fmt.Sprintf("/reviews/%d", ids[tengen.Private]), 404)
		c.reviewSGF(ids[tengen.Unlisted], 200)
		c.reviewSGF(ids[tengen.Public], 200)
		c.page(fmt.Sprintf("/reviews/%d", ids[tengen.Unlisted]), 200)
		var list struct {
			Reviews []*tengen.Review
			Total   int
		}
		c.api("GET", "/api/v1/reviews", nil, 200, &list)
		if list.Total != 1 || list.Reviews[0].ID != ids[tengen.Public] {
			t.Errorf("public list %+v", list)
		}
	}
	alice.reviewSGF(ids[tengen.Private], 200)
	anon.apiError("GET", "/api/v1/reviews?mine=1", nil, 401, tengen.EUNAUTHORIZED)

	// Only the owner and the controller save; only the owner hands over
	// control, renames and deletes; the controller may give control back.
	pub := fmt.Sprintf("/api/v1/reviews/%d", ids[tengen.Public])
	edit := []byte("(;PB[edited];B[pd];W[dd])")
	if resp, _ := bob.sgfReq("PUT", pub+"/sgf", edit); resp.StatusCode != 403 {
		t.Errorf("bob saved alice's review: %d", resp.StatusCode)
	}
	if resp, _ := anon.sgfReq("PUT", pub+"/sgf", edit); resp.StatusCode != 401 {
		t.Errorf("a visitor saved: %d", resp.StatusCode)
	}
	bob.apiError("PATCH", pub, map[string]any{"controller": "bob"}, 403, tengen.EFORBIDDEN)
	var rv struct {
		ControllerID int64
		Controller   string
		Title        string
	}
	alice.api("PATCH", pub, map[string]any{"controller": "bob"}, 200, &rv)
	if rv.Controller != "bob" {
		t.Fatalf("controller %+v", rv)
	}
	if resp, body := bob.sgfReq("PUT", pub+"/sgf", edit); resp.StatusCode != 200 {
		t.Errorf("the controller's save: %d %s", resp.StatusCode, body)
	}
	if got := anon.reviewSGF(ids[tengen.Public], 200); got != "(;FF[4]CA[UTF-8]PB[edited]\n;B[pd];W[dd])\n" {
		t.Errorf("saved record %q", got)
	}
	var list struct{ Reviews []*tengen.Review }
	anon.api("GET", "/api/v1/reviews?player=edited", nil, 200, &list)
	if len(list.Reviews) != 1 {
		t.Errorf("search fields not updated by the save: %+v", list.Reviews)
	}
	bob.apiError("PATCH", pub, map[string]any{"title": "mine now"}, 403, tengen.EFORBIDDEN)
	bob.apiError("DELETE", pub, nil, 403, tengen.EFORBIDDEN)
	bob.api("PATCH", pub, map[string]any{"controller": "alice"}, 200, &rv)
	if resp, _ := bob.sgfReq("PUT", pub+"/sgf", edit); resp.StatusCode != 403 {
		t.Errorf("bob saved after giving control back: %d", resp.StatusCode)
	}
	alice.api("PATCH", pub, map[string]any{"title": "Renamed", "visibility": "private"}, 200, &rv)
	anon.reviewSGF(ids[tengen.Public], 404)
	alice.apiError("PATCH", pub, map[string]any{"controller": "nobody"}, 404, tengen.ENOTFOUND)
	alice.apiError("PATCH", pub, map[string]any{"visibility": "secret"}, 400, tengen.EINVALID)
	alice.api("DELETE", pub, nil, 204, nil)
	alice.reviewSGF(ids[tengen.Public], 404)
}

// TestReviewSearch: the public list filters by player, date and result.
func TestReviewSearch(t *testing.T) {
	e := newPlayEnv(t)
	alice := e.client()
	alice.register("alice")
	for _, r := range []string{
		"(;PB[Honinbo Shusaku]PW[Gennan Inseki]DT[1846-09-11]RE[B+2])",
		"(;PB[Go Seigen]PW[Honinbo Shusai]DT[1933-10-16]RE[W+2])",
		"(;PB[Lee Sedol]PW[AlphaGo]DT[2016-03-13]RE[B+R])",
	} {
		alice.upload([]byte(r), "?visibility=public")
	}
	alice.upload([]byte("(;PB[Honinbo Secret]RE[B+R])"), "?visibility=unlisted")
	for q, want := range map[string]string{
		"player=honinbo":         "Go Seigen,Honinbo Shusaku",
		"player=alphago":         "Lee Sedol",
		"date=1846":              "Honinbo Shusaku",
		"result=B%2B":            "Lee Sedol,Honinbo Shusaku",
		"player=honinbo&date=19": "Go Seigen",
		"player=nobody":          "",
	} {
		var list struct{ Reviews []*tengen.Review }
		alice.api("GET", "/api/v1/reviews?"+q, nil, 200, &list)
		var got []string
		for _, r := range list.Reviews {
			got = append(got, r.Info.Black)
		}
		if strings.Join(got, ",") != want {
			t.Errorf("%s: %v, want %s", q, got, want)
		}
	}
	// Pages of the library keep the search.
	if page := alice.page("/reviews?limit=1&offset=1&result=%2B", 200); !strings.Contains(page, `href="/reviews?limit=1&amp;offset=0&amp;result=%2B"`) ||
		!strings.Contains(page, `href="/reviews?limit=1&amp;offset=2&amp;result=%2B"`) || !strings.Contains(page, `href="/reviews?limit=1&amp;mineOffset=1&amp;result=%2B"`) {
		t.Errorf("pager links missing:\n%s", page)
	}
	page := alice.page("/reviews?player=honinbo", 200)
	if !strings.Contains(page, "Go Seigen") || strings.Contains(page, "Lee Sedol</td>") {
		t.Errorf("library page search:\n%s", page)
	}
}

// TestReviewGame: "Review this game" on a finished game makes a review of
// its record, clocks and the players' chat included; a running game cannot
// be reviewed.
func TestReviewGame(t *testing.T) {
	e := newPlayEnv(t)
	black, white, id := newPlayGame(e, settings9())
	base := fmt.Sprintf("/api/v1/games/%d", id)
	black.api("POST", base+"/moves", map[string]any{"seq": 1, "kind": "play", "x": 2, "y": 2}, 200, nil)
	white.api("POST", base+"/chat", map[string]any{"text": "good luck"}, 201, nil)
	white.apiError("POST", base+"/review", nil, 409, tengen.ECONFLICT)
	white.api("POST", base+"/moves", map[string]any{"seq": 2, "kind": "play", "x": 6, "y": 6}, 200, nil)
	black.api("POST", base+"/moves", map[string]any{"seq": 3, "kind": "resign"}, 200, nil)
	var out createOut
	white.api("POST", base+"/review", nil, 201, &out)
	if len(out.Reviews) != 1 || out.Reviews[0].GameID != id || out.Reviews[0].Visibility != tengen.Unlisted {
		t.Fatalf("review of the game: %+v", out)
	}
	got := white.reviewSGF(out.ID, 200)
	for _, part := range []string{"PB[blacky]", "PW[whitey]", "RE[W+R]", ";B[cc]BL[", ";W[gg]WL[", "good luck"} {
		if !strings.Contains(got, part) {
			t.Errorf("record lacks %q:\n%s", part, got)
		}
	}
	// The page's form answers with the board.
	resp, _ := black.do("POST", fmt.Sprintf("/games/%d/review", id), nil)
	if resp.StatusCode != 303 || !strings.HasPrefix(resp.Header.Get("Location"), "/reviews/") {
		t.Errorf("form: %d to %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	if page := black.page(fmt.Sprintf("/games/%d", id), 200); !strings.Contains(page, `action="/games/`+fmt.Sprint(id)+`/review"`) {
		t.Error("the finished game's page offers no review")
	}
}

// reviewWS opens a review's socket with c's cookies.
func (c *client) reviewWS(id int64) (*wsConn, *nethttp.Response, error) {
	return c.dialPath(fmt.Sprintf("/api/v1/reviews/%d/ws", id))
}

// reviewMsg is a review socket's message.
type reviewMsg struct {
	Type, Code, Message, Controller, By string
	ControllerID                        int64
	Path                                json.RawMessage
	Viewers                             int
	Chat                                []tengen.ReviewChatMessage
	Msg                                 *tengen.ReviewChatMessage `json:"line"`
	ChatID                              int64
}

func readReview(t *testing.T, w *wsConn, skipViewers bool) reviewMsg {
	t.Helper()
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		_, data, err := w.c.Read(ctx)
		cancel()
		if err != nil {
			t.Fatalf("read: %v", err)
		}
		var m reviewMsg
		if err := json.Unmarshal(data, &m); err != nil {
			t.Fatal(err)
		}
		if m.Type == "error" {
			m.Message = string(data)
		}
		if skipViewers && m.Type == "viewers" {
			continue
		}
		return m
	}
}

// TestReviewSocket: the controller's node, saves, chat and hand-overs
// reach every viewer; others cannot move the board.
func TestReviewSocket(t *testing.T) {
	e := newPlayEnv(t)
	alice, bob, anon := e.client(), e.client(), e.client()
	alice.register("alice")
	bob.register("bob")
	id := alice.upload([]byte(richRecord), "?visibility=unlisted").ID
	priv := alice.upload([]byte(richRecord), "?visibility=private").ID
	if _, resp, err := anon.reviewWS(priv); err == nil || resp == nil || resp.StatusCode != 404 {
		t.Errorf("socket on a private review: %v", err)
	}
	a, _, err := alice.reviewWS(id)
	if err != nil {
		t.Fatal(err)
	}
	if m := readReview(t, a, true); m.Type != "hello" || m.Controller != "alice" {
		t.Fatalf("hello %+v", m)
	}
	alice.page(fmt.Sprintf("/reviews/%d", id), 200)
	a.send(map[string]any{"type": "nav", "id": "1", "path": map[string]any{"n": 3, "v": [][2]int{{2, 1}}}})
	if m := readReview(t, a, true); m.Type != "nav" {
		t.Fatalf("nav echo %+v", m)
	}
	readReview(t, a, true) // ok
	b, _, err := bob.reviewWS(id)
	if err != nil {
		t.Fatal(err)
	}
	// A late viewer starts at the controller's node.
	if m := readReview(t, b, true); m.Type != "hello" || string(m.Path) != `{"n":3,"v":[[2,1]]}` {
		t.Fatalf("bob's hello %+v (%s)", m, m.Path)
	}
	b.send(map[string]any{"type": "nav", "id": "2", "path": map[string]any{"n": 1, "v": []int{}}})
	if m := readReview(t, b, true); m.Type != "error" || m.Code != tengen.EFORBIDDEN {
		t.Errorf("bob moved the board: %+v", m)
	}
	// Chat: stored, relayed as text, limited in length.
	b.send(map[string]any{"type": "chat", "id": "3", "text": "<script>alert(1)</script> nice"})
	for _, w := range []*wsConn{a, b} {
		m := readReview(t, w, true)
		if m.Type != "chat" || m.Msg == nil || m.Msg.Text != "<script>alert(1)</script> nice" || m.Msg.UserName != "bob" {
			t.Errorf("chat %+v", m)
		}
	}
	readReview(t, b, true) // ok
	b.send(map[string]any{"type": "chat", "id": "4", "text": strings.Repeat("x", tengen.MaxChatLen+1)})
	if m := readReview(t, b, true); m.Type != "error" || m.Code != tengen.EINVALID {
		t.Errorf("long chat %+v", m)
	}
	// A mute holds on review boards too: alice mutes bob, and his next line
	// reaches his own socket, not hers (checked at her next message below),
	// and her reads leave his lines out.
	alice.api("POST", "/api/v1/users/bob/mute", nil, 200, nil)
	b.send(map[string]any{"type": "chat", "id": "4b", "text": "muted words"})
	if m := readReview(t, b, true); m.Type != "chat" || m.Msg == nil || m.Msg.Text != "muted words" {
		t.Errorf("bob's own muted line %+v", m)
	}
	readReview(t, b, true) // ok
	var chat struct{ Messages []tengen.ReviewChatMessage }
	anon.api("GET", fmt.Sprintf("/api/v1/reviews/%d/chat", id), nil, 200, &chat)
	if len(chat.Messages) != 2 {
		t.Errorf("chat kept %+v", chat.Messages)
	}
	alice.api("GET", fmt.Sprintf("/api/v1/reviews/%d/chat", id), nil, 200, &chat)
	if len(chat.Messages) != 0 {
		t.Errorf("alice, who muted bob, reads %+v", chat.Messages)
	}
	// The owner moderates the board's chat: bob may not delete, alice
	// removes his first line, and the sockets hear of it.
	anon.api("GET", fmt.Sprintf("/api/v1/reviews/%d/chat", id), nil, 200, &chat)
	first := chat.Messages[0].ID
	for _, tc := range []struct {
		name   string
		c      *client
		path   string
		status int
		code   string
	}{
		{"visitor", anon, fmt.Sprintf("/api/v1/reviews/%d/chat/%d", id, first), 401, "unauthorized"},
		{"not the owner", bob, fmt.Sprintf("/api/v1/reviews/%d/chat/%d", id, first), 403, "forbidden"},
		{"bad message id", alice, fmt.Sprintf("/api/v1/reviews/%d/chat/x", id), 404, "not_found"},
		{"message of another review", alice, fmt.Sprintf("/api/v1/reviews/%d/chat/%d", priv, first), 404, "not_found"},
	} {
		tc.c.apiError("DELETE", tc.path, nil, tc.status, tc.code)
	}
	if resp, _ := alice.do("DELETE", fmt.Sprintf("/api/v1/reviews/%d/chat/%d", id, first), nil); resp.StatusCode != 204 {
		t.Fatalf("owner's deletion: %d", resp.StatusCode)
	}
	if m := readReview(t, b, true); m.Type != "chat-deleted" || m.ChatID != first {
		t.Errorf("bob's socket after the deletion: %+v", m)
	}
	anon.api("GET", fmt.Sprintf("/api/v1/reviews/%d/chat", id), nil, 200, &chat)
	if len(chat.Messages) != 1 || chat.Messages[0].Text != "muted words" {
		t.Errorf("chat after the deletion %+v", chat.Messages)
	}
	// A save tells the viewers; a hand-over too, and then bob drives.
	if resp, body := alice.sgfReq("PUT", fmt.Sprintf("/api/v1/reviews/%d/sgf", id), []byte("(;B[aa])")); resp.StatusCode != 200 {
		t.Fatalf("save: %d %s", resp.StatusCode, body)
	}
	if m := readReview(t, b, true); m.Type != "tree" || m.By != "alice" {
		t.Errorf("tree %+v", m)
	}
	if m := readReview(t, a, true); m.Type != "chat-deleted" {
		t.Errorf("alice's next message %+v, want the deletion: bob's muted line must not reach her", m)
	}
	if m := readReview(t, a, true); m.Type != "tree" {
		t.Errorf("alice's message after the deletion %+v, want the tree", m)
	}
	alice.api("PATCH", fmt.Sprintf("/api/v1/reviews/%d", id), map[string]any{"controller": "bob"}, 200, nil)
	if m := readReview(t, b, true); m.Type != "control" || m.Controller != "bob" {
		t.Errorf("control %+v", m)
	}
	b.send(map[string]any{"type": "nav", "id": "5", "path": map[string]any{"n": 1, "v": []int{}}})
	if m := readReview(t, b, true); m.Type != "nav" {
		t.Errorf("bob's nav after the hand-over: %+v", m)
	}
	// Anonymous viewers follow but do not chat.
	c, _, err := anon.reviewWS(id)
	if err != nil {
		t.Fatal(err)
	}
	readReview(t, c, true)
	c.send(map[string]any{"type": "chat", "id": "6", "text": "hi"})
	if m := readReview(t, c, true); m.Type != "error" || m.Code != tengen.EUNAUTHORIZED {
		t.Errorf("anonymous chat %+v", m)
	}
	c.send(`{"type":"nav","bogus":1}`)
	if m := readReview(t, c, true); m.Type != "error" || m.Code != tengen.EINVALID {
		t.Errorf("malformed %+v", m)
	}
}
