package main

import (
	"strings"
	"testing"
)

// TestLoadCommand runs `tengen load` briefly with its own server and
// checks its report, and that it refuses a server off this machine.
func TestLoadCommand(t *testing.T) {
	out, errOut, err := runCmd(t, "", "load", "--games", "2", "--rate", "40", "--duration", "1s", "--synchronous", "NORMAL", "--board-size", "9")
	if err != nil {
		t.Fatalf("load: %v\n%s%s", err, out, errOut)
	}
	for _, want := range []string{"games 2, spectators 2, players 4", "durable moves:", "move → ok:", "move → spectator:", "server: CPU", "verified in storage 2, errors 0"} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	if _, _, err := runCmd(t, "", "load", "--url", "http://192.0.2.1:8080"); err == nil || !strings.Contains(err.Error(), "loopback") {
		t.Errorf("a server off this machine: %v", err)
	}
	if _, _, err := runCmd(t, "", "load", "--games", "0"); err == nil {
		t.Error("zero games accepted")
	}
}
