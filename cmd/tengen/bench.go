package main

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"strconv"
	"strings"
	"time"

	"tengen/goban"
)

func init() {
	commands["bench"] = command{
		summary: "measure random playouts per second on one core",
		run:     runBench,
	}
}

func runBench(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("bench", "", stderr)
	sizes := fs.String("sizes", "9,13,19", "comma-separated board sizes")
	seconds := fs.Float64("seconds", 3, "seconds to measure each size")
	if err := fs.Parse(args); err != nil {
		return errUsage
	}
	var list []int
	for _, s := range strings.Split(*sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < goban.MinSize || n > goban.MaxSize {
			return fmt.Errorf("bench: bad board size %q", s)
		}
		list = append(list, n)
	}
	fmt.Fprintf(stdout, "Uniform random playouts that avoid filling one-point eyes, played to two passes and scored; one goroutine.\n")
	fmt.Fprintf(stdout, "%s, %s/%s, %d CPUs, %s\n\n", cpuModel(), runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), runtime.Version())
	fmt.Fprintf(stdout, "%-7s %12s %16s %14s %12s\n", "board", "playouts/s", "playouts/CPU-s", "moves/playout", "ns/move")
	for _, n := range list {
		r := benchPlayouts(ctx, n, time.Duration(*seconds*float64(time.Second)))
		fmt.Fprintf(stdout, "%-7s %12.0f %16.0f %14.1f %12.1f\n", fmt.Sprintf("%d×%d", n, n), r.perSecond, r.perCPUSecond, r.movesPerPlayout, r.nsPerMove)
		if ctx.Err() != nil {
			return ctx.Err()
		}
	}
	return nil
}

// benchResult holds the rates measured by benchPlayouts. perCPUSecond
// divides by the CPU time of the measuring thread, which stays meaningful
// when other processes share the machine; perSecond divides by wall time.
type benchResult struct {
	perSecond, perCPUSecond, movesPerPlayout, nsPerMove float64
}

// benchPlayouts runs playouts from the empty board for about d and reports
// their rate; the goban package's BenchmarkPlayout measures the same loop.
func benchPlayouts(ctx context.Context, size int, d time.Duration) benchResult {
	start := goban.MustNewBoard(size, size)
	work := start.Clone()
	r := goban.NewRand(uint64(time.Now().UnixNano()))
	playouts, moves := 0, 0
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	cpuBegin := threadCPU()
	begin := time.Now()
	for time.Since(begin) < d && ctx.Err() == nil {
		for i := 0; i < 100; i++ {
			work.CopyFrom(start)
			moves += work.Playout(goban.Black, r, 3*size*size)
			_ = work.AreaScore()
			playouts++
		}
	}
	el := time.Since(begin)
	cpu := threadCPU() - cpuBegin
	perCPU := 0.0
	if cpu > 0 {
		perCPU = float64(playouts) / cpu.Seconds()
	}
	return benchResult{
		perSecond:       float64(playouts) / el.Seconds(),
		perCPUSecond:    perCPU,
		movesPerPlayout: float64(moves) / float64(playouts),
		nsPerMove:       float64(cpuOrWall(cpu, el).Nanoseconds()) / float64(moves),
	}
}

// cpuOrWall returns cpu when it was measured and wall otherwise.
func cpuOrWall(cpu, wall time.Duration) time.Duration {
	if cpu > 0 {
		return cpu
	}
	return wall
}
