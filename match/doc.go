// Package match plays games between two GTP engines, as gogui-twogtp does:
// it starts both engines for every game, tells them the board size, rules,
// komi, handicap and time settings, relays the moves, ends the game on two
// passes, a resignation, a forfeit or a lost clock, scores passed-out games
// with a referee engine or with goban's own dead-stone estimate, writes the
// SGF of every game and sums the results up with a confidence interval.
//
// Tengen, not the engines, is the arbiter: every game is kept in a
// goban.Game, and a move that goban refuses loses the game for the engine
// that played it. An engine that crashes, answers genmove with a failure,
// gives no answer within the move timeout, or refuses to play a move that
// goban accepts loses the game as well; the record says B+F or W+F and the
// comment says why.
//
// The command `tengen match` wraps [Run]; see its -help for the flags.
package match
