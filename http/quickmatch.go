package http

import (
	"context"
	"slices"
	"sync"
	"time"

	"tengen"
	"tengen/clock"
)

// Quick match (issue 16; docs/API.md, "Quick match"). A logged-in player
// sends {"type": "seek", "boardSize": 19, "speed": "live"} over the site
// socket; the server pairs two seekers of the same board size and speed
// whose ranks lie within a window that widens while they wait, and starts
// their game with the handicap from rank (tengen.GameSettings.ForRanks)
// through the one door, PlayService.CreateGame: the one seeker's
// challenge, addressed to the other, accepted by the other. After
// Config.QuickMatchBotAfter without a human the seeker is offered the
// built-in level nearest their rank ("seek-offer"); "seek-bot" takes it. A
// seek lives as long as its socket and ends with "unseek", a match, or the
// socket.
//
// With several instances (Services.Seeks, PostgreSQL) the seeks are also
// rows of the database, so that two players seeking on different
// instances are paired: each instance with seekers pairs the rows it can
// lock (tengen.SeekService, postgres/seek.go says why rows and not one
// elected matcher), starts the game, and tells the seekers' instances over
// the bus ("seek-matched", site.go). What each seeker is told while waiting
// (the window, the computer's offer) stays with the instance of its socket.

// Quick-match speeds and the time controls they stand for. Blitz is under
// play's blitz line (ten minutes for 40 moves), so its no-show time is a
// minute.
var quickSpeeds = map[string]clock.TimeControl{
	"blitz":          {Kind: clock.ByoYomi, MainTime: 3 * time.Minute, Periods: 3, PeriodTime: 10 * time.Second},
	"live":           {Kind: clock.ByoYomi, MainTime: 10 * time.Minute, Periods: 5, PeriodTime: 30 * time.Second},
	"correspondence": clock.CorrespondenceDays(3, 14),
}

// quickSizes are the board sizes quick match offers.
var quickSizes = []int{9, 13, 19}

// quickRuleset is the ruleset of quick-match games, the lobby form's
// default.
const quickRuleset = "japanese"

// seekWindow returns how many ranks apart two seekers may be after the
// longer of them has waited waited: two at first, one more every ten
// seconds, at most nine (the largest handicap of most rulesets).
func seekWindow(waited time.Duration) int {
	return min(2+int(waited/(10*time.Second)), tengen.MaxHandicap)
}

// seek is one player's wish for a game.
type seek struct {
	c      *wsClient // the socket that asked; the seek ends with it
	user   *tengen.User
	rank   int // tengen.RankValue of the user's rank
	size   int
	speed  string
	since  time.Time
	window int  // the window last told to the seeker
	offer  bool // the bot offer has been made
	// missing is since when the store has not had the seek (zero while
	// it has): paired or replaced on another instance, whose message
	// should come at once (see stepStored). Guarded by seekPool.mu.
	missing time.Time
}

// seekPool holds the seekers and pairs them. Its callbacks run without
// its lock held.
type seekPool struct {
	mu    sync.Mutex // guards seeks
	seeks []*seek    // oldest first
	wake  chan struct{}
	// stop ends the pairing loop, which the first seek starts (once);
	// done is closed when it has ended.
	stop  <-chan struct{}
	once  sync.Once
	loops sync.WaitGroup
	// botAfter is how long a seeker waits for a human before the offer.
	botAfter time.Duration
	// pair starts the game of a and b; offer offers sk a bot; status
	// tells sk its window.
	pair   func(a, b *seek)
	offer  func(sk *seek)
	status func(sk *seek)

	// store, when not nil, shares the seeks with the other instances;
	// instance names this one there, alive is how long a seek lives
	// without being kept, log receives the store's errors, and
	// pairStored starts the game of two seeks paired in the store.
	store      tengen.SeekService
	instance   string
	alive      time.Duration
	log        func(msg string, args ...any)
	pairStored func(a, b tengen.Seek)
	// seeker tells a seeker's socket how its seek ended elsewhere
	// (Server.quickEnded).
	seeker func(sk *seek, kind string, event []byte)
}

