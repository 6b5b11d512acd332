// Package goban implements the rules of Go: boards from 2×2 to 25×25, moves,
// captures, suicide, ko and superko, handicap, the named rulesets of the
// seed texts, dead-stone marking, seki, scoring and the notations in which
// moves are written.
//
// The package has two layers, as KataGo's game/ code does. Board is a fast
// board made for playouts: a flat array with a border, incremental chain and
// liberty bookkeeping, a Zobrist hash, simple ko only, and play and undo
// without allocation. Game sits above it and keeps the history that the
// rules need: whose turn it is, passes, superko, captures, handicap, the end
// of the game and its result.
//
// Points are written as Point{X, Y} with X the column from the left and Y the
// row from the top, both from zero, which is the orientation of SGF; the
// notation functions convert from and to GTP vertices, SGF points, Korschelt's
// notation and the Japanese numbering. In JSON a Point is [x, y], a Color
// "black", "white" or "" and a MoveKind "play", "pass" or "resign", as the
// server's API writes them.
//
// The package uses the standard library only.
package goban
