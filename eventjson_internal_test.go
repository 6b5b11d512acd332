package tengen

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"tengen/clock"
	"tengen/goban"
)

// marshalEvent is what GameEvent.JSON must write: encoding/json's form of
// the whole event.
func marshalEvent(t *testing.T, e *GameEvent) string {
	t.Helper()
	type plain GameEvent
	b, err := json.Marshal((*plain)(e))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// checkEventJSON fails t unless a fresh copy of e encodes as encoding/json
// encodes e.
func checkEventJSON(t *testing.T, e *GameEvent) {
	t.Helper()
	want := marshalEvent(t, e)
	got, err := e.encode()
	if err != nil {
		t.Fatalf("encode: %v", err)
	}
	if string(got) != want {
		t.Errorf("\n got %s\nwant %s", got, want)
	}
}

// exportedFields returns the exported fields of the struct types in order.
func exportedFields(types ...reflect.Type) []reflect.StructField {
	var out []reflect.StructField
	for _, typ := range types {
		for i := range typ.NumField() {
			f := typ.Field(i)
			if f.IsExported() {
				f.Index, f.Offset = nil, 0
				out = append(out, f)
			}
		}
	}
	return out
}

// TestEventPartsMatch: the parts GameEvent.JSON encodes are, field by
// field and in order, GameEvent and Game; a field added to either without
// its part fails here.
func TestEventPartsMatch(t *testing.T) {
	game, _ := reflect.TypeFor[GameEvent]().FieldByName("Game")
	game.Index, game.Offset = nil, 0
	parts := exportedFields(reflect.TypeFor[eventJSONHead]())
	parts = append(parts, game)
	parts = append(parts, exportedFields(reflect.TypeFor[eventJSONTail]())...)
	if want := exportedFields(reflect.TypeFor[GameEvent]()); !reflect.DeepEqual(parts, want) {
		t.Errorf("event parts\n %v\nGameEvent\n %v", parts, want)
	}
	parts = exportedFields(reflect.TypeFor[gameJSONHead](), reflect.TypeFor[gameJSONTail]())
	if want := exportedFields(reflect.TypeFor[Game]()); !reflect.DeepEqual(parts, want) {
		t.Errorf("game parts\n %v\nGame\n %v", parts, want)
	}
}

func testGame() *Game {
	at := time.Date(2026, 11, 24, 12, 0, 0, 123456789, time.UTC)
	komi := 6.5
	return &Game{ID: 7, ChallengeID: 3, BlackID: 1, WhiteID: 2,
		Black: &User{ID: 1, Name: "ada", Rating: 1500.25, Deviation: 80, Rank: "5k", CreatedAt: at, UpdatedAt: at},
		White: &User{ID: 2, Name: "<b>&bo", Rating: 1700, Deviation: 350, Rank: "3k?", Bot: true, CreatedAt: at, UpdatedAt: at.Add(time.Hour)},
		Settings: GameSettings{BoardSize: 19, Ruleset: "japanese", Komi: &komi, Color: "auto", Rated: true,
			TimeControl: clock.TimeControl{Kind: clock.ByoYomi, MainTime: 10 * time.Minute, Periods: 5, PeriodTime: 30 * time.Second}},
		Status: GamePlaying, ToMove: goban.White, MoveCount: 12, CreatedAt: at, UpdatedAt: at.Add(time.Minute)}
}

// TestGameEventJSON: events of every shape, and the same game again after
// each kind of change to the part that is cached, encode as encoding/json
// encodes them.
func TestGameEventJSON(t *testing.T) {
	at := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	st := clock.State{MainTime: 500 * time.Second, Periods: 5}
	move := &GameMove{GameID: 7, Seq: 13, Color: goban.White, Kind: MovePlay, X: 3, Y: 15, Clock: &st, CreatedAt: at}
	tests := []struct {
		name   string
		change func(g *Game) // applied to the game of the step before
		event  func(g *Game) *GameEvent
	}{
		{"move", nil, func(g *Game) *GameEvent {
			return &GameEvent{Type: EventMove, GameID: g.ID, Move: move, Game: g, Board: []string{"..B", "W..", "..."},
				Captures: &Captures{Black: 1}, Captured: []goban.Point{{X: 1, Y: 1}}, Clock: &ClockView{Kind: clock.ByoYomi, Running: goban.Black}}
		}},
		{"the next move", func(g *Game) { g.MoveCount++; g.ToMove = goban.Black; g.UpdatedAt = g.UpdatedAt.Add(time.Second) }, nil},
		{"a player's rating, in place", func(g *Game) { g.Black.Rating = 1510 }, nil},
		{"a player's name, a new user", func(g *Game) { u := *g.White; u.Name = "bob \u2028"; g.White = &u }, nil},
		{"the komi, in place", func(g *Game) { *g.Settings.Komi = 0.5 }, nil},
		{"no komi", func(g *Game) { g.Settings.Komi = nil }, nil},
		{"the time control", func(g *Game) { g.Settings.TimeControl.Periods = 3 }, nil},
		{"no white user", func(g *Game) { g.White = nil }, nil},
		{"no challenge", func(g *Game) { g.ChallengeID = 0 }, nil},
		{"finished", func(g *Game) { g.Status, g.Result = GameFinished, `B+R "<&>"` }, nil},
		{"phase", nil, func(g *Game) *GameEvent {
			return &GameEvent{Type: EventPhase, GameID: g.ID, Game: g, Proposal: &Proposal{Seq: 1, Dead: []goban.Point{}, AcceptedBy: []goban.Color{}}}
		}},
		{"clock, no game", nil, func(g *Game) *GameEvent {
			return &GameEvent{Type: EventClock, GameID: g.ID, Clock: &ClockView{Kind: clock.Fischer}}
		}},
		{"only the type", nil, func(*Game) *GameEvent { return &GameEvent{Type: EventGame} }},
		{"snapshot", nil, func(g *Game) *GameEvent {
			return &GameEvent{Type: EventGame, GameID: g.ID, State: &GameSnapshot{Game: g, Board: []string{"."}, ServerTime: at}}
		}},
		{"accepted", nil, func(g *Game) *GameEvent {
			return &GameEvent{Type: EventAccepted, GameID: g.ID, Color: goban.Black, Seq: 4}
		}},
		{"the game alone", nil, func(g *Game) *GameEvent { return &GameEvent{Type: EventPhase, GameID: g.ID, Game: g} }},
	}
	g := testGame()
	var event func(*Game) *GameEvent
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.change != nil {
				next := *g // as play makes the next game: a copy, users shared
				tt.change(&next)
				g = &next
			}
			if tt.event != nil {
				event = tt.event
			}
			checkEventJSON(t, event(g))
			checkEventJSON(t, event(g)) // from the cache
		})
	}
}

