package review

import (
	"strings"
	"testing"

	"tengen"
	"tengen/sgf"
)

// variations returns a record whose root has n one-move children.
func variations(n int) string {
	var b strings.Builder
	b.WriteString("(;SZ[19]")
	for i := range n {
		b.WriteString("(;B[" + string(rune('a'+i%19)) + string(rune('a'+(i/19)%19)) + "])")
	}
	return b.String() + ")"
}

func TestImport(t *testing.T) {
	for _, c := range []struct {
		name   string
		in     string
		games  int
		info   tengen.ReviewInfo
		warns  int
		errSub string
	}{
		{name: "one game", in: "(;FF[4]SZ[13]PB[Shusaku]BR[7d]PW[Gennan]DT[1846-09-11]RE[B+2]EV[Castle game];B[aa])", games: 1,
			info: tengen.ReviewInfo{Black: "Shusaku", BlackRank: "7d", White: "Gennan", Date: "1846-09-11", Result: "B+2", Event: "Castle game", Size: 13}},
		{name: "escapes", in: `(;PB[A\]B]PW[C\\D])`, games: 1, info: tengen.ReviewInfo{Black: "A]B", White: `C\D`, Size: 19}},
		{name: "collection", in: "(;PB[a])(;PB[b])(;PB[c])", games: 3, info: tengen.ReviewInfo{Black: "a", Size: 19}},
		{name: "repaired", in: "junk (;FF[3]PB[x]L[aa])", games: 1, info: tengen.ReviewInfo{Black: "x", Size: 19}, warns: 1},
		{name: "rectangular", in: "(;SZ[9:13])", games: 1, info: tengen.ReviewInfo{Size: 13}},
		{name: "result after the root", in: "(;PB[x];RE[W+R];B[aa])", games: 1, info: tengen.ReviewInfo{Black: "x", Result: "W+R", Size: 19}},
		{name: "long name", in: "(;CA[UTF-8]PB[" + strings.Repeat("é", 150) + "])", games: 1, info: tengen.ReviewInfo{Black: strings.Repeat("é", 100), Size: 19}},
		{name: "branches", in: variations(MaxBranches + 1), games: 1, info: tengen.ReviewInfo{Size: 19}},
		{name: "too many branches", in: variations(MaxBranches + 2), errSub: "at most 5000"},
		{name: "no tree", in: "nothing here", errSub: "line 1, column"},
		{name: "unterminated", in: "(;C[abc", errSub: "line 1, column"},
		{name: "illegal", in: "(;SZ[9];B[aa];W[aa];B[bb];W[bb])", errSub: "(and 1 more)"},
		{name: "off board", in: "(;SZ[9];B[zz])", errSub: "line 1, column 8"},
	} {
		games, warns, err := Records{}.Import([]byte(c.in))
		if c.errSub != "" {
			if tengen.ErrorCode(err) != tengen.EINVALID || !strings.Contains(tengen.ErrorMessage(err), c.errSub) || games != nil {
				t.Errorf("%s: %v, %d games; want EINVALID naming %q", c.name, err, len(games), c.errSub)
			}
			continue
		}
		if err != nil || len(games) != c.games {
			t.Fatalf("%s: %d games, %v", c.name, len(games), err)
		}
		if games[0].Info != c.info {
			t.Errorf("%s: info %+v, want %+v", c.name, games[0].Info, c.info)
		}
		if (len(warns) > 0) != (c.warns > 0) {
			t.Errorf("%s: warnings %+v", c.name, warns)
		}
		// Each game alone, in a row, is the collection's canonical form.
		coll, _ := sgf.Parse([]byte(c.in))
		want, _ := coll.Format()
		var got strings.Builder
		for _, g := range games {
			got.WriteString(g.SGF)
		}
		if got.String() != string(want) {
			t.Errorf("%s: %q, want %q", c.name, got.String(), want)
		}
	}
}

// FuzzImport: Import never panics, and what it accepts comes back
// unchanged when imported again.
func FuzzImport(f *testing.F) {
	for _, s := range []string{"(;PB[a];B[aa](;W[bb])(;W[cc]C[x]))", "(;SZ[9]AB[aa:cc];W[dd])", "(;C[a\\]])(;)", "(;B[tt];W[])"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		games, _, err := Records{}.Import(data)
		if err != nil {
			return
		}
		for _, g := range games {
			again, _, err := Records{}.Import([]byte(g.SGF))
			if err != nil || len(again) != 1 || again[0].SGF != g.SGF {
				t.Fatalf("canonical %q imported again: %v, %+v", g.SGF, err, again)
			}
		}
	})
}
