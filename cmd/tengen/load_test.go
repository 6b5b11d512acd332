package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"tengen/internal/load"
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

// TestLoadTwoInstances runs `tengen load` against two `tengen serve`
// processes on one PostgreSQL database: games' players on one instance and
// their spectators on the other, then (--split-players) Black and White on
// different instances. Every move must reach the spectators across the
// instances and be stored as acknowledged.
func TestLoadTwoInstances(t *testing.T) {
	srvs := startCluster(t, 2)
	urls := []string{srvs[0].base, srvs[1].base}
	pids := []int{srvs[0].cmd.Process.Pid, srvs[1].cmd.Process.Pid}
	res, err := load.Run(context.Background(), load.Config{URLs: urls, ServerPIDs: pids, Games: 4, Spectators: 4, Players: 4,
		Rate: 80, Duration: 1500 * time.Millisecond, BoardSize: 9, MaxMoves: 30, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	var report strings.Builder
	res.Report(&report)
	t.Log("\n" + report.String())
	if res.Errors != 0 || res.Verified != res.GamesPlayed || res.GamesPlayed < 4 {
		t.Errorf("errors %d (%s), games %d, verified %d", res.Errors, res.FirstError, res.GamesPlayed, res.Verified)
	}
	if len(res.Instances) != 2 {
		t.Fatalf("%d instances reported", len(res.Instances))
	}
	for i, in := range res.Instances {
		if in.URL != urls[i] || in.Moves == 0 || in.Ack.N != in.Moves || in.Spectator.N == 0 || in.CPU <= 0 || in.RSS <= 0 {
			t.Errorf("instance %d: %+v", i+1, in)
		}
	}
	if m := res.Instances[0].Moves + res.Instances[1].Moves; m != res.Moves {
		t.Errorf("instances' moves add up to %d, total %d", m, res.Moves)
	}

	out, errOut, err := runCmd(t, "", "load", "--url", urls[0]+","+urls[1], "--split-players", "--games", "2", "--players", "4",
		"--rate", "40", "--duration", "1s", "--board-size", "9")
	if err != nil {
		t.Fatalf("load --split-players: %v\n%s%s", err, out, errOut)
	}
	for _, want := range []string{"instance 1 " + urls[0], "instance 2 " + urls[1], "errors 0"} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	if _, _, err := runCmd(t, "", "load", "--url", urls[0], "--split-players"); err == nil {
		t.Error("--split-players with one URL accepted")
	}
}
