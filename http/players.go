package http

import (
	"fmt"
	"math"
	nethttp "net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"tengen"
	"tengen/internal/rating"
)

// Players and profiles (issue 16; docs/API.md, "Players"; docs/WEBUI.md,
// "Profiles and the players page"): the players page with its name search
// and the strongest active players, a profile's statistics and rating
// history, and the rating graph the profile draws as SVG.

// activeDays is how recently a player must have finished a rated game to
// count as active on the players page: a month, so that a weekly club
// player stays listed through a holiday week while someone who stopped
// playing drops out soon.
const activeDays = 30

// playerRoutes registers the players page and its API.
func (s *Server) playerRoutes(mux *nethttp.ServeMux) {
	mux.HandleFunc("GET /players", s.handlePlayersPage)
	mux.HandleFunc("GET /api/v1/users", s.apiListPlayers)
	mux.HandleFunc("GET /api/v1/users/{name}/stats", s.apiUserStats)
	mux.HandleFunc("GET /api/v1/users/{name}/ratings", s.apiUserRatings)
}

// ratings returns the rating service, or ENOTFOUND on a server that keeps
// no ratings (Services.Ratings is optional).
func (s *Server) ratings() (tengen.RatingService, error) {
	if s.svc.Ratings == nil {
		return nil, tengen.Errorf(tengen.ENOTFOUND, "This server keeps no ratings.")
	}
	return s.svc.Ratings, nil
}

// playersResponse is GET /api/v1/users: the players whose names begin with
// Query, or without one the strongest players active within ActiveDays.
type playersResponse struct {
	Query      string         `json:"query,omitempty"`
	ActiveDays int            `json:"activeDays,omitempty"`
	Users      []*tengen.User `json:"users"`
}

// findPlayers answers the players page and its API from the query
// parameters q and limit (1 to 100, default 50).
func (s *Server) findPlayers(r *nethttp.Request) (*playersResponse, error) {
	rs, err := s.ratings()
	if err != nil {
		return nil, err
	}
	limit, _, err := pageParams(r)
	if err != nil {
		return nil, err
	}
	resp := &playersResponse{Query: strings.TrimSpace(r.URL.Query().Get("q"))}
	f := tengen.PlayerFilter{Prefix: resp.Query, Limit: limit}
	if f.Prefix != "" {
		if err := tengen.ValidatePlayerPrefix(f.Prefix); err != nil {
			return nil, err
		}
	} else {
		resp.ActiveDays = activeDays
		f.ActiveSince = s.cfg.Now().Add(-activeDays * 24 * time.Hour)
	}
	if resp.Users, err = rs.FindPlayers(r.Context(), f); err != nil {
		return nil, err
	}
	return resp, nil
}

func (s *Server) apiListPlayers(w nethttp.ResponseWriter, r *nethttp.Request) {
	resp, err := s.findPlayers(r)
	if err != nil {
		s.error(w, r, err)
		return
	}
	writeJSON(w, nethttp.StatusOK, resp)
}

// playersPage is the players page's data.
type playersPage struct {
	*playersResponse
	// Query is what the search field shows, also when it was refused.
	Query string
}

func (s *Server) handlePlayersPage(w nethttp.ResponseWriter, r *nethttp.Request) {
	data := s.newPage(r)
	resp, err := s.findPlayers(r)
	if err != nil {
		if tengen.ErrorCode(err) != tengen.EINVALID {
			s.error(w, r, err)
			return
		}
		// A refused search shows the page again with the message, the
		// typed text and no list.
		data.Players = &playersPage{playersResponse: &playersResponse{Users: []*tengen.User{}}, Query: r.URL.Query().Get("q")}
		s.formError(w, r, "players", data, s.errorText(data.Lang, err), err)
		return
	}
	data.Players = &playersPage{playersResponse: resp, Query: resp.Query}
	s.render(w, r, nethttp.StatusOK, "players", data)
}

// userByName finds the user the path names and the rating service.
func (s *Server) userByName(r *nethttp.Request) (*tengen.User, tengen.RatingService, error) {
	rs, err := s.ratings()
	if err != nil {
		return nil, nil, err
	}
	u, err := s.svc.Users.FindUserByName(r.Context(), r.PathValue("name"))
	if err != nil {
		return nil, nil, err
	}
	return u, rs, nil
}

