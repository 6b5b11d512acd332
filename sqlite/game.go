package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
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

// GameService stores games and moves in SQLite. The move or state change
// that finishes a rated game updates its players' ratings in the same
// transaction (see rateFinish).
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
	defer tx.Rollback()
	return findGameByID(ctx, tx, id)
}

// FindGames implements tengen.GameService.
func (s *GameService) FindGames(ctx context.Context, filter tengen.GameFilter) ([]*tengen.Game, int, error) {
	tx, err := s.db.BeginTx(ctx, false)
	if err != nil {
		return nil, 0, err
	}
	defer tx.Rollback()
	return findGames(ctx, tx, filter)
}

// CreateGameFromChallenge implements tengen.GameService.
func (s *GameService) CreateGameFromChallenge(ctx context.Context, challengeID, userID int64, rec *tengen.PlayRecord) (*tengen.Game, error) {
	tx, err := s.db.BeginTx(ctx, true)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	c, err := findChallengeByID(ctx, tx, challengeID)
	if err != nil {
		return nil, err
	}
	if err := c.CanAccept(userID); err != nil {
		return nil, err
	}
	acceptor, err := findUser(ctx, tx, "id = ?", userID)
	if err != nil {
		return nil, err
	}
	set, err := sqlrow.GameSettings(c, acceptor, rec)
	if err != nil {
		return nil, err
	}
	id, err := tx.nextID(ctx, "games")
	if err != nil {
		return nil, err
	}
	g := &tengen.Game{ID: id, ChallengeID: c.ID, Settings: set, Status: tengen.GamePlaying,
		ToMove: set.FirstToMove(), CreatedAt: tx.now, UpdatedAt: tx.now}
	g.BlackID, g.WhiteID = set.AssignColors(c.ChallengerID, userID, s.db.Coin)
	args := append([]any{g.ID, g.ChallengeID, g.BlackID, g.WhiteID}, settingsArgs(g.Settings)...)
	args = append(args, string(g.Status), sqlrow.ColorText(g.ToMove), 0, "", formatTime(tx.now), formatTime(tx.now))
	if _, err := tx.ExecContext(ctx, `INSERT INTO games (id, challenge_id, black_id, white_id, `+settingsColumns+`, status, to_move, move_count, result, created_at, updated_at)
		VALUES (?, ?, ?, ?, `+settingsPlaceholders+`, ?, ?, ?, ?, ?, ?)`, args...); err != nil {
		return nil, err
	}
	if err := setChallengeStatus(ctx, tx, c, tengen.ChallengeAccepted, g.ID); err != nil {
		return nil, err
	}
	if rec != nil {
		if err := savePlayRecord(ctx, tx, g.ID, rec); err != nil {
			return nil, err
		}
	}
	users, err := findUsers(ctx, tx, []int64{g.BlackID, g.WhiteID})
	if err != nil {
		return nil, err
	}
	g.Black, g.White = users[g.BlackID], users[g.WhiteID]
	return g, tx.Commit()
}

// FindMoves implements tengen.GameService.
func (s *GameService) FindMoves(ctx context.Context, gameID int64, afterSeq int) ([]*tengen.GameMove, error) {
	tx, err := s.db.BeginTx(ctx, false)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	if _, err := findGameByID(ctx, tx, gameID); err != nil {
		return nil, err
	}
	rows, err := tx.QueryContext(ctx, `SELECT seq, color, kind, x, y, time_used_ms, clock, created_at FROM moves
		WHERE game_id = ? AND seq > ? ORDER BY seq`, gameID, afterSeq)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	moves := []*tengen.GameMove{}
	for rows.Next() {
		m := tengen.GameMove{GameID: gameID}
		var clockJSON string
		if err := rows.Scan(&m.Seq, sqlrow.Text{V: &m.Color}, (*string)(&m.Kind), &m.X, &m.Y, sqlrow.Millis{D: &m.TimeUsed}, &clockJSON, timeText{&m.CreatedAt}); err != nil {
			return nil, err
		}
		if clockJSON != "" {
			m.Clock = new(clock.State)
			if err := json.Unmarshal([]byte(clockJSON), m.Clock); err != nil {
				return nil, fmt.Errorf("sqlite: game %d move %d: stored clock: %w", gameID, m.Seq, err)
			}
		}
		moves = append(moves, &m)
	}
	return moves, rows.Err()
}

