package postgres

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"tengen"
	"tengen/clock"
	"tengen/goban"
	"tengen/internal/rating"
	"tengen/internal/sqlrow"
)

// Compile-time check that GameService implements the interface.
var _ tengen.GameService = (*GameService)(nil)

// GameService stores games and moves in PostgreSQL. The move or state
// change that finishes a rated game updates its players' ratings in the
// same transaction (see rateGame).
type GameService struct {
	db *DB
	// Rate returns player's rating after a game against opponent with
	// the given score (rating.Win, Loss or Jigo). Nil means Glicko-2 with
	// the default τ; tests set a failing function to check that a failed
	// rating undoes the result. Set it before the first use.
	Rate func(player, opponent rating.Rating, score float64) (rating.Rating, error)
}

// NewGameService returns a GameService on db.
func NewGameService(db *DB) *GameService {
	return &GameService{db: db}
}

// FindGameByID implements tengen.GameService.
func (s *GameService) FindGameByID(ctx context.Context, id int64) (*tengen.Game, error) {
	tx, err := s.db.BeginTx(ctx, false)
	if err != nil {
		return nil, err
	}
	defer tx.rollback()
	return findGameByID(ctx, tx, id)
}

// FindGames implements tengen.GameService.
func (s *GameService) FindGames(ctx context.Context, filter tengen.GameFilter) ([]*tengen.Game, int, error) {
	tx, err := s.db.BeginTx(ctx, false)
	if err != nil {
		return nil, 0, err
	}
	defer tx.rollback()
	return findGames(ctx, tx, filter)
}

// CreateGameFromChallenge implements tengen.GameService. The challenge's
// row is locked while it is read, so that of two instances that accept one
// challenge at the same time, the second sees it accepted.
func (s *GameService) CreateGameFromChallenge(ctx context.Context, challengeID, userID int64, rec *tengen.PlayRecord) (*tengen.Game, error) {
	tx, err := s.db.BeginTx(ctx, true)
	if err != nil {
		return nil, err
	}
	defer tx.rollback()
	c, err := findChallengeByID(ctx, tx, challengeID, true)
	if err != nil {
		return nil, err
	}
	if err := c.CanAccept(userID); err != nil {
		return nil, err
	}
	acceptor, err := findUser(ctx, tx, "id = $1", userID)
	if err != nil {
		return nil, err
	}
	set, err := sqlrow.GameSettings(c, acceptor, rec)
	if err != nil {
		return nil, err
	}
	g := &tengen.Game{ChallengeID: c.ID, Settings: set, Status: tengen.GamePlaying,
		ToMove: set.FirstToMove(), CreatedAt: tx.now, UpdatedAt: tx.now}
	g.BlackID, g.WhiteID = set.AssignColors(c.ChallengerID, userID, s.db.Coin)
	args := append([]any{g.ChallengeID, g.BlackID, g.WhiteID}, settingsArgs(g.Settings)...)
	// The instance that creates a game owns it (nil: NULL, no instances).
	var owner *int64
	if me := s.db.instance.Load(); me != 0 {
		owner = &me
	}
	args = append(args, string(g.Status), sqlrow.ColorText(g.ToMove), 0, "", tx.now, owner)
	n := len(args)
	g.ID, err = tx.insertID(ctx, `INSERT INTO games (challenge_id, black_id, white_id, `+settingsColumns+`, status, to_move, move_count, result, created_at, updated_at, owner_id)
		VALUES (`+placeholders(1, n-1)+fmt.Sprintf(`, $%d, $%d) RETURNING id`, n-1, n), args...)
	if err != nil {
		return nil, err
	}
	if err := setChallengeStatus(ctx, tx, c, tengen.ChallengeAccepted, g.ID); err != nil {
		return nil, err
	}
	if rec != nil {
		st, err := savePlayRecord(g.ID, rec, tx.now)
		if err != nil {
			return nil, err
		}
		if _, err := tx.exec(ctx, st.query, st.args...); err != nil {
			return nil, err
		}
	}
	users, err := findUsers(ctx, tx, []int64{g.BlackID, g.WhiteID})
	if err != nil {
		return nil, err
	}
	g.Black, g.White = users[g.BlackID], users[g.WhiteID]
	return g, tx.commit(ctx)
}

