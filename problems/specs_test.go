package problems

// specs are the problems, easiest first. Positions are classic shapes and
// common patterns; the solver finds the right moves and the answers.
var specs = []spec{
	// First steps: atari and capture. A ',' next to a stone is open
	// space: a chain that reaches it has escaped.
	{id: "p001", level: "30k", goal: "capture", diagram: `
, , , , ,
, , X , ,
, X o . ,
, , X , ,
, , , , ,`},
	{id: "p002", level: "30k", goal: "capture", diagram: `
X o . , ,
, X . , ,
, , , , ,`},
	{id: "p003", level: "30k", goal: "capture", diagram: `
, X o O . ,
, , X X , ,
, , , , , ,`},
	{id: "p004", level: "30k", goal: "save", diagram: `
, , , , ,
, , O , ,
, O x . ,
, , O . ,
, , , , ,`},
	{id: "p005", level: "30k", goal: "capture", diagram: `
. o X , ,
X X , , ,
, , , , ,`},
	{id: "p006", level: "29k", goal: "save", diagram: `
O x . O ,
O X . , ,
, O , , ,
, , , , ,`},
	// Atari towards the edge, or the wall.
	{id: "p007", level: "28k", goal: "capture", diagram: `
, , . . , ,
, X o . X ,
, , X X , ,
, , , , , ,`},
	// Snapback: give one stone, take more back.
	{id: "p012", level: "25k", goal: "capture", diagram: `
. . o O X ,
O O O X X ,
X X X , , ,
, , , , , ,`},
	{id: "p013", level: "25k", goal: "capture", diagram: `
X . . o X ,
X O O O X ,
X X X X , ,
, , , , , ,`},
	// Two eyes: the eye space of three.
	{id: "p014", level: "25k", goal: "kill", diagram: `
. . . O X ,
O o O O X ,
X X X X X ,
, , , , , ,`},
	{id: "p015", from: "p014", level: "25k", goal: "live"},
	{id: "p016", level: "24k", goal: "kill", diagram: `
. . O X ,
. o O X ,
O O X X ,
X X X , ,
, , , , ,`},
	{id: "p017", from: "p016", level: "24k", goal: "live"},
	{id: "p018", level: "24k", goal: "kill", diagram: `
X X X X X X ,
X O O O O X ,
O . . . O X ,
O O o O O X ,
X X X X X X ,
, , , , , , ,`},

	{id: "p019", from: "p018", level: "24k", goal: "live"},
	// The eye space of three on the side.
	{id: "p020", level: "24k", goal: "kill", diagram: `
X O . . . O X ,
X O O o O O X ,
X X X X X X X ,
, , , , , , , ,`},
	{id: "p021", from: "p020", level: "24k", goal: "live"},
	// Four points in a T: the pyramid four.
	{id: "p022", level: "23k", goal: "kill", diagram: `
X O . . . O X ,
X O O . O O X ,
X X O o O X X ,
, X X X X X , ,
, , , , , , , ,`},
	{id: "p023", from: "p022", level: "23k", goal: "live"},
	// The bulky five.
	{id: "p024", level: "22k", goal: "kill", diagram: `
. . . O X ,
. . o O X ,
O O O X X ,
X X X X , ,
, , , , , ,`},
	{id: "p025", from: "p024", level: "22k", goal: "live"},
	// The crossed five.
	{id: "p026", level: "22k", goal: "kill", diagram: `
, X X X X X ,
X X O O O X X
X O O . O O X
X O . . . O X
X O O . o O X
X X O O O X X
, X X X X X ,`},
	{id: "p027", from: "p026", level: "22k", goal: "live"},
	// The rabbity six.
	{id: "p028", level: "21k", goal: "kill", diagram: `
X X X X X X ,
X O O O O X ,
X O . . O X ,
O . . . O X ,
O O . o O X ,
X O O O O X ,
X X X X X X ,`},
	{id: "p029", from: "p028", level: "21k", goal: "live"},
	// Bent four with the bend in the corner: Black gets a ko at best.
	{id: "p030", level: "18k", goal: "kill", ko: true, diagram: `
. . . O X ,
. o O O X ,
O O X X X ,
X X X , , ,
, , , , , ,`},
	{id: "p031", from: "p030", level: "21k", goal: "live"},
	// The L group.
	{id: "p032", level: "20k", goal: "kill", diagram: `
. . . . O ,
. x X X O ,
. X O O O ,
. X O , , ,
O O O , , ,`},
	// Seki is life, too. White has three stones inside: with two, White
	// would sacrifice three by filling a free point, and Black's capture
	// would leave a straight three that White kills at its middle.
	{id: "p033", level: "20k", goal: "live", diagram: `
O O O O O O O ,
x X X X X X O ,
. O O O . X O ,
X X X X X X O ,
O O O O O O O ,`},
	// Snapback on the side.
	{id: "p040", level: "20k", goal: "capture", diagram: `
, X . . X ,
, X o O X ,
, X O X , ,
, X O X , ,
, , X , , ,
, , , , , ,`},
	// Save by capturing.
	{id: "p041", level: "26k", goal: "save", diagram: `
, , , , , ,
, O O X , ,
O x X O . ,
, O X . , ,
, , , , , ,`},
	{id: "p042", level: "26k", goal: "save", diagram: `
. O X , , ,
. x O , , ,
X O , , , ,
, , , , , ,`},

	// Stones on the second line with the first line below them.
	{id: "p043", level: "19k", goal: "kill", diagram: `
. . . . . . . . ,
O X X x X X X O ,
, O O O O O O , ,
, , , , , , , , ,`},
	{id: "p045", level: "21k", goal: "kill", diagram: `
. . . . . . ,
O X x X X O ,
, O O O O , ,
, , , , , , ,`},
	// Corner groups with room to spare.
	{id: "p047", level: "18k", goal: "live", diagram: `
. . . . O ,
. . . . O ,
. . x X O ,
X X X O O ,
O O O O , ,
, , , , , ,`},
	// Eye shapes on the side.
	{id: "p052", level: "23k", goal: "kill", diagram: `
X O . . O X ,
X O . o O X ,
X O O O O X ,
X X X X X X ,
, , , , , , ,`},
	{id: "p053", from: "p052", level: "23k", goal: "live"},
	{id: "p056", level: "21k", goal: "kill", diagram: `
X O . . . O X ,
X O . . o O X ,
X O O O O O X ,
X X X X X X X ,
, , , , , , , ,`},
	{id: "p057", from: "p056", level: "21k", goal: "live"},
	// Capture the cutting stones.
	{id: "p058", level: "26k", goal: "capture", diagram: `
, , , , , ,
, X X . , ,
X O o . X ,
, X X X , ,
, , , , , ,`},
	{id: "p060", level: "29k", goal: "save", diagram: `
, , , , ,
, X O . ,
, O x . ,
, X X , ,
, , , , ,`},
	// Corner groups: make room, or take it away.
	{id: "p064", level: "14k", goal: "live", diagram: `
. . . O X ,
. x O O X ,
O O . X X ,
. X X , , ,
X , , , , ,
, , , , , ,`},

	// Snapback in the corner.
	{id: "p073", level: "24k", goal: "capture", diagram: `
. . O X ,
O o O X ,
X X X X ,
, , , , ,`},
	// Corner groups where a ko is the best either side can get, and their
	// neighbours that live or die outright.
	{id: "p081", ko: true, level: "16k", goal: "live", diagram: `
. . . . X ,
. o O . X ,
O O O X X ,
X X X X , ,
, , , , , ,`},
	{id: "p082", ko: true, level: "15k", goal: "kill", diagram: `
. . . . . X ,
. o O O . X ,
O O X O X X ,
X X X X , , ,
, , , , , , ,`},
	{id: "p084", level: "14k", goal: "kill", diagram: `
. . . . X ,
. . o . X ,
O O O X X ,
X X X X , ,
, , , , , ,`},
	{id: "p085", from: "p084", level: "14k", goal: "live", ko: true},
	{id: "p086", level: "13k", goal: "kill", diagram: `
. . . . . X ,
. . o O . X ,
O O O O X X ,
X X X X X , ,
, , , , , , ,`},
	{id: "p087", from: "p086", level: "13k", goal: "live"},
	{id: "p088", ko: true, level: "12k", goal: "kill", diagram: `
. . . . . . X ,
. . o O O . X ,
O O O X O X X ,
X X X X X , , ,
, , , , , , , ,`},
	// The rectangular six in the corner without outside liberties.
	{id: "p090", level: "11k", goal: "kill", diagram: `
. . . O X ,
. . . O X ,
O o O O X ,
X X X X X ,
, , , , , ,`},
	// About 10 kyu: corner groups where the vital point is not the first
	// point one sees, and rectangular six that a single outside liberty
	// does not save.
	{id: "p200", level: "10k", goal: "kill", ko: true, diagram: `
. . . O X ,
. . . O X ,
O o O O X ,
X X X . X ,
, , , X , ,
, , , , , ,`,
		hintEN: "The rectangular six has only one outside liberty.",
		hintDE: "Das Rechteck aus sechs Punkten hat nur eine Freiheit nach außen."},
	{id: "p202", level: "10k", goal: "live", ko: true, diagram: `
. . . . X O ,
. . . . X O ,
O X x X X O ,
, O O O O O ,
, , , , , , ,`,
		hintEN: "White's hane has taken a point of the eye space.",
		hintDE: "Der Hane von Weiß hat dem Augenraum einen Punkt genommen."},
	{id: "p203", level: "10k", goal: "kill", diagram: `
. . . . O X O ,
. . . . . X O ,
X X x X X O O ,
O O O O O O , ,
, , , , , , , ,`,
		hintEN: "White's stone on the first line is already inside.",
		hintDE: "Der weiße Stein auf der ersten Linie steht schon innen."},
	{id: "p204", level: "10k", goal: "live", diagram: `
. . . . . X O ,
. . . O . X O ,
X X x X X O O ,
O O O O O O , ,
, , , , , , , ,`,
		hintEN: "A white stone has been placed inside.",
		hintDE: "Weiß hat einen Stein hineingesetzt."},
	{id: "p205", level: "10k", goal: "kill", diagram: `
. . . O X O ,
. . . . X O ,
. . . X O O ,
X x X X O , ,
O O O O O , ,
, , , , , , ,`,
		hintEN: "Use the white stone that is already inside.",
		hintDE: "Nutze den weißen Stein, der schon innen steht."},
	{id: "p206", level: "10k", goal: "kill", diagram: `
. . . . X , ,
. . O . X , ,
. . . X O , ,
X x X X O , ,
O O O O , , ,
, , , , , , ,`,
		hintEN: "Black has liberties outside, so the white stone inside must do the work.",
		hintDE: "Schwarz hat Freiheiten nach außen; der weiße Stein innen muss die Arbeit tun."},
	// The same shapes in other corners, some with the colours swapped:
	// a shape must be recognised whichever way it faces.
	{id: "p116", from: "p016", mirror: true},
	{id: "p117", from: "p017", flip: true, swap: true},
	{id: "p124", from: "p024", flip: true},
	{id: "p125", from: "p025", mirror: true, swap: true},
	{id: "p128", from: "p028", swap: true},
	{id: "p130", from: "p030", mirror: true},
	{id: "p132", from: "p032", flip: true},
	{id: "p143", from: "p043", swap: true},
	{id: "p147", from: "p047", mirror: true, swap: true},
	{id: "p152", from: "p052", flip: true, swap: true},
	{id: "p157", from: "p057", flip: true},
	{id: "p164", from: "p064", mirror: true},
	{id: "p184", from: "p084", flip: true, swap: true},
	{id: "p187", from: "p087", mirror: true},
}