// AppendMove implements tengen.GameService. It applies no rules of Go:
// package play validates a move before it calls AppendMove. Moves of
// different games that arrive together share one commit (see inBatch).
//
// The group commit runs the writes of a batch one after the other on one
// goroutine, so that what a write does there is the serial part of every
// move. AppendMove therefore reads the game and encodes the clocks before
// it queues (see prepareMove); in the transaction the guarded UPDATE of
// appendMove refuses the move if the game changed in between.
func (s *GameService) AppendMove(ctx context.Context, userID int64, m *tengen.GameMove, upd tengen.GameUpdate) (*tengen.Game, error) {
	pre, err := s.prepareMove(ctx, m, upd)
	if err != nil {
		return nil, err
	}
	var g *tengen.Game
	var mv tengen.GameMove
	err = s.db.inBatch(ctx, func(ctx context.Context, tx *Tx) (err error) {
		g, mv, err = s.appendMove(ctx, tx, userID, *m, upd, pre)
		return err
	})
	if err != nil {
		return nil, err
	}
	*m = mv
	s.wrote(g, pre)
	return g, nil
}

// wrote updates the game cache after a committed write that returned g:
// pre's game, updated by the write, is cached for the next move (a game
// read in the transaction is not: its version is unknown). A finished
// game is dropped, and the end of a rated game changes its players' rows.
// pre may be nil.
func (s *GameService) wrote(g *tengen.Game, pre *preparedMove) {
	switch {
	case g.Status == tengen.GameFinished:
		s.db.games.drop(g.ID)
		if g.Settings.Rated {
			s.db.games.invalidateUsers(g.BlackID, g.WhiteID)
		}
	case pre != nil && pre.game == g:
		s.db.games.put(g, pre.version)
	}
}

// preparedMove is what AppendMove prepares for appendMove before it queues
// for the writer.
type preparedMove struct {
	// game is the game as read before the write, or a copy of the cached
	// one, at the game cache's version; nil: appendMove reads it in the
	// transaction.
	game    *tengen.Game
	version uint64
	// clock is the move's clock as stored (jsonText).
	clock string
	// record is upd.Record's columns, nil when upd has no record.
	record *recordArgs
}

// prepareMove takes m's game from the game cache or reads it on the
// read-only pool, and encodes the move's clock and upd's record. A move that finishes the game gets no game read
// here: the ratings it stores must come from the players' rows as the
// transaction reads them (see rateFinish).
func (s *GameService) prepareMove(ctx context.Context, m *tengen.GameMove, upd tengen.GameUpdate) (*preparedMove, error) {
	pre := &preparedMove{}
	var err error
	if pre.clock, err = jsonText(m.Clock); err != nil {
		return nil, err
	}
	if upd.Record != nil {
		if pre.record, err = playRecordArgs(upd.Record); err != nil {
			return nil, err
		}
	}
	if upd.Status == tengen.GameFinished {
		return pre, nil
	}
	if pre.game, pre.version = s.db.games.get(m.GameID); pre.game != nil {
		return pre, nil
	}
	// A failed read (a missing game, say) is left to the transaction,
	// which reports it as before.
	version := s.db.games.begin()
	if g, err := s.FindGameByID(ctx, m.GameID); err == nil {
		pre.game, pre.version = g, version
	}
	return pre, nil
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
			g, out[i], err = s.appendMove(ctx, tx, userID, *m, upd, nil)
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for i, m := range ms {
		*m = out[i]
	}
	s.wrote(g, nil)
	return g, nil
}

