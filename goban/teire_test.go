package goban

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// TestRefereeCases scores small final positions under the Japanese rules
// that professional records end with: dame left open, a false eye that
// must be filled once the dame next to it are (teire), dead stones left
// inside territory, and seki. The figures are those a referee gives.
func TestRefereeCases(t *testing.T) {
	tests := []struct {
		name         string
		diagram      string
		dead         []string // GTP vertices of dead stones
		black, white int      // territory
		teire        []string
		seki         int   // stones in seki
		toMove       Color // the player who fills first; Empty: both orders (ScoreBoard)
	}{
		{
			// B5 is a false eye: once White fills the dame D5, the
			// stone C5 is in atari and Black connects at B5. Black
			// keeps A3 and A1; the dame D5 is nobody's.
			name: "false eye",
			diagram: `
X . X . O . .
X X O O O . .
. X O . . . .
X X O . . . .
. X O . . . .`,
			black: 2, white: 16, teire: []string{"B5"},
		},
		{
			// The corner stones G7 and F6 touch the eye G6 and the dame
			// F7. White cannot fill F7 once Black has filled E7 (the three
			// stones would have G6 alone), and Black's stone on F7 puts
			// both in atari: White connects at G6, whichever dame is
			// filled first. Filling one dame opens the other.
			name: "dame that another dame makes fillable",
			diagram: `
X X X X . . O
X X X X X O .
X X X X X X O
. . . . X O O
. . . . X O .
. . . . X O .
. . . . X O .`,
			black: 16, white: 3, teire: []string{"G6"},
		},
		{
			// The black stone D4 has the false eye C4 and the dame D5
			// and D3. When White fills D5, Black fills D3 at once
			// (White's stone there would force Black to connect at
			// C4) rather than a dame of the F column: both dame are
			// worth the point of C4, and each side takes the one that
			// saves or gains it. No teire, whoever fills first.
			name: "dame that saves a teire",
			diagram: `
. X X . O O . X .
. X . X O O . X .
. X X . O O . X .
. X X X O O . X .
. . . X O O . X .`,
			black: 13, white: 0,
		},
		{
			// White's D4 is in atari on E4, and so are the dead black
			// stones D5-E5. Black's capture at E4 takes one stone and
			// leaves its three in atari on D4, where White takes them
			// back: a snapback, which costs the capturer, so nobody
			// makes it and White keeps E4 (meijin33-Q12's K14 and
			// L14). Without the rule White connected at E4.
			name: "chain saved by a snapback",
			diagram: `
. . O . . . .
. . O O O . .
O O O X X O .
X X X O . O .
. . X X O O .
. . X O O . .
. . X O . . .`,
			dead:  []string{"D5"},
			black: 6, white: 21,
		},
		{
			// Dame left open between the walls count for nobody; no
			// chain is short of liberties.
			name: "dame open",
			diagram: `
. . X . O . .
. . X . O . .
. . X . O . .
. . X . O . .
. . X . O . .`,
			black: 10, white: 10,
		},
		{
			// The dead white stones B4 and B2 and the dead black stone
			// F3 stay on the board at the end: each side's territory
			// counts the points under them, and they are prisoners.
			name: "dead stones inside territory",
			diagram: `
. . X O . . .
. O X O . . .
. . X O . O .
. O X O . . .
. . X O . . .`,
			dead:  []string{"B4", "B2", "F3"},
			black: 10, white: 15,
		},
		{
			// Seki: the two chains in the corner share the liberty C5
			// and each has an eye (A5, E5); under the Japanese rules
			// the eyes are not territory. The lower half is dame.
			name: "seki",
			diagram: `
. X . O .
X X X O O
O O O X X
. . . . .
. . . . .`,
			seki: 7,
		},
		{
			// The white stone D2 is in atari among the dead stones C2,
			// E2 and D1 (meijin37-Q12's shape). If Black captured it on
			// D3 the dead stones would gain an eye, not life, so White
			// leaves it: D3 is territory, not teire.
			name: "lone stone among dead stones",
			diagram: `
. . . . . . .
X X X X X X X
O O O O O O O
O . X . X . O
O . X O X . O
O . . X . . O`,
			dead:  []string{"C3", "E3", "D1"},
			black: 7, white: 14,
		},
		{
			// White's C3-D3 stands among the dead black stones and is in
			// atari on D2, where White could connect (honinbo77-P12's
			// K14-K15). If Black captured it there, the dead stones
			// would gain eye space, not life, and Black's stone would be
			// one more prisoner: White leaves it, D2 is territory.
			name: "chain among dead stones",
			diagram: `
. . . . . . .
X X X X X X X
O O O O O O O
O . X X . . O
O X O O X . O
O . X . . . O
O . . . . . O`,
			dead:  []string{"C4", "B3", "E3", "C2"},
			black: 7, white: 18,
		},
		{
			// White's A1-A2 stands among the dead black stones, in atari
			// on B1, where White's stone would have no liberty
			// (tengen50-Q12's A18-A19). Taking the dead A3 at A4 would
			// give it two liberties, but only the dead stones can take
			// it, and their capture on B1 would give White A1 and A2 as
			// territory and their stone as a prisoner: White leaves it,
			// A4 is territory.
			name: "chain among dead stones that cannot connect",
			diagram: `
. . . . . . .
X X X X X X X
O O O O O O O
. O . X O . O
X O O X O . O
O X X X O . O
O . X . O . O`,
			dead:  []string{"A3", "B2"},
			black: 7, white: 15,
		},
		{
			// kisei48-S14's lower right: White's C2-D2 stands among dead
			// Black stones, in atari on D3, where White's stone would
			// leave it D4 alone; a second stone on D4 would join it to
			// the wall. Only the dead stones could take it, and their
			// capture would cost them points, so White leaves it and
			// keeps D3 and D4 (no teire).
			name: "chain among dead stones that stones inside would connect",
			diagram: `
. . . . . . .
X X X X X X X
O O O O O O O
. . X . X . O
. . X . X . O
. X O O X . O
. . X X . . O`,
			dead:  []string{"C4", "E4", "B2", "C1"},
			black: 7, white: 22,
		},
		{
			// meijin34-Q07's upper left: White's stone on the dame A5
			// would put A6 in atari (Black's teire A7), but the dead
			// stones B2, B3 and C3 leave White's wall A4-C6 only A3 and
			// A5, so White first captures them (A3, then A2) and then
			// fills A5.
			name: "dame that dead stones keep from being filled",
			diagram: `
. X X X X
X X . . .
. X X . X
X O O X X
. O O X O
O O O X O
. X X O O
. X O O .
. O O O O`,
			dead:  []string{"B3"},
			black: 5, white: 5,
			teire: []string{"A7", "A3", "A2"},
		},
		{
			// meijin36-Q14's left side: once Black has filled the dame D4
			// and D3, White's chain A2-C4 is in atari on A3, where
			// White's stone would leave it in atari on A4. White saves it
			// by capturing the dead B4 on A4 instead: A4 is teire, A3 and
			// the point under B4 stay White's.
			name: "chain saved by capturing a dead stone",
			diagram: `
. O X . X . .
O O X . X . .
. O X X X . .
. x O . X . .
. O O . X . .
O O X . X . .
X X X X X . .`,
			dead:  []string{"B4"},
			black: 16, white: 4,
			teire: []string{"A4"},
		},
		{
			// tengen45-P32's upper right: White's dead D9-H8 (liberties
			// G8 and H9) and G9 hold Black's F9-F8 in atari on G8,
			// where Black's stone would be a suicide. To take them
			// Black must first fill H9, the dying group's liberty next
			// to its wall (a teire, which the record and GNU Go count
			// as dame); then White's capture at G8 only leaves it one
			// eye. After H9 everything is in atari on G8 and nothing
			// more is filled.
			name: "dying group approached from outside",
			diagram: `
. . X O O X O . X
. . X X O X . O X
. . X O O O O O X
. . X X X X X X X
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .`,
			dead:  []string{"D9", "G9"},
			black: 64, white: 0,
			teire: []string{"H9"},
		},
		{
			// fmeijin24-P06's lower middle: once Black fills the dame
			// D5, White's B4-E4 with C3 is in atari on F4, and the
			// dead D3-F2 that press it are in atari on E1. White takes
			// them at E1 rather than connecting at F4: either costs a
			// point, but the capture also saves D2-D1, which Black's
			// dame C1 would put in atari on E1 later. Connecting first
			// gave two teire (F4 and E1) where the record and GNU Go
			// count one. The H column is left open (neutral).
			name: "chain saved by capturing the dead stones that press it",
			diagram: `
X X X X X X X X X
X X X . X O O O X
X O O O O . O . X
X X O X X O O . X
X X X O X X O . X
X X . O . O . . X`,
			dead:  []string{"D3"},
			black: 0, white: 5,
			teire: []string{"E1"},
		},
		{
			// meijin34-Q19's upper right: D5 and F5 are false eyes
			// between White's three chains. When Black fills the dame
			// H4, G5-H5 is in atari on F5; White's stone there joins it
			// to D4-F4, which is then in atari on D5, and only the
			// second stone, joining the chain B1-C5 and its eye space,
			// saves them. Both are teire.
			name: "chain saved by two stones inside",
			diagram: `
. O O . O . O O
. O X O O O X .
. O X X X X X X
. O X . . . . .
. O X . . . . .`,
			black: 10, white: 5,
			teire: []string{"D5", "F5"},
		},
		{
			// meijin33-Q15's left side: D3 is a liberty of both White's
			// C2-D4 (with E3-E2) and Black's chain A1-G4, and a stone of
			// either side there is a self-atari. White first connects at
			// E4 (a teire) and then fills D3, which leaves Black's chain
			// in atari on A2, where Black's stone is in atari on A4:
			// Black connects at A2 and A4. White gives one point for two.
			name: "dame filled after a connection inside",
			diagram: `
. . X O O . .
. X . X O . .
X . X X O O O
. X O O . O X
X O O . O X X
. X O X O X X
X X X X X X X`,
			black: 5, white: 4,
			teire: []string{"A4", "E4", "A2"},
		},
		{
			// gosei48-K13's lower right: Black's F1-F2 hangs from no
			// wall. Once the dame G1 is filled (by either side), a
			// White stone on E2 leaves it in atari on E1, where Black's
			// stone would leave it in atari again, and E2 cannot be
			// captured at once: Black connects at E2 first. Before
			// defendInvasion the count gave no teire, since nothing was
			// in atari after the fill.
			name: "chain an invader would leave in atari beyond saving",
			diagram: `
. . . X O . O .
. . . X O O O O
X X X X X O . O
. . . . . X O O
. . . . . X . O`,
			black: 15, white: 3,
			teire: []string{"E2"},
		},
		{
			// gosei44-Q24's G18: White's group has the eye B3 and the
			// point B4 next to the dead B5. A Black stone on B4 puts it
			// in atari; White's capture on B3 leaves it the two points
			// B4 and B5, where Black throws in again and takes the
			// whole group after White's second capture. White captures
			// B5 on B4 first: two eyes, one teire. A one-move check
			// took the capture on B3 for a save.
			name: "capture that leaves one eye",
			diagram: `
O X O X .
O . O X .
O . O X .
O O O X .
X X X X .`,
			dead:  []string{"B5"},
			black: 5, white: 2,
			teire: []string{"B4"},
		},
		{
			// Black's corner is left open at D7, next to White's E7:
			// before splitOpen all of it was neutral. A point counts for
			// the side whose stones are nearer by two steps through the
			// area: the eight points of the corner are Black's; D7 and
			// C7, as near to White's E7 as to Black, stay neutral (and
			// are filled as dame). Black fills first and closes the gap
			// at D7. (When White fills first, its stone on C7 would be
			// cut off by Black's D7 and taken, so White pushes in at D7
			// itself, and Black's D8-D9, left with C8 and C9, needs
			// teire: the gap is a dame worth points to either side.)
			name: "open border",
			diagram: `
. . . X O . . . .
. . . X O . . . .
. . . . O . . . .
X X X X O . . . .
O O O O O . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .`,
			toMove: Black,
			black:  8, white: 56,
		},
		{
			// honinbo73-K15's top (its rows 19 to 12, columns A to M),
			// Black to move. White's E8-H4 has three liberties: G8, next
			// to Black's H8, and the dame H6 and H5. Black fills H6, and
			// White connects at H5 at once: Black's stone there would
			// capture the chain on G8. White's fill on G8 then puts H8
			// in atari and Black connects at J8, as the record and GNU
			// Go count. Without the answer White filled elsewhere, Black
			// took H5, and the chain's capture on the work board saved
			// Black the teire.
			name: "dame that defends a chain",
			diagram: `
. . . X O O . X . X . .
. X X X X O O O X X X X
X . X O O X O . X . O O
X X O O . X O . O O . O
O O . O X X O O X O . O
. O O O O X X X X X O O
O . O X O X . X O O O .
. O X X X X . X X O O O`,
			toMove: Black,
			black:  9, white: 7, teire: []string{"J8"},
		},
		{
			// honinbo72-R12's final position, Black to move. Black fills
			// P11, and White has two fills that gain a point: O11 puts
			// Black's P11-Q11 in atari on R11 in Black's territory, and
			// T19 would put T18 in atari on T17 once White has taken the
			// dead R18 at R19 (unlock), itself a teire. White first
			// plays O11 (Black connects at R11), then R19 and T19 (Black
			// connects at T17), as the record and GNU Go count; with the
			// capture first, Black filled O11 too and kept R11.
			name: "dame that forces a teire before a capture that unlocks one",
			diagram: `
. . X . . . . X X O . . . . . . . O .
X X X X X . . X O O O O O O . O X O X
X O X O . X . O X O X O X O O O O X .
X O X O O X . X X . X X X X X X X X .
O O X O X X X . X X X X X O O X O O X
O . O O X O O O O O O O O X O O O X .
. O . O O O X O . O O X X X . . X X X
. . . . O X X O O X X . X O O O X . .
. . . X O . . . O X X X X . . X . X X
. . O O . X X X X X O O O O O O X X O
. . . . O O O O . X O . . . . . O O O
. . . . . O X X X X X O O O O . . . .
O . O . . O X O . X O O X X X O . . .
X O . . . . O X X O . O X . X O . . .
X O O O O O O O X O . O X X . O O O O
X X X O X O X O X X O O O . X . X X O
. . . X X X X X X X O O X X . X . X X
. . . . . . . O X O O X . . . . . . .
. . . . . . . . X . . X . . . . . . .`,
			dead:   []string{"R18", "H17", "D11", "H7", "H2"},
			toMove: Black,
			black:  53, white: 55, teire: []string{"R19", "T17", "R11", "N2"},
		},
		{
			// judan57-4's P12: the dead D2 is in atari on the dame D3,
			// where Black's stone would join it to D4 in a self-atari.
			// White fills D3 and takes it (Black connects at D5), so D2
			// is White's, though its region reaches the dame.
			name: "dead stone in atari on a dame",
			diagram: `
. . . . . . .
X X X X X X X
X X X . X X X
O O O X O O O
O O O . O O O
. . O X O . .
. . . O . . .`,
			dead:   []string{"D2"},
			toMove: White,
			black:  7, white: 11, teire: []string{"D5"},
		},
		{
			// gosei49-4's lower left: White's dead B1-B2 has A1 and
			// C1. Once the dame A4 is filled, Black's A2-B5 has A1 and
			// the eye C3, and C2-D3 has C1 and C3: a black stone on A1
			// or C1 is a self-atari that White's C3 punishes, and the
			// dead stones can no longer be taken. Black takes them
			// before, at A1 and C1 (two teire), as the record and
			// GNU Go count; Black keeps B1, B2 and C3. Whoever fills
			// first (both orders).
			name: "dead chain on the edge that the fill would make uncapturable",
			diagram: `
. . . . . . .
O O O . . . .
O X O O O . .
. X X O O . .
X X . X O . .
X O X X O . .
. O . X O . .`,
			dead:  []string{"B1"},
			black: 3, white: 21, teire: []string{"A1", "C1"},
		},
		{
			// The same corner with A4 Black's: A2-B5 keeps a liberty
			// outside the corner after the fill, Black's A1 puts the
			// dead stones in atari without a self-atari, and no teire
			// is counted.
			name: "dead chain on the edge that stays capturable",
			diagram: `
. . . . . . .
O O O . . . .
X X O O O . .
. X X O O . .
X X . X O . .
X O X X O . .
. O . X O . .`,
			dead:  []string{"B1"},
			black: 6, white: 21,
		},
		{
			// gtp/testdata/engine/seki.gtp's corner: White's dead
			// A2-D1 has A1 and C1, and Black's B1-B2 inside cannot
			// approach it even as the board stands: Black kills it by
			// a throw-in, not by taking it before the fill, and the
			// referee counts A1 and C1 as Black's.
			name: "dead chain on the edge that no fill makes uncapturable",
			diagram: `
. . . . . . .
. . . . . . .
. . . . . . .
X X X X . . .
O O O X X . .
O X O O X . .
. X . O X . .`,
			dead:   []string{"A2"},
			toMove: White,
			black:  39, white: 0,
		},
		{
			// meijin48-22's upper right, made small: Black's wall
			// E4-F6-G6 has F7, G7 and the dame G5, and White's dead
			// E5-E6 has D6 and E7. Once G5 is filled, White's F7 would
			// leave the wall in atari on G7 and it could neither
			// capture nor run; Black cannot wait for the stone and
			// answer it, and defends before the end: one teire.
			name: "dead chain next to a wall its owner would take",
			diagram: `
. . . . . . .
. . . . O X X
X X X X O X .
O O O O X X O
. . . O O O O
. . . . . . .
. . . . . . .`,
			dead:  []string{"E5"},
			black: 12, white: 17, teire: []string{"E7"},
		},
		{
			// A pair of stones as the wall: White's F7 would take
			// Black's F6-G6 too, but the records measured leave the
			// liberties of a dead chain next to so small a wall as
			// territory (docs/STRENGTH.md, twenty-sixth round). No
			// teire.
			name: "dead chain next to a pair its owner would take",
			diagram: `
. . . . . . .
. . . . O X X
X X X X X O O
O O O O O O O
. . . . . . .
. . . . . . .
. . . . . . .`,
			dead:  []string{"E6"},
			black: 12, white: 21,
		},
		{
			// oza70-P10 (recorded W+0.5), White to move: Black's H13
			// puts White's G12-K12 in atari on K13, in White's
			// territory. White connects there, then cuts at J15, the
			// one dame there, and Black's chain through H13 is in
			// atari on a point where Black's stone would be a
			// self-atari: H13 is no fill. The enemy cannot cut a fill
			// whose atari it cannot answer (meijin37-Q19's R2), but it
			// can here: White's teire O10 goes, and P19 and R18 become
			// Black's teire, as the record and GNU Go 3.8 count.
			name: "fill that ataris a chain the enemy saves before it cuts",
			diagram: `
. . X . . . . . . O X X X O . X O O X
. X O O O . O . . O O X O O O X . O X
. X X O . O . O O O . X X X O O O X X
. . O O O O O X X X X X O O X X X X X
. O X X X X X X . O X O . O O O O X .
. O X O X O O X X O O O . O . O X . X
O . O O O X O . O . X X X O . O X X .
. O O X X X O O O O X O O . . O . X .
O O X X O O X X X X O O O O O . O X .
X X X O . O X O . X O X X . O X X X .
X X X O O . O . O X X O O . O X O O O
. . . X O O . O . X . O X . O O X X .
X X X X X O . O X X . O X . O X X X .
. . X O O O . . O . X X X X O O O X .
. . X O X O O O . . X O X O O O X . .
X X X X X X O X O . X . O X . O X . .
X O O O X X O X X X . . X X O O X . .
O . . O X O O O X . X . . O X O X . .
. O O X X . O . O O X . . . X X . X .`,
			dead: []string{"C19", "O19", "R19", "S19", "B18", "N18", "O18", "P18", "S18", "B17", "C17", "P17", "Q17", "R17",
				"L13", "M13", "N13", "L12", "M10", "N10", "R9", "S9", "T9", "M5", "N4", "O2"},
			toMove: White,
			black:  50, white: 47,
			teire: []string{"P19", "R18", "K13", "H9", "H1"},
		},
		{
			// meijin37-Q19 (recorded W+10.5), White to move: White's R2
			// joins S2-T6, which Black's T7 would leave in atari on T3,
			// but it puts Black's R1-S1 in atari on T1, where Black's
			// stone would leave the corner in atari on T3. Black cannot
			// save the chain, so the atari comes first and R2 is a
			// fill (capturesAtari). Since keepsAll each side also
			// fills one point more, White L11 and Black M7, which
			// cancel (the record stays exact); without capturesAtari
			// Black's count is one point higher (teire H19 R19 L11,
			// 56 and 61).
			name: "fill that ataris a chain the enemy cannot save",
			diagram: `
. . . X X O . . O . X X X O . . . O .
. O X X O . . O X X X O X O . O O X X
. X X . O X O . . . O O O O O O X . .
X . X O . O . O X X O . O X O X . X .
O X X O . . O X X X X O O X X . . . .
O O O . . . . O O O X X X X X X . . .
. . . . . . . . . O X X X O O X . . .
. . . . . . . . . . O X O O O X . . .
. . O . . . . . . . . O X . O X O . .
. O . . . . O O O . . O O O O X . O X
. . . X O O X O X O O X . O X . O X .
O O O O X . X . X . . X X X . X X . X
X X X X X . X . X . X . X . . . . X .
. . X O O O O O . . O X . . . . O X O
. X X X O . O O . O O O X X . . X X O
. X O O O O X X O . X X X O X X X O O
. X X O O . O X . X . X O O O O O O .
. X O O O . O X X X . X O X X O . O X
. X X O . O O O O O X X X X X O X X .`,
			dead:   []string{"B18", "F17", "N11", "R11", "S10", "D9", "R9", "R6"},
			toMove: White,
			black:  55, white: 61,
			teire: []string{"H19", "R19", "L11", "M7"},
		},
		{
			// kisei48-B1-18's final position (Black to move). White's
			// stone on N18 would join the dead O16-P18 and put Black's
			// N19 in atari on O19, where Black's stone would still be in
			// atari: Black cannot save N19. But the joined chain has
			// two liberties, O19 and P19, and Black takes it: Black
			// P19, White captures N19 on O19, Black N19 captures the
			// six. So N18 is no teire, as the record and GNU Go count
			// it (joinsOnlyDead); before, Black filled it.
			name: "invader joined to dead stones that the defender captures",
			diagram: `
. X . . X . X O O . O O X . . . . . .
O X O X . X X X O O O X . O O X . . .
. O X X X O X X X X O X X O X . X . .
O . O O O O X O X O O O X O X . X . .
. O O X . . O O . O X O X X O . . . .
. O X X X O . O . O X X . . . . . . .
O O O X O O X X X X O X X X X . . . .
X X X X . O O X X O O O X O X X X . .
. . . X . X . X O O . O O O X O X . .
. X . X . X X X O X O . X . O O O X .
X X X O O O X X O . . . . . O O O X .
X O O X O . O O . . . . . . X . O O X
O . O X . . . . . . . . . . . . O X .
. O . O . . . . . . . . . O X X O X .
O O O . . . . . . . . . . O . O X X .
X X X O . . . O O . O . . . . O X X O
X O O O O O O X O O X O O O O X O O .
X X X X X O X X O X X O X X X X O . O
X . . . . X . . X . . X X O . X O X .`,
			dead:   []string{"C18", "O18", "P18", "O17", "O16", "P15", "K10", "N10", "D8", "P8", "D7", "P6", "Q6", "T4", "R3", "S3", "R2", "T2", "O1", "R1"},
			toMove: Black,
			black:  73, white: 70,
			teire: []string{"C19", "A17"},
		},
		{
			// tengen48-K17's final position (Black to move). White's
			// fill on H18 leaves Black's G18-H17 and J18-K19 both in
			// atari on J17, a point of Black's territory. The stone
			// there saves both; the capture of the dead G16-H16 on J16,
			// which saves the first alone, would cost a second teire.
			// The record and GNU Go count one (sharedLastLiberty).
			name: "last liberty of two chains in atari",
			diagram: `
X X X O O O O O X X O . . . . O . X X
X X O O . O X . X O O . O . O O X X O
X O O . O X X X . X O . X O O X X O O
X X O O X X O O . X O O O X X X X O O
. X X O O O X X X X O X O O X X O O .
. . X X . . X O O X X X X X X X X O X
. X X X X X X . O O X . . . X O O . O
X . . X O X O O O X X . . X O O O . O
. X X O O X X O . O O X X X X O O O .
O X X X O O O O X . . O O X X X O . .
O X O O O . X O O O . . O O O O O O O
O X X X O . X O X X O . O X . O . X O
O X O O O . X X X X O . O X X X X X X
O O O O O X . O X O O O O O X X . . .
X X X O X X . O X X . . X X . X O . .
O O X X X . X X O X X X X X X . X O .
. O O O X X X . O X O O X O O X X O .
X O O . O O X O O O . O O O X X . O .
. X O O O X X O . . O . O O O X . X .`,
			dead:   []string{"N17", "G16", "H16", "T14", "J10", "H6", "H5", "R5", "S4", "S3", "A2", "S2", "B1"},
			toMove: Black,
			black:  36, white: 34,
			teire: []string{"J17"},
		},
		{
			// honinbo72-R13's final position (Black to move). White's
			// lone E9 (liberties D9 and E10) and White's D8 wall
			// (liberties D9 and C9) share D9, a point of White's
			// territory. Black's stone there ataris both; White can
			// save only one, though each alone would be saved
			// (defends). So White connects on D9 first, a teire, as
			// the record and GNU Go count it (keepsAll).
			name: "invader that ataris two chains at once",
			diagram: `
. . . . . . . X X O O . . O O O O X .
. . . . . X X X O . . O O O X O X . X
. . X X . O X O O O O X . O X O X X .
. X O X X X O O . . X X X O X O X . .
. X O O X X O . . . X O O X X O X . .
X X X O O O X . O O . O O O X X . . .
X X O . . O . . X O O O O X . X X O .
X X O . . . . . X X X O X . X O X X X
X O O . . . . . O O O X X X O O X X O
X X O . . O O O . . O O X . X O X O O
O O . . O X X X O . O O X X X O O . .
. O O O X O O X O O X O . O X O . O .
. X X O X . . X O . X . O . X O . . .
X . . X X O O X X X X X O O . O O O O
. X X X . . O O X . . O X X O O X X O
X X X X X O O X X O . O X O O X . X O
X O X . X O O O X . . O X X O X . X X
O O O X O . O X . X . . X . X . . . .
. . O . O . O X X . X . . . . . . . .`,
			dead:   []string{"F17", "M17", "L16", "M16", "N16", "L15", "G14", "J13", "S13", "J12", "K12", "L12", "M5", "K4", "M4", "M3"},
			toMove: Black,
			black:  64, white: 53,
			teire: []string{"D9", "D3"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := mustParse(t, tt.diagram)
			var dead []Point
			for _, v := range tt.dead {
				p, _, err := ParseVertex(v, b.Width(), b.Height())
				if err != nil {
					t.Fatal(err)
				}
				dead = append(dead, p)
			}
			s, err := ScoreBoard(b, MustRuleset("japanese"), 0, 0, dead)
			if tt.toMove != Empty {
				s, err = scoreBoard(b, MustRuleset("japanese"), 0, 0, dead, tt.toMove, true)
			}
			if err != nil {
				t.Fatal(err)
			}
			var teire []string
			for _, p := range s.Teire {
				teire = append(teire, FormatVertex(p, b.Height()))
			}
			if s.Black.Territory != tt.black || s.White.Territory != tt.white {
				t.Errorf("territory black %d white %d, want %d and %d", s.Black.Territory, s.White.Territory, tt.black, tt.white)
			}
			if !reflect.DeepEqual(teire, tt.teire) {
				t.Errorf("teire %v, want %v", teire, tt.teire)
			}
			if len(s.Seki) != tt.seki {
				t.Errorf("%d stones in seki, want %d", len(s.Seki), tt.seki)
			}
		})
	}
}

