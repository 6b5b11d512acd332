package play

import (
	"context"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"sync"
	"time"

	"tengen"
)

// Several instances on one database (Config.Cluster; docs/ARCHITECTURE.md,
// "Several instances"). One instance at a time owns a live game: the one that
// created it, or the one that claimed it (Service.lock claims a game that no
// live instance owns; the sweep claims the games of dead instances). Only the
// owner holds the game in memory, arms its timers, lets its bots act and
// changes it; storage refuses the writes of an instance that no longer owns
// the game (ENOTOWNER), and the instance then drops it (lose). Every other
// instance forwards commands, snapshots and records to the owner through
// Config.Peer, and its watchers follow the events the owner publishes on the
// game's bus topic, numbered per load of the game (epoch, n), starting from
// a snapshot of the owner and starting again from a new one when a number
// is missing or the epoch changes (watch). Without a cluster none of this
// runs: the move path pays one nil check.

// elsewhere is the error of lock for a game that another live instance
// owns.
type elsewhere struct{ owner tengen.Instance }

func (e *elsewhere) Error() string { return "play: the game is owned by instance " + e.owner.Advertise }

// Unwrap gives the error code callers that do not forward see.
func (e *elsewhere) Unwrap() error {
	return tengen.Errorf(tengen.ENOTOWNER, "The game is now played on another server; try again.")
}

// ownerOf returns the owner named by an elsewhere error, nil for other
// errors.
func ownerOf(err error) *tengen.Instance {
	var e *elsewhere
	if errors.As(err, &e) {
		return &e.owner
	}
	return nil
}

// claim makes this instance the owner of game id before it is loaded, or
// returns an elsewhere error naming the live owner. Without a cluster it
// does nothing. The caller holds the game's lock.
func (s *Service) claim(ctx context.Context, id int64) error {
	if s.cfg.Cluster == nil {
		return nil
	}
	owner, err := s.cfg.Cluster.ClaimGame(ctx, id)
	if err != nil {
		return err
	}
	if owner != nil {
		return &elsewhere{owner: *owner}
	}
	return nil
}

// owned starts a new epoch of lg's events when this instance has just
// created, claimed or loaded it. The caller holds lg.mu.
func (s *Service) owned(lg *game) {
	if s.cfg.Cluster == nil {
		return
	}
	lg.epoch, lg.evn, lg.claimed = s.epochBase+s.epochs.Add(1), 0, s.cfg.Now()
}

// lose drops lg from memory because another instance owns it now: its timer
// stops, and its watchers follow the game on its new owner. The caller holds
// lg.mu.
func (s *Service) lose(lg *game) {
	if lg.evicted {
		return
	}
	s.log.Info("play: game owned by another instance now", "game", lg.id)
	lg.evicted = true
	if lg.stopTimer != nil {
		lg.stopTimer()
		lg.stopTimer = nil
	}
	s.mu.Lock()
	if s.games[lg.id] == lg {
		delete(s.games, lg.id)
	}
	s.mu.Unlock()
	for id, w := range lg.watchers {
		if w.w != nil {
			// Not here: the watch takes its own lock, which is taken
			// before game locks.
			go w.w.moved()
		}
		delete(lg.watchers, id)
	}
}

// publishBus sends the events of one change to the other instances'
// watchers of lg, numbered. A failed publication leaves a gap that the
// watchers notice at the next event. The caller holds lg.mu, which keeps
// the events in order.
func (s *Service) publishBus(lg *game, evs []*tengen.GameEvent) {
	for _, ev := range evs {
		lg.evn++
		b, err := json.Marshal(tengen.GameBusEvent{Epoch: lg.epoch, N: lg.evn, Event: ev.JSON()})
		if err == nil {
			err = s.cfg.Bus.Publish(context.Background(), tengen.GameTopic(lg.id), b)
		}
		if err != nil {
			s.log.Error("play: publishing a game event", "game", lg.id, "err", err)
		}
	}
}

// openCluster claims the games nobody owns (or whose owner is dead) and
// starts the sweep. Open calls it instead of loading every unfinished game.
func (s *Service) openCluster(ctx context.Context) error {
	if s.cfg.Peer == nil || s.cfg.Bus == nil {
		return errors.New("play: Config.Cluster needs Config.Peer and Config.Bus")
	}
	s.lastBeat = s.cfg.Now()
	if err := s.claimOrphans(ctx); err != nil {
		return err
	}
	s.every(s.cfg.SweepEvery, s.sweep)
	return nil
}