// The statements of the move path (see hot).
var (
	// appendMoveQuery takes effect only at the move count before the new
	// move and while the game is not finished: the sequence guard.
	appendMoveQuery = hot(`UPDATE games SET move_count = ?, to_move = ?, status = ?, result = ?, updated_at = ?
		WHERE id = ? AND move_count = ? AND status <> 'finished'`)
	insertMoveQuery = hot(`INSERT INTO moves (game_id, seq, color, kind, x, y, time_used_ms, clock, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	// updateGameQuery has the guard of appendMoveQuery without a move.
	updateGameQuery = hot(`UPDATE games SET to_move = ?, status = ?, result = ?, updated_at = ?
		WHERE id = ? AND move_count = ? AND status <> 'finished'`)
	// The same two with the ratings of a rated game they finish (see
	// rateFinish).
	ratedMoveQuery = hot(`UPDATE games SET move_count = ?, to_move = ?, status = ?, result = ?, updated_at = ?, ` + ratingColumns + `
		WHERE id = ? AND move_count = ? AND status <> 'finished'`)
	ratedUpdateQuery = hot(`UPDATE games SET to_move = ?, status = ?, result = ?, updated_at = ?, ` + ratingColumns + `
		WHERE id = ? AND move_count = ? AND status <> 'finished'`)
	// savePlayRecordQuery is an upsert, which SQLite (3.24 and later) and
	// PostgreSQL both accept.
	savePlayRecordQuery = hot(`INSERT INTO play_records (game_id, clock, proposal_seq, dead, accepted_black, accepted_white, resumptions, takeback_seq, comforts, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (game_id) DO UPDATE SET clock = excluded.clock, proposal_seq = excluded.proposal_seq, dead = excluded.dead,
			accepted_black = excluded.accepted_black, accepted_white = excluded.accepted_white,
			resumptions = excluded.resumptions, takeback_seq = excluded.takeback_seq, comforts = excluded.comforts, updated_at = excluded.updated_at`)
	updatePlayRecordQuery = hot(`UPDATE play_records SET clock = ?, proposal_seq = ?, dead = ?, accepted_black = ?, accepted_white = ?,
		resumptions = ?, takeback_seq = ?, comforts = ?, updated_at = ? WHERE game_id = ?`)
	// gameByIDQuery is findGames' query for a lookup by id alone.
	gameByIDQuery = hot(`SELECT ` + gameColumns + ` FROM games WHERE id = ?`)
)

// appendMove stores mv under the integrity guards of the schema: the games
// UPDATE takes effect only at the expected move count and while the game is
// not finished, the moves table's primary key allows one move per number,
// and its CHECK constraints refuse malformed values (see constraintError).
// A move that finishes a rated game stores the players' new ratings with
// it (see rateFinish).
func (s *GameService) appendMove(ctx context.Context, tx *Tx, userID int64, mv tengen.GameMove, upd tengen.GameUpdate, pre *preparedMove) (*tengen.Game, tengen.GameMove, error) {
	var g *tengen.Game
	if pre != nil && pre.game != nil && pre.game.ID == mv.GameID {
		g = pre.game
	} else {
		var err error
		if g, err = findGameByID(ctx, tx, mv.GameID); err != nil {
			return nil, mv, err
		}
	}
	mv.Color = g.ColorOf(userID)
	if mv.Color == goban.Empty {
		return nil, mv, tengen.Errorf(tengen.EFORBIDDEN, "You are not playing in this game.")
	}
	rated, err := s.rateFinish(g, upd)
	if err != nil {
		return nil, mv, err
	}
	// One slice of arguments, made at its length: appending the guard's
	// two to it made a second.
	query, args := appendMoveQuery, []any{int64(mv.Seq), sqlrow.ColorText(upd.ToMove), string(upd.Status), upd.Result, tx.nowArg(), g.ID, int64(mv.Seq - 1)}
	if rated != nil {
		query, args = ratedMoveQuery, slices.Concat(args[:5], rated.args(), args[5:])
	}
	res, err := tx.ExecContext(ctx, query, args...)
	if err != nil {
		return nil, mv, err
	}
	if n, err := res.RowsAffected(); err != nil {
		return nil, mv, err
	} else if n != 1 {
		if pre != nil && pre.game == g {
			// Read before the write: the game as it is now tells why.
			if g, err = findGameByID(ctx, tx, mv.GameID); err != nil {
				return nil, mv, err
			}
		}
		// The sequence number is reported first so that a repeated
		// submission of a move that was already applied is reported as
		// such, whatever happened since.
		if mv.Seq != g.MoveCount+1 {
			return nil, mv, tengen.Errorf(tengen.ECONFLICT, "Move %d is not the next move; the game is at move %d.", mv.Seq, g.MoveCount)
		}
		return nil, mv, tengen.Errorf(tengen.ECONFLICT, "The game is over.")
	}
	mv.CreatedAt = tx.now
	var clockText string
	if pre != nil {
		clockText = pre.clock
	} else if clockText, err = jsonText(mv.Clock); err != nil {
		return nil, mv, err
	}
	if _, err := tx.ExecContext(ctx, insertMoveQuery,
		mv.GameID, int64(mv.Seq), sqlrow.ColorText(mv.Color), string(mv.Kind), int64(mv.X), int64(mv.Y), mv.TimeUsed.Milliseconds(), clockText, tx.nowArg()); err != nil {
		return nil, mv, err
	}
	if upd.Record != nil {
		rec := (*recordArgs)(nil)
		if pre != nil {
			rec = pre.record
		}
		if rec == nil {
			if rec, err = playRecordArgs(upd.Record); err != nil {
				return nil, mv, err
			}
		}
		if err := rec.save(ctx, tx, g.ID); err != nil {
			return nil, mv, err
		}
	}
	g.MoveCount, g.ToMove, g.Status, g.Result, g.UpdatedAt = mv.Seq, upd.ToMove, upd.Status, upd.Result, tx.now
	if rated != nil {
		rated.apply()
	}
	mv.TimeUsed = mv.TimeUsed.Truncate(time.Millisecond)
	return g, mv, nil
}

// FindPlayRecord implements tengen.GameService.
func (s *GameService) FindPlayRecord(ctx context.Context, gameID int64) (*tengen.PlayRecord, error) {
	tx, err := s.db.BeginTx(ctx, false)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM games WHERE id = ?`, gameID).Scan(&n); err != nil {
		return nil, err
	} else if n == 0 {
		return nil, tengen.Errorf(tengen.ENOTFOUND, "Game not found.")
	}
	rec := &tengen.PlayRecord{}
	var clockJSON, dead, resumptions string
	err = tx.QueryRowContext(ctx, `SELECT clock, proposal_seq, dead, accepted_black, accepted_white, resumptions, takeback_seq, comforts FROM play_records WHERE game_id = ?`, gameID).
		Scan(&clockJSON, &rec.ProposalSeq, &dead, &rec.AcceptedBlack, &rec.AcceptedWhite, &resumptions, &rec.TakebackSeq, sqlrow.ComfortsDest(rec))
	if errors.Is(err, sql.ErrNoRows) {
		return rec, nil
	} else if err != nil {
		return nil, err
	}
	if clockJSON != "" {
		rec.Clock = new(clock.GameClock)
		if err := json.Unmarshal([]byte(clockJSON), rec.Clock); err != nil {
			return nil, fmt.Errorf("sqlite: game %d: stored clock: %w", gameID, err)
		}
	}
	if err := json.Unmarshal([]byte(dead), &rec.Dead); err != nil {
		return nil, err
	}
	if err := json.Unmarshal([]byte(resumptions), &rec.Resumptions); err != nil {
		return nil, err
	}
	return rec, nil
}

// UpdateGame implements tengen.GameService. Like AppendMove it applies no
// rules of Go, and it shares commits with AppendMove (see inBatch).
func (s *GameService) UpdateGame(ctx context.Context, gameID int64, moveCount int, upd tengen.GameUpdate) (*tengen.Game, error) {
	var g *tengen.Game
	err := s.db.inBatch(ctx, func(ctx context.Context, tx *Tx) (err error) {
		g, err = s.updateGame(ctx, tx, gameID, moveCount, upd)
		return err
	})
	if err != nil {
		return nil, err
	}
	s.wrote(g, nil)
	return g, nil
}

// updateGame applies upd under the same guards as appendMove: the game must
// still be at moveCount and not finished. An update that finishes a rated
// game stores the players' new ratings with it (see rateFinish).
func (s *GameService) updateGame(ctx context.Context, tx *Tx, gameID int64, moveCount int, upd tengen.GameUpdate) (*tengen.Game, error) {
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
	rated, err := s.rateFinish(g, upd)
	if err != nil {
		return nil, err
	}
	query, args := updateGameQuery, []any{sqlrow.ColorText(upd.ToMove), string(upd.Status), upd.Result, formatTime(updated)}
	if rated != nil {
		query, args = ratedUpdateQuery, append(args, rated.args()...)
	}
	res, err := tx.ExecContext(ctx, query, append(args, g.ID, moveCount)...)
	if err != nil {
		return nil, err
	}
	if n, err := res.RowsAffected(); err != nil {
		return nil, err
	} else if n != 1 {
		if g.Status == tengen.GameFinished {
			return nil, tengen.Errorf(tengen.ECONFLICT, "The game is over.")
		}
		return nil, tengen.Errorf(tengen.ECONFLICT, "The game changed; reload it.")
	}
	if upd.Record != nil {
		if err := savePlayRecord(ctx, tx, g.ID, upd.Record); err != nil {
			return nil, err
		}
	}
	g.ToMove, g.Status, g.Result, g.UpdatedAt = upd.ToMove, upd.Status, upd.Result, updated
	if rated != nil {
		rated.apply()
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
		g, err = s.updateGame(ctx, tx, gameID, moveCount, upd)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM moves WHERE game_id = ? AND seq = ?`, gameID, moveCount); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE games SET move_count = ?, updated_at = ? WHERE id = ?`, moveCount-1, formatTime(tx.now), gameID); err != nil {
			return err
		}
		g.MoveCount, g.UpdatedAt = moveCount-1, tx.now
		return nil
	})
	if err != nil {
		return nil, err
	}
	return g, nil
}