// TestSekiCriterion checks the limits of the seki found on the final
// board: a shared liberty that neither side can fill now is no sign of
// seki when one side can first take the enemy chain's other liberty from
// inside its own area, or can fill the shared liberty itself after one
// move of preparation there.
func TestSekiCriterion(t *testing.T) {
	// C5 is unfillable for both as the board stands: White's chain has
	// the eye A5 besides it, the black stone D5 has E5. But Black
	// connects D5 to the wall at E5 first, and then C5 is safe for
	// Black and leaves White's chain the eye alone: no seki. (The count
	// keeps the white chain alive, as no dead stones are given: A5 is
	// White's point, E5 and the lower two rows Black's.)
	b := mustParse(t, `
. O . X .
O O O O X
X X X X X
. . . . .
. . . . .`)
	s, err := ScoreBoard(b, MustRuleset("japanese"), 0, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Seki) != 0 || s.Black.Territory != 11 || s.White.Territory != 1 {
		t.Errorf("seki stones %d, territory black %d white %d; want 0, 11 and 1", len(s.Seki), s.Black.Territory, s.White.Territory)
	}
	// With A4 Black's, White's other liberty A5 is Black's to fill
	// safely: no seki, White's chain is short of liberties.
	b = mustParse(t, `
. O . X .
X O O O X
X X X X X
. . . . .
. . . . .`)
	if s, _ = ScoreBoard(b, MustRuleset("japanese"), 0, 0, nil); len(s.Seki) != 0 {
		t.Errorf("seki found where Black can approach: %v", s.Seki)
	}
	// The shape of a professional game's corner (meijin34-R02): A7 and C7
	// look unfillable for both, and Black's approach A5 would join the
	// two stones A4 and A3 in a self-atari. After one move of
	// preparation, A2, the approach is safe and White's chains, with two
	// liberties each and no eye, lose the race: no seki.
	b = mustParse(t, `
. X . O X . .
O X X O X . .
. O O O O X .
X O X X X X .
X O X . . . .
. X X . . . .
. . . . . . .`)
	if s, _ = ScoreBoard(b, MustRuleset("japanese"), 0, 0, nil); len(s.Seki) != 0 {
		t.Errorf("seki found where Black can approach after one move: %v", s.Seki)
	}
	// The left side of meijin33-Q15: D5 is the one liberty the black chain
	// A3-E3 and the white chain B5-E6 share, and neither can fill it now.
	// But White connects its chain to the living group on the right by E6
	// first (inside its own area), and then fills D5 safely: no seki, both
	// chains are simply alive.
	b = mustParse(t, `
. . X O O . .
. X . X O . O
X . X X O O X
. X O O . O X
X O O . O X X
. X O X O X O
X X X X X O O
X O X X O O X
O O X O O O O`)
	if s, _ = ScoreBoard(b, MustRuleset("japanese"), 0, 0, nil); len(s.Seki) != 0 {
		t.Errorf("seki found where White can fill the shared liberty after connecting out: %v", s.Seki)
	}
}

