package sgf_test

import (
	"fmt"

	"tengen/sgf"
)

func ExampleParse() {
	c, err := sgf.Parse([]byte("Text before the record.\n(;FF[3]CoPyright[none]SZ[9]KM[375]PB[Jörg];B[ee];W[tt])"))
	if err != nil {
		panic(err)
	}
	for _, w := range c.Warnings {
		fmt.Println("warning:", w)
	}
	info, warns := c.Games[0].GameInfo()
	fmt.Println(info.BlackName, info.Komi, warns)
	out, _ := c.Format()
	fmt.Print(string(out))
	// Output:
	// warning: 1:1: no CA property: the text is valid UTF-8 and is read as UTF-8 rather than the default ISO-8859-1
	// warning: 1:1: ignored 24 bytes of text before the game tree
	// warning: 2:8: property identifier "CoPyright" read as "CP"
	// Jörg 7.5 2:2: KM: komi 375 read as hundredths of stones (Fox units): 7.5 points
	// (;FF[4]CA[UTF-8]CP[none]SZ[9]KM[375]PB[Jörg]
	// ;B[ee];W[tt])
}

func ExampleReplay() {
	root, _ := sgf.Parse([]byte("(;SZ[5];B[bb];W[bb])"))
	_, err := sgf.Replay(root.Games[0], sgf.ReplayOptions{})
	fmt.Println(err)
	r, _ := sgf.Replay(root.Games[0], sgf.ReplayOptions{Force: true})
	fmt.Println(r.Moves, len(r.Illegal))
	fmt.Print(r.Game.Board())
	// Output:
	// 1:14: move 2 (W[bb]): illegal: occupied
	// 2 1
	// . . . . .
	// . O . . .
	// . . . . .
	// . . . . .
	// . . . . .
}
