// Package gtp implements the Go Text Protocol, version 2, on both of its sides.
//
// The engine side reads commands, dispatches them to registered handlers and
// writes responses: see [Server] for the protocol layer (built-in commands,
// ids, panics, interruptible streaming handlers) and [Engine] for the Go
// engine command set on top of a goban.Game.
//
// The controller side starts or connects to an engine and sends it commands:
// see [Client] and [Start].
//
// The wire format follows the GTP version 2 draft: input lines are stripped of
// control characters other than HT and LF, HT becomes a space, everything
// after '#' is a comment, and empty lines are ignored. A command is
// "[id] name [arguments]"; its response is "=[id] result" or "?[id] message"
// and ends with an empty line.
package gtp
