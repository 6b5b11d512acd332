// Package engine is Tengen's Go player: a Monte-Carlo tree search without a
// neural network, built on package goban.
//
// The search (MC-RAVE) grows a tree from the position to move. Each
// simulation walks down the tree, choosing at every node the move with the
// best mix of its own win rate and its AMAF (all-moves-as-first) win rate,
// β = rn / (rn + n + n·rn/3000), without a UCB exploration term (the priors
// and AMAF explore; in self-play on 9×9 at 1000 playouts this setting with
// local replies in 90% of playout moves won 61 of 100 games against a UCB
// term of 0.1 with 60%). New nodes get prior knowledge as equivalent wins
// and losses from tactical features: captures, escapes from atari and
// ladders (with a ladder reader), nets, self-atari, ataris, capturing
// races, the 3×3 shapes below, the third and fourth lines in open areas and
// replies near the last move.
//
// Below the tree a playout finishes the game with a policy a little heavier
// than random: save own chains the last move put in atari, capture the last
// move's chain in atari, a local reply around the last move that makes one
// of MoGo's 3×3 shapes (hane, cuts, edge moves: pattern3.go) or blocks the
// last stone next to an own stone, a move in the middle of an empty 3×3
// area (fill-board), otherwise a random move that fills no own eye and is
// no self-atari (small self-ataris are allowed half of the time, for
// nakade and throw-ins). Playouts use simple ko and count by area; the tree
// checks every move with goban.Game.Legal, so it obeys superko and ends
// games as the rules do (first capture in Atari-Go, two passes,
// repetition). Territory rules are played as area, whose margin agrees for
// finished positions; the komi of the search adds White's handicap
// compensation (area rules) or the handicap stones (territory rules), and
// in handicap games a dynamic komi (DynamicKomi).
//
// Several goroutines search one tree; each node has a mutex that guards its
// moves' statistics, and a simulation in flight counts as virtual losses.
// The tree is kept between moves and reused when the game continues.
//
// Engine implements gtp.Player, so it plugs into the GTP engine:
//
//	e := engine.New(engine.Options{Threads: 2})
//	ge, err := gtp.NewEngine(gtp.Options{Player: e})
//
// Time comes from the controller (time_settings, kgs-time_settings,
// time_left) through clock.Budget, and a search under a clock stops early
// when the rest of its time cannot change the choice; without a clock each
// move takes all of Options.MoveTime, since nothing saved would be kept for
// later; Options.Playouts fixes the simulations instead (with
// one thread and a seed the engine is deterministic). Engine.Move is the
// same entry point with a clock.TimeControl, for the server.
//
// The engine resigns below a win rate of 10% once it has enough
// simulations and the opening is over; it passes when the opponent passed
// and the count with its dead-stone estimate wins, and under territory
// rules it does not play inside settled territory. With Request.Cleanup
// (kgs-genmove_cleanup) it captures the dead enemy stones before it passes.
//
// DeadStones proposes dead stones for scoring from the engine's playouts,
// keeping chains that Benson's algorithm proves alive and chains in seki.
// Levels (Level, Levels) go from a beginner that chooses among the searched
// moves at random, weighted by visits, to full strength; their kyu ranks
// come from handicap matches (docs/STRENGTH.md).
// Analyze, Request.Analyze and the Info snapshots feed lz-analyze and
// kata-analyze (FormatLzAnalyze, FormatKataAnalyze).
package engine
