package http

import (
	"slices"
	"strings"
	"sync"
	"time"

	"tengen"
)

// Presence across instances. The hub knows this instance's sockets; the
// others tell theirs over the bus (site.go): each instance numbers the
// changes of its sockets ("presence" with one socket's +1 or -1), sends
// its whole state when asked ("presence-sync"), and every presenceEvery a
// heartbeat with its last number. A receiver that misses a number, or
// hears of an instance for the first time, asks that instance for its
// whole state; an instance not heard of for Config.InstanceTimeout has died (or
// lost the database), and its sockets count no more. So "online" in the
// lobby and in a game's presence means a socket on any instance, and a
// player who has the game open on another instance is "here".

// presenceEvery is the heartbeat of an instance's presence; an instance
// unheard for Config.InstanceTimeout no longer counts.
const presenceEvery = time.Second

// presenceKey is a socket's part in presence: its user (0 for a visitor)
// and the game or review it watches (0 for a site socket).
type presenceKey struct {
	User   int64 `json:"user,omitempty"`
	Game   int64 `json:"game,omitempty"`
	Review int64 `json:"review,omitempty"`
}

// presenceCount is a number of sockets of one key, with what the lobby
// shows of its user.
type presenceCount struct {
	presenceKey
	Name string `json:"name,omitempty"`
	Rank string `json:"rank,omitempty"`
	Bot  bool   `json:"bot,omitempty"`
	N    int    `json:"n"`
}

// presenceMsg is an instance's presence on the bus: one change (Sockets
// holds one count of +1 or -1), the whole state (Full: Sockets holds
// every count), or a heartbeat. Seq is the number of the sender's last
// change.
type presenceMsg struct {
	Seq       int64           `json:"seq"`
	Full      bool            `json:"full,omitempty"`
	Heartbeat bool            `json:"heartbeat,omitempty"`
	Sockets   []presenceCount `json:"sockets,omitempty"`
}

// sitePresence is this instance's part in presence and what it knows of
// the others'.
type sitePresence struct {
	mu sync.Mutex // guards seq, told, peers and lastSeen
	// seq numbers this instance's changes; told are the sockets whose
	// opening has been told.
	seq  int64
	told map[*wsClient]presenceCount
	// peers are the other instances by name.
	peers map[string]*peerPresence
	// lastSeen is when a user's last socket on another instance closed
	// (or its instance died), for absent challengers.
	lastSeen map[int64]time.Time

	stopSub, stopReset func() // set by openSite
}

// peerPresence is one other instance's sockets.
type peerPresence struct {
	seen   time.Time // its last message
	seq    int64     // its last change applied
	synced bool      // its whole state has come, and every change since
	asked  time.Time // when it was last asked for its whole state
	counts map[presenceKey]*presenceCount
}

func (p *sitePresence) init() {
	p.told = map[*wsClient]presenceCount{}
	p.peers = map[string]*peerPresence{}
	p.lastSeen = map[int64]time.Time{}
}

// unsync marks every other instance's presence as to be asked for again.
func (p *sitePresence) unsync() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, pp := range p.peers {
		pp.synced = false
	}
}

// tell sends the change of c's presence to the other instances: its
// opening when it is in the hub and was not told, its closing when it has
// left the hub and was told. A visitor's site socket counts nowhere.
func (s *Server) tell(c *wsClient) {
	if s.cfg.Bus == nil || (c.userID == 0 && c.gameID == 0 && c.reviewID == 0) {
		return
	}
	s.hub.mu.Lock()
	_, open := s.hub.conns[c]
	s.hub.mu.Unlock()
	p := &s.presence
	p.mu.Lock()
	defer p.mu.Unlock()
	pc, told := p.told[c]
	switch {
	case open && !told:
		pc = presenceCount{presenceKey: presenceKey{User: c.userID, Game: c.gameID, Review: c.reviewID}, N: 1}
		if c.user != nil {
			pc.Name, pc.Rank, pc.Bot = c.user.Name, c.user.Rank, c.user.Bot
		}
		p.told[c] = pc
	case !open && told:
		delete(p.told, c)
		pc.N = -1
	default:
		return
	}
	p.seq++
	// Sent with the lock held, so that changes go out in their order.
	s.tellOthers(siteMsg{Kind: "presence", Presence: &presenceMsg{Seq: p.seq, Sockets: []presenceCount{pc}}})
}