// TestSafeFill checks that fillDame leaves a dame whose stone would have
// its liberties only in the enemy's territory, at once or after one fill
// of the enemy's next to it: the enemy would atari it from inside and
// capture it, so the player does not fill there, while the enemy does.
// The owner diagram marks each point's owner (b, w) or a dame (d).
func TestSafeFill(t *testing.T) {
	tests := []struct {
		name            string
		diagram, owners string
		black, white    string // the dame each fills, "" for none
	}{
		{
			name: "only enemy liberties",
			diagram: `
. . O . .
. . O . .
X . . . .`,
			owners: `
b b . w w
b b . w w
. b w d w`,
			black: "", white: "D1",
		},
		{
			// Black's stone on the notch D3 would have C3 and White's
			// E3; White's fill on C3 would leave it with E3 alone, in
			// White's territory, where White takes it. Black fills C3,
			// next to its wall, instead (oza70-P10's O9).
			name: "cut off by one fill",
			diagram: `
. X . O O .
. X . O O .
. X . . . O
. X . O O .
. X . O O .`,
			owners: `
b b b w w w
b b b w w w
b b d d w w
b b b w w w
b b b w w w`,
			black: "C3", white: "C3",
		},
		{
			// White's stone on D4 would have C4 and E4; Black's E4
			// would leave it in atari on C4, where White's stone
			// would join B4-C3, whose other liberty is A4, in a
			// self-atari. White fills E4, which F4 connects, instead
			// (tengen48-Q22's K19 and L19). Black's C4 would be a
			// self-atari; its D4 keeps two liberties.
			name: "left in atari by one fill",
			diagram: `
. O . . . . O
O O O X X O O
X X X X X O .
. . . . X O .`,
			owners: `
w O d d d d O
O O O X X O O
X X X X X O w
b b b b X O w`,
			black: "D4", white: "E4",
		},
	}
	for _, tt := range tests {
		for _, c := range []Color{Black, White} {
			t.Run(tt.name+"/"+c.String(), func(t *testing.T) {
				b := mustParse(t, tt.diagram)
				owner := make([]Color, len(b.color))
				neutral := make([]bool, len(b.color))
				for y, row := range strings.Split(strings.TrimSpace(tt.owners), "\n") {
					for x, f := range strings.Fields(row) {
						l := b.loc(x, y)
						switch f {
						case "b":
							owner[l] = Black
						case "w":
							owner[l] = White
						case "d":
							neutral[l] = true
						}
					}
				}
				none := func(*Board, Loc) bool { return false }
				got := ""
				if l, ok := fillDame(b, c, owner, neutral, none); ok {
					got = FormatVertex(b.Point(l), b.Height())
				}
				want := tt.black
				if c == White {
					want = tt.white
				}
				if got != want {
					t.Errorf("%v fills %q, want %q", c, got, want)
				}
			})
		}
	}
}

