package postgres

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

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
	err := s.db.inBatch(ctx, func(ctx context.Context, tx *Tx) (err error) {
		g, mv, err = appendMove(ctx, tx, userID, *m, upd)
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
			g, out[i], err = appendMove(ctx, tx, userID, *m, upd)
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

// appendMove stores mv under the integrity guards of the schema: the games
// UPDATE takes effect only at the expected move count, while the game is
// not finished and, once this instance has registered, while it owns the
// game (ownerGuard) (and, as it locks the row, a concurrent transaction's move
// waits and then finds the count changed), the moves table's primary key
// allows one move per number, and its CHECK constraints refuse malformed
// values (see constraintError).
func appendMove(ctx context.Context, tx *Tx, userID int64, mv tengen.GameMove, upd tengen.GameUpdate) (*tengen.Game, tengen.GameMove, error) {
	g, err := findGameByID(ctx, tx, mv.GameID)
	if err != nil {
		return nil, mv, err
	}
	mv.Color = g.ColorOf(userID)
	if mv.Color == goban.Empty {
		return nil, mv, tengen.Errorf(tengen.EFORBIDDEN, "You are not playing in this game.")
	}
	clockJSON, err := jsonArg(mv.Clock)
	if err != nil {
		return nil, mv, err
	}
	// The statements go in one round trip. The move's INSERT runs even
	// when the UPDATE's guard refused the move; the caller's savepoint
	// then undoes it with the rest (see inBatch).
	fence, args := tx.ownerGuard([]any{mv.Seq, sqlrow.ColorText(upd.ToMove), string(upd.Status), upd.Result, tx.now, g.ID, mv.Seq - 1})
	stmts := []statement{
		{`UPDATE games SET move_count = $1, to_move = $2, status = $3, result = $4, updated_at = $5
		WHERE id = $6 AND move_count = $7 AND status <> 'finished'` + fence, args},
		{`INSERT INTO moves (game_id, seq, color, kind, x, y, time_used_ms, clock, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
			[]any{mv.GameID, mv.Seq, sqlrow.ColorText(mv.Color), string(mv.Kind), mv.X, mv.Y, mv.TimeUsed.Milliseconds(), clockJSON, tx.now}},
	}
	if upd.Record != nil {
		st, err := savePlayRecord(g.ID, upd.Record, tx.now)
		if err != nil {
			return nil, mv, err
		}
		stmts = append(stmts, st)
	}
	n, err := tx.pipeline(ctx, stmts...)
	if len(n) == 0 {
		return nil, mv, err // the UPDATE itself failed
	}
	if n[0] != 1 {
		// The sequence number is reported first so that a repeated
		// submission of a move that was already applied is reported as
		// such, whatever happened since.
		if mv.Seq != g.MoveCount+1 {
			return nil, mv, tengen.Errorf(tengen.ECONFLICT, "Move %d is not the next move; the game is at move %d.", mv.Seq, g.MoveCount)
		}
		return nil, mv, tengen.Errorf(tengen.ECONFLICT, "The game is over.")
	}
	if err != nil {
		return nil, mv, err
	}
	mv.CreatedAt = tx.now
	g.MoveCount, g.ToMove, g.Status, g.Result, g.UpdatedAt = mv.Seq, upd.ToMove, upd.Status, upd.Result, tx.now
	mv.TimeUsed = mv.TimeUsed.Truncate(time.Millisecond)
	return g, mv, nil
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
	err := s.db.inBatch(ctx, func(ctx context.Context, tx *Tx) (err error) {
		g, err = updateGame(ctx, tx, gameID, moveCount, upd)
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
		g, err = updateGame(ctx, tx, gameID, moveCount, upd)
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

// updateGame applies upd under the same guards as appendMove: the game must
// still be at moveCount and not finished.
func updateGame(ctx context.Context, tx *Tx, gameID int64, moveCount int, upd tengen.GameUpdate) (*tengen.Game, error) {
	g, err := findGameByID(ctx, tx, gameID)
	if err != nil {
		return nil, err
	}
	// Only a change of the game itself counts as an update for the lists
	// ordered by updated_at; clock checkpoints and proposals do not.
	updated := g.UpdatedAt
	if g.ToMove != upd.ToMove || g.Status != upd.Status || g.Result != upd.Result {
		updated = tx.now
	}
	fence, args := tx.ownerGuard([]any{sqlrow.ColorText(upd.ToMove), string(upd.Status), upd.Result, updated, g.ID, moveCount})
	stmts := []statement{{`UPDATE games SET to_move = $1, status = $2, result = $3, updated_at = $4
		WHERE id = $5 AND move_count = $6 AND status <> 'finished'` + fence, args}}
	if upd.Record != nil {
		st, err := savePlayRecord(g.ID, upd.Record, tx.now)
		if err != nil {
			return nil, err
		}
		stmts = append(stmts, st)
	}
	// One round trip; the caller's savepoint undoes the play record if
	// the UPDATE's guard refused the change.
	n, err := tx.pipeline(ctx, stmts...)
	if len(n) == 0 {
		return nil, err
	}
	if n[0] != 1 {
		if g.Status == tengen.GameFinished {
			return nil, tengen.Errorf(tengen.ECONFLICT, "The game is over.")
		}
		return nil, tengen.Errorf(tengen.ECONFLICT, "The game changed; reload it.")
	}
	if err != nil {
		return nil, err
	}
	g.ToMove, g.Status, g.Result, g.UpdatedAt = upd.ToMove, upd.Status, upd.Result, updated
	return g, nil
}

// savePlayRecord returns the statement that writes rec as the game's play
// record, replacing the old one if there is one.
func savePlayRecord(gameID int64, rec *tengen.PlayRecord, now time.Time) (statement, error) {
	deadJSON, resJSON, err := sqlrow.PlayRecordLists(rec)
	if err != nil {
		return statement{}, err
	}
	clockJSON, err := jsonArg(rec.Clock)
	if err != nil {
		return statement{}, err
	}
	comforts, err := sqlrow.ComfortsJSON(rec)
	if err != nil {
		return statement{}, err
	}
	return statement{`INSERT INTO play_records (game_id, clock, proposal_seq, dead, accepted_black, accepted_white, resumptions, takeback_seq, comforts, updated_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
		ON CONFLICT (game_id) DO UPDATE SET clock = excluded.clock, proposal_seq = excluded.proposal_seq, dead = excluded.dead,
			accepted_black = excluded.accepted_black, accepted_white = excluded.accepted_white,
			resumptions = excluded.resumptions, takeback_seq = excluded.takeback_seq, comforts = excluded.comforts, updated_at = excluded.updated_at`,
		[]any{gameID, clockJSON, rec.ProposalSeq, deadJSON, rec.AcceptedBlack, rec.AcceptedWhite, resJSON, rec.TakebackSeq, comforts, now}}, nil
}

// gameColumns are the columns findGames reads.
const gameColumns = `id, challenge_id, black_id, white_id, ` + settingsColumns + `, status, to_move, move_count, result, created_at, updated_at`

// gameByIDQuery reads a game with both players in one round trip, for the
// lookups of the move path.
var gameByIDQuery = `SELECT ` + prefixed("g.", gameColumns) + `, ` + prefixed("b.", userColumns) + `, ` + prefixed("w.", userColumns) + `
	FROM games g JOIN users b ON b.id = g.black_id JOIN users w ON w.id = g.white_id WHERE g.id = $1`

func findGameByID(ctx context.Context, tx *Tx, id int64) (*tengen.Game, error) {
	var g tengen.Game
	var black, white tengen.User
	dest, finish := gameDest(&g)
	dest = append(dest, userFields(&black)...)
	dest = append(dest, userFields(&white)...)
	err := tx.QueryRow(ctx, gameByIDQuery, id).Scan(dest...)
	if noRows(err) {
		return nil, tengen.Errorf(tengen.ENOTFOUND, "Game not found.")
	} else if err != nil {
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
