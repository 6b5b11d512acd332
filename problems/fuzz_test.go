package problems

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzParse: Parse never panics, and what it accepts has a target on the
// board, a level and a tree.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob("data/*.sgf")
	for _, name := range files[:min(len(files), 8)] {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte("(;FF[4]SZ[9]PL[B]TG[kill]LV[20k]MA[aa]RG[ba]AB[aa];B[ba]TE[1])"))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := Parse("fuzz", data)
		if err != nil {
			return
		}
		if p.Target.X < 0 || p.Target.Y < 0 || p.Target.X >= p.Size || p.Target.Y >= p.Size || p.Kyu < 1 || len(p.Tree) == 0 {
			t.Fatalf("accepted %+v", p)
		}
	})
}