// FindMoves implements tengen.GameService.
func (s *GameService) FindMoves(ctx context.Context, gameID int64, afterSeq int) ([]*tengen.GameMove, error) {
	tx, err := s.db.BeginTx(ctx, false)
	if err != nil {
		return nil, err
	}
	defer tx.rollback()
	if _, err := findGameByID(ctx, tx, gameID); err != nil {
		return nil, err
	}
	rows, err := tx.Query(ctx, `SELECT seq, color, kind, x, y, time_used_ms, clock, created_at FROM moves
		WHERE game_id = $1 AND seq > $2 ORDER BY seq`, gameID, afterSeq)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	moves := []*tengen.GameMove{}
	for rows.Next() {
		m := tengen.GameMove{GameID: gameID}
		var clockJSON []byte
		if err := rows.Scan(&m.Seq, sqlrow.Text{V: &m.Color}, (*string)(&m.Kind), &m.X, &m.Y, sqlrow.Millis{D: &m.TimeUsed}, &clockJSON, &m.CreatedAt); err != nil {
			return nil, err
		}
		if clockJSON != nil {
			m.Clock = new(clock.State)
			if err := json.Unmarshal(clockJSON, m.Clock); err != nil {
				return nil, fmt.Errorf("postgres: game %d move %d: stored clock: %w", gameID, m.Seq, err)
			}
		}
		moves = append(moves, &m)
	}
	return moves, rows.Err()
}

// AppendMove implements tengen.GameService. It applies no rules of Go:
// package play validates a move before it calls AppendMove. Moves of
// different games that arrive together share one commit (see inBatch).
func (s *GameService) AppendMove(ctx context.Context, userID int64, m *tengen.GameMove, upd tengen.GameUpdate) (*tengen.Game, error) {
	var g *tengen.Game
	var mv tengen.GameMove
	var sent *aheadWrite
	err := s.db.inBatchAhead(ctx, func(tx *Tx) {
		sent = queueAppendMove(tx, userID, *m, upd)
	}, func(ctx context.Context, tx *Tx) (err error) {
		g, mv, err = appendMove(ctx, tx, sent, userID, *m, upd)
		if err != nil {
			return err
		}
		return s.rateGame(ctx, tx, g)
	})
	if err != nil {
		return nil, s.db.fenced(ctx, m.GameID, err)
	}
	*m = mv
	return g, nil
}

