// Package engine is Tengen's Go player: a Monte-Carlo tree search (MC-RAVE)
// without a neural network, built on package goban.
//
// Each simulation walks down a tree of positions, choosing moves by their
// win rate mixed with their all-moves-as-first win rate; new nodes get
// prior knowledge from tactical features (priors.go), and a playout a
// little heavier than random (playout.go, pattern3.go) finishes the game.
// Several goroutines search one tree, and the tree is kept between moves.
//
// [Engine.Move] answers a [Request]: a position, the colour to move and the
// clocks, which clock.Budget turns into thinking time. [Engine.Analyze]
// and [Request.Analyze] report [Info] snapshots for lz-analyze and
// kata-analyze; [Engine.DeadStones] proposes dead stones for scoring;
// [Level] sets the playing strength. The engine knows nothing of GTP:
// package gtpengine serves it over the protocol.
//
// The design in full, and the measurements behind its constants and its
// levels, are in docs/STRENGTH.md.
package engine