func (s *Server) apiUserStats(w nethttp.ResponseWriter, r *nethttp.Request) {
	u, rs, err := s.userByName(r)
	if err != nil {
		s.error(w, r, err)
		return
	}
	st, err := rs.FindStats(r.Context(), u.ID)
	if err != nil {
		s.error(w, r, err)
		return
	}
	writeJSON(w, nethttp.StatusOK, st)
}

// ratingsResponse is GET /api/v1/users/{name}/ratings.
type ratingsResponse struct {
	History []*tengen.RatingChange `json:"history"`
}

// apiUserRatings returns the user's rating history, the most recent change
// first; limit (1 to 1000) keeps only the latest changes.
func (s *Server) apiUserRatings(w nethttp.ResponseWriter, r *nethttp.Request) {
	limit := 0
	if v := r.URL.Query().Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 1000 {
			s.error(w, r, tengen.Errorf(tengen.EINVALID, "limit must be a number from 1 to 1000."))
			return
		}
		limit = n
	}
	u, rs, err := s.userByName(r)
	if err != nil {
		s.error(w, r, err)
		return
	}
	h, err := rs.FindRatingHistory(r.Context(), u.ID, limit)
	if err != nil {
		s.error(w, r, err)
		return
	}
	writeJSON(w, nethttp.StatusOK, ratingsResponse{h})
}

// graphPoints is how many rating changes the profile's graph draws at most:
// the latest ones. More would be wider than the pixels that show them.
const graphPoints = 500

// ratingGraph is the profile's rating graph as the template draws it: an
// SVG of Width × Height user units with the plot inside the margins.
type ratingGraph struct {
	Width, Height float64
	// Left, Right, Top and Bottom bound the plot area.
	Left, Right, Top, Bottom float64
	// Line is the polyline's points attribute: the rating before the
	// first game shown, then after every game.
	Line string
	// Dots mark the games, each linked to its game; only when there are
	// few enough to tell apart.
	Dots []graphDot
	// Ranks are the rank axis: a line and a label at the middle rating of
	// each rank shown (every second, third, ... rank when many).
	Ranks []graphTick
	// Dates label the time axis: the first and last game, and one between
	// when the graph spans more than a day.
	Dates []graphTick
	// Summary is the graph's text for screen readers.
	Summary string
}

type graphDot struct {
	X, Y   float64
	GameID int64
	Title  string
}

type graphTick struct {
	At    float64
	Label string
}

// maxDots is the most games the graph marks with a dot.
const maxDots = 60

// newRatingGraph lays out history (the most recent change first, as
// FindRatingHistory returns it); nil without changes.
func newRatingGraph(history []*tengen.RatingChange, summary func(first, last *tengen.RatingChange) string) *ratingGraph {
	if len(history) == 0 {
		return nil
	}
	h := slices.Clone(history[:min(len(history), graphPoints)])
	slices.Reverse(h) // oldest first
	g := &ratingGraph{Width: 520, Height: 240, Left: 44, Right: 512, Top: 10, Bottom: 212}

	lo, hi := h[0].RatingBefore, h[0].RatingBefore
	for _, c := range h {
		lo, hi = min(lo, c.Rating), max(hi, c.Rating)
	}
	// At least a rank's height, so that one game does not fill the graph.
	if mid := (lo + hi) / 2; hi-lo < 120 {
		lo, hi = mid-60, mid+60
	}
	pad := (hi - lo) * 0.08
	lo, hi = lo-pad, hi+pad
	y := func(r float64) float64 { return g.Bottom - (r-lo)/(hi-lo)*(g.Bottom-g.Top) }

	t0, t1 := h[0].CreatedAt, h[len(h)-1].CreatedAt
	span := t1.Sub(t0)
	x := func(i int) float64 {
		// By time when the games are spread over time; by game when
		// they all ended within the same minute.
		if span < time.Minute {
			return g.Left + (g.Right-g.Left)*float64(i+1)/float64(len(h)+1)
		}
		return g.Left + 12 + (g.Right-g.Left-24)*float64(h[i].CreatedAt.Sub(t0))/float64(span)
	}
	var line strings.Builder
	point := func(px, py float64) {
		if line.Len() > 0 {
			line.WriteByte(' ')
		}
		fmt.Fprintf(&line, "%.1f,%.1f", px, py)
	}
	point(max(g.Left, x(0)-12), y(h[0].RatingBefore))
	for i, c := range h {
		px, py := x(i), y(c.Rating)
		point(px, py)
		if len(h) <= maxDots {
			g.Dots = append(g.Dots, graphDot{X: px, Y: py, GameID: c.GameID,
				Title: fmt.Sprintf("%s · %s · %.0f (%+.0f)", c.CreatedAt.Format("2006-01-02"), c.Rank, c.Rating, c.Rating-c.RatingBefore)})
		}
	}
	g.Line = line.String()

	ranks := []rating.Rank{}
	for k := rating.RankOf(lo); k <= rating.RankOf(hi); k++ {
		if r := k.Rating(); r >= lo && r <= hi {
			ranks = append(ranks, k)
		}
	}
	step := int(math.Ceil(float64(len(ranks)) / 8))
	for i, k := range ranks {
		if i%max(step, 1) == 0 {
			g.Ranks = append(g.Ranks, graphTick{At: y(k.Rating()), Label: k.String()})
		}
	}

	// The first and last date, and the middle one when the graph spans
	// more than a day; a label is left out when it says what the one
	// before it says or would overlap it.
	ticks := []graphTick{{At: x(0), Label: t0.Format("2006-01-02")}}
	if span >= 24*time.Hour {
		ticks = append(ticks, graphTick{At: (x(0) + x(len(h)-1)) / 2, Label: t0.Add(span / 2).Format("2006-01-02")})
	}
	ticks = append(ticks, graphTick{At: x(len(h) - 1), Label: t1.Format("2006-01-02")})
	for _, tk := range ticks {
		if n := len(g.Dates); n > 0 && (g.Dates[n-1].Label == tk.Label || tk.At-g.Dates[n-1].At < 90) {
			continue
		}
		g.Dates = append(g.Dates, tk)
	}
	g.Summary = summary(h[0], h[len(h)-1])
	return g
}

