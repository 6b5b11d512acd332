package postgres

import (
	"context"
	"crypto/rand"
	"strconv"
	"time"

	"tengen"
)

// Compile-time check that ClusterService implements the interface.
var _ tengen.ClusterService = (*ClusterService)(nil)

// ClusterService keeps the instances that share the database and the owner
// of each live game (migrations/0011_cluster.sql). Times are the instances'
// own (DB.Now), so their clocks must agree to well within the timeout, as
// NTP keeps them.
//
// Once an instance has registered, every write of the game path (AppendMove,
// AppendMoves, UpdateGame, TakeBack) carries the condition that this
// instance owns the game in its guarded UPDATE: the fence costs no extra
// statement, and a refusal is told from a stale move number by one more
// query on the refused path only (see DB.fenced).
type ClusterService struct {
	db *DB
	// timeout is how old a heartbeat may be before its instance counts as
	// dead.
	timeout time.Duration
}

// NewClusterService returns the cluster service of db; instances whose
// heartbeat is older than timeout are dead (default
// tengen.DefaultInstanceTimeout).
func NewClusterService(db *DB, timeout time.Duration) *ClusterService {
	if timeout <= 0 {
		timeout = tengen.DefaultInstanceTimeout
	}
	return &ClusterService{db: db, timeout: timeout}
}

// Register implements tengen.ClusterService. An instance registered
// before at the same URL is a previous run of this one (killed, and
// restarted before its heartbeat went stale): it is removed, so that its
// games are claimed at once instead of after the timeout. Were it still
// running, the fence would refuse its writes from now on.
func (s *ClusterService) Register(ctx context.Context, advertise string) (tengen.Instance, error) {
	now := s.db.Now().UTC()
	var id int64
	err := s.db.pool.QueryRow(ctx, `WITH gone AS (DELETE FROM instances WHERE advertise = $1 AND $1 <> '')
		INSERT INTO instances (advertise, started, heartbeat) VALUES ($1, $2, $2) RETURNING id`, advertise, now).Scan(&id)
	if err != nil {
		return tengen.Instance{}, err
	}
	s.db.instance.Store(id)
	return tengen.Instance{ID: id, Advertise: advertise}, nil
}

// SetAdvertise changes the URL this instance is reached at, for a server
// that learns its port only when it listens.
func (s *ClusterService) SetAdvertise(ctx context.Context, advertise string) error {
	me, err := s.self()
	if err != nil {
		return err
	}
	_, err = s.db.pool.Exec(ctx, `UPDATE instances SET advertise = $1 WHERE id = $2`, advertise, me)
	return err
}

// self returns this instance's id, or an error before Register.
func (s *ClusterService) self() (int64, error) {
	id := s.db.instance.Load()
	if id == 0 {
		return 0, tengen.Errorf(tengen.EINTERNAL, "This instance is not registered.")
	}
	return id, nil
}

// alive is the oldest heartbeat of a live instance.
func (s *ClusterService) alive() time.Time { return s.db.Now().UTC().Add(-s.timeout) }

// forgetInstanceAfter is how long a dead instance stays in the table; then
// a heartbeat of another removes it (its games were taken over long ago).
const forgetInstanceAfter = time.Hour

// Heartbeat implements tengen.ClusterService in one statement, which also
// removes the instances dead for longer than forgetInstanceAfter.
func (s *ClusterService) Heartbeat(ctx context.Context) ([]int64, error) {
	me, err := s.self()
	if err != nil {
		return nil, err
	}
	var n, others int
	var owned []int64
	now := s.db.Now().UTC()
	err = s.db.pool.QueryRow(ctx, `WITH hb AS (UPDATE instances SET heartbeat = $2 WHERE id = $1 RETURNING id),
			gone AS (DELETE FROM instances WHERE heartbeat < $3)
		SELECT (SELECT COUNT(*) FROM hb), ARRAY(SELECT id FROM games WHERE owner_id = $1 AND status <> 'finished' ORDER BY id),
			(SELECT COUNT(*) FROM instances WHERE id <> $1 AND heartbeat >= $4)`,
		me, now, now.Add(-forgetInstanceAfter), s.alive()).Scan(&n, &owned, &others)
	if err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, tengen.Errorf(tengen.EINTERNAL, "Instance %d is no longer registered.", me)
	}
	s.db.shareWriters(1 + others)
	return owned, nil
}