func newSeekPool(s *Server) *seekPool {
	return &seekPool{wake: make(chan struct{}, 1), stop: s.stop, botAfter: s.cfg.QuickMatchBotAfter,
		pair: s.quickPair, offer: s.quickOffer, status: s.quickStatus,
		store: s.svc.Seeks, alive: s.cfg.InstanceTimeout, log: s.log.Error, pairStored: s.quickPairStored, seeker: s.quickEnded}
}

// add puts sk in the pool in place of any earlier seek of the same user
// (and in the store, in place of the user's seek on any instance).
func (p *seekPool) add(ctx context.Context, sk *seek) error {
	if p.store != nil {
		st := sk.stored()
		st.Instance = p.instance
		err := p.store.PutSeek(ctx, &st, sk.since)
		if err != nil {
			return err
		}
	}
	p.mu.Lock()
	p.seeks = slices.DeleteFunc(p.seeks, func(o *seek) bool { return o.user.ID == sk.user.ID })
	p.seeks = append(p.seeks, sk)
	p.mu.Unlock()
	p.once.Do(func() {
		p.loops.Add(1)
		go func() {
			defer p.loops.Done()
			p.run(p.stop)
		}()
	})
	p.poke()
	return nil
}

// wait waits for the pairing loop to end after stop closed.
func (p *seekPool) wait() {
	// A seek that arrives during shutdown may still start the loop; it
	// ends at once since stop is closed.
	p.once.Do(func() {})
	p.loops.Wait()
}

// remove takes the seeks for which match is true out of the pool (and the
// store) and returns them; with a store, only those still there, not
// paired meanwhile by another instance.
func (p *seekPool) remove(match func(*seek) bool) []*seek {
	out := p.forget(match)
	if p.store == nil {
		return out
	}
	kept := out[:0]
	for _, sk := range out {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		ok, err := p.store.DeleteSeek(ctx, sk.user.ID, p.instance)
		cancel()
		if err != nil {
			// Not kept alive any more (stepStored), the row expires.
			p.log("quick match: deleting a seek", "user", sk.user.ID, "err", err)
		}
		if ok || err != nil {
			kept = append(kept, sk)
		}
	}
	return kept
}

// forget takes the seeks for which match is true out of the pool and
// returns them.
func (p *seekPool) forget(match func(*seek) bool) []*seek {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []*seek
	p.seeks = slices.DeleteFunc(p.seeks, func(o *seek) bool {
		if match(o) {
			out = append(out, o)
			return true
		}
		return false
	})
	return out
}

// ended tells the seekers users of this instance how their seeks ended
// (a "seek-matched" or "seek-failed" site message) and forgets them.
func (p *seekPool) ended(users []int64, kind string, event []byte) {
	for _, sk := range p.forget(func(o *seek) bool { return slices.Contains(users, o.user.ID) }) {
		p.seeker(sk, kind, event)
	}
}

// poke asks the pool to look for pairs now.
func (p *seekPool) poke() {
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

// run pairs seekers every second and whenever a seek arrives, until stop
// closes.
func (p *seekPool) run(stop <-chan struct{}) {
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
		case <-p.wake:
		}
		p.step(time.Now())
	}
}

// pairSeeks pairs whom it can of seeks (oldest first) at now and returns
// the pairs as indexes into seeks, the older seek first.
func pairSeeks(seeks []tengen.Seek, now time.Time) [][2]int {
	var pairs [][2]int
	taken := make([]bool, len(seeks))
	for i, a := range seeks {
		if taken[i] {
			continue
		}
		for j := i + 1; j < len(seeks); j++ {
			b := seeks[j]
			if taken[j] || a.BoardSize != b.BoardSize || a.Speed != b.Speed || a.UserID == b.UserID {
				continue
			}
			// a is the older seek: its wait sets the window.
			if d := a.Rank - b.Rank; max(d, -d) <= seekWindow(now.Sub(a.Since)) {
				taken[i], taken[j] = true, true
				pairs = append(pairs, [2]int{i, j})
				break
			}
		}
	}
	return pairs
}