// TestReadChain checks the reading behind defendInvasion: whether the
// owner of a chain, to move, keeps it (defends) and whether the opponent,
// to move, captures it (attacks).
func TestReadChain(t *testing.T) {
	tests := []struct {
		name    string
		diagram string
		chain   string // a stone of the chain read
		defends bool   // the owner to move keeps it
		attacks bool   // the opponent to move captures it
	}{
		{
			// Two eyes: nobody captures it.
			name: "two eyes",
			diagram: `
. O . O X
O O O O X
X X X X X`,
			chain: "B2", defends: true, attacks: false,
		},
		{
			// One eye of two points: the throw-in on A3 (or C3) and
			// the recapture of the whole chain.
			name: "eye of two points",
			diagram: `
. . O X .
O O O X .
X X X X .`,
			chain: "C3", defends: false, attacks: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := mustParse(t, tt.diagram)
			p, _, err := ParseVertex(tt.chain, b.Width(), b.Height())
			if err != nil {
				t.Fatal(err)
			}
			s := b.Loc(p)
			c := b.color[s]
			if got := defends(b, s, c, readDepth); got != tt.defends {
				t.Errorf("defends = %v, want %v", got, tt.defends)
			}
			if got := attacks(b, s, c, readDepth); got != tt.attacks {
				t.Errorf("attacks = %v, want %v", got, tt.attacks)
			}
		})
	}
}

