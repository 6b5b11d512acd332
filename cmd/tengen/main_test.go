package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"tengen/internal/oracle"
	"tengen/internal/syncbuf"
)

func runCmd(t *testing.T, stdin string, args ...string) (string, string, error) {
	t.Helper()
	var out, errOut bytes.Buffer
	err := run(context.Background(), args, strings.NewReader(stdin), &out, &errOut)
	return out.String(), errOut.String(), err
}

func TestGTPCommand(t *testing.T) {
	out, _, err := runCmd(t, "1 name\n2 boardsize 9\n3 play b e5\n4 play w e5\n5 kgs-rules japanese\n6 get_komi\nquit\n", "gtp", "--rules", "japanese", "--seed", "1")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"=1 Tengen", "=2\n\n", "=3\n\n", "?4 illegal move", "=5\n\n", "=6 6.5"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if _, _, err := runCmd(t, "", "gtp", "--rules", "nonsense"); err == nil || !strings.Contains(err.Error(), "unknown ruleset") {
		t.Errorf("unknown ruleset: %v", err)
	}
}

func TestUsage(t *testing.T) {
	out, _, err := runCmd(t, "", "help")
	if err != nil || !strings.Contains(out, "gtp") || !strings.Contains(out, "bench") {
		t.Fatalf("help: %v\n%s", err, out)
	}
	if _, errOut, err := runCmd(t, "", "frobnicate"); err == nil || !strings.Contains(errOut, "unknown command") {
		t.Fatalf("unknown command: %v %s", err, errOut)
	}
}

func TestBenchCommand(t *testing.T) {
	out, _, err := runCmd(t, "", "bench", "-sizes", "5", "-seconds", "0.05")
	if err != nil || !strings.Contains(out, "5×5") {
		t.Fatalf("bench: %v\n%s", err, out)
	}
	if _, _, err := runCmd(t, "", "bench", "-sizes", "40"); err == nil {
		t.Fatal("bench accepted a 40×40 board")
	}
}

// TestServeCommand starts `tengen serve` on a free port with a database in
// a temporary directory, checks /healthz, and shuts it down as SIGTERM would.
func TestServeCommand(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	var logs syncbuf.Buffer
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"serve", "--addr", "127.0.0.1:0", "--data-dir", dir}, strings.NewReader(""), io.Discard, &logs)
	}()
	re := regexp.MustCompile(`msg="tengen serving" addr=(\S+)`)
	var addr string
	for i := 0; i < 100 && addr == ""; i++ {
		if m := re.FindStringSubmatch(logs.String()); m != nil {
			addr = m[1]
		}
		time.Sleep(50 * time.Millisecond)
	}
	if addr == "" {
		cancel()
		t.Fatalf("server did not start:\n%s", logs.String())
	}
	resp, err := http.Get("http://" + addr + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("/healthz: %s", resp.Status)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("serve: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "tengen.db")); err != nil {
		t.Fatalf("no database file: %v", err)
	}
}

func TestMatchUsage(t *testing.T) {
	_, errOut, err := runCmd(t, "", "match", "-h")
	if err == nil || !strings.Contains(errOut, "-referee") {
		t.Fatalf("match -h: %v\n%s", err, errOut)
	}
	if _, _, err := runCmd(t, "", "match"); err == nil {
		t.Fatal("match without engines succeeded")
	}
}

func TestSGFCommands(t *testing.T) {
	out, _, err := runCmd(t, "", "sgf", "check", "../../sgf/testdata/illegal_moves.sgf", "../../sgf/testdata/fox_komi_750.sgf")
	if ex, ok := err.(exitError); !ok || ex != 1 {
		t.Fatalf("check of a record with illegal moves: %v", err)
	}
	for _, want := range []string{"illegal_moves.sgf:3:13: error: move 3", "illegal: ko", "fox_komi_750.sgf: ok", "1 of 2 files with errors"} {
		if !strings.Contains(out, want) {
			t.Errorf("check output lacks %q:\n%s", want, out)
		}
	}
	if _, _, err := runCmd(t, "", "sgf", "check", "../../sgf/testdata/fox_komi_750.sgf"); err != nil {
		t.Errorf("check of a good record: %v", err)
	}
	out, _, err = runCmd(t, "", "sgf", "convert", "--to", "gtp", "../../sgf/testdata/fox_komi_750.sgf")
	if err != nil || !strings.Contains(out, "komi 7.5\n") || !strings.Contains(out, "play B ") {
		t.Errorf("convert --to gtp: %v\n%s", err, out)
	}
	out, _, err = runCmd(t, "", "sgf", "convert", "--to", "korschelt", "../../sgf/testdata/fox_komi_750.sgf")
	if err != nil || !strings.HasPrefix(out, "S. ") {
		t.Errorf("convert --to korschelt: %v\n%s", err, out)
	}
	out, _, err = runCmd(t, "", "sgf", "convert", "../../sgf/testdata/ff3_lowercase.sgf")
	if err != nil || !strings.HasPrefix(out, "(;FF[4]CA[UTF-8]") {
		t.Errorf("convert --to sgf: %v\n%s", err, out)
	}
	if _, _, err := runCmd(t, "", "sgf", "convert", "--to", "pdf", "../../sgf/testdata/fox_komi_750.sgf"); err == nil {
		t.Error("convert to an unknown format succeeded")
	}
}