// savePlayRecord writes rec as the game's play record, replacing the old one
// if there is one.
func savePlayRecord(ctx context.Context, tx *Tx, gameID int64, rec *tengen.PlayRecord) error {
	args, err := playRecordArgs(rec)
	if err != nil {
		return err
	}
	return args.save(ctx, tx, gameID)
}

// recordArgs are the encoded columns of a play record.
type recordArgs struct {
	clock, dead, resumptions, comforts string
	proposalSeq, acceptedBlack         int
	acceptedWhite, takebackSeq         int
}

// playRecordArgs encodes rec's columns; the move path does it before it
// queues for the writer (see AppendMove).
func playRecordArgs(rec *tengen.PlayRecord) (*recordArgs, error) {
	deadJSON, resJSON, err := sqlrow.PlayRecordLists(rec)
	if err != nil {
		return nil, err
	}
	clockText, err := jsonText(rec.Clock)
	if err != nil {
		return nil, err
	}
	comforts, err := sqlrow.ComfortsJSON(rec)
	if err != nil {
		return nil, err
	}
	return &recordArgs{clock: clockText, dead: deadJSON, resumptions: resJSON, comforts: comforts,
		proposalSeq: rec.ProposalSeq, acceptedBlack: rec.AcceptedBlack, acceptedWhite: rec.AcceptedWhite, takebackSeq: rec.TakebackSeq}, nil
}