// TestInvasionWithoutSave checks that defendInvasion counts no teire where
// the owner's own stone would not save the chain either: White's D4 is
// lost to a Black stone on C4, but a White stone there leaves the chain
// C4-D4 with B4 and D3, and Black captures it all the same. Such a chain
// is the dead-stone estimate's matter, not a point its owner must fill.
// C4 is marked as White's territory, the only point defendInvasion looks
// at.
func TestInvasionWithoutSave(t *testing.T) {
	b := mustParse(t, `
. . . O X
X X X . .
. . X . .
. O X . .`)
	owner := make([]Color, len(b.color))
	p, _, err := ParseVertex("C4", b.Width(), b.Height())
	if err != nil {
		t.Fatal(err)
	}
	owner[b.Loc(p)] = White
	none := func(*Board, Loc) bool { return false }
	if l, ok := defendInvasion(b, White, owner, make([]bool, len(b.color)), none); ok {
		t.Errorf("teire at %s, want none", FormatVertex(b.Point(l), b.Height()))
	}
}

// TestFillerToMove checks that the player to move fills the dame first.
// Black's D4 has the false eye C4 and the dame E4 (the dead White D3 takes
// its third liberty). Black to move fills E4 and needs no teire; White to
// move fills E4, which puts D4 in atari, and Black connects at C4. Without
// a player to move (ScoreBoard) the teire of either order counts.
func TestFillerToMove(t *testing.T) {
	diagram := `
. X . X . O .
X X X O X O .
. . . . X O .
. . . X X O .`
	tests := []struct {
		toMove Color
		teire  []string
		black  int
	}{
		{Black, nil, 10},
		{White, []string{"C4"}, 9},
		{Empty, []string{"C4"}, 9},
	}
	for _, tt := range tests {
		t.Run(tt.toMove.String(), func(t *testing.T) {
			b := mustParse(t, diagram)
			p, _, err := ParseVertex("D3", b.Width(), b.Height())
			if err != nil {
				t.Fatal(err)
			}
			s, err := scoreBoard(b, MustRuleset("japanese"), 0, 0, []Point{p}, tt.toMove, true)
			if err != nil {
				t.Fatal(err)
			}
			var teire []string
			for _, q := range s.Teire {
				teire = append(teire, FormatVertex(q, b.Height()))
			}
			if !reflect.DeepEqual(teire, tt.teire) || s.Black.Territory != tt.black || s.White.Territory != 4 {
				t.Errorf("teire %v, territory black %d white %d; want %v, %d and 4", teire, s.Black.Territory, s.White.Territory, tt.teire, tt.black)
			}
		})
	}
}