// FuzzGameEventJSON: a game's event, then the same game's with the head
// fields changed or not, encode as encoding/json encodes them.
func FuzzGameEventJSON(f *testing.F) {
	f.Add(int64(7), "ada", 1500.5, true, 6.5, 12, "B+R", uint8(0), "bob", 1510.0, false, 7.5, 13, "")
	f.Fuzz(func(t *testing.T, id int64, name string, rating float64, rated bool, komi float64, moves int, result string,
		change uint8, name2 string, rating2 float64, rated2 bool, komi2 float64, moves2 int, result2 string) {
		g := testGame()
		g.ID, g.Black.Name, g.Black.Rating, g.Settings.Rated, g.MoveCount, g.Result = id, name, rating, rated, moves, result
		*g.Settings.Komi = komi
		if _, err := json.Marshal(g); err != nil {
			return // NaN and the like: not a game encoding/json encodes
		}
		checkEventJSON(t, &GameEvent{Type: EventMove, GameID: id, Game: g})
		next := *g
		next.MoveCount, next.Result = moves2, result2
		switch change % 5 {
		case 1:
			next.Black.Name = name2 // in place
		case 2:
			u := *next.Black
			u.Rating = rating2
			next.Black = &u
		case 3:
			next.Settings.Rated = rated2
		case 4:
			*next.Settings.Komi = komi2
		}
		if _, err := json.Marshal(&next); err != nil {
			return
		}
		checkEventJSON(t, &GameEvent{Type: EventMove, GameID: id, Game: &next})
	})
}
