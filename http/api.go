package http

import (
	"context"
	nethttp "net/http"
	"strconv"
	"strings"

	"tengen"
)

// credentials is the body of register and login requests.
type credentials struct {
	Name     string `json:"name"`
	Password string `json:"password"`
	// Level is the starting level of a new account (register only; see
	// tengen.StartingLevels); "" starts at the default rating.
	Level string `json:"level,omitempty"`
}

// userResponse wraps a user.
type userResponse struct {
	User *tengen.User `json:"user"`
}

func (s *Server) apiRegister(w nethttp.ResponseWriter, r *nethttp.Request) {
	var req credentials
	if err := readJSON(w, r, &req); err != nil {
		s.error(w, r, err)
		return
	}
	u, err := s.register(w, r, req.Name, req.Password, req.Level)
	if err != nil {
		s.error(w, r, err)
		return
	}
	writeJSON(w, nethttp.StatusCreated, userResponse{u})
}

func (s *Server) apiLogin(w nethttp.ResponseWriter, r *nethttp.Request) {
	var req credentials
	if err := readJSON(w, r, &req); err != nil {
		s.error(w, r, err)
		return
	}
	u, err := s.login(w, r, req.Name, req.Password)
	if err != nil {
		s.error(w, r, err)
		return
	}
	writeJSON(w, nethttp.StatusOK, userResponse{u})
}

func (s *Server) apiLogout(w nethttp.ResponseWriter, r *nethttp.Request) {
	if err := s.logout(w, r); err != nil {
		s.error(w, r, err)
		return
	}
	w.WriteHeader(nethttp.StatusNoContent)
}

func (s *Server) apiMe(w nethttp.ResponseWriter, r *nethttp.Request) {
	u, err := requireUser(r)
	if err != nil {
		s.error(w, r, err)
		return
	}
	writeJSON(w, nethttp.StatusOK, userResponse{u})
}

// challengeRequest is the body of POST /api/v1/challenges.
type challengeRequest struct {
	// Opponent is the name of the invited user; empty for an open challenge.
	Opponent string          `json:"opponent"`
	Settings settingsRequest `json:"settings"`
}

type challengeResponse struct {
	Challenge *tengen.Challenge `json:"challenge"`
}

type challengesResponse struct {
	Challenges []*tengen.Challenge `json:"challenges"`
	Total      int                 `json:"total"`
}

type gameResponse struct {
	Game *tengen.Game `json:"game"`
}

// gameMovesResponse is a game with its moves, [] before the first.
type gameMovesResponse struct {
	Game  *tengen.Game       `json:"game"`
	Moves []*tengen.GameMove `json:"moves"`
}

type gamesResponse struct {
	Games []*tengen.Game `json:"games"`
	Total int            `json:"total"`
}

// lobbyResponse is what the lobby shows: the challenges the user may see and
// the user's unfinished games, those waiting for the user first.
type lobbyResponse struct {
	User       *tengen.User        `json:"user"`
	Challenges []*tengen.Challenge `json:"challenges"`
	Games      []*tengen.Game      `json:"games"`
}

