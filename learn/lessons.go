package learn

import (
	"strings"

	"tengen/goban"
)

// dia turns a diagram as the seeds print it (". X O" rows separated by
// spaces) into Step.Board rows.
func dia(s string) []string {
	var rows []string
	for _, line := range strings.Split(s, "\n") {
		if r := strings.Join(strings.Fields(line), ""); r != "" {
			rows = append(rows, r)
		}
	}
	return rows
}

const (
	black = goban.Black
	white = goban.White
)

// The seeds' diagrams the lessons use: H is Hebsacker's rules booklet
// (seed 001), P Pfaundler 1908, W the Wikibooks rules introduction; the same
// diagrams are in goban's seed tests.
var (
	// H Dia. 3: liberties in the centre, on the edge, in the corner, and of
	// a chain of two.
	diaLiberties = dia(`
. . . . . . .
. . . . . . .
. X . . . . .
. . . . O O .
. . . . . . .
. . . . . . .
X . . O . . .`)
	// H Dia. 4: three captures one after the other.
	diaCaptures = dia(`
O O X . . . . . .
O X . . . . . . .
. . . . . . . . .
. . . O O . . . .
. . O X X O . . .
. . . . O . . . .
. . . . . . . . .
. . . . . . . . .
. . . X O X . . .`)
	// A white stone with two liberties, to be put into atari.
	diaAtari = dia(`
. . . . .
. . X . .
. X O . .
. . . . .
. . . . .`)
	// H Dia. 5 left: the centre point is suicide for Black.
	diaSuicideOne = dia(`
. . . . .
. . O . .
. O . O .
. . O . .
. . . . .`)
	// H Dia. 5 right, W "Zwei schwierige Situationen" A: D4 would take the
	// last liberty of three black stones and capture nothing.
	diaSuicideMany = dia(`
O O O O . . .
X X X . O . .
O O O O . . .
. . . . . . .
. . . . . . .`)
	// H "Schlagen geht vor", W "Zwei schwierige Situationen" B.
	diaCaptureFirst = dia(`
. . . . . . .
O O O O X . .
X X X . O X .
O O O O X . .
. . . . . . .
. . . . . . .
. . . . . . .`)
	// H Dia. 6.1, 6.2, 7; P §6 Fig. 22: a ko in the centre.
	diaKo = dia(`
. . . . . . .
. . . . . . .
. . X O . . .
. X O . O . .
. . X O . . .
. . . . . . .
. . . . . . .`)
	// H Dia. 8: two eyes.
	diaTwoEyes = dia(`
. . . . . .
O O O O O .
X X X X O .
. X . X O .
X X X X O .`)
	// A wall on the first line with room for two eyes or one.
	diaMakeEyes = dia(`
. . . . . . .
. . . . . . .
. . . . . . .
. . . . . . .
O O O O O O O
X X X X X X X
. . . . . . .`)
	// One eye only: White fills the last liberty from inside.
	diaOneEye = dia(`
. . . . .
O O O . .
X X O . .
. X O . .
X X O . .`)
	// H Dia. 9: the eye at C1 is false.
	diaFalseEye = dia(`
. . . . . .
O O O O O .
X X X O . .
. X . X O .`)
	// H Dia. 10, P §7 Fig. 25: seki.
	diaSeki = dia(`
. . . . . . . .
. . . . . . . .
O O O O O O O .
X X X X X X O .
. O O O . X O .`)
	// A ladder: White's stone runs toward the empty corner.
	diaLadder = dia(`
. . . . . . . . .
. . . . . . O . .
. . . X . . . . .
. . X O . . . . .
. . . . X . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .`)
	// The same stone with a white ladder breaker: the ladder fails, the net
	// holds.
	diaNet = dia(`
. . . . . . . . .
. . . . . . . . .
. . . X . . . . .
. . X O . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . O . .
. . . . . . . . .
. . . . . . . . .`)
	// A finished game on 7×7: a dead white stone in Black's area, a dead
	// black stone in White's; both played eight stones, so territory and
	// area counting give the same margin (Schweidler's rule).
	diaCount = dia(`
. . . X O . .
. . . X O . .
. . . X O . .
O . . X O . X
. . . X O . .
. . . X O . .
. . . X O . .`)
	// Atari-Go: the first capture wins.
	diaAtariWin = dia(`
. . . . .
. . X . .
. X O . .
. . X . .
. . . . .`)
	// Atari-Go: Black's stone is in atari and must run.
	diaAtariSafe = dia(`
. . . . .
. . O . .
. O X O .
. . . . .
. . . . .`)
)

