package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
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