// createChallenge creates a challenge by the logged-in user. New
// challenges are limited per client address, so that many accounts at one
// address cannot fill the lobby either.
func (s *Server) createChallenge(w nethttp.ResponseWriter, r *nethttp.Request, req challengeRequest) (*tengen.Challenge, error) {
	u, err := requireUser(r)
	if err != nil {
		return nil, err
	}
	if ok, wait := s.chalLimit.take(r.Context(), s.clientKey(r)); !ok {
		s.log.Warn("challenges rate limited", "id", requestID(r.Context()), "user", u.ID)
		return nil, rateLimited(w, wait)
	}
	c := &tengen.Challenge{ChallengerID: u.ID, Settings: req.Settings.resolve(true)}
	var opp *tengen.User
	if name := strings.TrimSpace(req.Opponent); name != "" {
		if opp, err = s.svc.Users.FindUserByName(r.Context(), name); err != nil {
			return nil, err
		}
		if opp.Bot {
			return nil, tengen.Errorf(tengen.EINVALID, "%s is a computer player; start a game with it under \"Play the computer\".", opp.Name)
		}
		c.OpponentID = opp.ID
	}
	if c.Settings.HandicapBy == tengen.HandicapByRank {
		if opp != nil {
			// Both ranks are known: the challenge shows the handicap,
			// colours and rating before it is accepted.
			set, ok := c.Settings.ForRanks(u.Rank, opp.Rank, req.Settings.Rated != nil)
			if !ok {
				return nil, tengen.Errorf(tengen.EINVALID, "The handicap cannot be chosen from the ranks %s and %s.", u.Rank, opp.Rank)
			}
			c.Settings = set
		} else {
			// An open challenge is settled when it is accepted
			// (Challenge.GameSettings); until then it says "automatic",
			// and "rated" means rated if the game turns out even.
			c.Settings.Handicap, c.Settings.Komi = 0, nil
			if req.Settings.Rated == nil {
				c.Settings.Rated = true
			}
		}
	}
	if err := s.svc.Challenges.CreateChallenge(r.Context(), c); err != nil {
		return nil, err
	}
	s.challengeMade(c, u)
	return c, nil
}

func (s *Server) apiCreateChallenge(w nethttp.ResponseWriter, r *nethttp.Request) {
	var req challengeRequest
	if err := readJSON(w, r, &req); err != nil {
		s.error(w, r, err)
		return
	}
	c, err := s.createChallenge(w, r, req)
	if err != nil {
		s.error(w, r, err)
		return
	}
	writeJSON(w, nethttp.StatusCreated, challengeResponse{c})
}

// lobby returns the lobby for the current user (anonymous visitors see the
// open challenges only).
func (s *Server) lobby(r *nethttp.Request) (*lobbyResponse, error) {
	return s.lobbyFor(r.Context(), currentUser(r.Context()))
}

// lobbyFor returns the lobby as u sees it (nil: an anonymous visitor).
func (s *Server) lobbyFor(ctx context.Context, u *tengen.User) (*lobbyResponse, error) {
	open := tengen.ChallengeOpen
	filter := tengen.ChallengeFilter{Status: &open, Limit: 100}
	resp := &lobbyResponse{User: u, Challenges: []*tengen.Challenge{}, Games: []*tengen.Game{}}
	if resp.User != nil {
		filter.VisibleTo = &resp.User.ID
	} else {
		var anonymous int64 // 0: open challenges only
		filter.VisibleTo = &anonymous
	}
	cs, _, err := s.svc.Challenges.FindChallenges(ctx, filter)
	if err != nil {
		return nil, err
	}
	if cs != nil {
		resp.Challenges = cs
	}
	if resp.User != nil {
		gs, _, err := s.svc.Games.FindGames(ctx, tengen.GameFilter{UserID: &resp.User.ID,
			Status: []tengen.GameStatus{tengen.GamePlaying, tengen.GameScoring}, Limit: 100})
		if err != nil {
			return nil, err
		}
		if gs != nil {
			resp.Games = gs
		}
	}
	return resp, nil
}

func (s *Server) apiLobby(w nethttp.ResponseWriter, r *nethttp.Request) {
	resp, err := s.lobby(r)
	if err != nil {
		s.error(w, r, err)
		return
	}
	writeJSON(w, nethttp.StatusOK, resp)
}

// pageParams reads limit (1–100, default 50) and offset from the query.
func pageParams(r *nethttp.Request) (limit, offset int, err error) {
	limit, offset = 50, 0
	if v := r.URL.Query().Get("limit"); v != "" {
		if limit, err = strconv.Atoi(v); err != nil || limit < 1 || limit > 100 {
			return 0, 0, tengen.Errorf(tengen.EINVALID, "limit must be a number from 1 to 100.")
		}
	}
	if v := r.URL.Query().Get("offset"); v != "" {
		if offset, err = strconv.Atoi(v); err != nil || offset < 0 {
			return 0, 0, tengen.Errorf(tengen.EINVALID, "offset must be a number of at least 0.")
		}
	}
	return limit, offset, nil
}