// TestSGFConvertSetup converts records whose position is given by setup
// stones: a problem without moves, and GNU Go's printsgf of a handicap game,
// which has the handicap and the stones played since in AB and White's in
// AW. An illegal record fails both conversions with its place.
func TestSGFConvertSetup(t *testing.T) {
	dir := t.TempDir()
	write := func(name, rec string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(rec), 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}
	problem := write("problem.sgf", "(;GM[1]FF[4]SZ[9]AB[cc][dd]AW[ee])")
	printsgf := write("printsgf.sgf", "(;GM[1]FF[4]\nSZ[9]\nKM[0.0]HA[4]RU[Japanese]AP[GNU Go:3.8]AW[ee]\nAB[cc][gc][de][cg][gg]\nPL[W]\n)\n")
	illegal := write("illegal.sgf", "(;GM[1]FF[4]SZ[9]\n;B[ee]\n;W[ee])")
	for _, tt := range []struct {
		to, file, want string
	}{
		{"korschelt", problem, "S.: c7, d6.\nW.: e5.\n"},
		{"gtp", problem, "boardsize 9\nclear_board\nkomi 0\n# setup stones as moves\nplay B C7\nplay B D6\nplay W E5\n"},
		{"gtp", printsgf, "boardsize 9\nclear_board\nkomi 0\nset_free_handicap C7 G7 D5 C3 G3\n# setup stones as moves\nplay W E5\n"},
	} {
		out, _, err := runCmd(t, "", "sgf", "convert", "--to", tt.to, tt.file)
		if err != nil || out != tt.want {
			t.Errorf("convert --to %s %s: %v\n got %q\nwant %q", tt.to, filepath.Base(tt.file), err, out, tt.want)
		}
	}
	for _, to := range []string{"korschelt", "gtp"} {
		out, _, err := runCmd(t, "", "sgf", "convert", "--to", to, illegal)
		if ex, ok := err.(exitError); ok || err == nil || out != "" || !strings.Contains(err.Error(), "illegal.sgf:3:1: move 2 (W[ee]): illegal: occupied") {
			t.Errorf("convert --to %s of an illegal record: %v (exit %v), output %q", to, err, ex, out)
		}
	}
}

