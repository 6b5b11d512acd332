package clock_test

import (
	"fmt"
	"strings"
	"time"

	"tengen/clock"
)

// The server runs a game's clock: it starts Black's turn when the game
// starts, switches after every move, arms a timer for the deadline, and
// pauses in the scoring phase.
func ExampleGameClock() {
	tc := clock.ByoYomiTime(10*time.Minute, 5, 30*time.Second)
	g, _ := clock.NewGameClock(tc)
	start := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

	g.Start(clock.Black, start)
	g.Switch(start.Add(40 * time.Second)) // Black moves after 40s
	deadline, _ := g.Deadline()           // White's flag would fall then
	fmt.Println("White's deadline:", deadline.Format(time.TimeOnly))

	g.Switch(start.Add(50 * time.Second)) // White moves after 10s
	g.Pause(start.Add(time.Minute))       // both passed: scoring phase
	fmt.Println("Black:", g.State(clock.Black).MainTime, "White:", g.State(clock.White).MainTime)
	// Output:
	// White's deadline: 12:13:10
	// Black: 9m10s White: 9m50s
}

// An engine reads time_settings and time_left and asks for a budget.
func ExampleBudget() {
	tc, _ := clock.ParseKGSTimeSettings(strings.Fields("byoyomi 0 30 5"))
	_, left, stones, _ := clock.ParseTimeLeft(strings.Fields("B 30 5"))
	s := tc.StateFromTimeLeft(left, stones)
	a := clock.Budget(tc, s, clock.BudgetOptions{EmptyPoints: 200, Overhead: 500 * time.Millisecond})
	fmt.Println(tc, "→ think", a.Target, "at most", a.Max)
	// Output:
	// 5×30s → think 29.499s at most 29.499s
}

func ExampleSGFProperties() {
	tm, ot := clock.SGFProperties(clock.CanadianTime(10*time.Minute, 25, 10*time.Minute))
	fmt.Printf("TM[%s]OT[%s]\n", tm, ot)
	tc, _ := clock.ParseSGFTime("600", "5x30 byo-yomi")
	fmt.Println(tc)
	// Output:
	// TM[600]OT[25/600 Canadian]
	// 10:00 + 5×30s
}
