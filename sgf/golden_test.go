package sgf

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// describe renders everything the package reads from a record: canonical
// output, warnings, typed game info and the main line, so that a golden file
// catches a change in any of them.
func describe(c *Collection, err error) string {
	var b strings.Builder
	fmt.Fprintf(&b, "== charset %s\n", c.Charset)
	if err != nil {
		fmt.Fprintf(&b, "== error\n%v\n", err)
	}
	out, ferr := c.Format()
	if ferr != nil {
		fmt.Fprintf(&b, "== format error\n%v\n", ferr)
	}
	fmt.Fprintf(&b, "== canonical\n%s", out)
	fmt.Fprintf(&b, "== warnings\n%s", c.Warnings.String())
	for i, g := range c.Games {
		info, warns := g.GameInfo()
		fmt.Fprintf(&b, "== game %d at %v\n", i+1, g.Pos)
		fmt.Fprintf(&b, "size %dx%d komi %g (%v) handicap %d rules %q result %q (%v)\n",
			info.Width, info.Height, info.Komi, info.HasKomi, info.Handicap, info.Rules,
			info.Result, info.HasResult)
		fmt.Fprintf(&b, "black %q %q white %q %q date %q %v\n", info.BlackName, info.BlackRank,
			info.WhiteName, info.WhiteRank, info.Date, info.Dates)
		fmt.Fprintf(&b, "time %g (%v) overtime %q name %q event %q copyright %q\n", info.TimeLimit,
			info.HasTimeLimit, info.Overtime, info.GameName, info.Event, info.Copyright)
		if info.GameComment != "" {
			fmt.Fprintf(&b, "game comment %q\n", info.GameComment)
		}
		for _, w := range warns {
			fmt.Fprintf(&b, "info warning %v\n", w)
		}
		rep, err := Replay(g, ReplayOptions{Force: true})
		fmt.Fprintf(&b, "replay: %d moves, error %v\n", rep.Moves, err)
		for _, e := range rep.Illegal {
			fmt.Fprintf(&b, "forced %v\n", e)
		}
		for _, w := range rep.Warnings {
			fmt.Fprintf(&b, "replay warning %v\n", w)
		}
		if rep.Game != nil {
			b.WriteString(rep.Game.Board().String())
		}
		if k, err := Korschelt(g, ReplayOptions{Force: true}); err == nil {
			fmt.Fprintf(&b, "korschelt: %s", k)
		}
		for k, n := range g.MainLine() {
			var parts []string
			if m, ok, err := n.Move(info.Width, info.Height); ok {
				if err != nil {
					parts = append(parts, "move error: "+err.Error())
				} else {
					parts = append(parts, m.String())
				}
			}
			for _, id := range []string{"AB", "AW", "AE", "TR", "SQ", "CR", "MA", "TB", "TW", "SL", "DD"} {
				if n.Has(id) {
					pts, err := n.Points(id, info.Width, info.Height)
					parts = append(parts, fmt.Sprintf("%s%v", id, pts))
					if err != nil {
						parts = append(parts, "error: "+err.Error())
					}
				}
			}
			if n.Has("LB") {
				ls, err := n.Labels(info.Width, info.Height)
				parts = append(parts, fmt.Sprintf("LB%q", fmt.Sprint(ls)))
				if err != nil {
					parts = append(parts, "error: "+err.Error())
				}
			}
			for _, id := range []string{"AR", "LN"} {
				if n.Has(id) {
					ls, err := n.Lines(id, info.Width, info.Height)
					parts = append(parts, fmt.Sprintf("%s%v", id, ls))
					if err != nil {
						parts = append(parts, "error: "+err.Error())
					}
				}
			}
			for _, c := range []Color{Black, White} {
				if t, ok := n.TimeLeft(c); ok {
					parts = append(parts, fmt.Sprintf("%s time %g", c, t))
				}
				if k, ok := n.OvertimeLeft(c); ok {
					parts = append(parts, fmt.Sprintf("%s overtime %d", c, k))
				}
			}
			if n.Has("C") {
				parts = append(parts, fmt.Sprintf("C%q", n.Comment()))
			}
			if n.Has("PB") {
				parts = append(parts, fmt.Sprintf("PB%q", n.SimpleText("PB")))
			}
			if len(parts) > 0 {
				fmt.Fprintf(&b, "%d %v: %s\n", k, n.Pos, strings.Join(parts, " "))
			}
		}
	}
	return b.String()
}

func TestGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/*.sgf")
	if err != nil || len(files) == 0 {
		t.Fatalf("no test records: %v", err)
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".sgf")
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			c, perr := Parse(data)
			got := describe(c, perr)
			golden := filepath.Join("testdata", "golden", name+".golden")
			if *update {
				if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./sgf -update)", err)
			}
			if got != string(want) {
				t.Errorf("output differs from %s (run with -update if the change is right)\n--- got\n%s--- want\n%s", golden, got, want)
			}
			checkRoundTrip(t, c)
		})
	}
}

// checkRoundTrip asserts the writer's promises on a parsed collection:
// parse(format(c)) is EqualCanonical to c, reads without warnings, and
// formats to the same bytes.
func checkRoundTrip(t *testing.T, c *Collection) {
	t.Helper()
	out, err := c.Format()
	if err != nil {
		t.Fatalf("format: %v", err)
	}
	c2, err := Parse(out)
	if err != nil {
		if len(c.Games) == 0 {
			return
		}
		t.Fatalf("parse of formatted output: %v\n%s", err, out)
	}
	if len(c2.Games) != len(c.Games) {
		t.Fatalf("round trip: %d games, want %d\n%s", len(c2.Games), len(c.Games), out)
	}
	for i := range c.Games {
		if !EqualCanonical(c.Games[i], c2.Games[i]) {
			t.Fatalf("round trip changed game %d\n%s", i+1, out)
		}
	}
	if len(c2.Warnings) > 0 {
		t.Errorf("formatted output gives warnings:\n%s\n%s", c2.Warnings, out)
	}
	out2, err := c2.Format()
	if err != nil || string(out2) != string(out) {
		t.Errorf("format is not stable: %v\n%s\n---\n%s", err, out, out2)
	}
}
