package sgf

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"tengen/internal/oracle"
	"testing"

	"tengen/goban"
)

func gnugo(t *testing.T) string {
	t.Helper()
	return oracle.GNUGo(t, "the replay check against GNU Go")
}

type gtpProc struct {
	in  io.WriteCloser
	out *bufio.Reader
}

func (p *gtpProc) send(t *testing.T, cmd string) string {
	t.Helper()
	if _, err := fmt.Fprintln(p.in, cmd); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for {
		line, err := p.out.ReadString('\n')
		if err != nil {
			t.Fatalf("%s: %v", cmd, err)
		}
		if strings.TrimSpace(line) == "" && b.Len() > 0 {
			break
		}
		b.WriteString(line)
	}
	resp := strings.TrimSpace(b.String())
	if strings.HasPrefix(resp, "?") {
		t.Fatalf("gnugo: %s: %s", cmd, resp)
	}
	return strings.TrimSpace(strings.TrimPrefix(resp, "="))
}

// randomRecord plays a random legal game with goban and writes it with
// FromGame, so that the corpus holds captures, ko fights and handicap
// games that no hand-written file has.
func randomRecord(r *rand.Rand, size, handicap int) []byte {
	g := goban.MustNewGame(size, size, goban.MustRuleset("japanese"))
	if handicap > 0 {
		g.SetHandicap(handicap, false)
	}
	for i := 0; i < size*size*2 && !g.Ended(); i++ {
		legal := g.LegalMoves(g.ToMove())
		if len(legal) == 0 || r.IntN(60) == 0 {
			g.Play(goban.PassMove(g.ToMove()))
			continue
		}
		g.Play(goban.PlayAt(g.ToMove(), legal[r.IntN(len(legal))]))
	}
	out, _ := Format(FromGame(g, GameInfo{GameName: "random"}))
	return out
}

func stoneList(b *goban.Board, c goban.Color) string {
	var vs []string
	for y := 0; y < b.Height(); y++ {
		for x := 0; x < b.Width(); x++ {
			if p := (goban.Point{X: x, Y: y}); b.At(p) == c {
				vs = append(vs, goban.FormatVertex(p, b.Height()))
			}
		}
	}
	sort.Strings(vs)
	return strings.Join(vs, " ")
}

func sortedFields(s string) string {
	f := strings.Fields(strings.ToUpper(s))
	sort.Strings(f)
	return strings.Join(f, " ")
}

// TestAgainstGNUGo replays every record of the corpus and compares the final
// position with GNU Go's after loadsgf.
func TestAgainstGNUGo(t *testing.T) {
	path := gnugo(t)
	dir := t.TempDir()
	files, _ := filepath.Glob("testdata/*.sgf")
	r := rand.New(rand.NewPCG(7, 11))
	for i := 0; i < 12; i++ {
		size := []int{9, 13, 19}[i%3]
		name := filepath.Join(dir, fmt.Sprintf("random%02d.sgf", i))
		if err := os.WriteFile(name, randomRecord(r, size, []int{0, 0, 2, 5}[i%4]), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, name)
	}
	cmd := exec.Command(path, "--mode", "gtp", "--level", "0")
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { fmt.Fprintln(in, "quit"); in.Close(); cmd.Wait() }()
	p := &gtpProc{in: in, out: bufio.NewReader(out)}
	checked := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		c, err := Parse(data)
		if err != nil || len(c.Games) == 0 || len(c.Warnings) > 0 {
			// Broken files are where readers differ by design (GNU Go
			// reads no stones from stray_brackets.sgf and dies on
			// truncated.sgf); the comparison is for well-formed records.
			continue
		}
		hasAE := false
		c.Games[0].Walk(func(n *Node) bool { hasAE = hasAE || n.Has("AE"); return true })
		if hasAE {
			continue // GNU Go's loadsgf ignores AE
		}
		info, _ := c.Games[0].GameInfo()
		if info.Width != info.Height || info.Width > 19 || info.Width < 5 {
			continue // GNU Go plays square boards up to 19
		}
		rep, err := Replay(c.Games[0], ReplayOptions{})
		if err != nil || len(rep.Illegal) > 0 {
			continue // GNU Go refuses illegal records
		}
		abs, _ := filepath.Abs(f)
		p.send(t, "loadsgf "+abs)
		b := rep.Game.Board()
		for _, col := range []struct {
			name string
			c    goban.Color
		}{{"black", goban.Black}, {"white", goban.White}} {
			want := sortedFields(p.send(t, "list_stones "+col.name))
			if got := stoneList(b, col.c); got != want {
				t.Errorf("%s: %s stones differ from GNU Go\n got %s\nwant %s", filepath.Base(f), col.name, got, want)
			}
		}
		checked++
		// loadsgf FILE N stops before move N, like ReplayOptions.UntilMove.
		if rep.Moves > 20 {
			part, err := Replay(c.Games[0], ReplayOptions{UntilMove: 20})
			if err != nil {
				t.Fatal(err)
			}
			toMove := p.send(t, "loadsgf "+abs+" 20")
			if want := part.Game.ToMove().String(); toMove != want {
				t.Errorf("%s: loadsgf 20: %s to move, want %s", filepath.Base(f), toMove, want)
			}
			got := stoneList(part.Game.Board(), goban.Black) + " / " + stoneList(part.Game.Board(), goban.White)
			want := sortedFields(p.send(t, "list_stones black")) + " / " + sortedFields(p.send(t, "list_stones white"))
			if got != want {
				t.Errorf("%s: after loadsgf 20:\n got %s\nwant %s", filepath.Base(f), got, want)
			}
		}
	}
	if checked < 15 {
		t.Errorf("only %d records checked", checked)
	}
	t.Logf("%d records agree with GNU Go", checked)
}