// claimOrphans claims and loads the games of dead instances and those
// nobody owns, a hundred at a time.
func (s *Service) claimOrphans(ctx context.Context) error {
	for {
		ids, err := s.cfg.Cluster.ClaimOrphans(ctx, 100)
		if err != nil {
			return err
		}
		for _, id := range ids {
			lg, err := s.lock(ctx, id)
			if err != nil {
				s.log.Error("play: taking over a game", "game", id, "err", err)
				continue
			}
			s.log.Info("play: took over a game", "game", id)
			s.unlock(lg)
		}
		if len(ids) < 100 {
			return nil
		}
	}
}

// sweep runs every SweepEvery: it heartbeats, drops the games this instance
// no longer owns (or all of them when the heartbeat has failed for longer
// than the timeout, because the others have taken them over by then), and
// takes over the games of dead instances.
func (s *Service) sweep() {
	ctx, cancel := context.WithTimeout(context.Background(), s.cfg.InstanceTimeout)
	defer cancel()
	started := s.cfg.Now()
	owned, err := s.cfg.Cluster.Heartbeat(ctx)
	if err != nil {
		s.log.Error("play: heartbeat", "err", err)
		if s.cfg.Now().Sub(s.lastBeat) >= s.cfg.InstanceTimeout {
			s.dropGames(nil, started)
		}
		return
	}
	s.lastBeat = started
	mine := make(map[int64]bool, len(owned))
	for _, id := range owned {
		mine[id] = true
	}
	s.dropGames(mine, started)
	if err := s.claimOrphans(ctx); err != nil {
		s.log.Error("play: taking over games", "err", err)
	}
}

// dropGames drops the unfinished games in memory that are not in mine
// (all of them for nil) and were claimed before since: a game claimed
// later may be missing from mine only because it was claimed meanwhile.
func (s *Service) dropGames(mine map[int64]bool, since time.Time) {
	for _, lg := range s.liveGames() {
		lg.mu.Lock()
		if lg.g != nil && lg.g.Status != tengen.GameFinished && !mine[lg.id] && lg.claimed.Before(since) {
			s.lose(lg)
		}
		lg.mu.Unlock()
	}
}

// routed runs local, and when the game is owned by another instance,
// remote on that owner; when the game moves between instances meanwhile
// (ENOTOWNER), it tries again, three times in all.
func routed[T any](local func() (T, error), remote func(owner tengen.Instance) (T, error)) (T, error) {
	var v T
	var err error
	for range 3 {
		v, err = local()
		if o := ownerOf(err); o != nil {
			v, err = remote(*o)
		}
		if tengen.ErrorCode(err) != tengen.ENOTOWNER {
			return v, err
		}
	}
	return v, err
}

// PeerDo implements tengen.PeerHandler: Do on a game this instance owns.
func (s *Service) PeerDo(ctx context.Context, gameID, userID int64, cmd tengen.Command) (*tengen.GameSnapshot, error) {
	return s.doLocal(ctx, gameID, userID, cmd)
}

// PeerSnapshot implements tengen.PeerHandler.
func (s *Service) PeerSnapshot(ctx context.Context, gameID, userID int64) (*tengen.PeerSnapshot, error) {
	lg, err := s.lock(ctx, gameID)
	if err != nil {
		return nil, err
	}
	defer s.unlock(lg)
	return &tengen.PeerSnapshot{State: s.snapshot(lg, userID), Epoch: lg.epoch, N: lg.evn}, nil
}

// PeerSGF implements tengen.PeerHandler.
func (s *Service) PeerSGF(ctx context.Context, gameID int64) ([]byte, error) {
	return s.sgfLocal(ctx, gameID)
}

// anySnapshot returns the game's snapshot with its place in the event
// stream, from memory or from the owner.
func (s *Service) anySnapshot(ctx context.Context, gameID, userID int64) (*tengen.PeerSnapshot, error) {
	return routed(func() (*tengen.PeerSnapshot, error) { return s.PeerSnapshot(ctx, gameID, userID) },
		func(o tengen.Instance) (*tengen.PeerSnapshot, error) {
			return s.cfg.Peer.Snapshot(ctx, o, gameID, userID)
		})
}

// watch is one watcher of a game with several instances: while this
// instance owns the game it watches the live game (stopLocal); otherwise it
// follows the owner's events on the bus (unsub) from the owner's snapshot.
// Its lock is taken before a game's lock, never after.
type watch struct {
	s              *Service
	gameID, userID int64
	sink           func(*tengen.GameEvent)

	mu        sync.Mutex // guards the fields below
	stopped   bool
	stopLocal func()
	unsub     func()
	// epoch and n are the stream position of the last event delivered.
	epoch, n int64
	// syncing is set while a new snapshot is on its way; the bus's events
	// wait in buf meanwhile.
	syncing bool
	buf     []tengen.GameBusEvent
}

// maxWatchBuffer bounds the events kept while a snapshot is fetched; more
// means the snapshot is stale anyway, and a new one is fetched.
const maxWatchBuffer = 1024

