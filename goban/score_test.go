package goban

import (
	"math"
	"reflect"
	"testing"
)

// scoringBoard has a dead white stone at A4 inside Black's area.
const scoringBoard = `
. X O . .
O X O . .
. X O O O
X X O . .
. X O . .`

func TestScoreMethods(t *testing.T) {
	b := mustParse(t, scoringBoard)
	dead := []Point{{0, 1}}
	tests := []struct {
		rules        string
		komi         float64
		black, white Breakdown
		result       string
	}{
		{"japanese", 6.5,
			Breakdown{Territory: 4, Dead: 1, Lost: 0, Stones: 6, Total: 5},
			Breakdown{Territory: 8, OwnDead: 1, Stones: 7, Komi: 6.5, Total: 14.5}, "W+9.5"},
		{"chinese", 7.5,
			Breakdown{Territory: 4, Dead: 1, Stones: 6, Total: 10},
			Breakdown{Territory: 8, OwnDead: 1, Stones: 7, Komi: 7.5, Total: 22.5}, "W+12.5"},
		// Seed 003's formula: own territory − own stones captured − own dead
		// stones, komi taken from Black. The margin equals territory
		// scoring's with the same komi.
		{"online", 5.5,
			Breakdown{Territory: 4, Dead: 1, Stones: 6, Komi: -5.5, Total: -1.5},
			Breakdown{Territory: 8, OwnDead: 1, Stones: 7, Total: 7}, "W+8.5"},
	}
	for _, tt := range tests {
		s, err := ScoreBoard(b, MustRuleset(tt.rules), tt.komi, 0, dead)
		if err != nil {
			t.Fatal(err)
		}
		if s.Black != tt.black || s.White != tt.white || s.Result.String() != tt.result {
			t.Errorf("%s:\nblack %+v\nwant  %+v\nwhite %+v\nwant  %+v\nresult %s, want %s", tt.rules, s.Black, tt.black, s.White, tt.white, s.Result, tt.result)
		}
	}
	// The owner map: A4 (under the dead stone) is Black's, C3 White's wall.
	s, _ := ScoreBoard(b, MustRuleset("japanese"), 6.5, 0, dead)
	if s.Owner[1*5+0] != Black || s.Owner[2*5+2] != White {
		t.Errorf("owner map wrong: %v", s.Owner)
	}
}

