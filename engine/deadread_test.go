package engine

import (
	"reflect"
	"testing"

	"tengen/goban"
)

// TestReadStatus: a chain the playouts leave in doubt (every point's
// ownership 0 here) is dead when its owner cannot save it moving first,
// and a proposed dead chain is alive when the opponent cannot capture it
// moving first.
func TestReadStatus(t *testing.T) {
	tests := []struct {
		name    string
		diagram string
		dead    []goban.Point // proposed before reading
		want    []goban.Point
	}{
		{
			"lone invader in a closed area",
			`
. X . X O . . . .
X X X X O . . . .
. . . X O . . . .
. O . X O . . . .
. . . X O . . . .
X X X X O . . . .
O O O O O . . . .
. . . . . . . . .
. . . . . . . . .`,
			nil,
			[]goban.Point{{X: 1, Y: 3}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := goban.ParseBoard(tt.diagram)
			if err != nil {
				t.Fatal(err)
			}
			geo := newGeometry(b)
			own := make([]float64, len(geo.locs))
			var heads []goban.Loc
			for _, p := range tt.dead {
				heads = append(heads, b.ChainHead(b.Loc(p)))
			}
			var got []goban.Point
			for _, h := range readStatus(b, geo, own, heads, map[goban.Point]bool{}) {
				got = append(got, b.Point(h))
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("readStatus %v, want %v", got, tt.want)
			}
		})
	}
}