// AppendMoves implements tengen.GameService: the moves are appended one
// after the other in one savepoint of the batch, so that either all or none
// are stored.
func (s *GameService) AppendMoves(ctx context.Context, userID int64, ms []*tengen.GameMove, upd tengen.GameUpdate) (*tengen.Game, error) {
	if len(ms) == 0 {
		return nil, tengen.Errorf(tengen.EINVALID, "No moves to store.")
	}
	var g *tengen.Game
	out := make([]tengen.GameMove, len(ms))
	err := s.db.inBatch(ctx, func(ctx context.Context, tx *Tx) (err error) {
		for i, m := range ms {
			g, out[i], err = appendMove(ctx, tx, nil, userID, *m, upd)
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, s.db.fenced(ctx, ms[0].GameID, err)
	}
	for i, m := range ms {
		*m = out[i]
	}
	return g, nil
}

// appendMove stores mv under the integrity guards of the schema, in one
// statement (appendMoveWrite) and so one round trip: the UPDATE of games
// takes effect only at the expected move count, while the game is not
// finished, when userID plays in it and, once this instance has
// registered, while it owns the game (ownerGuard) (and, as it locks the
// row, a concurrent transaction's move waits and then finds the count
// changed); the move, its colour derived from the updated row, and the
// play record are written only if it did; the moves table's primary key
// allows one move per number, and the CHECK constraints refuse malformed
// values (see constraintError). The game is read again only when the guard
// refused, to tell why (refusedMove). When sent holds the statement's
// result from the batch's pipeline, appendMove takes it from there.
func appendMove(ctx context.Context, tx *Tx, sent *aheadWrite, userID int64, mv tengen.GameMove, upd tengen.GameUpdate) (*tengen.Game, tengen.GameMove, error) {
	var g *tengen.Game
	var err error
	if sent.sentIn(tx) {
		g, err = sent.g, sent.err
	} else {
		var args []any
		if args, err = appendMoveArgs(tx, userID, mv, upd); err != nil {
			return nil, mv, err
		}
		g, err = appendMoveWrite.run(ctx, tx, mv.GameID, upd.Record, args...)
	}
	if noRows(err) {
		return nil, mv, refusedMove(ctx, tx, userID, mv)
	} else if err != nil {
		return nil, mv, err
	}
	mv.Color = g.ColorOf(userID)
	mv.CreatedAt = tx.now
	mv.TimeUsed = mv.TimeUsed.Truncate(time.Millisecond)
	return g, mv, nil
}

// queueAppendMove queues appendMove's statement in tx (aheadWrite).
func queueAppendMove(tx *Tx, userID int64, mv tengen.GameMove, upd tengen.GameUpdate) *aheadWrite {
	args, err := appendMoveArgs(tx, userID, mv, upd)
	if err != nil {
		return &aheadWrite{tx: tx, sent: true, err: err}
	}
	return appendMoveWrite.queue(tx, mv.GameID, upd.Record, args...)
}

// appendMoveArgs returns appendMoveWrite's arguments for mv.
func appendMoveArgs(tx *Tx, userID int64, mv tengen.GameMove, upd tengen.GameUpdate) ([]any, error) {
	clockJSON, err := jsonArg(mv.Clock)
	if err != nil {
		return nil, err
	}
	return []any{mv.Seq, sqlrow.ColorText(upd.ToMove), string(upd.Status), upd.Result, tx.now,
		mv.GameID, mv.Seq - 1, userID, string(mv.Kind), mv.X, mv.Y, mv.TimeUsed.Milliseconds(), clockJSON}, nil
}

// appendMoveWrite is appendMove's statement. Its arguments: the move
// number, to_move, status, result, the time, the game, the move count
// before, the mover, and the move's kind, x, y, time used and clock.
var appendMoveWrite = newGameWrite(`UPDATE games SET move_count = $1, to_move = $2, status = $3, result = $4, updated_at = $5
	WHERE id = $6 AND move_count = $7 AND status <> 'finished' AND $8 IN (black_id, white_id)`, 13,
	`INSERT INTO moves (game_id, seq, color, kind, x, y, time_used_ms, clock, created_at)
	SELECT id, $1, CASE WHEN black_id = $8 THEN 'black' ELSE 'white' END, $9, $10, $11, $12, $13, $5 FROM g`)

// refusedMove returns the error for mv when appendMove's guard refused it,
// from the game as it is now; the checks and messages are those of the
// guard, in the order a caller needs them. The sequence number is reported
// before the end of the game, so that a repeated submission of a move that
// was already applied is reported as such, whatever happened since.
func refusedMove(ctx context.Context, tx *Tx, userID int64, mv tengen.GameMove) error {
	g, err := findGameByID(ctx, tx, mv.GameID)
	if err != nil {
		return err
	}
	if g.ColorOf(userID) == goban.Empty {
		return tengen.Errorf(tengen.EFORBIDDEN, "You are not playing in this game.")
	}
	if mv.Seq != g.MoveCount+1 {
		return tengen.Errorf(tengen.ECONFLICT, "Move %d is not the next move; the game is at move %d.", mv.Seq, g.MoveCount)
	}
	return tengen.Errorf(tengen.ECONFLICT, "The game is over.")
}

// gameWrite is a guarded write of the game path as one statement: the
// UPDATE of games that carries the guards, the writes that belong to it
// (which take their rows from its result, g, so that a refused UPDATE
// writes nothing and leaves the transaction usable), and the read of the
// updated game with both players, as gameByIDQuery reads it. It returns
// pgx.ErrNoRows when the guard refused. The texts are made once, for each
// combination of a play record (upserted from the ten arguments after the
// UPDATE's) and the owner's fence (the last argument).
type gameWrite struct {
	texts [2][2]string // [record][fenced]
}

// newGameWrite returns the gameWrite of update, a guarded UPDATE of games
// on the arguments $1 to $n without RETURNING, and with, the statements
// that follow it (each written from "FROM g"; may be empty).
func newGameWrite(update string, n int, with string) *gameWrite {
	w := &gameWrite{}
	for rec := range 2 {
		for fenced := range 2 {
			args := n + 10*rec
			q := "WITH g AS (" + update
			if fenced == 1 {
				q += ownerGuard(args + 1)
			}
			q += "\n\tRETURNING " + gameColumns + ")"
			if with != "" {
				q += ", m AS (" + with + ")"
			}
			if rec == 1 {
				q += ", r AS (INSERT INTO play_records (" + playRecordColumns + ") SELECT " + placeholders(n+1, 10) + " FROM g" + playRecordUpsert + ")"
			}
			w.texts[rec][fenced] = q + "\nSELECT " + prefixed("g.", gameColumns) + ", " + prefixed("b.", userColumns) + ", " + prefixed("w.", userColumns) +
				" FROM g JOIN users b ON b.id = g.black_id JOIN users w ON w.id = g.white_id"
		}
	}
	return w
}

// run runs the write on game gameID with args, the UPDATE's and its
// statements', and rec (if not nil) as the game's new play record, and
// returns the updated game.
func (w *gameWrite) run(ctx context.Context, tx *Tx, gameID int64, rec *tengen.PlayRecord, args ...any) (*tengen.Game, error) {
	q, args, err := w.statement(tx, gameID, rec, args)
	if err != nil {
		return nil, err
	}
	g, err := scanGameWithPlayers(tx.QueryRow(ctx, q, args...))
	return g, constraintError(err)
}

// queue queues the write in tx, as run would run it, to be sent with the
// other writes of its batch (aheadWrite).
func (w *gameWrite) queue(tx *Tx, gameID int64, rec *tengen.PlayRecord, args ...any) *aheadWrite {
	a := &aheadWrite{tx: tx}
	a.q, a.args, a.err = w.statement(tx, gameID, rec, args)
	tx.ahead = append(tx.ahead, a)
	return a
}

// statement returns the text and the arguments of the write (see run).
func (w *gameWrite) statement(tx *Tx, gameID int64, rec *tengen.PlayRecord, args []any) (string, []any, error) {
	var r int
	if rec != nil {
		r = 1
		recArgs, err := playRecordArgs(gameID, rec, tx.now)
		if err != nil {
			return "", nil, err
		}
		args = append(args, recArgs...)
	}
	var fenced int
	if me := tx.db.instance.Load(); me != 0 {
		fenced = 1
		args = append(args, me)
	}
	return w.texts[r][fenced], args, nil
}

// FindPlayRecord implements tengen.GameService.
func (s *GameService) FindPlayRecord(ctx context.Context, gameID int64) (*tengen.PlayRecord, error) {
	tx, err := s.db.BeginTx(ctx, false)
	if err != nil {
		return nil, err
	}
	defer tx.rollback()
	var found bool
	if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM games WHERE id = $1)`, gameID).Scan(&found); err != nil {
		return nil, err
	} else if !found {
		return nil, tengen.Errorf(tengen.ENOTFOUND, "Game not found.")
	}
	rec := &tengen.PlayRecord{}
	var clockJSON, dead, resumptions []byte
	err = tx.QueryRow(ctx, `SELECT clock, proposal_seq, dead, accepted_black, accepted_white, resumptions, takeback_seq, comforts FROM play_records WHERE game_id = $1`, gameID).
		Scan(&clockJSON, &rec.ProposalSeq, &dead, &rec.AcceptedBlack, &rec.AcceptedWhite, &resumptions, &rec.TakebackSeq, sqlrow.ComfortsDest(rec))
	if noRows(err) {
		return rec, nil
	} else if err != nil {
		return nil, err
	}
	if clockJSON != nil {
		rec.Clock = new(clock.GameClock)
		if err := json.Unmarshal(clockJSON, rec.Clock); err != nil {
			return nil, fmt.Errorf("postgres: game %d: stored clock: %w", gameID, err)
		}
	}
	if err := json.Unmarshal(dead, &rec.Dead); err != nil {
		return nil, err
	}
	if err := json.Unmarshal(resumptions, &rec.Resumptions); err != nil {
		return nil, err
	}
	return rec, nil
}

// UpdateGame implements tengen.GameService. Like AppendMove it applies no
// rules of Go, and it shares commits with AppendMove (see inBatch).
func (s *GameService) UpdateGame(ctx context.Context, gameID int64, moveCount int, upd tengen.GameUpdate) (*tengen.Game, error) {
	var g *tengen.Game
	var sent *aheadWrite
	err := s.db.inBatchAhead(ctx, func(tx *Tx) {
		sent = updateGameWrite.queue(tx, gameID, upd.Record, updateGameArgs(tx, gameID, moveCount, upd)...)
	}, func(ctx context.Context, tx *Tx) (err error) {
		g, err = updateGame(ctx, tx, sent, gameID, moveCount, upd)
		if err != nil {
			return err
		}
		return s.rateGame(ctx, tx, g)
	})
	if err != nil {
		return nil, s.db.fenced(ctx, gameID, err)
	}
	return g, nil
}

// TakeBack implements tengen.GameService: the guard of UpdateGame, then the
// last move is deleted and the move count lowered in the same transaction.
func (s *GameService) TakeBack(ctx context.Context, gameID int64, moveCount int, upd tengen.GameUpdate) (*tengen.Game, error) {
	if moveCount < 1 {
		return nil, tengen.Errorf(tengen.ECONFLICT, "There is no move to take back.")
	}
	var g *tengen.Game
	err := s.db.inBatch(ctx, func(ctx context.Context, tx *Tx) (err error) {
		g, err = updateGame(ctx, tx, nil, gameID, moveCount, upd)
		if err != nil {
			return err
		}
		if _, err := tx.pipeline(ctx,
			statement{`DELETE FROM moves WHERE game_id = $1 AND seq = $2`, []any{gameID, moveCount}},
			statement{`UPDATE games SET move_count = $1, updated_at = $2 WHERE id = $3`, []any{moveCount - 1, tx.now, gameID}}); err != nil {
			return err
		}
		g.MoveCount, g.UpdatedAt = moveCount-1, tx.now
		return nil
	})
	if err != nil {
		return nil, s.db.fenced(ctx, gameID, err)
	}
	return g, nil
}

// updateGame applies upd under the same guards as appendMove, in one
// statement (updateGameWrite): the game must still be at moveCount and not
// finished. Only a change of the game itself counts as an update for the
// lists ordered by updated_at; clock checkpoints and proposals do not, so
// the UPDATE compares the new turn, status and result with the stored ones.
// When sent holds the statement's result from the batch's pipeline,
// updateGame takes it from there.
func updateGame(ctx context.Context, tx *Tx, sent *aheadWrite, gameID int64, moveCount int, upd tengen.GameUpdate) (*tengen.Game, error) {
	var g *tengen.Game
	var err error
	if sent.sentIn(tx) {
		g, err = sent.g, sent.err
	} else {
		g, err = updateGameWrite.run(ctx, tx, gameID, upd.Record, updateGameArgs(tx, gameID, moveCount, upd)...)
	}
	if !noRows(err) {
		return g, err
	}
	// Refused: the game as it is now tells why.
	if g, err = findGameByID(ctx, tx, gameID); err != nil {
		return nil, err
	}
	if g.Status == tengen.GameFinished {
		return nil, tengen.Errorf(tengen.ECONFLICT, "The game is over.")
	}
	return nil, tengen.Errorf(tengen.ECONFLICT, "The game changed; reload it.")
}

// updateGameArgs returns updateGameWrite's arguments.
func updateGameArgs(tx *Tx, gameID int64, moveCount int, upd tengen.GameUpdate) []any {
	return []any{sqlrow.ColorText(upd.ToMove), string(upd.Status), upd.Result, tx.now, gameID, moveCount}
}

// updateGameWrite is updateGame's statement. Its arguments: to_move,
// status, result, the time, the game and the move count. The right-hand
// sides of SET see the row before the UPDATE.
var updateGameWrite = newGameWrite(`UPDATE games SET to_move = $1, status = $2, result = $3,
		updated_at = CASE WHEN to_move <> $1 OR status <> $2 OR result <> $3 THEN $4 ELSE updated_at END
	WHERE id = $5 AND move_count = $6 AND status <> 'finished'`, 6, "")

// playRecordColumns are the columns of play_records that playRecordArgs
// gives, and playRecordUpsert the conflict clause that replaces a stored
// record.
const (
	playRecordColumns = `game_id, clock, proposal_seq, dead, accepted_black, accepted_white, resumptions, takeback_seq, comforts, updated_at`
	playRecordUpsert  = `
		ON CONFLICT (game_id) DO UPDATE SET clock = excluded.clock, proposal_seq = excluded.proposal_seq, dead = excluded.dead,
			accepted_black = excluded.accepted_black, accepted_white = excluded.accepted_white,
			resumptions = excluded.resumptions, takeback_seq = excluded.takeback_seq, comforts = excluded.comforts, updated_at = excluded.updated_at`
)

// savePlayRecord returns the statement that writes rec as the game's play
// record, replacing the old one if there is one.
func savePlayRecord(gameID int64, rec *tengen.PlayRecord, now time.Time) (statement, error) {
	args, err := playRecordArgs(gameID, rec, now)
	if err != nil {
		return statement{}, err
	}
	return statement{`INSERT INTO play_records (` + playRecordColumns + `) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)` + playRecordUpsert, args}, nil
}

// playRecordArgs returns the values of playRecordColumns for rec.
func playRecordArgs(gameID int64, rec *tengen.PlayRecord, now time.Time) ([]any, error) {
	deadJSON, resJSON, err := sqlrow.PlayRecordLists(rec)
	if err != nil {
		return nil, err
	}
	clockJSON, err := jsonArg(rec.Clock)
	if err != nil {
		return nil, err
	}
	comforts, err := sqlrow.ComfortsJSON(rec)
	if err != nil {
		return nil, err
	}
	return []any{gameID, clockJSON, rec.ProposalSeq, deadJSON, rec.AcceptedBlack, rec.AcceptedWhite, resJSON, rec.TakebackSeq, comforts, now}, nil
}

// gameColumns are the columns findGames reads.
const gameColumns = `id, challenge_id, black_id, white_id, ` + settingsColumns + `, status, to_move, move_count, result, created_at, updated_at`

// gameByIDQuery reads a game with both players in one round trip, for the
// lookups of the move path.
var gameByIDQuery = `SELECT ` + prefixed("g.", gameColumns) + `, ` + prefixed("b.", userColumns) + `, ` + prefixed("w.", userColumns) + `
	FROM games g JOIN users b ON b.id = g.black_id JOIN users w ON w.id = g.white_id WHERE g.id = $1`

func findGameByID(ctx context.Context, tx *Tx, id int64) (*tengen.Game, error) {
	g, err := scanGameWithPlayers(tx.QueryRow(ctx, gameByIDQuery, id))
	if noRows(err) {
		return nil, tengen.Errorf(tengen.ENOTFOUND, "Game not found.")
	}
	return g, err
}

// scanGameWithPlayers scans a row of gameColumns and both players'
// userColumns, as gameByIDQuery and gameWrite return them.
func scanGameWithPlayers(row pgx.Row) (*tengen.Game, error) {
	var g tengen.Game
	var black, white tengen.User
	dest, finish := gameDest(&g)
	dest = append(dest, userFields(&black)...)
	dest = append(dest, userFields(&white)...)
	if err := row.Scan(dest...); err != nil {
		return nil, err
	}
	finish()
	g.Black, g.White = &black, &white
	return &g, nil
}

// prefixed returns the comma-separated columns with prefix before each.
func prefixed(prefix, columns string) string {
	return prefix + strings.ReplaceAll(columns, ", ", ", "+prefix)
}

// gameDest returns the scan destinations of gameColumns; call finish after
// the scan.
func gameDest(g *tengen.Game) (dest []any, finish func()) {
	var challenge *int64
	sd, finishSettings := settingsDest(&g.Settings)
	dest = append([]any{&g.ID, &challenge, &g.BlackID, &g.WhiteID}, sd...)
	dest = append(dest, (*string)(&g.Status), sqlrow.Text{V: &g.ToMove}, &g.MoveCount, &g.Result, &g.CreatedAt, &g.UpdatedAt)
	return dest, func() {
		finishSettings()
		if challenge != nil {
			g.ChallengeID = *challenge
		}
	}
}

func findGames(ctx context.Context, tx *Tx, filter tengen.GameFilter) ([]*tengen.Game, int, error) {
	var c conditions
	if v := filter.ID; v != nil {
		c.add("id = ?", *v)
	}
	if v := filter.UserID; v != nil {
		c.add("(black_id = ? OR white_id = ?)", *v, *v)
	}
	if len(filter.Status) > 0 {
		st := make([]string, len(filter.Status))
		for i, s := range filter.Status {
			st[i] = string(s)
		}
		c.add("status = ANY(?)", st)
	}
	cond := c.String()

	// Counting costs a second scan; lookups by id (every write path) skip it.
	total := -1
	if filter.ID == nil {
		if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM games WHERE `+cond, c.args...).Scan(&total); err != nil {
			return nil, 0, err
		}
	}
	order := "updated_at DESC, id DESC"
	if v := filter.UserID; v != nil {
		// Games waiting for the user first (Game.IsTurnOf), then the rest.
		p := c.next(*v)
		order = `CASE WHEN status = 'scoring' THEN 0
			WHEN status = 'playing' AND ((to_move = 'black' AND black_id = ` + p + `) OR (to_move = 'white' AND white_id = ` + p + `)) THEN 0
			ELSE 1 END, ` + order
	}
	rows, err := tx.Query(ctx, `SELECT `+gameColumns+` FROM games WHERE `+cond+` ORDER BY `+order+limitOffset(filter.Limit, filter.Offset), c.args...)
	if err != nil {
		return nil, 0, err
	}
	defer rows.Close()
	var gs []*tengen.Game
	var ids []int64
	for rows.Next() {
		var g tengen.Game
		dest, finish := gameDest(&g)
		if err := rows.Scan(dest...); err != nil {
			return nil, 0, err
		}
		finish()
		gs = append(gs, &g)
		ids = append(ids, g.BlackID, g.WhiteID)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, err
	}
	rows.Close()
	users, err := findUsers(ctx, tx, ids)
	if err != nil {
		return nil, 0, err
	}
	for _, g := range gs {
		g.Black, g.White = users[g.BlackID], users[g.WhiteID]
	}
	if total < 0 {
		total = len(gs)
	}
	return gs, total, nil
}

// jsonArg is the stored form of an optional JSON value: its JSON text, or
// nil (NULL) for nil.
func jsonArg[T any](v *T) (any, error) {
	if v == nil {
		return nil, nil
	}
	return sqlrow.JSONText(v)
}