// TestNoKomiIsZero checks that a game without komi gives no side −0
// komi, which prints as "-0": loss scoring takes the komi from Black.
func TestNoKomiIsZero(t *testing.T) {
	b := mustParse(t, scoringBoard)
	for _, name := range RulesetNames() {
		s, err := ScoreBoard(b, MustRuleset(name), 0, 0, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, bd := range []Breakdown{s.Black, s.White} {
			if math.Signbit(bd.Komi) || math.Signbit(bd.Total) {
				t.Errorf("%s: komi %v, total %v", name, bd.Komi, bd.Total)
			}
		}
	}
}

// TestSekiScoresNothingUnderTerritoryRules uses a seki in which each chain
// has one eye and they share one liberty (seed 001, Dia. 10): under the
// Japanese rules the eyes are not territory, under area rules they count.
func TestSekiScoresNothingUnderTerritoryRules(t *testing.T) {
	b := mustParse(t, `
. X . O .
X X X O O
O O O X X
. . . . .
. . . . .`)
	st, err := b.Statuses(nil)
	if err != nil {
		t.Fatal(err)
	}
	for p, want := range map[Point]Status{{1, 0}: Seki, {3, 0}: Seki, {2, 1}: Seki, {0, 2}: Alive, {3, 2}: Alive} {
		if st[p] != want {
			t.Errorf("status at %v = %v, want %v", p, st[p], want)
		}
	}
	jp, _ := ScoreBoard(b, MustRuleset("japanese"), 0, 0, nil)
	if jp.Black.Territory != 0 || jp.White.Territory != 0 {
		t.Errorf("japanese: territory in seki counted: black %d, white %d", jp.Black.Territory, jp.White.Territory)
	}
	cn, _ := ScoreBoard(b, MustRuleset("chinese"), 0, 0, nil)
	if cn.Black.Territory != 1 || cn.White.Territory != 1 || cn.Black.Total != 7 || cn.White.Total != 7 {
		t.Errorf("chinese: black %+v white %+v", cn.Black, cn.White)
	}
	if len(jp.Seki) != 7 {
		t.Errorf("%d stones in seki, want 7: %v", len(jp.Seki), jp.Seki)
	}
	// Dame between two walls is no seki.
	d := mustParse(t, `
X X . O O
X X . O O
X X . O O`)
	st, _ = d.Statuses(nil)
	for p, s := range st {
		if s != Alive {
			t.Errorf("dame: stone at %v is %v", p, s)
		}
	}
}

// TestSchweidlerRule checks Pfaundler §10's claim (Schweidler's rule): when
// both players have placed the same number of stones, counting the area
// inside each player's chains, stones included, gives the same margin as
// counting territory plus prisoners; when Black placed one more, the area
// margin is one more. Random games played out to the end are counted both
// ways.
func TestSchweidlerRule(t *testing.T) {
	territory := Ruleset{Name: "t", Scoring: TerritoryScoring, SekiTerritory: true}
	area := Ruleset{Name: "a", Scoring: AreaScoring, SekiTerritory: true}
	for seed := uint64(1); seed <= 200; seed++ {
		size := 5 + int(seed%5)
		b := MustNewBoard(size, size)
		r := NewRand(seed)
		placed := map[Color]int{}
		c := Black
		for passes := 0; passes < 2; c = c.Opponent() {
			l := b.RandomMove(c, r)
			if l == PassLoc {
				passes++
				b.PlayPass()
				continue
			}
			passes = 0
			b.Play(l, c)
			placed[c]++
		}
		ts, err := ScoreBoard(b, territory, 0, 0, nil)
		if err != nil {
			t.Fatal(err)
		}
		as, _ := ScoreBoard(b, area, 0, 0, nil)
		if got, want := as.Margin()-ts.Margin(), float64(placed[Black]-placed[White]); got != want {
			t.Fatalf("seed %d: area margin %v − territory margin %v = %v, want %v (stones placed)\n%s",
				seed, as.Margin(), ts.Margin(), got, want, b)
		}
	}
}

func TestGroupToggle(t *testing.T) {
	b := mustParse(t, `
. . X O . O .
. . X O . . .
. . X O O O O
. . X X X X X
. . . . . . .`)
	// The two white stones at F7 and F6... the group of the stone at (5,0)
	// is every white stone reachable through empty points and white stones.
	g := b.Group(Point{5, 0})
	if len(g) != 7 {
		t.Fatalf("group has %d stones: %v", len(g), g)
	}
	dead := b.ToggleGroup(nil, Point{5, 0})
	if !reflect.DeepEqual(dead, g) {
		t.Fatalf("toggle on: %v", dead)
	}
	if again := b.ToggleGroup(dead, Point{3, 1}); len(again) != 0 {
		t.Fatalf("toggle off: %v", again)
	}
	if len(b.Chain(Point{2, 0})) != 8 {
		t.Fatalf("black chain: %v", b.Chain(Point{2, 0}))
	}
}

func TestBensonAndEstimate(t *testing.T) {
	// A black group with two real eyes in the corner is unconditionally
	// alive; the white stones are not.
	b := mustParse(t, `
. X . X O .
X X X X O .
O O O O O .
. . . . . .`)
	alive := b.UnconditionallyAlive(Black)
	if len(alive) != 6 {
		t.Fatalf("Benson: %d black stones alive, want 6: %v", len(alive), alive)
	}
	if len(b.UnconditionallyAlive(White)) != 0 {
		t.Fatal("Benson: white stones called unconditionally alive")
	}

	e := mustParse(t, `
. . . . X O . . .
. . . . X O . . .
. . O . X O . . .
. . . . X O . . .
. . . . X O . X .
. . . . X O . . .
. . . . X O . . .
. . . . X O . . .
. . . . X O . . .`)
	dead := e.EstimateDead(1000)
	want := []Point{{2, 2}, {7, 4}}
	if !reflect.DeepEqual(dead, want) {
		t.Fatalf("EstimateDead = %v, want %v", dead, want)
	}
	// The estimate keeps a seki alive.
	s := mustParse(t, `
. X . O .
X X X O O
O O O X X
. . . . .
. . . . .`)
	for _, p := range s.EstimateDead(200) {
		if p.Y < 2 {
			t.Errorf("seki stone at %v proposed dead", p)
		}
	}
}