// watchCluster is Watch with several instances.
func (s *Service) watchCluster(ctx context.Context, gameID, userID int64, sink func(*tengen.GameEvent)) (func(), error) {
	w := &watch{s: s, gameID: gameID, userID: userID, sink: sink}
	w.mu.Lock()
	lg, err := s.lock(ctx, gameID)
	if err == nil {
		w.stopLocal = s.watchLocked(lg, userID, sink, w)
		s.unlock(lg)
		w.mu.Unlock()
		return w.stop, nil
	}
	if ownerOf(err) == nil {
		w.mu.Unlock()
		return nil, err
	}
	w.syncing = true
	w.mu.Unlock()
	if err := w.sync(ctx); err != nil {
		w.stop()
		return nil, err
	}
	return w.stop, nil
}

// stop ends the watch.
func (w *watch) stop() {
	w.mu.Lock()
	w.stopped = true
	local, unsub := w.stopLocal, w.unsub
	w.stopLocal, w.unsub, w.buf = nil, nil, nil
	w.mu.Unlock()
	if local != nil {
		local()
	}
	if unsub != nil {
		unsub()
	}
}

// moved follows the game on its new owner after this instance lost it.
func (w *watch) moved() {
	w.mu.Lock()
	if w.stopped {
		w.mu.Unlock()
		return
	}
	w.stopLocal = nil
	w.syncing, w.buf = true, nil
	w.mu.Unlock()
	w.resync()
}

// receive is the bus subscription's callback.
func (w *watch) receive(payload []byte) {
	var be tengen.GameBusEvent
	if err := json.Unmarshal(payload, &be); err != nil {
		w.s.log.Error("play: malformed game event on the bus", "game", w.gameID, "err", err)
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	switch {
	case w.stopped:
	case w.syncing:
		if len(w.buf) < maxWatchBuffer {
			w.buf = append(w.buf, be)
		}
	case !w.deliver(be):
		w.syncing, w.buf = true, []tengen.GameBusEvent{be}
		go w.resync()
	}
}

// deliver passes be to the sink if it is the next event, skips it if the
// watcher had it, and reports false for a gap or another epoch. The caller
// holds w.mu.
func (w *watch) deliver(be tengen.GameBusEvent) bool {
	if be.Epoch != w.epoch || be.N > w.n+1 {
		return false
	}
	if be.N <= w.n {
		return true
	}
	ev, err := tengen.GameEventFromJSON(be.Event)
	if err != nil {
		w.s.log.Error("play: malformed game event on the bus", "game", w.gameID, "err", err)
		return false
	}
	w.n = be.N
	w.sink(ev)
	return true
}

// sync subscribes to the game's events if needed and starts again from a
// fresh snapshot, then delivers the events that came meanwhile. The caller
// has set w.syncing and does not hold w.mu.
func (w *watch) sync(ctx context.Context) error {
	for range 10 {
		w.mu.Lock()
		if w.stopped {
			w.mu.Unlock()
			return nil
		}
		if w.unsub == nil {
			w.unsub = w.s.cfg.Bus.Subscribe(tengen.GameTopic(w.gameID), w.receive)
		}
		w.mu.Unlock()
		ps, err := w.s.anySnapshot(ctx, w.gameID, w.userID)
		if err != nil {
			return err
		}
		w.mu.Lock()
		if w.stopped {
			w.mu.Unlock()
			return nil
		}
		w.epoch, w.n = ps.Epoch, ps.N
		w.sink(&tengen.GameEvent{Type: tengen.EventGame, GameID: w.gameID, State: ps.State})
		buf := w.buf
		w.buf = nil
		ok := len(buf) < maxWatchBuffer
		for _, be := range buf {
			if ok = ok && w.deliver(be); !ok {
				break
			}
		}
		if ok {
			w.syncing = false
			w.mu.Unlock()
			return nil
		}
		w.mu.Unlock()
	}
	return tengen.Errorf(tengen.EINTERNAL, "The game's events do not settle; try again.")
}

// resync runs sync until it succeeds, the watch stops or the service
// closes, waiting a second between tries: when the owner has just died,
// the game has no owner until the sweep of another instance takes it over.
func (w *watch) resync() {
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		err := w.sync(ctx)
		cancel()
		if err == nil {
			return
		}
		w.s.log.Warn("play: following a game on another instance", "game", w.gameID, "err", err)
		t := time.NewTimer(time.Second)
		select {
		case <-w.s.stop:
			t.Stop()
			return
		case <-t.C:
		}
	}
}

// newEpochBase returns the random start of an instance's epochs, so that
// the epochs of different instances differ.
func newEpochBase() int64 { return rand.Int64N(1<<62) << 1 }
