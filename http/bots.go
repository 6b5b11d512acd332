package http

import (
	nethttp "net/http"
	"strconv"
	"strings"

	"tengen"
)

// defaultBotForm is a first game against the computer: 9×9 without a
// clock, the human with Black.
var defaultBotForm = challengeForm{
	BoardSize: "9", Ruleset: "japanese", Handicap: "0", Color: "black", TCKind: "none", Rated: "auto",
	MainMinutes: "10", Periods: "3", PeriodSeconds: "30", Stones: "25", CanadianMinutes: "10",
	IncrementSeconds: "10", MaxMinutes: "30", DaysPerMove: "3", MaxDays: "14",
}

// botRequest is the body of POST /api/v1/bots/{name}/games.
type botRequest struct {
	Settings settingsRequest `json:"settings"`
}

type botsResponse struct {
	Bots []tengen.BotInfo `json:"bots"`
}

// bots returns the computer opponents, none without a BotService.
func (s *Server) bots() []tengen.BotInfo {
	if s.svc.Bots == nil {
		return nil
	}
	return s.svc.Bots.Bots()
}

// playBot starts a game of the current user against the named bot.
func (s *Server) playBot(r *nethttp.Request, name string, set tengen.GameSettings) (*tengen.Game, error) {
	u, err := requireUser(r)
	if err != nil {
		return nil, err
	}
	if s.svc.Bots == nil {
		return nil, tengen.Errorf(tengen.ENOTFOUND, "This server has no computer players.")
	}
	g, err := s.svc.Bots.PlayBot(r.Context(), u.ID, name, set)
	if err != nil {
		return nil, err
	}
	s.log.Info("game against the computer", "id", requestID(r.Context()), "game", g.ID, "bot", name)
	return g, nil
}

// handleBotForm starts a game from the lobby's "Play the computer" form,
// whose fields are the challenge form's with the bot's name as opponent.
func (s *Server) handleBotForm(w nethttp.ResponseWriter, r *nethttp.Request) {
	form := readChallengeForm(r)
	form.Opponent = strings.TrimSpace(r.PostFormValue("bot"))
	req, err := form.request()
	if err == nil {
		var g *tengen.Game
		if g, err = s.playBot(r, form.Opponent, req.Settings.resolve(s.botAnchored(form.Opponent))); err == nil {
			nethttp.Redirect(w, r, "/games/"+strconv.FormatInt(g.ID, 10), nethttp.StatusSeeOther)
			return
		}
	}
	switch code := tengen.ErrorCode(err); code {
	case tengen.EINTERNAL:
		s.error(w, r, err)
	case tengen.EUNAUTHORIZED:
		nethttp.Redirect(w, r, "/login", nethttp.StatusSeeOther)
	default:
		s.renderHomeData(w, r, ErrorStatusCode(code), s.errorText(chooseLanguage(r), err), func(d *pageData) { d.BotForm = form })
	}
}

func (s *Server) apiListBots(w nethttp.ResponseWriter, r *nethttp.Request) {
	bots := s.bots()
	if bots == nil {
		bots = []tengen.BotInfo{}
	}
	writeJSON(w, nethttp.StatusOK, botsResponse{bots})
}

func (s *Server) apiPlayBot(w nethttp.ResponseWriter, r *nethttp.Request) {
	var req botRequest
	if err := readJSON(w, r, &req); err != nil {
		s.error(w, r, err)
		return
	}
	g, err := s.playBot(r, r.PathValue("name"), req.Settings.resolve(s.botAnchored(r.PathValue("name"))))
	if err != nil {
		s.error(w, r, err)
		return
	}
	writeJSON(w, nethttp.StatusCreated, gameResponse{Game: g})
}
