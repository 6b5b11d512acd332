package goban

// Positions shared by the internal tests and seeds_test.go (package
// goban_test), exported only to the tests.

// TripleKo has three kos: Black can capture at C8 and C3, White at H8.
// TripleKoCycle captures in all three in turn (three stones each) and
// returns to the same position with Black to move at its sixth move, which
// both kinds of superko forbid and simple ko allows; White cannot play at
// C8 or C3 (suicide), and after each capture the retake is a ko.
const TripleKo = `
. X O . . . O X .
X O . O . O X . X
. X O . . . O X .
. . . . . . . . .
. . . . . . . . .
. X O . . . . . .
X O . O . . . . .
. X O . . . . . .
. . . . . . . . .`

// TripleKoCycle is the cycle of TripleKo.
var TripleKoCycle = []string{"B C8", "W H8", "B C3", "W B8", "B G8", "W B3"}