// recentGames is how many finished games a profile lists.
const recentGames = 20

// profileGames returns u's games being played and the latest finished ones.
func (s *Server) profileGames(r *nethttp.Request, u *tengen.User) (current, recent []*tengen.Game, err error) {
	current, _, err = s.svc.Games.FindGames(r.Context(), tengen.GameFilter{UserID: &u.ID,
		Status: []tengen.GameStatus{tengen.GamePlaying, tengen.GameScoring}, Limit: 50})
	if err != nil {
		return nil, nil, err
	}
	recent, _, err = s.svc.Games.FindGames(r.Context(), tengen.GameFilter{UserID: &u.ID,
		Status: []tengen.GameStatus{tengen.GameFinished}, Limit: recentGames})
	if err != nil {
		return nil, nil, err
	}
	if current == nil {
		current = []*tengen.Game{}
	}
	if recent == nil {
		recent = []*tengen.Game{}
	}
	return current, recent, nil
}

// profileGraph lays out the profile's rating graph from the user's whole
// history (the latest graphPoints changes of it) for the page; the API
// leaves it out.
func (s *Server) profileGraph(r *nethttp.Request, p *profileResponse) error {
	if isAPI(r) {
		return nil
	}
	h := p.History
	if len(h) >= profileHistory {
		var err error
		if h, err = s.svc.Ratings.FindRatingHistory(r.Context(), p.User.ID, graphPoints); err != nil {
			return err
		}
	}
	cat := s.pages.cats[chooseLanguage(r)]
	p.Graph = newRatingGraph(h, func(first, last *tengen.RatingChange) string {
		return cat.must("players.graphSummary", len(h), first.CreatedAt.Format("2006-01-02"), last.CreatedAt.Format("2006-01-02"),
			fmt.Sprintf("%.0f", first.RatingBefore), fmt.Sprintf("%.0f", last.Rating), last.Rank)
	})
	return nil
}

// gameOutcome is the template function "outcome": "win", "loss" or "draw"
// for u in the finished game g, "" for a void or unknown result.
func gameOutcome(g *tengen.Game, u *tengen.User) string {
	if u == nil {
		return ""
	}
	score, ok := rating.BlackScore(g.Result)
	if !ok || g.Status != tengen.GameFinished {
		return ""
	}
	if g.WhiteID == u.ID {
		score = 1 - score
	} else if g.BlackID != u.ID {
		return ""
	}
	switch score {
	case rating.Win:
		return "win"
	case rating.Loss:
		return "loss"
	}
	return "draw"
}