// save writes the record as game gameID's: an UPDATE of the record that
// every game has from its creation on, and the upsert only for a game
// stored before records were (the UPDATE then changes no row). The upsert
// alone costs more: SQLite tries the INSERT first, checking the JSON
// columns' constraints, and checks them again in the UPDATE that the
// conflict leads to. The write transaction holds the database's lock, so
// nothing comes between the two.
func (a *recordArgs) save(ctx context.Context, tx *Tx, gameID int64) error {
	res, err := tx.ExecContext(ctx, updatePlayRecordQuery,
		a.clock, a.proposalSeq, a.dead, a.acceptedBlack, a.acceptedWhite, a.resumptions, a.takebackSeq, a.comforts, tx.nowArg(), gameID)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n == 1 {
		return err
	}
	_, err = tx.ExecContext(ctx, savePlayRecordQuery,
		gameID, a.clock, a.proposalSeq, a.dead, a.acceptedBlack, a.acceptedWhite, a.resumptions, a.takebackSeq, a.comforts, formatTime(tx.now))
	return err
}

// gameColumns are the columns findGames reads.
const gameColumns = `id, challenge_id, black_id, white_id, ` + settingsColumns + `, status, to_move, move_count, result, created_at, updated_at`

func findGameByID(ctx context.Context, tx *Tx, id int64) (*tengen.Game, error) {
	gs, _, err := findGames(ctx, tx, tengen.GameFilter{ID: &id})
	if err != nil {
		return nil, err
	} else if len(gs) == 0 {
		return nil, tengen.Errorf(tengen.ENOTFOUND, "Game not found.")
	}
	return gs[0], nil
}