// ClaimGame implements tengen.ClusterService: one conditional UPDATE, and in
// the same statement the owner as it was before it.
func (s *ClusterService) ClaimGame(ctx context.Context, gameID int64) (*tengen.Instance, error) {
	me, err := s.self()
	if err != nil {
		return nil, err
	}
	for range 3 {
		var status string
		var claimed bool
		var owner *int64
		var advertise *string
		err := s.db.pool.QueryRow(ctx, `WITH claimed AS (
				UPDATE games g SET owner_id = $2 WHERE g.id = $1 AND g.status <> 'finished' AND (g.owner_id IS NULL OR g.owner_id = $2
					OR NOT EXISTS (SELECT 1 FROM instances i WHERE i.id = g.owner_id AND i.heartbeat >= $3))
				RETURNING g.id)
			SELECT g.status, EXISTS (SELECT 1 FROM claimed), i.id, i.advertise
			FROM games g LEFT JOIN instances i ON i.id = g.owner_id AND i.heartbeat >= $3 WHERE g.id = $1`,
			gameID, me, s.alive()).Scan(&status, &claimed, &owner, &advertise)
		switch {
		case noRows(err):
			return nil, tengen.Errorf(tengen.ENOTFOUND, "Game not found.")
		case err != nil:
			return nil, err
		case claimed || status == string(tengen.GameFinished):
			return nil, nil
		case owner != nil && *owner != me:
			return &tengen.Instance{ID: *owner, Advertise: *advertise}, nil
		}
		// Another instance claimed the game while this statement waited
		// for its row; the statement's snapshot shows the owner before
		// that. A new statement sees it.
	}
	return s.Owner(ctx, gameID)
}

// Owner implements tengen.ClusterService.
func (s *ClusterService) Owner(ctx context.Context, gameID int64) (*tengen.Instance, error) {
	var in tengen.Instance
	err := s.db.pool.QueryRow(ctx, `SELECT i.id, i.advertise FROM games g JOIN instances i ON i.id = g.owner_id
		WHERE g.id = $1 AND g.status <> 'finished' AND i.heartbeat >= $2`, gameID, s.alive()).Scan(&in.ID, &in.Advertise)
	if noRows(err) {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	return &in, nil
}

// ClaimOrphans implements tengen.ClusterService. Rows that another
// instance is claiming at the same moment are skipped, not waited for.
func (s *ClusterService) ClaimOrphans(ctx context.Context, limit int) ([]int64, error) {
	me, err := s.self()
	if err != nil {
		return nil, err
	}
	rows, err := s.db.pool.Query(ctx, `UPDATE games g SET owner_id = $1 WHERE g.id IN (
			SELECT id FROM games WHERE status <> 'finished'
				AND (owner_id IS NULL OR owner_id <> $1 AND owner_id NOT IN (SELECT id FROM instances WHERE heartbeat >= $2))
			ORDER BY id LIMIT $3 FOR UPDATE SKIP LOCKED)
		RETURNING g.id`, me, s.alive(), limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}

// Release implements tengen.ClusterService: deleting the instance's row
// leaves its games without owner (ON DELETE SET NULL).
func (s *ClusterService) Release(ctx context.Context) error {
	me, err := s.self()
	if err != nil {
		return err
	}
	_, err = s.db.pool.Exec(ctx, `DELETE FROM instances WHERE id = $1`, me)
	return err
}

// Secret implements tengen.ClusterService.
func (s *ClusterService) Secret(ctx context.Context) ([]byte, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return nil, err
	}
	if _, err := s.db.pool.Exec(ctx, `INSERT INTO cluster_secret (id, secret) VALUES (1, $1) ON CONFLICT (id) DO NOTHING`, b); err != nil {
		return nil, err
	}
	var secret []byte
	err := s.db.pool.QueryRow(ctx, `SELECT secret FROM cluster_secret WHERE id = 1`).Scan(&secret)
	return secret, err
}

// fenced returns err, or ENOTOWNER when err is a refusal of a write to game
// gameID that this instance no longer owns. Only refused writes pay for
// the query.
func (db *DB) fenced(ctx context.Context, gameID int64, err error) error {
	me := db.instance.Load()
	if me == 0 || tengen.ErrorCode(err) != tengen.ECONFLICT {
		return err
	}
	var owner *int64
	if qerr := db.pool.QueryRow(ctx, `SELECT owner_id FROM games WHERE id = $1`, gameID).Scan(&owner); qerr != nil {
		return err
	}
	if owner == nil || *owner != me {
		return tengen.Errorf(tengen.ENOTOWNER, "The game is now played on another server; try again.")
	}
	return err
}

// ownerGuard returns the condition of the game path's UPDATEs that this
// instance owns the game, on argument $n (see gameWrite).
func ownerGuard(n int) string { return " AND owner_id = $" + strconv.Itoa(n) }