// TestAreaDame checks the dame of an area count that stops on a move: the
// players fill the five dame of the D column in turn, the player to move
// first, and each is a point for its filler. After a pass, without a
// player to move, and under Tromp-Taylor's formal count they stay
// neutral; under territory scoring they are worth nothing either way.
func TestAreaDame(t *testing.T) {
	diagram := `
. . X . O . .
. . X . O . .
. . X . O . .
. . X . O . .
. . X . O . .`
	tests := []struct {
		rules  string
		toMove Color
		open   bool
		margin float64
	}{
		{"chinese", Black, true, 1},
		{"chinese", White, true, -1},
		{"chinese", Black, false, 0},
		{"chinese", Empty, true, 0},
		{"tromp-taylor", Black, true, 0},
		{"japanese", Black, true, 0},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s/%v/%v", tt.rules, tt.toMove, tt.open), func(t *testing.T) {
			s, err := scoreBoard(mustParse(t, diagram), MustRuleset(tt.rules), 0, 0, nil, tt.toMove, tt.open)
			if err != nil {
				t.Fatal(err)
			}
			if s.Margin() != tt.margin {
				t.Errorf("margin %v (black %+v, white %+v), want %v", s.Margin(), s.Black, s.White, tt.margin)
			}
		})
	}
}