func findGames(ctx context.Context, tx *Tx, filter tengen.GameFilter) ([]*tengen.Game, int, error) {
	where, args := []string{"1 = 1"}, []any{}
	if v := filter.ID; v != nil {
		where, args = append(where, "id = ?"), append(args, *v)
	}
	if v := filter.UserID; v != nil {
		where, args = append(where, "(black_id = ? OR white_id = ?)"), append(args, *v, *v)
	}
	if len(filter.Status) > 0 {
		where = append(where, "status IN (?"+strings.Repeat(", ?", len(filter.Status)-1)+")")
		for _, st := range filter.Status {
			args = append(args, string(st))
		}
	}
	cond := strings.Join(where, " AND ")

	// Counting costs a second scan; lookups by id (every write path) skip it.
	total := -1
	if filter.ID == nil {
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM games WHERE `+cond, args...).Scan(&total); err != nil {
			return nil, 0, err
		}
	}
	order, orderArgs := "updated_at DESC, id DESC", []any(nil)
	if v := filter.UserID; v != nil {
		// Games waiting for the user first (Game.IsTurnOf), then the rest.
		order = `CASE WHEN status = 'scoring' THEN 0
			WHEN status = 'playing' AND ((to_move = 'black' AND black_id = ?) OR (to_move = 'white' AND white_id = ?)) THEN 0
			ELSE 1 END, ` + order
		orderArgs = []any{*v, *v}
	}
	query := `SELECT ` + gameColumns + ` FROM games WHERE ` + cond + ` ORDER BY ` + order + limitOffset(filter.Limit, filter.Offset)
	if filter.ID != nil && filter.UserID == nil && len(filter.Status) == 0 && filter.Offset == 0 && filter.Limit == 0 {
		query = gameByIDQuery // the same rows: at most one
	}
	rows, err := tx.QueryContext(ctx, query, append(args, orderArgs...)...)
	if err != nil {
		return nil, 0, err
	}
	defer rows.Close()
	var gs []*tengen.Game
	var ids []int64
	for rows.Next() {
		var g tengen.Game
		var challenge sql.NullInt64
		sd, finish := settingsDest(&g.Settings)
		dest := append([]any{&g.ID, &challenge, &g.BlackID, &g.WhiteID}, sd...)
		dest = append(dest, (*string)(&g.Status), sqlrow.Text{V: &g.ToMove}, &g.MoveCount, &g.Result, timeText{&g.CreatedAt}, timeText{&g.UpdatedAt})
		if err := rows.Scan(dest...); err != nil {
			return nil, 0, err
		}
		finish()
		g.ChallengeID = challenge.Int64
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

// jsonText is the stored form of an optional JSON value: its JSON, or ""
// for nil.
func jsonText[T any](v *T) (string, error) {
	if v == nil {
		return "", nil
	}
	return sqlrow.JSONText(v)
}
