package play

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"tengen"
	"tengen/goban"
)

// TestCapturedStones checks the stones position.apply reports as removed
// by a play against a comparison of the whole board before and after it,
// over random games on small boards: captures of one or several chains,
// and under rules with suicide the player's own stones.
func TestCapturedStones(t *testing.T) {
	for _, tt := range []struct {
		ruleset string
		size    int
	}{{"japanese", 5}, {"japanese", 9}, {"new-zealand", 5}, {"new-zealand", 9}} {
		t.Run(fmt.Sprintf("%s-%d", tt.ruleset, tt.size), func(t *testing.T) {
			rules, err := goban.RulesetByName(tt.ruleset)
			if err != nil {
				t.Fatal(err)
			}
			rnd := rand.New(rand.NewPCG(1, uint64(tt.size)))
			captures, suicides := 0, 0
			for game := 0; game < 40; game++ {
				pos, _, err := newPosition(tengen.GameSettings{BoardSize: tt.size}, rules)
				if err != nil {
					t.Fatal(err)
				}
				for i := 0; i < 4*tt.size*tt.size && !pos.gb.Ended(); i++ {
					c := pos.toMove()
					m := &tengen.GameMove{Kind: tengen.MovePlay, Color: c, X: rnd.IntN(tt.size), Y: rnd.IntN(tt.size)}
					before := pos.gb.Board().Clone()
					got, err := pos.apply(m, false)
					if err != nil {
						continue
					}
					var want []goban.Point
					b := pos.gb.Board()
					for y := 0; y < tt.size; y++ {
						for x := 0; x < tt.size; x++ {
							pt := goban.Point{X: x, Y: y}
							if before.At(pt) != goban.Empty && b.At(pt) == goban.Empty {
								want = append(want, pt)
							}
						}
					}
					if !reflect.DeepEqual(got, want) {
						t.Fatalf("game %d, %v at %d,%d: captured %v, want %v\n%v", game, c, m.X, m.Y, got, want, before)
					}
					if len(want) > 0 {
						captures++
						if before.At(want[0]) == c {
							suicides++
						}
					}
				}
			}
			if captures == 0 || rules.MultiStoneSuicide && suicides == 0 {
				t.Errorf("the games had %d captures and %d suicides: the test tested little", captures, suicides)
			}
		})
	}
}
