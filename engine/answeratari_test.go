package engine

import (
	"testing"

	"tengen/goban"
)

// answerBoard is a finished 9×9 position: Black owns the top, White the
// bottom, and Black's E5-E3 pokes into White's side, in atari, with its last
// liberty E6 in the gap of Black's wall.
const answerBoard = `
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
X X X X . X X X X
O O O O X O O O O
. . . O X O . . .
. . . O X O . . .
. . . . O . . . .
. . . . . . . . .`

// TestAnswerAtari: the player to move saves its chains of two or more
// stones in atari that connect, at their last liberty, to another chain of
// its own with two or more liberties as a result (a record that stops with
// such a chain in atari stops before its owner's answer); the chains of the
// player not to move stay as they are (their owner left them).
func TestAnswerAtari(t *testing.T) {
	tests := []struct {
		name    string
		diagram string
		toMove  goban.Color
		want    string // the move played, "" for none
	}{
		{"owner to move connects", answerBoard, goban.Black, "E6"},
		{"opponent to move", answerBoard, goban.White, ""},
		{
			// A single stone in atari is often a sacrifice.
			"single stone",
			`
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
X X X X . X X X X
O O O O X O O O O
. . . . O . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .`, goban.Black, "",
		},
		{
			// E6 touches no other Black chain: an extension, no
			// connection.
			"extension",
			`
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
X X X . . . X X X
O O O O X O O O O
. . . O X O . . .
. . . . O . . . .
. . . . . . . . .
. . . . . . . . .`, goban.Black, "",
		},
		{
			// Connecting at E6 leaves the joined chain in atari.
			"connection still in atari",
			`
. . . . . . . . .
. . . . . . . . .
O O O O O O O . .
X X X X . X X . O
O O O O X O O O O
. . . O X O . . .
. . . . O . . . .
. . . . . . . . .
. . . . . . . . .`, goban.Black, "",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := goban.ParseBoard(tt.diagram)
			if err != nil {
				t.Fatal(err)
			}
			before := b.String()
			w := answerAtari(b, tt.toMove)
			if b.String() != before {
				t.Fatal("answerAtari changed its board")
			}
			got := ""
			if w != nil {
				for y := range b.Height() {
					for x := range b.Width() {
						p := goban.Point{X: x, Y: y}
						if b.At(p) == goban.Empty && w.At(p) == tt.toMove {
							got = goban.FormatVertex(p, b.Height())
						}
					}
				}
			}
			if got != tt.want {
				t.Errorf("played %q, want %q\n%s", got, tt.want, w)
			}
		})
	}
}