// TestScoreCommand scores a finished 9×9 game: Black's wall on the E line
// against White's on the F line, 33 points to 24 plus komi 6.5.
func TestScoreCommand(t *testing.T) {
	dir := t.TempDir()
	rec := "(;GM[1]FF[4]SZ[9]KM[6.5]RU[Japanese];B[ee];W[gc];B[cg];W[gg];B[ce];W[gf];B[dc];W[fe];B[ed];W[fd];B[ef];W[ff];B[eg];W[fg];B[eh];W[fh];B[ei];W[fi];B[ec];W[fc];B[eb];W[fb];B[ea];W[fa];B[];W[])"
	name := filepath.Join(dir, "g.sgf")
	if err := os.WriteFile(name, []byte(rec), 0o600); err != nil {
		t.Fatal(err)
	}
	out, _, err := runCmd(t, "", "score", name)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Result: B+2.5", "territory              33       24", "  9 b b b b X O w w w"} {
		if !strings.Contains(out, want) {
			t.Errorf("score output lacks %q:\n%s", want, out)
		}
	}
	out, _, err = runCmd(t, "", "score", "--rules", "chinese", "--komi", "7.5", name)
	if err != nil || !strings.Contains(out, "Result: B+1.5") || !strings.Contains(out, "stones                 12       12") {
		t.Errorf("area score: %v\n%s", err, out)
	}
	// Without KM the ruleset's komi counts: 6.5 under japanese on 9×9,
	// 7.5 under chinese, 0.5 with a handicap.
	noKM := filepath.Join(dir, "nokm.sgf")
	if err := os.WriteFile(noKM, []byte(strings.Replace(rec, "KM[6.5]", "", 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{nil, "), komi 6.5\n"},
		{[]string{"--rules", "chinese"}, "), komi 7.5\n"},
		{[]string{"--komi", "0"}, "), komi 0\n"},
		// Loss scoring takes the komi from Black: none is 0, not -0.
		{[]string{"--rules", "online", "--komi", "0"}, "komi                    0        0\n"},
	} {
		out, _, err := runCmd(t, "", append(append([]string{"score"}, tt.args...), noKM)...)
		if err != nil || !strings.Contains(out, tt.want) {
			t.Errorf("score %v of a record without KM: %v, want %q in\n%s", tt.args, err, tt.want, out)
		}
	}
	handi := filepath.Join(dir, "handicap.sgf")
	if err := os.WriteFile(handi, []byte("(;GM[1]FF[4]SZ[9]RU[Japanese]HA[2]AB[cc][gg];W[ee];B[])"), 0o600); err != nil {
		t.Fatal(err)
	}
	if out, _, err := runCmd(t, "", "score", handi); err != nil || !strings.Contains(out, "komi 0.5\n") {
		t.Errorf("score of a handicap record without KM: %v\n%s", err, out)
	}
	// Marking Black's C3 stone (inside Black's area) dead by hand gives
	// White a prisoner and Black the point under it: the margin stays.
	out, _, err = runCmd(t, "", "score", "--dead", "C3", name)
	if err != nil || !strings.Contains(out, "Result: B+2.5") || !strings.Contains(out, "dead taken              0        1") {
		t.Errorf("score with --dead: %v\n%s", err, out)
	}
}

// TestScoreCompare compares the engine's dead stones with GNU Go's on two
// finished records: the game of TestScoreCommand, and the same game with a
// White stone left dead inside Black's area. The flag misuse cases fail
// with a usage error.
func TestScoreCompare(t *testing.T) {
	gnugo := oracle.GNUGo(t, "tengen score --compare")
	dir := t.TempDir()
	moves := ";B[ee];W[gc];B[cg];W[gg];B[ce];W[gf];B[dc];W[fe];B[ed];W[fd];B[ef];W[ff];B[eg];W[fg];B[eh];W[fh];B[ei];W[fi];B[ec];W[fc];B[eb];W[fb];B[ea];W[fa]"
	clean := filepath.Join(dir, "clean.sgf")
	deadStone := filepath.Join(dir, "dead.sgf")
	for name, rec := range map[string]string{
		clean:     "(;GM[1]FF[4]SZ[9]KM[6.5]RU[Japanese]" + moves + ";B[];W[])",
		deadStone: "(;GM[1]FF[4]SZ[9]KM[6.5]RU[Japanese]" + moves + ";B[];W[bb];B[];W[])",
	} {
		if err := os.WriteFile(name, []byte(rec), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	out, _, err := runCmd(t, "", "score", "--compare", gnugo+" --mode gtp", clean, deadStone)
	if err != nil {
		t.Fatalf("score --compare: %v\n%s", err, out)
	}
	for _, want := range []string{
		"clean.sgf: 24 stones, 0 dead by Tengen, 0 by GNU Go, 24 agree\n",
		"dead.sgf: 25 stones, 1 dead by Tengen, 1 by GNU Go, 25 agree\n",
		"agreement with GNU Go: 49 of 49 stones (100.0%); 2 of 2 records identical\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("score --compare output lacks %q:\n%s", want, out)
		}
	}
	// Without --compare, several records are scored one after another.
	out, _, err = runCmd(t, "", "score", clean, deadStone)
	if err != nil || strings.Count(out, "Result: B+") != 2 || !strings.Contains(out, "== "+deadStone) {
		t.Errorf("score of two records: %v\n%s", err, out)
	}
	for _, args := range [][]string{
		{"score", "--dead", "C3", clean, deadStone},
		{"score", "--dead", "C3", "--compare", gnugo, clean},
		{"score", "--compare", gnugo + " --mode gtp", clean, "-"},
	} {
		if _, _, err := runCmd(t, "", args...); err == nil {
			t.Errorf("%q succeeded", args)
		}
	}
	if _, _, err := runCmd(t, "", "score", "--compare", filepath.Join(dir, "no-such-engine"), clean); err == nil {
		t.Error("score --compare with a missing engine succeeded")
	}
}

func TestGTPSearchPlayer(t *testing.T) {
	out, _, err := runCmd(t, "1 boardsize 9\n2 genmove b\n3 final_score\nquit\n", "gtp", "--playouts", "200", "--threads", "1", "--seed", "5")
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`=2 [A-HJ][1-9]\n`)
	if !re.MatchString(out) {
		t.Errorf("genmove did not answer a point:\n%s", out)
	}
	if _, _, err := runCmd(t, "", "gtp", "--player", "bogus"); err == nil {
		t.Error("an unknown player was accepted")
	}
	if _, _, err := runCmd(t, "", "gtp", "--level", "grandmaster"); err == nil {
		t.Error("an unknown level was accepted")
	}
}

// TestGTPResignFlag: with a komi that no area can beat, the engine resigns
// by default and plays on with --resign 0; a threshold of 1 or more is
// refused.
func TestGTPResignFlag(t *testing.T) {
	var script strings.Builder
	script.WriteString("boardsize 9\nkomi 100\n")
	// Twenty quiet moves: the engine does not resign in the opening.
	for _, col := range "ABCDE" {
		script.WriteString("play b " + string(col) + "2\nplay w " + string(col) + "8\n")
	}
	for _, v := range []string{"A4", "A6", "B4", "B6", "C4", "C6", "D4", "D6", "E4", "E6"} {
		c := "b"
		if v[1] == '6' {
			c = "w"
		}
		script.WriteString("play " + c + " " + v + "\n")
	}
	script.WriteString("genmove b\nquit\n")
	common := []string{"gtp", "--playouts", "600", "--threads", "1", "--seed", "3"}
	out, _, err := runCmd(t, script.String(), common...)
	if err != nil || !strings.Contains(out, "= resign") {
		t.Errorf("default threshold: want a resignation: %v\n%s", err, out)
	}
	out, _, err = runCmd(t, script.String(), append(common, "--resign", "0")...)
	if err != nil || strings.Contains(out, "resign") || !regexp.MustCompile(`= ([A-HJ][1-9]|pass)\n\n$`).MatchString(strings.TrimSuffix(out, "=\n\n")) {
		t.Errorf("--resign 0: want a move:\n%s", out)
	}
	if _, _, err := runCmd(t, "", "gtp", "--resign", "1"); err == nil {
		t.Error("--resign 1 was accepted")
	}
}

// TestServeMetrics starts `tengen serve` with metrics, by flag and by
// environment, and scrapes them; the public address does not serve them.
func TestServeMetrics(t *testing.T) {
	for _, tt := range []struct {
		name string
		args []string
		env  string
	}{
		{name: "flag", args: []string{"--metrics-addr", "127.0.0.1:0"}},
		{name: "environment", env: "127.0.0.1:0"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if tt.env != "" {
				t.Setenv("TENGEN_METRICS_ADDR", tt.env)
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var logs syncbuf.Buffer
			done := make(chan error, 1)
			args := append([]string{"serve", "--addr", "127.0.0.1:0", "--data-dir", t.TempDir()}, tt.args...)
			go func() { done <- run(ctx, args, strings.NewReader(""), io.Discard, &logs) }()
			re := regexp.MustCompile(`msg="tengen serving" addr=(\S+) metrics=(\S+)`)
			var m []string
			for i := 0; i < 100 && m == nil; i++ {
				m = re.FindStringSubmatch(logs.String())
				time.Sleep(50 * time.Millisecond)
			}
			if m == nil {
				cancel()
				t.Fatalf("server did not start with metrics:\n%s", logs.String())
			}
			for _, c := range []struct {
				url  string
				want int
			}{{"http://" + m[2] + "/metrics", 200}, {"http://" + m[1] + "/metrics", 404}} {
				resp, err := http.Get(c.url)
				if err != nil {
					t.Fatal(err)
				}
				body, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if resp.StatusCode != c.want {
					t.Errorf("%s: %s; want %d", c.url, resp.Status, c.want)
				}
				if c.want == 200 && !bytes.Contains(body, []byte("\ntengen_live_games 0\n")) {
					t.Errorf("%s has no tengen_live_games:\n%s", c.url, body)
				}
			}
			cancel()
			if err := <-done; err != nil {
				t.Fatalf("serve: %v", err)
			}
		})
	}
}

// TestServeChallengeTTLUsage checks that `tengen serve` refuses a negative
// challenge TTL before it opens anything.
func TestServeChallengeTTLUsage(t *testing.T) {
	for _, ttl := range []string{"-1s", "soon"} {
		if _, _, err := runCmd(t, "", "serve", "--data-dir", t.TempDir(), "--challenge-ttl", ttl); !errors.Is(err, errUsage) {
			t.Errorf("serve --challenge-ttl %s: %v, want a usage error", ttl, err)
		}
	}
}
