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
}

func newSeekPool(s *Server) *seekPool {
	return &seekPool{wake: make(chan struct{}, 1), stop: s.stop, botAfter: s.cfg.QuickMatchBotAfter,
		pair: s.quickPair, offer: s.quickOffer, status: s.quickStatus}
}

// add puts sk in the pool in place of any earlier seek of the same user.
func (p *seekPool) add(sk *seek) {
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
}

// wait waits for the pairing loop to end after stop closed.
func (p *seekPool) wait() {
	// A seek that arrives during shutdown may still start the loop; it
	// ends at once since stop is closed.
	p.once.Do(func() {})
	p.loops.Wait()
}

// remove takes the seeks for which match is true out of the pool and
// returns them.
func (p *seekPool) remove(match func(*seek) bool) []*seek {
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

// step pairs whom it can at now, oldest seekers first, and makes the
// offers and window changes that are due.
func (p *seekPool) step(now time.Time) {
	type pair struct{ a, b *seek }
	var pairs []pair
	var offers, widened []*seek
	p.mu.Lock()
	taken := map[*seek]bool{}
	for i, a := range p.seeks {
		if taken[a] {
			continue
		}
		for _, b := range p.seeks[i+1:] {
			if taken[b] || a.size != b.size || a.speed != b.speed || a.user.ID == b.user.ID {
				continue
			}
			// a is the older seek: its wait sets the window.
			if d := a.rank - b.rank; max(d, -d) <= seekWindow(now.Sub(a.since)) {
				taken[a], taken[b] = true, true
				pairs = append(pairs, pair{a, b})
				break
			}
		}
	}
	p.seeks = slices.DeleteFunc(p.seeks, func(o *seek) bool { return taken[o] })
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
		gone := s.seeks.remove(func(o *seek) bool { return o.c == c && o.offer })
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
	s.seeks.add(sk)
	s.quickStatus(sk)
	return nil
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
	c := &tengen.Challenge{ChallengerID: a.user.ID, OpponentID: b.user.ID, Settings: quickSettings(a, a.user.Rank, b.user.Rank)}
	if err := s.svc.Challenges.CreateChallenge(ctx, c); err != nil {
		fail(err)
		return
	}
	g, err := s.svc.Play.CreateGame(ctx, c.ID, b.user.ID)
	if err != nil {
		fail(err)
		return
	}
	s.log.Info("quick match", "game", g.ID, "black", g.BlackID, "white", g.WhiteID, "handicap", g.Settings.Handicap)
	for _, sk := range []*seek{a, b} {
		sk.c.enqueue(mustJSON(seekMessage{Type: "seek-matched", GameID: g.ID}))
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
