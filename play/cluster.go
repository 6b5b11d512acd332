package play

import (
	"context"
	"errors"
	"math/rand/v2"
	"net"
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
	lg.epoch, lg.evn, lg.claimed, lg.followed = s.epochBase+s.epochs.Add(1), 0, s.cfg.Now(), true
	s.forgetOwner(lg.id)
}

// maxOwners bounds the remembered owners of other instances' games.
const maxOwners = 10000

// cachedOwner returns the owner of game id that forwarding learnt last.
func (s *Service) cachedOwner(id int64) (tengen.Instance, bool) {
	s.ownersMu.Lock()
	defer s.ownersMu.Unlock()
	o, ok := s.owners[id]
	return o, ok
}

// rememberOwner remembers that o owns game id, so that the next call for
// it goes to o at once, without asking the database.
func (s *Service) rememberOwner(id int64, o tengen.Instance) {
	s.ownersMu.Lock()
	defer s.ownersMu.Unlock()
	if s.owners == nil || len(s.owners) >= maxOwners {
		s.owners = map[int64]tengen.Instance{}
	}
	s.owners[id] = o
}

// forgetOwner forgets the owner of game id.
func (s *Service) forgetOwner(id int64) {
	s.ownersMu.Lock()
	defer s.ownersMu.Unlock()
	delete(s.owners, id)
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

// staleCopy checks, after a command was refused as out of date (err, an
// ECONFLICT of its plan), whether it is this instance's copy of the game
// that is out of date: an instance that lost the game without noticing yet
// (its heartbeats late under load) still holds it, and would refuse the
// next move of the real game, as not the next one of its copy, instead of
// forwarding it. If storage has moved on, lg is dropped and the command is
// tried again (ENOTOWNER: routed loads the game afresh or forwards it to
// its owner); otherwise err stands. The caller holds lg.mu.
func (s *Service) staleCopy(ctx context.Context, lg *game, err error) error {
	g, ferr := s.cfg.Games.FindGameByID(ctx, lg.id)
	if ferr != nil || g.MoveCount == lg.g.MoveCount && g.Status == lg.g.Status {
		return err
	}
	s.lose(lg)
	return tengen.Errorf(tengen.ENOTOWNER, "The game is now played on another server; try again.")
}

// busMsg is one event waiting for the bus.
type busMsg struct {
	gameID  int64
	payload []byte
}

// busQueue bounds the events waiting for the bus; a full queue drops the
// event, and the watchers elsewhere start again from a snapshot when they
// notice the gap.
const busQueue = 4096

// publishBus queues the events of one change for the other instances'
// watchers of lg, numbered, without waiting for the bus: one goroutine
// (busLoop) publishes them in order. A lost event leaves a gap that the
// watchers notice at the next one. The events of a game no other instance
// follows (lg.followed) are only counted: on one instance, and for the games
// nobody watches elsewhere, they would cost a NOTIFY each for nobody. The
// caller holds lg.mu, which keeps the events of a game in order.
func (s *Service) publishBus(lg *game, evs []*tengen.GameEvent) {
	if !lg.followed {
		lg.evn += int64(len(evs))
		return
	}
	for _, ev := range evs {
		lg.evn++
		b := tengen.GameBusEvent{Epoch: lg.epoch, N: lg.evn, Event: ev.JSON()}.AppendJSON(nil)
		select {
		case s.busQ <- busMsg{gameID: lg.id, payload: b}:
		default:
			s.log.Error("play: bus queue full: game event dropped", "game", lg.id)
		}
	}
}

// busLoop publishes the queued events until Close.
func (s *Service) busLoop() {
	defer s.done.Done()
	for {
		select {
		case <-s.stop:
			return
		case m := <-s.busQ:
			if err := s.cfg.Bus.Publish(context.Background(), tengen.GameTopic(m.gameID), m.payload); err != nil {
				s.log.Error("play: publishing a game event", "game", m.gameID, "err", err)
			}
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
	s.done.Add(1)
	go s.busLoop()
	if r, ok := s.cfg.Bus.(tengen.EventBusResetter); ok {
		// Events lost by the bus leave no gap until the game's next
		// event; after a reset every watch re-syncs at once.
		stop := r.OnReset(s.resetRemote)
		s.done.Add(1)
		go func() {
			defer s.done.Done()
			<-s.stop
			stop()
		}()
	}
	if err := s.claimOrphans(ctx); err != nil {
		return err
	}
	// Two loops: the heartbeat must not wait behind loading or taking
	// over games, which can take seconds on a busy machine; a late
	// heartbeat makes the others take this instance's games.
	s.every(s.cfg.SweepEvery, s.heartbeat)
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
			s.announceTakeover(lg)
			s.unlock(lg)
		}
		if len(ids) < 100 {
			return nil
		}
	}
}

// announceTakeover tells the watchers elsewhere that lg has a new owner,
// whose clock runs from the takeover: the event of a new epoch makes them
// start again from the new owner's snapshot. The caller holds lg.mu.
func (s *Service) announceTakeover(lg *game) {
	if lg.g == nil || lg.g.Status == tengen.GameFinished {
		return
	}
	ev := &tengen.GameEvent{Type: tengen.EventClock, GameID: lg.id, Clock: lg.clockView(), Vacation: lg.vacationView(s.cfg.Now())}
	lg.publish(ev)
	s.publishBus(lg, []*tengen.GameEvent{ev})
}

// heartbeat runs every SweepEvery: it tells the others that this instance
// lives, and drops the games this instance no longer owns (or all of them
// when the heartbeat has failed for longer than the timeout, because the
// others have taken them over by then). The games it owns but does not
// hold (after a lost heartbeat that came back) are loaded by a goroutine of
// their own, so that the next heartbeat does not wait for them.
func (s *Service) heartbeat() {
	ctx, cancel := context.WithTimeout(context.Background(), s.cfg.InstanceTimeout)
	defer cancel()
	started := s.cfg.Now()
	owned, err := s.cfg.Cluster.Heartbeat(ctx)
	if took := s.cfg.Now().Sub(started); took > s.cfg.InstanceTimeout/5 {
		// Others judge this instance by its heartbeats: a slow one is
		// the first sign of a takeover that should not happen.
		s.log.Warn("play: slow heartbeat", "took", took)
	}
	if err != nil {
		s.log.Error("play: heartbeat", "err", err)
		if s.cfg.Now().Sub(s.lastBeatTime()) >= s.cfg.InstanceTimeout {
			s.dropGames(nil, started)
		}
		return
	}
	mine := make(map[int64]bool, len(owned))
	for _, id := range owned {
		mine[id] = true
	}
	s.beatMu.Lock()
	s.lastBeat = started
	s.beatMu.Unlock()
	s.dropGames(mine, started)
	var missing []int64
	s.mu.Lock()
	for _, id := range owned {
		if s.games[id] == nil {
			missing = append(missing, id)
		}
	}
	s.mu.Unlock()
	if len(missing) > 0 && s.loading.CompareAndSwap(false, true) {
		s.done.Add(1)
		go func() {
			defer s.done.Done()
			defer s.loading.Store(false)
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			s.loadOwned(ctx, missing)
		}()
	}
}

// lastBeatTime returns when the last successful heartbeat began.
func (s *Service) lastBeatTime() time.Time {
	s.beatMu.Lock()
	defer s.beatMu.Unlock()
	return s.lastBeat
}

// sweep runs every SweepEvery: it takes over the games of dead instances.
func (s *Service) sweep() {
	ctx, cancel := context.WithTimeout(context.Background(), s.cfg.InstanceTimeout)
	defer cancel()
	if err := s.claimOrphans(ctx); err != nil {
		s.log.Error("play: taking over games", "err", err)
	}
}

// loadOwned loads the games of owned that are not in memory: games this
// instance dropped when its heartbeats failed while nobody else could take
// them over either (the database was away for all), so that their clocks
// run again.
func (s *Service) loadOwned(ctx context.Context, owned []int64) {
	for _, id := range owned {
		s.mu.Lock()
		_, in := s.games[id]
		closed := s.closed
		s.mu.Unlock()
		if closed {
			// Close has put the games away and releases them.
			return
		}
		if in {
			continue
		}
		lg, err := s.lock(ctx, id)
		if err != nil {
			s.log.Error("play: loading an owned game", "game", id, "err", err)
			continue
		}
		s.unlock(lg)
	}
}

// dropGames drops the unfinished games in memory that are not in mine
// (all of them for nil) and were claimed before since: a game claimed
// later may be missing from mine only because it was claimed meanwhile.
func (s *Service) dropGames(mine map[int64]bool, since time.Time) {
	// Only the games missing from mine are locked: a game's lock is held
	// while its change waits for the commit, and the heartbeat that calls
	// this must not wait for a thousand of them in turn.
	s.mu.Lock()
	var drop []*game
	for id, lg := range s.games {
		if !mine[id] {
			drop = append(drop, lg)
		}
	}
	s.mu.Unlock()
	for _, lg := range drop {
		lg.mu.Lock()
		if lg.g != nil && lg.g.Status != tengen.GameFinished && !mine[lg.id] && lg.claimed.Before(since) {
			s.lose(lg)
		}
		lg.mu.Unlock()
	}
}

// routed runs local for game gameID, and when the game is owned by another
// instance, remote on that owner; when the game moves between instances
// meanwhile (ENOTOWNER), it tries again, three times in all. An owner it
// learnt is asked directly next time, until it refuses or fails.
func routed[T any](s *Service, gameID int64, local func() (T, error), remoteCall func(owner tengen.Instance) (T, error)) (T, error) {
	var v T
	var err error
	remote := func(o tengen.Instance) (T, error) {
		v, err := remoteCall(o)
		return v, unanswered(err)
	}
	if o, ok := s.cachedOwner(gameID); ok {
		v, err = remote(o)
		var ue *unreachableError
		switch {
		case errors.As(err, &ue):
			// Perhaps the owner is gone: ask the database. A call that
			// reached the owner is not repeated, as it may have taken
			// effect; one that found no owner to connect to is.
			s.forgetOwner(gameID)
			if !notSent(err) {
				return v, err
			}
		case tengen.ErrorCode(err) == tengen.ENOTOWNER:
			s.forgetOwner(gameID)
		default:
			return v, err
		}
	}
	for range 3 {
		v, err = local()
		if o := ownerOf(err); o != nil {
			s.rememberOwner(gameID, *o)
			v, err = remote(*o)
		}
		var ue *unreachableError
		if tengen.ErrorCode(err) != tengen.ENOTOWNER || errors.As(err, &ue) && !notSent(err) {
			return v, err
		}
		s.forgetOwner(gameID)
	}
	return v, err
}

// unanswered turns a failure to reach the owner (or its answer) into an
// error the user can act on: the owner may be dead, and another instance
// takes its games over within the instance timeout, so trying again helps.
// Commands are safe to repeat: a move's Seq makes a repeated move change
// nothing. The cause stays wrapped, for notSent and the log.
func unanswered(err error) error {
	var te *tengen.Error
	if err == nil || errors.As(err, &te) {
		return err
	}
	return &unreachableError{err}
}

// unreachableError is a peer call that failed in transport or on the owner.
type unreachableError struct{ cause error }

func (e *unreachableError) Error() string { return e.cause.Error() }

// Unwrap gives both the cause and the error users see (ENOTOWNER, HTTP
// 503), so that errors.As finds either.
func (e *unreachableError) Unwrap() []error {
	return []error{e.cause, tengen.Errorf(tengen.ENOTOWNER, "The server that holds this game does not answer; another one takes it over within seconds. Please try again.")}
}

// notSent reports whether err says that a call never reached its peer:
// nothing listened at its address.
func notSent(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "dial"
}

// PeerDo implements tengen.PeerHandler: Do on a game this instance owns.
func (s *Service) PeerDo(ctx context.Context, gameID, userID int64, cmd tengen.Command) (*tengen.PeerSnapshot, error) {
	return s.doLocal(ctx, gameID, userID, cmd)
}

// PeerSnapshot implements tengen.PeerHandler.
func (s *Service) PeerSnapshot(ctx context.Context, gameID, userID int64) (*tengen.PeerSnapshot, error) {
	lg, err := s.lock(ctx, gameID)
	if err != nil {
		return nil, err
	}
	defer s.unlock(lg)
	lg.followed = true // the events after this snapshot go to the bus
	return &tengen.PeerSnapshot{State: s.snapshot(lg, userID), Epoch: lg.epoch, N: lg.evn}, nil
}

// PeerSGF implements tengen.PeerHandler.
func (s *Service) PeerSGF(ctx context.Context, gameID int64) ([]byte, error) {
	return s.sgfLocal(ctx, gameID)
}

// anySnapshot returns the game's snapshot with its place in the event
// stream, from memory or from the owner.
func (s *Service) anySnapshot(ctx context.Context, gameID, userID int64) (*tengen.PeerSnapshot, error) {
	return routed(s, gameID, func() (*tengen.PeerSnapshot, error) { return s.PeerSnapshot(ctx, gameID, userID) },
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
	buf     []*busEvent
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

// busEvent is a game's event from the bus, read once for all the
// watchers of the game on this instance.
type busEvent struct {
	epoch, n int64
	ev       *tengen.GameEvent
}

// remoteGame is the one bus subscription of this instance to a game's
// topic, shared by the watches that follow the game on its owner.
type remoteGame struct {
	unsub   func()
	watches map[*watch]bool
}

// subscribe adds w to the watchers of its game's topic and returns the
// function that removes it; the last one ends the subscription. The bus's
// Subscribe and stop run with remoteMu held: they must not wait for a
// delivery in progress.
func (s *Service) subscribe(w *watch) func() {
	s.remoteMu.Lock()
	defer s.remoteMu.Unlock()
	if s.remote == nil {
		s.remote = map[int64]*remoteGame{}
	}
	rg := s.remote[w.gameID]
	if rg == nil {
		rg = &remoteGame{watches: map[*watch]bool{}}
		id := w.gameID
		rg.unsub = s.cfg.Bus.Subscribe(tengen.GameTopic(id), func(p []byte) { s.fanOut(id, p) })
		s.remote[id] = rg
	}
	rg.watches[w] = true
	var once sync.Once
	return func() {
		once.Do(func() {
			s.remoteMu.Lock()
			defer s.remoteMu.Unlock()
			delete(rg.watches, w)
			if len(rg.watches) == 0 {
				rg.unsub()
				if s.remote[w.gameID] == rg {
					delete(s.remote, w.gameID)
				}
			}
		})
	}
}

// resetRemote makes every watch of a game on another instance re-sync
// with a fresh snapshot of its owner, after the bus may have lost events.
func (s *Service) resetRemote() {
	s.remoteMu.Lock()
	var ws []*watch
	for _, rg := range s.remote {
		for w := range rg.watches {
			ws = append(ws, w)
		}
	}
	s.remoteMu.Unlock()
	for _, w := range ws {
		w.mu.Lock()
		if !w.stopped && !w.syncing {
			w.syncing, w.buf = true, nil
			go w.resync()
		}
		w.mu.Unlock()
	}
}

// fanOut reads a payload of game id's topic and passes it to the game's
// watches here. The event itself is not decoded: the watchers send its
// JSON on (tengen.EncodedGameEvent; PlayService.Watch).
func (s *Service) fanOut(id int64, payload []byte) {
	be, err := tengen.ParseGameBusEvent(payload)
	var ev *tengen.GameEvent
	if err == nil {
		ev, err = tengen.EncodedGameEvent(be.Event)
	}
	if err != nil {
		s.log.Error("play: malformed game event on the bus", "game", id, "err", err)
		return
	}
	e := &busEvent{epoch: be.Epoch, n: be.N, ev: ev}
	s.remoteMu.Lock()
	var ws []*watch
	if rg := s.remote[id]; rg != nil {
		ws = make([]*watch, 0, len(rg.watches))
		for w := range rg.watches {
			ws = append(ws, w)
		}
	}
	s.remoteMu.Unlock()
	for _, w := range ws {
		w.receive(e)
	}
}

// receive takes an event of the game from the bus.
func (w *watch) receive(e *busEvent) {
	w.mu.Lock()
	defer w.mu.Unlock()
	switch {
	case w.stopped:
	case w.syncing:
		if len(w.buf) < maxWatchBuffer {
			w.buf = append(w.buf, e)
		}
	case !w.deliver(e):
		w.syncing, w.buf = true, []*busEvent{e}
		go w.resync()
	}
}

// maxEventWait bounds how long the answer to a forwarded command waits for
// the command's events to reach the watchers here.
const maxEventWait = 2 * time.Second

// awaitEvents waits, at most maxEventWait, until every watcher here of game
// gameID has had the owner's events up to n of epoch: the answer to a
// command forwarded to the owner then follows its events on this
// instance's sockets, as the answer to a local one does.
func (s *Service) awaitEvents(ctx context.Context, gameID, epoch, n int64) {
	deadline := time.NewTimer(maxEventWait)
	defer deadline.Stop()
	for {
		tick := s.nextTick()
		if s.caughtUp(gameID, epoch, n) {
			return
		}
		select {
		case <-tick:
		case <-deadline.C:
			return
		case <-ctx.Done():
			return
		}
	}
}

// caughtUp reports whether no watcher here of game gameID lacks the
// owner's event n of epoch.
func (s *Service) caughtUp(gameID, epoch, n int64) bool {
	s.remoteMu.Lock()
	var ws []*watch
	if rg := s.remote[gameID]; rg != nil {
		ws = make([]*watch, 0, len(rg.watches))
		for w := range rg.watches {
			ws = append(ws, w)
		}
	}
	s.remoteMu.Unlock()
	for _, w := range ws {
		w.mu.Lock()
		behind := !w.stopped && (w.syncing || w.epoch != epoch || w.n < n)
		w.mu.Unlock()
		if behind {
			return false
		}
	}
	return true
}

// nextTick returns the channel closed at the next delivery of an event to
// a watcher of a game on another instance.
func (s *Service) nextTick() <-chan struct{} {
	s.tickMu.Lock()
	defer s.tickMu.Unlock()
	if s.tick == nil {
		s.tick = make(chan struct{})
	}
	return s.tick
}

// ticked wakes the awaitEvents calls.
func (s *Service) ticked() {
	s.tickMu.Lock()
	if s.tick != nil {
		close(s.tick)
		s.tick = nil
	}
	s.tickMu.Unlock()
}

// deliver passes e to the sink if it is the next event, skips it if the
// watcher had it, and reports false for a gap or another epoch. The caller
// holds w.mu.
func (w *watch) deliver(e *busEvent) bool {
	if e.epoch != w.epoch || e.n > w.n+1 {
		return false
	}
	if e.n <= w.n {
		return true
	}
	w.n = e.n
	w.sink(e.ev)
	w.s.ticked()
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
			w.unsub = w.s.subscribe(w)
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
			w.s.ticked()
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