func (s *Server) apiListChallenges(w nethttp.ResponseWriter, r *nethttp.Request) {
	limit, offset, err := pageParams(r)
	if err != nil {
		s.error(w, r, err)
		return
	}
	filter := tengen.ChallengeFilter{Limit: limit, Offset: offset}
	var anonymous int64 // 0: open challenges only
	filter.VisibleTo = &anonymous
	if u := currentUser(r.Context()); u != nil {
		filter.VisibleTo = &u.ID
	}
	switch st := tengen.ChallengeStatus(r.URL.Query().Get("status")); st {
	case "":
		open := tengen.ChallengeOpen
		filter.Status = &open
	case tengen.ChallengeOpen, tengen.ChallengeAccepted, tengen.ChallengeCancelled, tengen.ChallengeDeclined:
		filter.Status = &st
	case "any":
	default:
		s.error(w, r, tengen.Errorf(tengen.EINVALID, "Unknown status %q.", st))
		return
	}
	cs, total, err := s.svc.Challenges.FindChallenges(r.Context(), filter)
	if err != nil {
		s.error(w, r, err)
		return
	}
	if cs == nil {
		cs = []*tengen.Challenge{}
	}
	writeJSON(w, nethttp.StatusOK, challengesResponse{cs, total})
}

// pathID parses the {id} path value.
func pathID(r *nethttp.Request) (int64, error) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || id <= 0 {
		return 0, tengen.Errorf(tengen.ENOTFOUND, "Not found.")
	}
	return id, nil
}

// visibleChallenge returns the challenge if the current user may see it:
// open challenges are public, direct ones only for their two users.
func (s *Server) visibleChallenge(r *nethttp.Request, id int64) (*tengen.Challenge, error) {
	c, err := s.svc.Challenges.FindChallengeByID(r.Context(), id)
	if err != nil {
		return nil, err
	}
	if c.OpponentID != 0 {
		u := currentUser(r.Context())
		if u == nil || (u.ID != c.ChallengerID && u.ID != c.OpponentID) {
			return nil, tengen.Errorf(tengen.ENOTFOUND, "Challenge not found.")
		}
	}
	return c, nil
}

func (s *Server) apiGetChallenge(w nethttp.ResponseWriter, r *nethttp.Request) {
	id, err := pathID(r)
	if err == nil {
		var c *tengen.Challenge
		if c, err = s.visibleChallenge(r, id); err == nil {
			writeJSON(w, nethttp.StatusOK, challengeResponse{c})
			return
		}
	}
	s.error(w, r, err)
}

// acceptChallenge accepts on behalf of the current user.
func (s *Server) acceptChallenge(r *nethttp.Request) (*tengen.Game, error) {
	u, err := requireUser(r)
	if err != nil {
		return nil, err
	}
	id, err := pathID(r)
	if err != nil {
		return nil, err
	}
	if _, err := s.visibleChallenge(r, id); err != nil {
		return nil, err
	}
	g, err := s.svc.Play.CreateGame(r.Context(), id, u.ID)
	if err != nil {
		return nil, err
	}
	s.log.Info("game created", "id", requestID(r.Context()), "game", g.ID, "challenge", id)
	return g, nil
}

func (s *Server) apiAcceptChallenge(w nethttp.ResponseWriter, r *nethttp.Request) {
	g, err := s.acceptChallenge(r)
	if err != nil {
		s.error(w, r, err)
		return
	}
	writeJSON(w, nethttp.StatusCreated, gameResponse{Game: g})
}

// cancelChallenge withdraws or declines on behalf of the current user.
func (s *Server) cancelChallenge(r *nethttp.Request) (*tengen.Challenge, error) {
	u, err := requireUser(r)
	if err != nil {
		return nil, err
	}
	id, err := pathID(r)
	if err != nil {
		return nil, err
	}
	if _, err := s.visibleChallenge(r, id); err != nil {
		return nil, err
	}
	c, err := s.svc.Challenges.CancelChallenge(r.Context(), id, u.ID)
	if err == nil {
		s.LobbyChanged()
	}
	return c, err
}

func (s *Server) apiCancelChallenge(w nethttp.ResponseWriter, r *nethttp.Request) {
	c, err := s.cancelChallenge(r)
	if err != nil {
		s.error(w, r, err)
		return
	}
	writeJSON(w, nethttp.StatusOK, challengeResponse{c})
}

