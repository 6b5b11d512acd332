package http_test

import (
	"fmt"
	"net/url"
	"reflect"
	"strings"
	"testing"

	"tengen"
	"tengen/clock"
	"tengen/goban"
)

// settingsOut is the answer of GET and PUT /api/v1/me/settings.
type settingsOut struct {
	Language    string
	Coordinates bool
	MoveNumbers bool
	Sound       bool
	ConfirmMove bool
	Notation    string
	Vacation    struct {
		Active      bool
		DaysLeft    int
		DaysPerYear int
	}
}

func TestSettingsAPI(t *testing.T) { onBothBackends(t, testSettingsAPI) }

// testSettingsAPI checks the settings endpoints: bad input is a clear 4xx
// that changes nothing, good input is stored and reaches every page.
func testSettingsAPI(t *testing.T, e *env) {
	c := e.client()
	e.client().apiError("GET", "/api/v1/me/settings", nil, 401, "unauthorized")
	e.client().apiError("PUT", "/api/v1/me/settings", map[string]any{"notation": "korschelt"}, 401, "unauthorized")
	c.register("settler")
	var got settingsOut
	c.api("GET", "/api/v1/me/settings", nil, 200, &got)
	want := settingsOut{Coordinates: true, ConfirmMove: true, Notation: "gtp"}
	want.Vacation.DaysLeft, want.Vacation.DaysPerYear = tengen.VacationDaysPerYear, tengen.VacationDaysPerYear
	if got != want {
		t.Fatalf("defaults = %+v, want %+v", got, want)
	}
	for _, tt := range []struct {
		name string
		body any
	}{
		{"unknown notation", map[string]any{"notation": "klingon"}},
		{"unknown language", map[string]any{"language": "tlh"}},
		{"wrong type", map[string]any{"coordinates": "yes"}},
		{"not JSON", "{"},
		{"unknown field", map[string]any{"colour": "blue"}},
	} {
		c.apiError("PUT", "/api/v1/me/settings", tt.body, 400, "invalid")
		var after settingsOut
		c.api("GET", "/api/v1/me/settings", nil, 200, &after)
		if after != want {
			t.Fatalf("%s: settings changed to %+v", tt.name, after)
		}
	}
	c.api("PUT", "/api/v1/me/settings", map[string]any{"language": "de", "notation": "korschelt", "coordinates": false, "sound": true}, 200, &got)
	want.Language, want.Notation, want.Coordinates, want.Sound = "de", "korschelt", false, true
	if got != want {
		t.Fatalf("after PUT: %+v, want %+v", got, want)
	}
	// Every page carries the board options for its board, and the
	// language chosen.
	_, page := c.do("GET", "/", nil)
	if !strings.Contains(string(page), `data-board="{&#34;coordinates&#34;:false,`) || !strings.Contains(string(page), `&#34;notation&#34;:&#34;korschelt&#34;`) ||
		!strings.Contains(string(page), `<html lang="de">`) {
		t.Errorf("the lobby lacks the board options or the language:\n%.600s", page)
	}
	_, page = c.do("GET", "/settings", nil)
	if !strings.Contains(string(page), `id="notation-korschelt" checked`) {
		t.Errorf("the settings page does not show the stored notation")
	}
	// The form refuses bad input with the page and a message.
	resp, page := c.do("POST", "/settings", url.Values{"notation": {"x"}})
	if resp.StatusCode != 400 || !strings.Contains(string(page), "Die Schreibweise muss") {
		t.Errorf("form with a bad notation: %d\n%.300s", resp.StatusCode, page)
	}
}

func TestPasswordAPI(t *testing.T) { onBothBackends(t, testPasswordAPI) }

func testPasswordAPI(t *testing.T, e *env) {
	c, other := e.client(), e.client()
	c.register("changer")
	other.api("POST", "/api/v1/login", map[string]string{"name": "changer", "password": "secret-changer"}, 200, nil)
	e.client().apiError("POST", "/api/v1/me/password", map[string]string{"old": "secret-changer", "new": "another-one"}, 401, "unauthorized")
	c.apiError("POST", "/api/v1/me/password", map[string]string{"old": "wrong-password", "new": "another-one"}, 403, "forbidden")
	c.apiError("POST", "/api/v1/me/password", map[string]string{"old": "secret-changer", "new": "short"}, 400, "invalid")
	c.apiError("POST", "/api/v1/me/password", map[string]string{"old": "secret-changer", "new": strings.Repeat("x", 73)}, 400, "invalid")
	c.apiError("POST", "/api/v1/me/password", "[]", 400, "invalid")
	// Nothing changed: the old password still logs in, the other session lives.
	e.client().api("POST", "/api/v1/login", map[string]string{"name": "changer", "password": "secret-changer"}, 200, nil)
	other.api("GET", "/api/v1/me", nil, 200, nil)

	c.api("POST", "/api/v1/me/password", map[string]string{"old": "secret-changer", "new": "another-one"}, 204, nil)
	c.api("GET", "/api/v1/me", nil, 200, nil)
	other.apiError("GET", "/api/v1/me", nil, 401, "unauthorized")
	e.client().apiError("POST", "/api/v1/login", map[string]string{"name": "changer", "password": "secret-changer"}, 401, "unauthorized")
	e.client().api("POST", "/api/v1/login", map[string]string{"name": "changer", "password": "another-one"}, 200, nil)
}

