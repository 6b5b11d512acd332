package sgf

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// genRecord writes a synthetic game record shaped like server downloads:
// a game-info root, about 250 moves with clock times, a comment every ~15
// moves, and a few short variations. Positions are random, not legal games;
// the parser does not care, and no real records (with their licences) are
// needed.
func genRecord(r *rand.Rand, b *bytes.Buffer) {
	fmt.Fprintf(b, "(;GM[1]FF[4]CA[UTF-8]AP[tengen-gen:1]SZ[19]KM[%g]RU[Japanese]"+
		"PB[Player %d]PW[Player %d]BR[%dk]WR[%dd]DT[2026-%02d-%02d]RE[B+%g]TM[1800]OT[5x30 byo-yomi]"+
		"GN[Generated game]PC[Tengen]\n", 6.5, r.IntN(10000), r.IntN(10000), r.IntN(20)+1, r.IntN(9)+1,
		r.IntN(12)+1, r.IntN(28)+1, float64(r.IntN(40))+0.5)
	moves := 150 + r.IntN(200)
	open := 0
	for i := 0; i < moves; i++ {
		c := "B"
		if i%2 == 1 {
			c = "W"
		}
		p := FormatPoint(Point{r.IntN(19), r.IntN(19)})
		fmt.Fprintf(b, ";%s[%s]%sL[%.3f]", c, p, c, 1800-float64(i)*3.7)
		if r.IntN(15) == 0 {
			fmt.Fprintf(b, "C[Move %d: a comment with \\] an escaped bracket, some words about the\nposition and a second line.]", i+1)
		}
		if r.IntN(40) == 0 && open < 4 {
			// A short side variation, then continue the main line in another.
			fmt.Fprintf(b, "\n(;%s[%s];%s[%s])\n(", c, p, c, p)
			open++
		}
		if i%10 == 9 {
			b.WriteByte('\n')
		}
	}
	for ; open > 0; open-- {
		b.WriteByte(')')
	}
	b.WriteString(")\n")
}

func benchCorpus(n int) []byte {
	r := rand.New(rand.NewPCG(1, 2))
	var b bytes.Buffer
	for i := 0; i < n; i++ {
		genRecord(r, &b)
	}
	return b.Bytes()
}

func TestBenchCorpusParses(t *testing.T) {
	data := benchCorpus(20)
	c, err := Parse(data)
	if err != nil || len(c.Warnings) > 0 || len(c.Games) != 20 {
		t.Fatalf("corpus: %d games, %v, %v", len(c.Games), err, c.Warnings)
	}
	checkRoundTrip(t, c)
}

// BenchmarkParse measures parse throughput on one core; MB/s is the figure
// for docs/PERFORMANCE.md (target: at least 50 MB/s).
func BenchmarkParse(b *testing.B) {
	data := benchCorpus(200)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(data); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParseOneGame is one record at a time, as a server upload is.
func BenchmarkParseOneGame(b *testing.B) {
	data := benchCorpus(1)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(data); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParseDeep is the OGS shape: one variation per move.
func BenchmarkParseDeep(b *testing.B) {
	data := nested(10000)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(data); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkFormat(b *testing.B) {
	c, err := Parse(benchCorpus(200))
	if err != nil {
		b.Fatal(err)
	}
	out, _ := c.Format()
	b.SetBytes(int64(len(out)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.Format(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCheckManyVariations checks a record of 20,000 one-move
// variations after four moves. The copies of the game it makes are the
// same in number as before the waiting variations shared one copy, but
// they are no longer alive at once: the peak memory of such a record is
// measured with /usr/bin/time in docs/PERFORMANCE.md ("SGF").
func BenchmarkCheckManyVariations(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("(;FF[4]GM[1]SZ[19];B[pd];W[dp];B[pp];W[dd]")
	const letters = "abcdefghijklmnopqrs"
	for i := range 20000 {
		fmt.Fprintf(&sb, "(;B[%c%c])", letters[i%19], letters[i/19%19])
	}
	sb.WriteString(")")
	data := []byte(sb.String())
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		// The variations repeat points of the main line: each is an error.
		if r := Check(data, Options{}); r.Collection == nil || len(r.Errors) == 0 {
			b.Fatalf("check: %d errors", len(r.Errors))
		}
	}
}
