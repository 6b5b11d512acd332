package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"tengen"
)

// Compile-time check that SeekService implements the interface.
var _ tengen.SeekService = (*SeekService)(nil)

// SeekService keeps the quick-match seeks of every instance in the table
// seeks.
//
// Why rows locked with SKIP LOCKED and not one matcher elected with an
// advisory lock: with rows, the database holds the one truth about who
// seeks, and any instance that has seekers pairs whatever it can lock;
// two instances that pair at once lock disjoint sets (the second skips
// what the first holds), and a pair's seeks are deleted in the transaction
// that paired them, so no seek is paired twice and a seeker who withdraws
// at that moment either waits for the pairing or is not paired. An elected
// matcher would need every instance's seeks told to it over the bus, a
// hand-over when it dies and a way to rebuild its pool after a lost
// message; here an instance that dies only leaves seeks that stop being
// kept alive and are dropped. Seeks are few (people waiting for a game),
// so the writes cost nothing that matters.
type SeekService struct {
	db *DB
}

// NewSeekService returns a SeekService on db.
func NewSeekService(db *DB) *SeekService {
	return &SeekService{db: db}
}

// PutSeek implements tengen.SeekService.
func (s *SeekService) PutSeek(ctx context.Context, sk *tengen.Seek, now time.Time) error {
	if sk.UserID == 0 || sk.Instance == "" || sk.BoardSize <= 0 || sk.Speed == "" {
		return tengen.Errorf(tengen.EINVALID, "A seek needs a user, an instance, a board size and a speed.")
	}
	_, err := s.db.pool.Exec(ctx, `INSERT INTO seeks (user_id, instance, board_size, speed, rank, since, seen)
		VALUES ($1, $2, $3, $4, $5, $6, $7)
		ON CONFLICT (user_id) DO UPDATE SET instance = excluded.instance, board_size = excluded.board_size,
			speed = excluded.speed, rank = excluded.rank, since = excluded.since, seen = excluded.seen`,
		sk.UserID, sk.Instance, sk.BoardSize, sk.Speed, sk.Rank, sk.Since.UTC(), now.UTC())
	return constraintError(err)
}

// DeleteSeek implements tengen.SeekService. It waits for a PairSeeks that
// holds the seek: afterwards the seek is either gone (paired) or deleted
// here.
func (s *SeekService) DeleteSeek(ctx context.Context, userID int64, instance string) (bool, error) {
	tag, err := s.db.pool.Exec(ctx, `DELETE FROM seeks WHERE user_id = $1 AND instance = $2`, userID, instance)
	if err != nil {
		return false, err
	}
	return tag.RowsAffected() > 0, nil
}

// KeepSeeks implements tengen.SeekService.
func (s *SeekService) KeepSeeks(ctx context.Context, instance string, users []int64, now time.Time) ([]int64, error) {
	rows, err := s.db.pool.Query(ctx, `UPDATE seeks SET seen = $3 WHERE instance = $1 AND user_id = ANY($2) RETURNING user_id`,
		instance, users, now.UTC())
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowTo[int64])
}

// PairSeeks implements tengen.SeekService.
func (s *SeekService) PairSeeks(ctx context.Context, alive time.Time, pair func([]tengen.Seek) [][2]int) ([][2]tengen.Seek, error) {
	tx, err := s.db.BeginTx(ctx, true)
	if err != nil {
		return nil, err
	}
	defer tx.rollback()
	rows, err := tx.Query(ctx, `SELECT user_id, instance, board_size, speed, rank, since, seen FROM seeks
		ORDER BY since, user_id FOR UPDATE SKIP LOCKED`)
	if err != nil {
		return nil, err
	}
	var live []tengen.Seek
	var stale []int64
	for rows.Next() {
		var sk tengen.Seek
		var seen time.Time
		if err := rows.Scan(&sk.UserID, &sk.Instance, &sk.BoardSize, &sk.Speed, &sk.Rank, &sk.Since, &seen); err != nil {
			rows.Close()
			return nil, err
		}
		if seen.Before(alive) {
			stale = append(stale, sk.UserID)
			continue
		}
		live = append(live, sk)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	var out [][2]tengen.Seek
	gone := stale
	if len(live) >= 2 {
		for _, p := range pair(live) {
			if p[0] == p[1] || p[0] < 0 || p[1] < 0 || p[0] >= len(live) || p[1] >= len(live) {
				return nil, fmt.Errorf("postgres: pair seeks: bad pair %v of %d seeks", p, len(live))
			}
			out = append(out, [2]tengen.Seek{live[p[0]], live[p[1]]})
			gone = append(gone, live[p[0]].UserID, live[p[1]].UserID)
		}
	}
	if len(gone) == 0 {
		return nil, nil
	}
	if _, err := tx.exec(ctx, `DELETE FROM seeks WHERE user_id = ANY($1)`, gone); err != nil {
		return nil, err
	}
	return out, tx.commit(ctx)
}
