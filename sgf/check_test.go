package sgf

import (
	"strings"
	"testing"
)

func TestCheck(t *testing.T) {
	tests := []struct {
		name     string
		in       string
		warnings string
		errors   string
	}{
		{"clean", "(;FF[4]GM[1]SZ[9]KM[7];B[ee];W[cc])", "", ""},
		{"warnings only", "junk(;SZ[9]KM[375];B[ee])",
			"1:1: ignored 4 bytes of text before the game tree\n1:6: KM: komi 375 read as hundredths of stones (Fox units): 7.5 points\n", ""},
		{"illegal moves", "(;SZ[9];B[ee];W[ee]\n;B[aa];W[aa])", "",
			"1:14: move 2 (W[ee]): illegal: occupied\n2:7: move 4 (W[aa]): illegal: occupied\n"},
		{"off board", "(;SZ[9];B[jj])", "", "1:8: move 1: B[jj] is off the 9x9 board\n"},
		{"two games", "(;SZ[9];B[ee])(;SZ[9];B[aa];W[aa])", "", "1:28: game 2: move 2 (W[aa]): illegal: occupied\n"},
		{"variations", "(;SZ[9];B[ee](;W[ee])(;W[dd];B[dd])(;W[jj]);W[cc])", "",
			"1:15: move 2 (W[ee]): illegal: occupied\n1:29: move 3 (B[dd]): illegal: occupied\n1:37: move 2: W[jj] is off the 9x9 board\n"},
		{"unreadable", "(;SZ[9];C[abc", "", "1:10: property value not terminated: missing \"]\"\n"},
	}
	for _, tt := range tests {
		rep := Check([]byte(tt.in), Options{})
		if got := rep.Warnings.String(); got != tt.warnings {
			t.Errorf("%s: warnings\n%s\nwant\n%s", tt.name, got, tt.warnings)
		}
		if got := rep.Errors.String(); got != tt.errors {
			t.Errorf("%s: errors\n%s\nwant\n%s", tt.name, got, tt.errors)
		}
	}
	if !strings.Contains(Check([]byte(""), Options{}).Errors.String(), "no SGF game tree") {
		t.Error("empty input not an error")
	}
}