// fullPresence returns this instance's whole presence. The caller holds
// p.mu.
func (p *sitePresence) fullPresence() *presenceMsg {
	byKey := map[presenceKey]*presenceCount{}
	for _, pc := range p.told {
		if o := byKey[pc.presenceKey]; o != nil {
			o.N++
			continue
		}
		c := pc
		byKey[pc.presenceKey] = &c
	}
	m := &presenceMsg{Seq: p.seq, Full: true, Sockets: make([]presenceCount, 0, len(byKey))}
	for _, c := range byKey {
		m.Sockets = append(m.Sockets, *c)
	}
	return m
}

// presenceHeartbeat tells the others this instance's last change and
// forgets the instances not heard of since now-Config.InstanceTimeout.
func (s *Server) presenceHeartbeat(now time.Time) {
	p := &s.presence
	p.mu.Lock()
	s.tellOthers(siteMsg{Kind: "presence", Presence: &presenceMsg{Seq: p.seq, Heartbeat: true}})
	var gone bool
	for name, pp := range p.peers {
		if now.Sub(pp.seen) < s.cfg.InstanceTimeout {
			continue
		}
		s.log.Warn("instance gone: its sockets no longer count", "instance", name, "last_heard", pp.seen)
		for k := range pp.counts {
			if k.User != 0 {
				p.lastSeen[k.User] = now
			}
		}
		delete(p.peers, name)
		gone = true
	}
	p.mu.Unlock()
	if gone {
		s.presenceMoved(nil)
	}
}

// presenceReceived applies another instance's presence message, or
// answers a request for this instance's.
func (s *Server) presenceReceived(m *siteMsg) {
	if m.From == s.instance {
		return // this instance's own presence is the hub's
	}
	p := &s.presence
	now := s.cfg.Now()
	p.mu.Lock()
	if m.Kind == "presence-sync" {
		if m.To == "" || m.To == s.instance {
			s.tellOthers(siteMsg{Kind: "presence", To: m.From, Presence: p.fullPresence()})
		}
		p.mu.Unlock()
		return
	}
	pm := m.Presence
	if pm == nil {
		p.mu.Unlock()
		return
	}
	pp := p.peers[m.From]
	if pp == nil {
		pp = &peerPresence{counts: map[presenceKey]*presenceCount{}}
		p.peers[m.From] = pp
	}
	pp.seen = now
	var moved []presenceKey // changes the sockets here must hear of; nil: all
	changed := false
	switch {
	case pm.Full:
		if m.To != "" && m.To != s.instance && pp.synced {
			break // an answer to another instance's question
		}
		clear(pp.counts)
		for _, c := range pm.Sockets {
			c := c
			pp.counts[c.presenceKey] = &c
		}
		pp.seq, pp.synced, changed = pm.Seq, true, true
	case pm.Heartbeat:
		if pp.synced && pm.Seq == pp.seq {
			break
		}
		pp.synced = false
	case pp.synced && pm.Seq == pp.seq+1:
		pp.seq++
		for _, c := range pm.Sockets {
			o := pp.counts[c.presenceKey]
			if o == nil {
				o = &presenceCount{presenceKey: c.presenceKey}
				pp.counts[c.presenceKey] = o
			}
			o.Name, o.Rank, o.Bot = c.Name, c.Rank, c.Bot
			if o.N += c.N; o.N <= 0 {
				delete(pp.counts, c.presenceKey)
				if c.User != 0 {
					p.lastSeen[c.User] = now
				}
			}
			moved = append(moved, c.presenceKey)
		}
		changed = true
	case pp.synced && pm.Seq <= pp.seq:
		// Already in the whole state that came after it.
	default:
		pp.synced = false
	}
	ask := !pp.synced && now.Sub(pp.asked) >= presenceEvery
	if ask {
		pp.asked = now
		s.tellOthers(siteMsg{Kind: "presence-sync", To: m.From})
	}
	p.mu.Unlock()
	if changed {
		s.presenceMoved(moved)
	}
}

