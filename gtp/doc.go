// Package gtp implements the Go Text Protocol, version 2, on both of its sides.
//
// # Wire format
//
// The wire format follows the GTP version 2 draft: input lines are stripped of
// control characters other than HT and LF, HT becomes a space, everything
// after '#' is a comment, and empty lines are ignored. A command is
// "[id] name [arguments]"; its response is "=[id] result" or "?[id] message"
// and ends with an empty line. Ids are echoed (Lizzie waits for "=id"), and
// output is flushed after every response.
//
// # Engine side
//
// [Server] is the protocol layer: handlers registered by name, the built-in
// protocol_version, name, version, known_command, list_commands and quit,
// "? unknown command" for anything else, and "? internal error: ..." for a
// handler that panics, after which the engine keeps running. Streaming
// handlers ([Server.HandleStream], for lz-analyze and the like) write their
// output line by line and are interrupted through their context as soon as
// the next input line arrives, which is how Sabaki and Lizzie stop an
// analysis. GoGui's comment line "# interrupt" cancels the context of any
// running command, and of a command read before it that has not started
// yet; handlers that honour it (genmove) answer with what they have.
//
// [Engine] is the Go engine on top of a goban.Game, created by [NewEngine] and
// run by [Engine.Serve]. Besides the built-ins it answers boardsize (N, or W
// H for rectangular boards, 2 to 25), clear_board, komi, get_komi, play,
// genmove, reg_genmove, kgs-genmove_cleanup, undo, gg-undo, fixed_handicap,
// place_free_handicap, set_free_handicap, time_settings, kgs-time_settings,
// kata-time_settings, time_left, final_score, final_status_list (alive, dead,
// seki), captures, list_stones, all_legal, is_legal, showboard, kgs-rules,
// kata-set-rules, loadsgf, printsgf and gogui-analyze_commands. Illegal moves
// are refused with goban's reason: "illegal move: occupied", "suicide",
// "ko", "superko", "off board". Moves come from a [Player]; the default is
// [RandomPlayer], an honest stand-in that plays random legal moves, never
// fills its own eyes and captures when it can. A player that implements
// [DeadStoneEstimator] replaces goban's static dead-stone estimate in
// final_score and final_status_list. The engine keeps a clock per colour
// under the time settings and charges each genmove to the mover's, so that
// the player knows its time even from a controller that never sends
// time_left; a time_left replaces the engine's count. Analysis commands are added with
// [Engine.HandleAnalyze] (lz-analyze, kata-analyze: parsed arguments, header
// sent at once, stopped by the next command) and [Engine.HandleGenmoveAnalyze]
// (lz-genmove_analyze: streamed analysis, then the move is played and
// written as "play VERTEX").
//
// # Controller side
//
// [Client] sends commands with fresh ids and matches responses to them,
// with timeouts through contexts; [Client.Stream] runs an analysis command
// and delivers its lines as they arrive until its context ends; [Start] runs
// an external engine such as
// "gnugo --mode gtp" as a [Process], captures its standard error, and
// [Process.Close] ends it with quit and, after a grace period, a kill.
// [Session] is a controller's game on such an engine: board size, komi,
// rules (with the one table of ruleset aliases for kata-set-rules and
// kgs-rules), time settings, handicap, the moves so far, time_left and
// genmove, choosing among the commands the engine knows. The match runner
// and the server's external bots both use it.
package gtp