// parseStatuses reads a comma-separated status list.
func parseStatuses(v string) ([]tengen.GameStatus, error) {
	if v == "" {
		return nil, nil
	}
	var out []tengen.GameStatus
	for _, f := range strings.Split(v, ",") {
		switch st := tengen.GameStatus(f); st {
		case tengen.GamePlaying, tengen.GameScoring, tengen.GameFinished:
			out = append(out, st)
		default:
			return nil, tengen.Errorf(tengen.EINVALID, "Unknown game status %q.", f)
		}
	}
	return out, nil
}

func (s *Server) apiListGames(w nethttp.ResponseWriter, r *nethttp.Request) {
	limit, offset, err := pageParams(r)
	if err != nil {
		s.error(w, r, err)
		return
	}
	filter := tengen.GameFilter{Limit: limit, Offset: offset}
	if filter.Status, err = parseStatuses(r.URL.Query().Get("status")); err != nil {
		s.error(w, r, err)
		return
	}
	if name := r.URL.Query().Get("user"); name != "" {
		u, err := s.svc.Users.FindUserByName(r.Context(), name)
		if err != nil {
			s.error(w, r, err)
			return
		}
		filter.UserID = &u.ID
	}
	gs, total, err := s.svc.Games.FindGames(r.Context(), filter)
	if err != nil {
		s.error(w, r, err)
		return
	}
	if gs == nil {
		gs = []*tengen.Game{}
	}
	writeJSON(w, nethttp.StatusOK, gamesResponse{gs, total})
}

func (s *Server) apiGetGame(w nethttp.ResponseWriter, r *nethttp.Request) {
	id, err := pathID(r)
	if err != nil {
		s.error(w, r, err)
		return
	}
	g, err := s.svc.Games.FindGameByID(r.Context(), id)
	if err != nil {
		s.error(w, r, err)
		return
	}
	moves, err := s.svc.Games.FindMoves(r.Context(), id, 0)
	if err != nil {
		s.error(w, r, err)
		return
	}
	if moves == nil {
		moves = []*tengen.GameMove{}
	}
	writeJSON(w, nethttp.StatusOK, gameMovesResponse{Game: g, Moves: moves})
}

type profileResponse struct {
	User  *tengen.User   `json:"user"`
	Games []*tengen.Game `json:"games"`
	Total int            `json:"total"`
	// Record and History (the latest rating changes) are there when the
	// server keeps ratings (Services.Ratings).
	Record  *tengen.Record         `json:"record,omitempty"`
	History []*tengen.RatingChange `json:"history,omitempty"`
	// Stats counts the finished games by board size and opponent strength
	// (with Services.Ratings); Current are the games being played and
	// Recent the latest finished ones.
	Stats   *tengen.UserStats `json:"stats,omitempty"`
	Current []*tengen.Game    `json:"current"`
	Recent  []*tengen.Game    `json:"recent"`
	// Graph is the page's rating graph, drawn from the whole history.
	Graph *ratingGraph `json:"-"`
}

// profile returns a user and their games, those waiting for them first.
func (s *Server) profile(r *nethttp.Request) (*profileResponse, error) {
	u, err := s.svc.Users.FindUserByName(r.Context(), r.PathValue("name"))
	if err != nil {
		return nil, err
	}
	gs, total, err := s.svc.Games.FindGames(r.Context(), tengen.GameFilter{UserID: &u.ID, Limit: 50})
	if err != nil {
		return nil, err
	}
	if gs == nil {
		gs = []*tengen.Game{}
	}
	p := &profileResponse{User: u, Games: gs, Total: total}
	if p.Current, p.Recent, err = s.profileGames(r, u); err != nil {
		return nil, err
	}
	if err := s.ratingProfile(r, p); err != nil {
		return nil, err
	}
	return p, nil
}

func (s *Server) apiGetUser(w nethttp.ResponseWriter, r *nethttp.Request) {
	resp, err := s.profile(r)
	if err != nil {
		s.error(w, r, err)
		return
	}
	writeJSON(w, nethttp.StatusOK, resp)
}