// presenceMoved pushes what changes of other instances' sockets change
// here: the lobby's online list and the presence of the games concerned
// (every game's when keys is nil).
func (s *Server) presenceMoved(keys []presenceKey) {
	s.lobbyChangedLocal()
	if keys == nil {
		s.pushPresence(func(int64, int64, int64) bool { return true })
		s.rooms.mu.Lock()
		reviews := make([]int64, 0, len(s.rooms.rooms))
		for id := range s.rooms.rooms {
			reviews = append(reviews, id)
		}
		s.rooms.mu.Unlock()
		for _, id := range reviews {
			s.rooms.viewersChanged(id)
		}
		return
	}
	for _, k := range keys {
		if k.Review != 0 {
			s.rooms.viewersChanged(k.Review)
		}
		s.pushPresence(func(id, black, white int64) bool {
			return id == k.Game || (k.User != 0 && (k.User == black || k.User == white))
		})
	}
}

// remoteOnline adds to online the users with a socket on another
// instance: id → user.
func (p *sitePresence) remoteOnline(online map[int64]*tengen.User) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, pp := range p.peers {
		for k, c := range pp.counts {
			if k.User != 0 && !c.Bot && online[k.User] == nil {
				online[k.User] = &tengen.User{ID: k.User, Name: c.Name, Rank: c.Rank}
			}
		}
	}
}

// siteElsewhere returns the notes whose user has a site socket on
// another instance (one with neither game nor review), and all of them
// while the state of another instance is not known in full (it has just
// started, or a change of its went missing). A site socket opened on
// another instance a moment ago may not have been told yet: its page was
// rendered just before, with what was news then, as on one instance.
func (p *sitePresence) siteElsewhere(notes []siteNote) []siteNote {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, pp := range p.peers {
		if !pp.synced {
			return notes
		}
	}
	var far []siteNote
	for _, n := range notes {
		for _, pp := range p.peers {
			if pp.counts[presenceKey{User: n.User}] != nil {
				far = append(far, n)
				break
			}
		}
	}
	return far
}

// remote is what the other instances hold of one game's presence.
type remote struct {
	online map[int64]bool // users with any socket
	here   map[int64]bool // users with a socket of the game
	anon   int            // visitors' sockets of the game
}

// remoteGame returns the other instances' part of game id's presence,
// for the users in users.
func (p *sitePresence) remoteGame(id int64, users ...int64) remote {
	r := remote{online: map[int64]bool{}, here: map[int64]bool{}}
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, pp := range p.peers {
		for k := range pp.counts {
			switch {
			case k.Game == id && k.User == 0:
				r.anon += pp.counts[k].N
			case k.Game == id:
				r.here[k.User] = true
				r.online[k.User] = true
			case slices.Contains(users, k.User):
				r.online[k.User] = true
			}
		}
	}
	return r
}

// remoteViewers returns how many sockets the other instances have on
// review id.
func (p *sitePresence) remoteViewers(id int64) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := 0
	for _, pp := range p.peers {
		for k, c := range pp.counts {
			if k.Review == id {
				n += c.N
			}
		}
	}
	return n
}

// remoteSince returns when userID's last socket on another instance
// closed, and false while one is open.
func (p *sitePresence) remoteSince(userID int64) (time.Time, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, pp := range p.peers {
		for k := range pp.counts {
			if k.User == userID {
				return time.Time{}, false
			}
		}
	}
	return p.lastSeen[userID], true
}

// sortUsers sorts users by name, as the lobby lists them.
func sortUsers(users []*tengen.User) {
	slices.SortFunc(users, func(a, b *tengen.User) int { return strings.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name)) })
}
