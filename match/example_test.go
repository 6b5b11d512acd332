package match_test

import (
	"fmt"

	"tengen/match"
)

// After 8 wins in 10 games, the true win rate lies between 49% and 94%
// with 95% confidence: ten games say little.
func ExampleWilson() {
	iv := match.Wilson(8, 10, match.Z95)
	fmt.Printf("[%.3f, %.3f]\n", iv.Low, iv.High)
	// Output: [0.490, 0.943]
}

// SplitCommand reads an engine's command line as a shell would.
func ExampleSplitCommand() {
	words, err := match.SplitCommand(`"/opt/my engines/katago" gtp -config '/opt/my engines/gtp.cfg'`)
	fmt.Printf("%q %v\n", words, err)
	// Output: ["/opt/my engines/katago" "gtp" "-config" "/opt/my engines/gtp.cfg"] <nil>
}