// step pairs whom it can at now, oldest seekers first, and makes the
// offers and window changes that are due.
func (p *seekPool) step(now time.Time) {
	if p.store != nil {
		p.stepStored(now)
	}
	type pair struct{ a, b *seek }
	var pairs []pair
	var offers, widened []*seek
	p.mu.Lock()
	if p.store == nil {
		all := make([]tengen.Seek, len(p.seeks))
		for i, sk := range p.seeks {
			all[i] = sk.stored()
		}
		taken := map[*seek]bool{}
		for _, pr := range pairSeeks(all, now) {
			a, b := p.seeks[pr[0]], p.seeks[pr[1]]
			taken[a], taken[b] = true, true
			pairs = append(pairs, pair{a, b})
		}
		p.seeks = slices.DeleteFunc(p.seeks, func(o *seek) bool { return taken[o] })
	}
	for _, sk := range p.seeks {
		if w := seekWindow(now.Sub(sk.since)); w != sk.window {
			sk.window = w
			widened = append(widened, sk)
		}
		if !sk.offer && now.Sub(sk.since) >= p.botAfter {
			sk.offer = true
			offers = append(offers, sk)
		}
	}
	p.mu.Unlock()
	for _, pr := range pairs {
		p.pair(pr.a, pr.b)
	}
	for _, sk := range widened {
		p.status(sk)
	}
	for _, sk := range offers {
		p.offer(sk)
	}
}

// seekLost is how long a seek may be missing from the store before its
// seeker is told that it ended: the message of the instance that paired
// it (or of the bus's reset) normally comes within milliseconds.
const seekLost = 5 * time.Second

// lost ends the local seeks that have been missing from the store (kept
// holds the users of those there) for seekLost: their "seek-matched" was
// lost with a message of the bus, or the seeker seeks on another instance
// now. The seeker hears "seek-ended"; a game made for them is among their
// games and notifications.
func (p *seekPool) lost(kept []int64, now time.Time) {
	p.mu.Lock()
	var gone []*seek
	p.seeks = slices.DeleteFunc(p.seeks, func(sk *seek) bool {
		switch {
		case slices.Contains(kept, sk.user.ID):
			sk.missing = time.Time{}
		case sk.missing.IsZero():
			sk.missing = now
		case now.Sub(sk.missing) >= seekLost:
			gone = append(gone, sk)
			return true
		}
		return false
	})
	p.mu.Unlock()
	for _, sk := range gone {
		p.seeker(sk, "seek-lost", nil)
	}
}

// stepStored keeps this instance's seeks alive in the store and pairs
// the seeks of every instance that it can lock. Only an instance with
// seekers does it: the seekers of the others' are paired by them.
func (p *seekPool) stepStored(now time.Time) {
	p.mu.Lock()
	users := make([]int64, len(p.seeks))
	for i, sk := range p.seeks {
		users[i] = sk.user.ID
	}
	p.mu.Unlock()
	if len(users) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	kept, err := p.store.KeepSeeks(ctx, p.instance, users, now)
	if err != nil {
		p.log("quick match: keeping seeks alive", "err", err)
		return
	}
	p.lost(kept, now)
	pairs, err := p.store.PairSeeks(ctx, now.Add(-p.alive), func(seeks []tengen.Seek) [][2]int { return pairSeeks(seeks, now) })
	if err != nil {
		p.log("quick match: pairing seeks", "err", err)
		return
	}
	for _, pr := range pairs {
		p.pairStored(pr[0], pr[1])
	}
}

