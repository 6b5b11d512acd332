package http

import (
	nethttp "net/http"
	"strings"

	"tengen"
	"tengen/goban"
)

// gamePage is what the game page template gets. The page itself shows only
// what does not change (players, settings); game.js draws the board, clocks
// and controls from the WebSocket snapshot.
type gamePage struct {
	Game *tengen.Game
	// You is the viewer's colour as the API writes it: "black", "white",
	// or "" for spectators (a goban.Color would print "empty").
	You string
	// Texts are the catalogue's "js." entries without the prefix, for the
	// script: it builds status lines, clock and score texts itself.
	Texts map[string]string
	// Analysis tells the script that the viewer may ask for the engine's
	// analysis (the server offers it and the viewer is logged in).
	Analysis bool
}

// myGamesPage is what the "my games" page template gets.
type myGamesPage struct {
	// Running are the user's games being played or counted, those waiting
	// for the user first.
	Running []*tengen.Game
	// Finished are the user's latest finished games.
	Finished []*tengen.Game
	Texts    map[string]string
}

// scriptTexts returns the "js." entries of lang's catalogue without the
// prefix.
func (p *pages) scriptTexts(lang string) map[string]string {
	out := map[string]string{}
	for k, v := range p.cats[lang] {
		if name, ok := strings.CutPrefix(k, "js."); ok {
			out[name] = v
		}
	}
	return out
}

// handleGamePage shows a game to players and spectators alike: live while
// it runs, as a replay with move navigation once it is finished.
func (s *Server) handleGamePage(w nethttp.ResponseWriter, r *nethttp.Request) {
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
	data := s.newPage(r)
	gp := &gamePage{Game: g, Texts: s.pages.scriptTexts(data.Lang), Analysis: s.svc.Analysis != nil && data.User != nil}
	if data.User != nil {
		if c := g.ColorOf(data.User.ID); c != goban.Empty {
			gp.You = c.String()
		}
	}
	data.Game = gp
	s.render(w, r, nethttp.StatusOK, "game", data)
}

// handleMyGames lists the user's games, those where it is the user's turn
// first; the page's script keeps the list up to date.
func (s *Server) handleMyGames(w nethttp.ResponseWriter, r *nethttp.Request) {
	data := s.newPage(r)
	if data.User == nil {
		nethttp.Redirect(w, r, "/login", nethttp.StatusSeeOther)
		return
	}
	ctx := r.Context()
	running, _, err := s.svc.Games.FindGames(ctx, tengen.GameFilter{UserID: &data.User.ID,
		Status: []tengen.GameStatus{tengen.GamePlaying, tengen.GameScoring}, Limit: 100})
	if err != nil {
		s.error(w, r, err)
		return
	}
	finished, _, err := s.svc.Games.FindGames(ctx, tengen.GameFilter{UserID: &data.User.ID,
		Status: []tengen.GameStatus{tengen.GameFinished}, Limit: 20})
	if err != nil {
		s.error(w, r, err)
		return
	}
	data.MyGames = &myGamesPage{Running: running, Finished: finished, Texts: s.pages.scriptTexts(data.Lang)}
	s.render(w, r, nethttp.StatusOK, "mygames", data)
}
