// Package clock models Go time controls and the clocks that enforce them.
//
// It is a pure package: it uses only the standard library and never reads the
// wall clock itself. Every operation takes the current time (a time.Time) or an
// elapsed time (a time.Duration) as an argument, so the server, the engine and
// the tests all decide what "now" is.
//
// The package has four parts:
//
//   - TimeControl describes the rules of a clock: none, absolute, byo-yomi,
//     Canadian, Fischer or correspondence. It formats itself for the lobby
//     (String), for GTP (TimeSettingsCommand, KGSTimeSettingsCommand,
//     KataTimeSettingsCommand), for SGF (SGFProperties) and as JSON, and the
//     Parse functions read all of these forms back.
//   - State is what one player has left. TimeControl.Spend charges thinking
//     time to a State, TimeControl.Play charges a move (and applies the period,
//     stone and increment rules), TimeControl.Remaining tells how long the
//     player may still think before the flag falls.
//   - GameClock runs the two clocks of a game for the server: Start, Stop and
//     Switch turns, Pause and Resume (the scoring phase), Checkpoint and Recover
//     (restarts; downtime is not charged), and Deadline, the exact instant the
//     running player's flag falls, so that the server can arm a timer.
//   - Budget tells an engine how long to think on a move without ever losing
//     on time.
//
// Flag fall is defined once for all kinds: a player who has d left may think
// for any time strictly less than d; a move made after exactly d has elapsed
// is too late. GameClock.Deadline is therefore the first instant at which a
// move is no longer in time.
package clock