// seekCommand runs seek, unseek and seek-bot for a site socket.
func (s *Server) seekCommand(ctx context.Context, c *wsClient, cmd wsCommand) error {
	if c.user == nil {
		return tengen.Errorf(tengen.EUNAUTHORIZED, "Log in to play.")
	}
	switch cmd.Type {
	case "unseek":
		s.seeks.remove(func(o *seek) bool { return o.user.ID == c.userID })
		return nil
	case "seek-bot":
		offered := func(o *seek) bool { return o.c == c && o.offer }
		s.seeks.mu.Lock()
		was := slices.ContainsFunc(s.seeks.seeks, offered)
		s.seeks.mu.Unlock()
		gone := s.seeks.remove(offered)
		if len(gone) == 0 && was {
			// Another instance paired the seek with a human meanwhile.
			return tengen.Errorf(tengen.ECONFLICT, "You have just been paired with another player; your game is starting.")
		}
		if len(gone) == 0 {
			return tengen.Errorf(tengen.ECONFLICT, "No computer opponent has been offered to you; keep searching.")
		}
		return s.quickBot(ctx, gone[0])
	}
	if cmd.BoardSize == nil || !slices.Contains(quickSizes, *cmd.BoardSize) {
		return tengen.Errorf(tengen.EINVALID, "Quick match offers board sizes 9, 13 and 19.")
	}
	if _, ok := quickSpeeds[cmd.Speed]; !ok {
		return tengen.Errorf(tengen.EINVALID, "Speed must be blitz, live or correspondence.")
	}
	u, err := s.svc.Users.FindUserByID(ctx, c.userID)
	if err != nil {
		return err
	}
	rank, ok := tengen.RankValue(u.Rank)
	if !ok {
		// Every account has a rank from sign-up on; an unreadable one
		// (an old account) pairs as a middle kyu player.
		rank, _ = tengen.RankValue("20k")
	}
	now := time.Now()
	sk := &seek{c: c, user: u, rank: rank, size: *cmd.BoardSize, speed: cmd.Speed, since: now, window: seekWindow(0)}
	if err := s.seeks.add(ctx, sk); err != nil {
		return err
	}
	s.quickStatus(sk)
	return nil
}

// stored returns sk as the store keeps it.
func (sk *seek) stored() tengen.Seek {
	return tengen.Seek{UserID: sk.user.ID, BoardSize: sk.size, Speed: sk.speed, Rank: sk.rank, Since: sk.since}
}

// quickSettings returns the settings of a quick-match game of sk's kind
// between the challenger and the opponent ranked as given.
func quickSettings(sk *seek, challengerRank, opponentRank string) tengen.GameSettings {
	set := tengen.GameSettings{BoardSize: sk.size, Ruleset: quickRuleset, Color: tengen.ChooseNigiri, TimeControl: quickSpeeds[sk.speed]}
	if r, ok := set.ForRanks(challengerRank, opponentRank, false); ok {
		return r
	}
	set.Rated = set.DefaultRated()
	return set
}

// quickPair starts the game of two paired seekers: a's challenge to b,
// accepted by b through PlayService.CreateGame. ForRanks gives the
// challenge's colour from a's side: Black when a is the weaker player.
func (s *Server) quickPair(a, b *seek) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	fail := func(err error) {
		s.log.Error("quick match", "challenger", a.user.ID, "opponent", b.user.ID, "err", err)
		for _, sk := range []*seek{a, b} {
			sk.c.enqueue(s.wsError(sk.c, "", err))
			sk.c.enqueue(mustJSON(seekMessage{Type: "seek-ended"}))
		}
	}
	g, err := s.startQuickGame(ctx, a.stored(), b.stored())
	if err != nil {
		fail(err)
		return
	}
	s.log.Info("quick match", "game", g.ID, "black", g.BlackID, "white", g.WhiteID, "handicap", g.Settings.Handicap)
	for _, sk := range []*seek{a, b} {
		sk.c.enqueue(mustJSON(seekMessage{Type: "seek-matched", GameID: g.ID}))
	}
}

// quickPairStored starts the game of two seeks paired in the store, on
// whichever instances their sockets are, as quickPair does, and tells the
// seekers through the bus.
func (s *Server) quickPairStored(a, b tengen.Seek) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	users := []int64{a.UserID, b.UserID}
	g, err := s.startQuickGame(ctx, a, b)
	if err != nil {
		s.log.Error("quick match", "challenger", a.UserID, "opponent", b.UserID, "err", err)
		// The message is English: the seekers' instances cannot translate
		// an error they did not make.
		s.site(siteMsg{Kind: "seek-failed", Users: users,
			Event: mustJSON(wsReply{Type: "error", Code: tengen.ErrorCode(err), Message: tengen.ErrorMessage(err)})})
		return
	}
	s.log.Info("quick match", "game", g.ID, "black", g.BlackID, "white", g.WhiteID, "handicap", g.Settings.Handicap, "instances", a.Instance+","+b.Instance)
	s.site(siteMsg{Kind: "seek-matched", Users: users, Event: mustJSON(seekMessage{Type: "seek-matched", GameID: g.ID})})
}