// lessons are the lessons in the order they are taught.
var lessons = []Lesson{
	{ID: "liberties", Terms: []string{"liberty", "goban"}, Steps: []Step{
		{Board: diaLiberties, ToPlay: black, Kind: MarkKind, Goal: Liberties, Target: "B5"},
		{Board: diaLiberties, ToPlay: black, Kind: MarkKind, Goal: Liberties, Target: "D1"},
		{Board: diaLiberties, ToPlay: black, Kind: MarkKind, Goal: Liberties, Target: "A1"},
		{Board: diaLiberties, ToPlay: white, Kind: MarkKind, Goal: Liberties, Target: "E4"},
	}},
	{ID: "capture", Terms: []string{"atari", "agehama"}, AtariGo: true, Steps: []Step{
		{Board: diaCaptures, ToPlay: black, Kind: PlayKind, Goal: Capture, Target: "E1"},
		{Board: diaCaptures, Moves: []string{"B E2"}, ToPlay: white, Kind: PlayKind, Goal: Capture, Target: "D5"},
		{Board: diaCaptures, Moves: []string{"B E2", "W D4"}, ToPlay: black, Kind: PlayKind, Goal: Capture, Target: "A9"},
		{Board: diaAtari, ToPlay: black, Kind: PlayKind, Goal: Atari, Target: "C3"},
	}},
	{ID: "suicide", Steps: []Step{
		{Board: diaSuicideOne, ToPlay: black, Kind: MarkKind, Goal: Illegal},
		{Board: diaSuicideMany, ToPlay: black, Kind: MarkKind, Goal: Illegal},
		{Board: diaCaptureFirst, ToPlay: black, Kind: PlayKind, Goal: Capture, Target: "E5"},
	}},
	{ID: "ko", Terms: []string{"ko", "sente", "gote"}, Steps: []Step{
		{Board: diaKo, ToPlay: black, Kind: PlayKind, Goal: Capture, Target: "C4"},
		{Board: diaKo, Moves: []string{"B D4"}, ToPlay: white, Kind: MarkKind, Goal: Illegal},
		{Board: diaKo, Moves: []string{"B D4", "W G7", "B G6"}, ToPlay: white, Kind: PlayKind, Goal: Capture, Target: "D4"},
	}},
	{ID: "eyes", Terms: []string{"tsumego"}, Steps: []Step{
		{Board: diaTwoEyes, ToPlay: white, Kind: MarkKind, Goal: Illegal},
		{Board: diaMakeEyes, ToPlay: black, Kind: PlayKind, Goal: Live, Target: "A2"},
		{Board: diaOneEye, ToPlay: white, Kind: PlayKind, Goal: Capture, Target: "A3"},
	}},
	{ID: "false-eyes", Steps: []Step{
		{Board: diaFalseEye, ToPlay: white, Kind: MarkKind, Goal: FalseEyes, Target: "A2"},
		{Board: diaFalseEye, ToPlay: white, Kind: PlayKind, Goal: Capture, Target: "D1"},
		{Board: diaFalseEye, Moves: []string{"W C1", "B F4"}, ToPlay: white, Kind: PlayKind, Goal: Capture, Target: "A2"},
	}},
	{ID: "seki", Terms: []string{"seki", "dame"}, Steps: []Step{
		{Board: diaSeki, ToPlay: black, Kind: MarkKind, Goal: SekiStones},
		{Board: diaSeki, Moves: []string{"B A1"}, ToPlay: white, Kind: PlayKind, Goal: Capture, Target: "A2"},
		{Board: diaSeki, Moves: []string{"W E1"}, ToPlay: black, Kind: PlayKind, Goal: Capture, Target: "B1"},
	}},
	{ID: "ladder", Terms: []string{"shicho", "geta", "tesuji"}, Steps: []Step{
		{Board: diaLadder, ToPlay: black, Kind: PlayKind, Goal: Ladder, Target: "D6"},
		{Board: diaNet, ToPlay: black, Kind: PlayKind, Goal: Net, Target: "D6"},
	}},
	{ID: "counting", Terms: []string{"dame", "agehama", "jigo"}, Steps: []Step{
		{Board: diaCount, ToPlay: black, Kind: MarkKind, Goal: DeadStones},
		{Board: diaCount, ToPlay: black, Kind: CountKind, Goal: Margin},
		{Board: diaCount, Rules: "chinese", ToPlay: black, Kind: CountKind, Goal: Margin},
	}},
	{ID: "handicap", Terms: []string{"hoshi", "komi", "nigiri", "jigo"}, Steps: []Step{
		{Board: dia(strings.Repeat(strings.Repeat(".", 9)+"\n", 9)), ToPlay: black, Kind: MarkKind, Goal: Handicap, Count: 4},
		{Board: dia(strings.Repeat(strings.Repeat(".", 13)+"\n", 13)), ToPlay: black, Kind: MarkKind, Goal: Handicap, Count: 5},
		{Board: diaCount, Komi: 6.5, ToPlay: black, Kind: CountKind, Goal: Margin},
	}},
	{ID: "atari-go", Terms: []string{"atari"}, AtariGo: true, Steps: []Step{
		{Board: diaAtariWin, Rules: "atari", ToPlay: black, Kind: PlayKind, Goal: WinAtari},
		{Board: diaAtariSafe, Rules: "atari", ToPlay: black, Kind: PlayKind, Goal: Safe},
	}},
}
