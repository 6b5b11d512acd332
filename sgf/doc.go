// Package sgf reads and writes game records in the Smart Game Format, FF[1]
// to FF[4], as real files come: collections of games, variation trees of any
// depth, every property kept (unknown ones too) and written back.
//
// # Model
//
// Parse returns a Collection of game trees made of Nodes. Each node keeps its
// properties in file order with raw values (see Property): the raw values are
// the source of truth, and typed accessors (Node.Move, Node.Points,
// Node.Labels, Node.Text, Node.GameInfo, ParseResult, ParseKomi, ParseDates)
// interpret them on demand. Points use SGF orientation: Point{X, Y} with X the
// column from the left and Y the row from the top, from 0.
//
// # Reading: charsets
//
// The input is decoded to UTF-8 before it is parsed, because in Shift_JIS and
// GBK the second byte of a character can be "\" or "]". The rules, in order:
//
//  1. Options.Charset, if set, wins.
//  2. A UTF-8 byte-order mark means UTF-8 (a contradicting CA is reported).
//     A UTF-16 byte-order mark means UTF-16.
//  3. CA in the first game's root node names the charset; common aliases and
//     misspellings are accepted ("gb2312", "GBK", "SJIS", "Shift-JIS",
//     "EUC-KR", "utf8"). GB2312 and GBK are read with the GB18030 decoder,
//     which is a superset. Bytes invalid in that charset become U+FFFD,
//     with a warning.
//  4. Without CA, the SGF default is ISO-8859-1. But many programs write
//     UTF-8 without CA, and a text of Latin-1 letters is almost never valid
//     UTF-8 by accident, so: input that is valid UTF-8 is read as UTF-8 (with
//     a warning if it has any non-ASCII byte), other input as ISO-8859-1
//     (with a warning that names GB18030 as a likely alternative).
//  5. An unknown CA is read like rule 4, with a warning.
//
// The charset of the first game's root applies to the whole file; a
// collection that mixes charsets is rare and needs Options.Charset. No guess
// is made between GB18030, EUC-KR and Shift_JIS for files without CA: their
// byte ranges overlap too much for a guess to be safe, so such files need
// Options.Charset (the warning says so).
//
// The tree then holds UTF-8 text, so a CA property in a root node is rewritten
// to "UTF-8"; Collection.Charset records what the input was.
//
// # Reading: leniency
//
// Every repair is listed in Collection.Warnings with its line and column
// (columns count characters of the decoded text):
//
//   - text before the first "(;" and between or after game trees is skipped;
//   - lower-case letters in property identifiers are dropped, as FF[3] says
//     ("CoPyright" is CP); an all-lower-case identifier is upper-cased;
//   - an unescaped "]" inside a value is kept in the value (escaped) when what
//     follows it is plain text rather than a value, a property with its "[",
//     a node, a variation or the end of the input, and the value still ends at
//     a later "]" with no property starting before it;
//   - repeated properties in one node are merged into one with all values;
//   - a property without value, unexpected characters between properties,
//     empty variations and missing closing parentheses at the end of the
//     input are skipped or closed;
//   - line breaks in values ("\r\n", "\n\r", "\r") become "\n";
//   - in games whose root says FF[1] to FF[3], the old markup properties L
//     (letters) and M (marks) become LB and MA, which FF[4] readers know.
//
// An input without any game tree, or with a value that never ends, is an
// error: an ErrorList whose entries carry line and column. The parser never
// panics and uses no recursion, so variations nested a hundred thousand deep
// (as OGS writes one variation per move) are fine.
//
// Game information (Node.GameInfo) is validated separately; its warnings carry
// the position of the node. Missing SZ means 19×19. Komi in Fox's units is
// repaired by ParseKomi: a komi above MaxPlausibleKomi (30) in magnitude is
// taken as hundredths, and a result of x.25 or x.75 as hundredths of Chinese
// stones, which is doubled (KM[750] and KM[375] are 7.5, KM[325] is 6.5).
// Moves "B[]" and, on boards up to 19×19, "B[tt]" are passes.
//
// # Writing
//
// Format writes canonical FF[4] in UTF-8; see the comment in write.go for the
// exact layout. In short: each root node starts with FF[4]CA[UTF-8], all other
// properties follow in stored order with their raw values, single-child
// chains are written as one sequence, and line breaks come at fixed places.
// Parsing the output gives a tree EqualCanonical to the one written, and
// formatting that again gives the same bytes.
//
// # Replay and conversion
//
// Replay turns a record's main line, or any variation, into a goban.Game:
// size, ruleset (RU, see RulesFor), handicap, komi, setup stones and moves.
// An illegal move is a *MoveError with the move number and goban's reason;
// ReplayOptions.Force plays it anyway, as viewers must. FromGame builds a
// record from a goban.Game (for GTP printsgf and server downloads). Check
// parses and replays a whole file and collects every warning and error (for
// "tengen sgf check"). Korschelt writes the moves in the notation of
// Pfaundler's book and GTPCommands as GTP commands.
package sgf