// startQuickGame creates a's challenge to b and accepts it for b.
func (s *Server) startQuickGame(ctx context.Context, a, b tengen.Seek) (*tengen.Game, error) {
	ua, err := s.svc.Users.FindUserByID(ctx, a.UserID)
	if err != nil {
		return nil, err
	}
	ub, err := s.svc.Users.FindUserByID(ctx, b.UserID)
	if err != nil {
		return nil, err
	}
	set := quickSettings(&seek{size: a.BoardSize, speed: a.Speed}, ua.Rank, ub.Rank)
	c := &tengen.Challenge{ChallengerID: a.UserID, OpponentID: b.UserID, Settings: set}
	if err := s.svc.Challenges.CreateChallenge(ctx, c); err != nil {
		return nil, err
	}
	return s.svc.Play.CreateGame(ctx, c.ID, b.UserID)
}

// quickEnded tells sk's socket how its seek ended elsewhere:
// "seek-matched" or "seek-failed" with event, or "seek-lost" (see lost).
func (s *Server) quickEnded(sk *seek, kind string, event []byte) {
	if event != nil {
		sk.c.enqueue(event)
	}
	if kind != "seek-matched" {
		sk.c.enqueue(mustJSON(seekMessage{Type: "seek-ended"}))
	}
}

// seekMessage is a quick-match message of the site socket.
type seekMessage struct {
	Type      string `json:"type"`
	BoardSize int    `json:"boardSize,omitempty"`
	Speed     string `json:"speed,omitempty"`
	// Window is how many ranks apart an opponent may be now.
	Window int `json:"window,omitempty"`
	// Bot and BotRank are the offered computer opponent.
	Bot     string `json:"bot,omitempty"`
	BotRank string `json:"botRank,omitempty"`
	GameID  int64  `json:"gameId,omitempty"`
}

// quickStatus tells sk how wide its window is.
func (s *Server) quickStatus(sk *seek) {
	sk.c.enqueue(mustJSON(seekMessage{Type: "seek-status", BoardSize: sk.size, Speed: sk.speed, Window: sk.window}))
}

// nearestBot returns the built-in level that plays sk's board size and
// whose rank is nearest sk's, and false if there is none.
func (s *Server) nearestBot(sk *seek) (tengen.BotInfo, bool) {
	var best tengen.BotInfo
	bestDiff := -1
	for _, b := range s.bots() {
		if b.Level == "" || (b.BoardSizes != nil && !slices.Contains(b.BoardSizes, sk.size)) ||
			(b.Rulesets != nil && !slices.Contains(b.Rulesets, quickRuleset)) {
			continue
		}
		v, ok := tengen.RankValue(b.Rank)
		if !ok {
			continue
		}
		if d := max(v-sk.rank, sk.rank-v); bestDiff < 0 || d < bestDiff {
			best, bestDiff = b, d
		}
	}
	return best, bestDiff >= 0
}

// quickOffer offers sk the nearest built-in level; without one the seek
// just goes on.
func (s *Server) quickOffer(sk *seek) {
	b, ok := s.nearestBot(sk)
	if !ok {
		return
	}
	sk.c.enqueue(mustJSON(seekMessage{Type: "seek-offer", BoardSize: sk.size, Speed: sk.speed, Bot: b.Name, BotRank: b.Rank}))
}

// quickBot starts sk's game against the offered level, with the handicap
// from rank.
func (s *Server) quickBot(ctx context.Context, sk *seek) error {
	if s.svc.Bots == nil {
		return tengen.Errorf(tengen.ENOTFOUND, "This server has no computer opponents.")
	}
	b, ok := s.nearestBot(sk)
	if !ok {
		return tengen.Errorf(tengen.ENOTFOUND, "This server has no computer opponents.")
	}
	set := quickSettings(sk, sk.user.Rank, b.Rank)
	set.Rated = set.Rated && b.Rated
	g, err := s.svc.Bots.PlayBot(ctx, sk.user.ID, b.Name, set)
	if err != nil {
		return err
	}
	sk.c.enqueue(mustJSON(seekMessage{Type: "seek-matched", GameID: g.ID}))
	return nil
}
