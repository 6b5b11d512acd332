package gtp_test

import (
	"context"
	"fmt"
	"io"
	"strings"

	"tengen/gtp"
)

// An engine answers GTP on any reader and writer; cmd/tengen serves it on
// standard input and output.
func ExampleEngine() {
	e, err := gtp.NewEngine(gtp.Options{Rules: "japanese", Version: "1.0", Seed: 1})
	if err != nil {
		panic(err)
	}
	in := "1 name\n2 boardsize 9\n3 play black E5\n4 play white E5\n5 list_stones black\n"
	var out strings.Builder
	if err := e.Serve(context.Background(), strings.NewReader(in), &out); err != nil {
		panic(err)
	}
	fmt.Print(out.String())
	// Output:
	// =1 Tengen (random)
	//
	// =2
	//
	// =3
	//
	// ?4 illegal move: occupied
	//
	// =5 E5
	//
}

// A controller talks to an engine through a Client; Start does the same for
// an engine in another process, such as "gnugo --mode gtp".
func ExampleClient() {
	e, err := gtp.NewEngine(gtp.Options{Seed: 1})
	if err != nil {
		panic(err)
	}
	cmdR, cmdW := io.Pipe()
	respR, respW := io.Pipe()
	go func() {
		e.Serve(context.Background(), cmdR, respW)
		respW.Close()
	}()
	c := gtp.NewClient(respR, cmdW, nil)
	ctx := context.Background()
	c.Send(ctx, "boardsize", "9")
	c.Send(ctx, "play", "b", "C3")
	stones, _ := c.Send(ctx, "list_stones", "black")
	fmt.Println(stones)
	_, err = c.Send(ctx, "play", "w", "C3")
	fmt.Println(err)
	c.Send(ctx, "quit")
	// Output:
	// C3
	// gtp: "play w C3": illegal move: occupied
}