func TestVacationAPI(t *testing.T) { onBothBackends(t, testVacationAPI) }

func testVacationAPI(t *testing.T, e *env) {
	set := settings9()
	set.TimeControl = clock.CorrespondenceDays(3, 10)
	black, _, id := newPlayGame(e, set)
	e.client().apiError("POST", "/api/v1/me/vacation", map[string]int{"days": 3}, 401, "unauthorized")
	for _, body := range []any{map[string]int{"days": 0}, map[string]int{"days": tengen.VacationDaysPerYear + 1},
		map[string]any{"days": "three"}, map[string]int{"days": -2}, "{"} {
		black.apiError("POST", "/api/v1/me/vacation", body, 400, "invalid")
	}
	black.apiError("DELETE", "/api/v1/me/vacation", nil, 409, "conflict")
	var got settingsOut
	black.api("GET", "/api/v1/me/settings", nil, 200, &got)
	if got.Vacation.Active || got.Vacation.DaysLeft != tengen.VacationDaysPerYear {
		t.Fatalf("after refusals: %+v", got.Vacation)
	}
	var st stateOut
	black.api("GET", fmt.Sprintf("/api/v1/games/%d/state", id), nil, 200, &st)
	if st.State.Vacation != nil || st.State.Clock.RunningSince == nil {
		t.Fatalf("after refusals the game shows vacation %+v, clock %+v", st.State.Vacation, st.State.Clock)
	}

	black.api("POST", "/api/v1/me/vacation", map[string]int{"days": 3}, 200, &got)
	if !got.Vacation.Active || got.Vacation.DaysLeft != tengen.VacationDaysPerYear-3 {
		t.Fatalf("after starting: %+v", got.Vacation)
	}
	black.apiError("POST", "/api/v1/me/vacation", map[string]int{"days": 1}, 409, "conflict")
	st = stateOut{}
	black.api("GET", fmt.Sprintf("/api/v1/games/%d/state", id), nil, 200, &st)
	if st.State.Vacation == nil || st.State.Vacation.Black == nil || st.State.Clock.RunningSince != nil {
		t.Fatalf("on vacation the game shows vacation %+v, clock %+v", st.State.Vacation, st.State.Clock)
	}
	black.api("DELETE", "/api/v1/me/vacation", nil, 200, &got)
	// The day begun counts; the two not begun come back.
	if got.Vacation.Active || got.Vacation.DaysLeft != tengen.VacationDaysPerYear-1 {
		t.Errorf("after the early end: %+v; want %d days left", got.Vacation, tengen.VacationDaysPerYear-1)
	}
	st = stateOut{}
	black.api("GET", fmt.Sprintf("/api/v1/games/%d/state", id), nil, 200, &st)
	if st.State.Vacation != nil || st.State.Clock.RunningSince == nil || st.State.Clock.Running != goban.Black {
		t.Errorf("after the vacation the game shows vacation %+v, clock %+v", st.State.Vacation, st.State.Clock)
	}
}

func TestConditionalAPI(t *testing.T) { onBothBackends(t, testConditionalAPI) }