// TestSplitOpenLarge checks which regions larger than a sixth of the board
// splitOpen splits: one that a colour touches at one or two points (a gap
// in the other colour's border, as oza69-P14's lower left, where 60 points
// of White's counted for nobody) is split by distance; one that both
// colours border along a front (a part of the board nobody played out) is
// left neutral.
func TestSplitOpenLarge(t *testing.T) {
	tests := []struct {
		name         string
		diagram      string
		black, white int // points of the large region given to each colour
	}{
		{
			// F9 is the gap: Black's G9 touches it, and nothing else
			// of the 21 points. F9, its neighbour E9 and the top edge
			// as far as B9 lie as near to Black as to White and stay
			// neutral; the other 16 are White's.
			name: "gap",
			diagram: `
. . . . . . X . .
. . . . . O X . .
. . . . . O X . .
. . . . . O X . .
O O O O O O X . .
X X X X X X X . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .`,
			white: 16,
		},
		{
			// The 27 points of the top three rows are bordered by Black
			// and White along the whole of row 6: no gap.
			name: "front",
			diagram: `
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
X X X X O O O O O
. X . X O . O . O
X X X X O O O O O
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := mustParse(t, tt.diagram)
			var large region
			for _, r := range b.regions() {
				if len(r.points)*openMaxShare > b.w*b.h && r.owner == Empty {
					large = r
				}
			}
			if large.points == nil {
				t.Fatal("no large region that both colours border")
			}
			var got [3]int
			for _, r := range splitOpen(b, []region{large}, nil) {
				got[r.owner] += len(r.points)
			}
			if got[Black] != tt.black || got[White] != tt.white {
				t.Errorf("black %d, white %d of %d points; want %d and %d", got[Black], got[White], len(large.points), tt.black, tt.white)
			}
		})
	}
}

// TestThrowInSeki checks that two chains that share their only two
// liberties are no seki when the owner of the smaller chain throws in on
// one of them and the capture leaves the other a space of at most three
// points (ThrowInKills): the thrower plays its vital point, and the
// larger chain has one eye. judan59-17's upper left is the first shape:
// White's A16 against Black's 22 stones, which share A15 and B16. With
// three stones inside, the capture leaves a straight four, which lives:
// a seki (H Dia. 10).
func TestThrowInSeki(t *testing.T) {
	tests := []struct {
		name          string
		diagram       string
		seki, notSeki []string
	}{
		{
			name: "one stone inside",
			diagram: `
X X O . . . .
X X X O . . .
O . X O . . .
. X X O . . .
X X O O . . .
O O O . . . .
. . . . . . .`,
			notSeki: []string{"A3", "A5", "A7"},
		},
		{
			name: "two stones inside",
			diagram: `
X X O . . . .
X X X O . . .
O . X O . . .
O X X O . . .
. X O O . . .
X X O . . . .
O O O . . . .`,
			notSeki: []string{"A2", "A4", "A5"},
		},
		{
			name: "three stones inside",
			diagram: `
. . . . . . . .
. . . . . . . .
. . . . . . . .
. . . . . . . .
O O O O O O O .
X X X X X X O .
. O O O . X O .`,
			seki: []string{"A2", "F1", "B1", "D1"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := mustParse(t, tc.diagram)
			st, err := b.Statuses(nil)
			if err != nil {
				t.Fatal(err)
			}
			for _, v := range tc.seki {
				p, _, _ := ParseVertex(v, b.Width(), b.Height())
				if st[p] != Seki {
					t.Errorf("%s: %v, want seki", v, st[p])
				}
			}
			for _, v := range tc.notSeki {
				p, _, _ := ParseVertex(v, b.Width(), b.Height())
				if st[p] != Alive {
					t.Errorf("%s: %v, want alive (no seki)", v, st[p])
				}
			}
		})
	}
}
