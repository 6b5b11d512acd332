package sgf

import (
	"fmt"
	"strconv"
	"strings"

	"tengen/goban"
)

// captured returns the stones of the mover's opponent that the move took
// off the board: their number, and the point when there is exactly one.
func captured(before, after *goban.Board, m Move) (int, goban.Point, bool) {
	opp := toGobanColor(m.Color).Opponent()
	k := before.Stones(opp) - after.Stones(opp)
	if k != 1 || m.Pass {
		return k, goban.Point{}, false
	}
	p := m.Point.ToGoban()
	// The point itself too: a forced move onto an occupied point replaces
	// the stone there.
	for _, d := range [5][2]int{{0, -1}, {-1, 0}, {1, 0}, {0, 1}, {0, 0}} {
		q := goban.Point{X: p.X + d[0], Y: p.Y + d[1]}
		if before.OnBoard(q) && before.At(q) == opp && after.At(q) != opp {
			return 1, q, true
		}
	}
	return k, goban.Point{}, false
}

func korscheltLetter(c Color) string {
	if c == White {
		return "W."
	}
	return "S."
}

// stonesOf lists the stones of colour c on b in Korschelt's notation, from
// the top row down and left to right.
func stonesOf(b *goban.Board, c goban.Color) []string {
	var out []string
	for y := 0; y < b.Height(); y++ {
		for x := 0; x < b.Width(); x++ {
			if p := (goban.Point{X: x, Y: y}); b.At(p) == c {
				out = append(out, goban.FormatKorschelt(p, b.Height()))
			}
		}
	}
	return out
}

// Korschelt writes the moves of a record (the main line or opt.Path, up to
// opt.UntilMove) in the notation of Pfaundler's book, after Korschelt:
// columns a–t without j from the left, rows from 1 at the bottom. The colour
// that begins is named once ("S." for Schwarz, "W." for Weiß); the two moves
// of a pair are separated by a comma and the pairs by semicolons; a capture
// follows its move in parentheses, the taken stone when there is one
// ("f3 (e4)") and the number when there are several ("(3)"). A pass is
// written "pass". When the colours stop alternating, a new run starts with
// its colour ("; W. c3, ..."). Stones on the board before the first move
// (handicap and setup) come first, one line per colour ("S.: d4, q16."); a
// record without moves is written as these lines alone. Setup stones added
// after the first move are not shown. Boards wider than 25 lines cannot
// be written.
func Korschelt(root *Node, opt ReplayOptions) (string, error) {
	info, _ := root.GameInfo()
	if info.Width > 25 {
		return "", fmt.Errorf("sgf: Korschelt's notation has no letters for %d columns", info.Width)
	}
	var b strings.Builder
	inRun := 0 // moves written in the current run
	var last Color
	setup := func(board *goban.Board) {
		for _, c := range []goban.Color{goban.Black, goban.White} {
			if st := stonesOf(board, c); len(st) > 0 {
				fmt.Fprintf(&b, "%s: %s.\n", korscheltLetter(fromGobanColor(c)), strings.Join(st, ", "))
			}
		}
	}
	moved := false
	hook := func(num int, m Move, before, after *goban.Board) {
		if num == 1 {
			setup(before)
		}
		moved = true
		switch {
		case inRun > 0 && m.Color != last.Opponent():
			b.WriteString("; " + korscheltLetter(m.Color) + " ")
			inRun = 0
		case inRun == 0:
			b.WriteString(korscheltLetter(m.Color) + " ")
		case inRun%2 == 1:
			b.WriteString(", ")
		default:
			b.WriteString("; ")
		}
		inRun++
		last = m.Color
		if m.Pass {
			b.WriteString("pass")
			return
		}
		b.WriteString(goban.FormatKorschelt(m.Point.ToGoban(), after.Height()))
		switch k, p, one := captured(before, after, m); {
		case one:
			b.WriteString(" (" + goban.FormatKorschelt(p, after.Height()) + ")")
		case k > 0:
			b.WriteString(" (" + strconv.Itoa(k) + ")")
		}
	}
	r, err := replay(root, opt, hook)
	if err != nil {
		return b.String(), err
	}
	if !moved && r.Game != nil {
		// A position without moves (a problem, a diagram) is its setup.
		setup(r.Game.Board())
	}
	if b.Len() > 0 && !strings.HasSuffix(b.String(), "\n") {
		b.WriteString("\n")
	}
	return b.String(), nil
}

// GTPCommands returns the GTP commands that set up the record's position in
// an engine: boardsize, clear_board, komi, set_free_handicap for the handicap
// stones, then one play command per move ("play B D4", "play W pass").
// Setup stones other than the handicap can only be approximated by play
// commands (which may capture); they are preceded by a "#" comment line.
// AE (removing stones) cannot be expressed in GTP and is an error.
func GTPCommands(root *Node, opt ReplayOptions) ([]string, error) {
	info, _ := root.GameInfo()
	var cmds []string
	if info.Width == info.Height {
		cmds = append(cmds, fmt.Sprintf("boardsize %d", info.Width))
	} else {
		cmds = append(cmds, fmt.Sprintf("boardsize %d %d", info.Width, info.Height))
	}
	cmds = append(cmds, "clear_board")
	r, err := Replay(root, opt)
	if r == nil || r.Game == nil {
		return nil, err
	}
	cmds = append(cmds, "komi "+strconv.FormatFloat(r.Game.Komi(), 'f', -1, 64))
	h := info.Height
	if n, pts := r.Game.Handicap(); n > 0 {
		vs := make([]string, len(pts))
		for i, p := range pts {
			vs[i] = goban.FormatVertex(p, h)
		}
		cmds = append(cmds, "set_free_handicap "+strings.Join(vs, " "))
	}
	count := 0
	hn, _ := r.Game.Handicap()
	for _, n := range r.Nodes {
		if n.Has("AE") {
			return cmds, fmt.Errorf("%v: AE (removing stones) cannot be expressed in GTP", n.Pos)
		}
		if n.Has("AB") || n.Has("AW") {
			// The first AB before any move became the handicap (see
			// Replay), which set_free_handicap has placed; AW stones
			// in the same node (GNU Go's printsgf writes the position
			// so) are setup stones all the same.
			ids := []string{"AB", "AW"}
			if count == 0 && hn > 0 && n.Has("AB") {
				hn = 0
				ids = ids[1:]
			}
			var plays []string
			for _, id := range ids {
				pts, _ := n.Points(id, info.Width, h)
				for _, p := range pts {
					plays = append(plays, "play "+id[1:]+" "+goban.FormatVertex(p.ToGoban(), h))
				}
			}
			if len(plays) > 0 {
				cmds = append(cmds, "# setup stones as moves")
				cmds = append(cmds, plays...)
			}
		}
		m, ok, _ := n.Move(info.Width, h)
		if !ok {
			continue
		}
		count++
		v := "pass"
		if !m.Pass {
			v = goban.FormatVertex(m.Point.ToGoban(), h)
		}
		cmds = append(cmds, "play "+m.Color.String()+" "+v)
	}
	return cmds, err
}