func testConditionalAPI(t *testing.T, e *env) {
	set := settings9()
	set.TimeControl = clock.CorrespondenceDays(3, 10)
	black, white, id := newPlayGame(e, set)
	carol := e.client()
	carol.register("carol")
	base := fmt.Sprintf("/api/v1/games/%d", id)
	black.api("POST", base+"/moves", map[string]any{"seq": 1, "kind": "play", "x": 4, "y": 4}, 200, nil)
	plan := func(pts ...[2]int) map[string]any { return map[string]any{"moves": pts} }

	e.client().apiError("GET", base+"/conditional", nil, 401, "unauthorized")
	carol.apiError("GET", base+"/conditional", nil, 403, "forbidden")
	black.apiError("GET", "/api/v1/games/999999/conditional", nil, 404, "not_found")
	for _, tt := range []struct {
		name   string
		c      *client
		body   any
		status int
		code   string
	}{
		{"anonymous", e.client(), plan([2]int{2, 2}, [2]int{3, 3}), 401, "unauthorized"},
		{"spectator", carol, plan([2]int{2, 2}, [2]int{3, 3}), 403, "forbidden"},
		{"own turn", white, plan([2]int{2, 2}, [2]int{3, 3}), 409, "conflict"},
		{"odd count", black, plan([2]int{2, 2}), 400, "invalid"},
		{"empty", black, plan(), 400, "invalid"},
		{"occupied", black, plan([2]int{4, 4}, [2]int{3, 3}), 400, "invalid"},
		{"off the board", black, plan([2]int{2, 2}, [2]int{9, 3}), 400, "invalid"},
		{"not JSON", black, "{", 400, "invalid"},
		{"points as strings", black, map[string]any{"moves": []string{"C3", "D4"}}, 400, "invalid"},
	} {
		tt.c.apiError("PUT", base+"/conditional", tt.body, tt.status, tt.code)
		var out struct{ Moves []goban.Point }
		black.api("GET", base+"/conditional", nil, 200, &out)
		if len(out.Moves) != 0 {
			t.Fatalf("%s: a refused plan was stored: %v", tt.name, out.Moves)
		}
	}
	black.api("PUT", base+"/conditional", plan([2]int{2, 2}, [2]int{3, 3}), 200, nil)
	var out struct{ Moves []goban.Point }
	black.api("GET", base+"/conditional", nil, 200, &out)
	if !reflect.DeepEqual(out.Moves, []goban.Point{{X: 2, Y: 2}, {X: 3, Y: 3}}) {
		t.Fatalf("stored plan = %v", out.Moves)
	}
	white.api("GET", base+"/conditional", nil, 200, &out)
	if len(out.Moves) != 0 {
		t.Errorf("White sees Black's plan: %v", out.Moves)
	}
	black.api("DELETE", base+"/conditional", nil, 200, nil)
	black.api("GET", base+"/conditional", nil, 200, &out)
	if len(out.Moves) != 0 {
		t.Errorf("plan after DELETE = %v", out.Moves)
	}
	// Set again; White's expected move brings Black's reply.
	black.api("PUT", base+"/conditional", plan([2]int{2, 2}, [2]int{3, 3}), 200, nil)
	white.api("POST", base+"/moves", map[string]any{"seq": 2, "kind": "play", "x": 2, "y": 2}, 200, nil)
	var st stateOut
	white.api("GET", base+"/state", nil, 200, &st)
	if st.State.Game.MoveCount != 3 || st.State.Board[3][3] != 'B' || st.State.Game.ToMove != goban.White {
		t.Errorf("after the expected move: %d moves, board\n%s", st.State.Game.MoveCount, strings.Join(st.State.Board, "\n"))
	}
}

func TestNoTakebackAPI(t *testing.T) { onBothBackends(t, testNoTakebackAPI) }

// testNoTakebackAPI: a challenge that turns takeback off gives a game whose
// page says so and whose /undo is refused with 403, changing nothing.
func testNoTakebackAPI(t *testing.T, e *env) {
	set := settings9()
	set.NoTakeback = true
	black, _, id := newPlayGame(e, set)
	base := fmt.Sprintf("/api/v1/games/%d", id)
	black.api("POST", base+"/moves", map[string]any{"seq": 1, "kind": "play", "x": 2, "y": 2}, 200, nil)
	black.apiError("POST", base+"/undo", map[string]any{}, 403, "forbidden")
	var st stateOut
	black.api("GET", base+"/state", nil, 200, &st)
	if st.State.Takeback != nil || st.State.Game.MoveCount != 1 || !st.State.Game.Settings.NoTakeback {
		t.Errorf("after the refusal: pending %+v, %d moves, settings %+v", st.State.Takeback, st.State.Game.MoveCount, st.State.Game.Settings)
	}
	if _, page := black.do("GET", fmt.Sprintf("/games/%d", id), nil); !strings.Contains(string(page), `id="no-takeback"`) {
		t.Error("the game page does not say that takeback is off")
	}
	// The lobby's form turns it off too.
	c := e.client()
	c.register("former")
	resp, _ := c.do("POST", "/challenges", url.Values{"boardSize": {"9"}, "ruleset": {"japanese"}, "handicap": {"0"}, "color": {"black"},
		"tcKind": {"none"}, "rated": {"no"}, "noTakeback": {"on"}})
	if resp.StatusCode != 303 {
		t.Fatalf("challenge form: status %d", resp.StatusCode)
	}
	var list struct{ Challenges []*tengen.Challenge }
	c.api("GET", "/api/v1/challenges", nil, 200, &list)
	found := false
	for _, ch := range list.Challenges {
		found = found || ch.Challenger != nil && ch.Challenger.Name == "former" && ch.Settings.NoTakeback
	}
	if !found {
		t.Error("the form's challenge does not turn takeback off")
	}
}
