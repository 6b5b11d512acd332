package play

import (
	"reflect"
	"testing"

	"tengen"
	"tengen/sgf"
)

// TestAddChat checks where the players' chat lands in the record: at the
// node of the position it was said at, the root before the first move,
// the nearest earlier node for moves without one.
func TestAddChat(t *testing.T) {
	play := func(kinds ...tengen.MoveKind) []*tengen.GameMove {
		var out []*tengen.GameMove
		for i, k := range kinds {
			out = append(out, &tengen.GameMove{Seq: i + 1, Kind: k})
		}
		return out
	}
	say := func(move int, who, text string) *tengen.ChatMessage {
		return &tengen.ChatMessage{MoveNumber: move, AuthorName: who, Text: text}
	}
	P, R := tengen.MovePlay, tengen.MoveResign
	free := tengen.GameSettings{Handicap: 2, FreeHandicap: true}
	for _, tt := range []struct {
		name  string
		sgf   string
		set   tengen.GameSettings
		moves []*tengen.GameMove
		chat  []*tengen.ChatMessage
		// want maps the index of a node on the main line to its C[].
		want map[int]string
	}{
		{"before the first move", "(;SZ[9];B[aa];W[bb])", tengen.GameSettings{}, play(P, P),
			[]*tengen.ChatMessage{say(0, "ann", "hi")}, map[int]string{0: "ann: hi"}},
		{"after moves, two at one", "(;SZ[9];B[aa];W[bb];B[cc])", tengen.GameSettings{}, play(P, P, P),
			[]*tengen.ChatMessage{say(2, "ann", "oops"), say(2, "bob", "ha"), say(3, "ann", "there")},
			map[int]string{2: "ann: oops\nbob: ha", 3: "ann: there"}},
		{"pass has a node", "(;SZ[9];B[aa];W[])", tengen.GameSettings{}, play(P, tengen.MovePass),
			[]*tengen.ChatMessage{say(2, "bob", "I pass")}, map[int]string{2: "bob: I pass"}},
		{"taken back", "(;SZ[9];B[aa])", tengen.GameSettings{}, play(P),
			[]*tengen.ChatMessage{say(2, "bob", "sorry, misclick")}, map[int]string{1: "bob: sorry, misclick"}},
		{"free handicap placements", "(;SZ[9]AB[aa][bb];W[cc])", free, play(P, P, P),
			[]*tengen.ChatMessage{say(1, "ann", "placing"), say(3, "bob", "tenuki")},
			map[int]string{0: "ann: placing", 1: "bob: tenuki"}},
		{"after a resignation", "(;SZ[9];B[aa];W[bb])", tengen.GameSettings{}, play(P, P, R),
			[]*tengen.ChatMessage{say(3, "ann", "thanks for the game")}, map[int]string{2: "ann: thanks for the game"}},
		{"special characters", "(;SZ[9];B[aa])", tengen.GameSettings{}, play(P),
			[]*tengen.ChatMessage{say(1, "ann", `a]b\c <b>`)}, map[int]string{1: `ann: a]b\c <b>`}},
		{"existing comment kept", "(;SZ[9]C[old];B[aa])", tengen.GameSettings{}, play(P),
			[]*tengen.ChatMessage{say(0, "ann", "new")}, map[int]string{0: "old\nann: new"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			col, err := sgf.Parse([]byte(tt.sgf))
			if err != nil {
				t.Fatal(err)
			}
			root := col.Games[0]
			addChat(root, moveNodes(root, tt.moves, tt.set), tt.chat)
			got := map[int]string{}
			for i, n := range root.MainLine() {
				if v, ok := n.Value("C"); ok {
					got[i] = sgf.UnescapeText(v)
				}
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("comments %v, want %v", got, tt.want)
			}
			// The record stays readable with the comments in it.
			data, err := sgf.Format(root)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := sgf.Parse(data); err != nil {
				t.Errorf("written record does not parse: %v\n%s", err, data)
			}
		})
	}
}
