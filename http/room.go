package http

import (
	"encoding/json"
	"errors"
	nethttp "net/http"
	"slices"
	"strconv"
	"time"

	"golang.org/x/crypto/bcrypt"

	"tengen"
	"tengen/goban"
)

// The game room's account pages and endpoints (issue 17): the settings
// page, board options, password change, vacation, and a game's conditional
// moves.

// roomRoutes registers the settings page and the game room's endpoints.
func (s *Server) roomRoutes(mux *nethttp.ServeMux) {
	mux.HandleFunc("GET /settings", s.handleSettingsPage)
	mux.HandleFunc("POST /settings", s.handleSettingsForm)
	mux.HandleFunc("POST /settings/password", s.handlePasswordForm)
	mux.HandleFunc("POST /settings/vacation", s.handleVacationForm)
	mux.HandleFunc("GET /api/v1/me/settings", s.apiGetSettings)
	mux.HandleFunc("PUT /api/v1/me/settings", s.apiPutSettings)
	mux.HandleFunc("POST /api/v1/me/password", s.apiPassword)
	mux.HandleFunc("POST /api/v1/me/vacation", s.apiStartVacation)
	mux.HandleFunc("DELETE /api/v1/me/vacation", s.apiEndVacation)
	mux.HandleFunc("GET /api/v1/games/{id}/conditional", s.apiGetConditional)
	mux.HandleFunc("PUT /api/v1/games/{id}/conditional", s.apiPutConditional)
	mux.HandleFunc("DELETE /api/v1/games/{id}/conditional", s.apiDeleteConditional)
}

// settingsBody is the JSON form of a user's settings: the language ("" =
// from the browser) and the board options.
type settingsBody struct {
	Language string `json:"language"`
	tengen.UserSettings
}

// vacationBody is the state of a user's vacation account.
type vacationBody struct {
	Active      bool       `json:"active"`
	Until       *time.Time `json:"until,omitempty"`
	DaysLeft    int        `json:"daysLeft"`
	DaysPerYear int        `json:"daysPerYear"`
}

// settingsResponse answers GET and PUT /api/v1/me/settings.
type settingsResponse struct {
	settingsBody
	Vacation vacationBody `json:"vacation"`
}

func (s *Server) settingsOf(u *tengen.User) settingsResponse {
	now := s.cfg.Now()
	v := vacationBody{Active: u.Vacation.Active(now), DaysLeft: u.Vacation.DaysLeft(now), DaysPerYear: tengen.VacationDaysPerYear}
	if v.Active {
		v.Until = u.Vacation.Until
	}
	return settingsResponse{settingsBody{u.Language, u.Settings}, v}
}

// saveSettings validates and stores b for the logged-in user and sets the
// language cookie to match.
func (s *Server) saveSettings(w nethttp.ResponseWriter, r *nethttp.Request, b settingsBody) (*tengen.User, error) {
	u, err := requireUser(r)
	if err != nil {
		return nil, err
	}
	if b.Language != "" && !slices.Contains(languages, b.Language) {
		return nil, tengen.Errorf(tengen.EINVALID, "Unknown language.")
	}
	if err := b.UserSettings.Validate(); err != nil {
		return nil, err
	}
	u, err = s.svc.Users.UpdateUserSettings(r.Context(), u.ID, b.Language, b.UserSettings)
	if err != nil {
		return nil, err
	}
	c := &nethttp.Cookie{Name: langCookie, Value: b.Language, Path: "/", MaxAge: 365 * 24 * 3600, Secure: s.secure, SameSite: nethttp.SameSiteLaxMode}
	if b.Language == "" {
		c.MaxAge = -1
	}
	nethttp.SetCookie(w, c)
	return u, nil
}

func (s *Server) apiGetSettings(w nethttp.ResponseWriter, r *nethttp.Request) {
	u, err := requireUser(r)
	if err != nil {
		s.error(w, r, err)
		return
	}
	writeJSON(w, nethttp.StatusOK, s.settingsOf(u))
}

func (s *Server) apiPutSettings(w nethttp.ResponseWriter, r *nethttp.Request) {
	var b settingsBody
	u, err := requireUser(r)
	if err == nil {
		// A missing field would silently take its zero value: start from
		// what is stored, so that a client may send only what it changes.
		b = settingsBody{u.Language, u.Settings}
		err = readJSON(w, r, &b)
	}
	if err == nil {
		u, err = s.saveSettings(w, r, b)
	}
	if err != nil {
		s.error(w, r, err)
		return
	}
	writeJSON(w, nethttp.StatusOK, s.settingsOf(u))
}

// changePassword checks the current password, stores the new one and
// ends every other session of the user, closing their sockets; the session
// of the request stays.
func (s *Server) changePassword(r *nethttp.Request, old, new string) error {
	u, err := requireUser(r)
	if err != nil {
		return err
	}
	account := tengen.UserNameKey(u.Name)
	if ok, wait := s.accountLimit.take(r.Context(), account); !ok {
		return tengen.Errorf(tengen.ERATELIMIT, "Too many attempts; try again in %d seconds.", int(wait.Seconds())+1)
	}
	if err := bcrypt.CompareHashAndPassword([]byte(u.PasswordHash), []byte(old)); err != nil {
		if !errors.Is(err, bcrypt.ErrMismatchedHashAndPassword) {
			return err
		}
		return tengen.Errorf(tengen.EFORBIDDEN, "The current password is wrong.")
	}
	s.accountLimit.forget(r.Context(), account)
	if err := tengen.ValidatePassword(new); err != nil {
		return err
	}
	hash, err := bcrypt.GenerateFromPassword([]byte(new), s.bcryptCost())
	if err != nil {
		return err
	}
	keep := sessionToken(r)
	n, err := s.svc.Users.SetPassword(r.Context(), u.ID, string(hash), keep)
	if err != nil {
		return err
	}
	sockets := s.hub.closeWhere(func(c *wsClient) bool { return c.userID == u.ID && c.session != keep })
	s.log.Info("password changed", "id", requestID(r.Context()), "user", u.ID, "sessions", n, "sockets", sockets)
	return nil
}

// passwordRequest is the body of POST /api/v1/me/password.
type passwordRequest struct {
	Old string `json:"old"`
	New string `json:"new"`
}

func (s *Server) apiPassword(w nethttp.ResponseWriter, r *nethttp.Request) {
	var req passwordRequest
	_, err := requireUser(r)
	if err == nil {
		err = readJSON(w, r, &req)
	}
	if err == nil {
		err = s.changePassword(r, req.Old, req.New)
	}
	if err != nil {
		s.error(w, r, err)
		return
	}
	w.WriteHeader(nethttp.StatusNoContent)
}

// vacationRequest is the body of POST /api/v1/me/vacation.
type vacationRequest struct {
	Days int `json:"days"`
}

func (s *Server) vacations() (tengen.VacationService, error) {
	if s.svc.Vacations == nil {
		return nil, errors.New("http: vacations need Services.Vacations")
	}
	return s.svc.Vacations, nil
}

func (s *Server) startVacation(r *nethttp.Request, days int) (*tengen.User, error) {
	u, err := requireUser(r)
	if err != nil {
		return nil, err
	}
	v, err := s.vacations()
	if err != nil {
		return nil, err
	}
	return v.StartVacation(r.Context(), u.ID, days)
}

func (s *Server) endVacation(r *nethttp.Request) (*tengen.User, error) {
	u, err := requireUser(r)
	if err != nil {
		return nil, err
	}
	v, err := s.vacations()
	if err != nil {
		return nil, err
	}
	return v.EndVacation(r.Context(), u.ID)
}

func (s *Server) apiStartVacation(w nethttp.ResponseWriter, r *nethttp.Request) {
	var req vacationRequest
	_, err := requireUser(r)
	if err == nil {
		err = readJSON(w, r, &req)
	}
	var u *tengen.User
	if err == nil {
		u, err = s.startVacation(r, req.Days)
	}
	if err != nil {
		s.error(w, r, err)
		return
	}
	writeJSON(w, nethttp.StatusOK, s.settingsOf(u))
}

func (s *Server) apiEndVacation(w nethttp.ResponseWriter, r *nethttp.Request) {
	u, err := s.endVacation(r)
	if err != nil {
		s.error(w, r, err)
		return
	}
	writeJSON(w, nethttp.StatusOK, s.settingsOf(u))
}

// conditionalBody is a player's conditional moves: the opponent's
// expected move and the reply, alternating.
type conditionalBody struct {
	Moves []goban.Point `json:"moves"`
}

// conditionalOf runs get for the logged-in user on the game of the path
// and answers with what it returns; on an error it has answered already.
func (s *Server) conditionalOf(w nethttp.ResponseWriter, r *nethttp.Request, get func(p tengen.PlayService, gameID, userID int64) (any, error)) {
	id, p, ok := s.gamePlay(w, r)
	if !ok {
		return
	}
	u, err := requireUser(r)
	var out any
	if err == nil {
		out, err = get(p, id, u.ID)
	}
	if err != nil {
		s.error(w, r, err)
		return
	}
	writeJSON(w, nethttp.StatusOK, out)
}

func (s *Server) apiGetConditional(w nethttp.ResponseWriter, r *nethttp.Request) {
	s.conditionalOf(w, r, func(p tengen.PlayService, gameID, userID int64) (any, error) {
		snap, err := p.Snapshot(r.Context(), gameID, userID)
		if err != nil {
			return nil, err
		}
		if snap.You == goban.Empty {
			return nil, tengen.Errorf(tengen.EFORBIDDEN, "You are not playing in this game.")
		}
		return conditionalBody{Moves: append([]goban.Point{}, snap.Conditional...)}, nil
	})
}

func (s *Server) apiPutConditional(w nethttp.ResponseWriter, r *nethttp.Request) {
	var req conditionalBody
	s.playCommand(w, r, &req, func(p tengen.PlayService, gameID, userID int64) (*tengen.GameSnapshot, error) {
		if len(req.Moves) == 0 {
			return nil, tengen.Errorf(tengen.EINVALID, "Give at least one pair of moves; DELETE removes the conditional moves.")
		}
		return p.Do(r.Context(), gameID, userID, tengen.Command{Kind: tengen.CommandConditional, Points: req.Moves})
	})
}

func (s *Server) apiDeleteConditional(w nethttp.ResponseWriter, r *nethttp.Request) {
	s.conditionalOf(w, r, func(p tengen.PlayService, gameID, userID int64) (any, error) {
		snap, err := p.Do(r.Context(), gameID, userID, tengen.Command{Kind: tengen.CommandConditional})
		if err != nil {
			return nil, err
		}
		return stateResponse{snap}, nil
	})
}

// settingsPage is what the settings page shows besides the user.
type settingsPage struct {
	settingsResponse
	// Notice is a confirmation of the last change. Error is a refusal,
	// shown in the section ErrorIn ("board", "vacation", "password") next
	// to the form that caused it.
	Notice, Error, ErrorIn string
	// NoticeIn is the section the notice belongs to.
	NoticeIn string
	// Notations are the choices of coordinate notation.
	Notations []tengen.Notation
}

// boardPrefs returns the JSON of u's board options for the pages' board
// (layout.html's data-board), "" for anonymous visitors.
func boardPrefs(u *tengen.User) string {
	if u == nil {
		return ""
	}
	b, err := json.Marshal(u.Settings)
	if err != nil {
		return ""
	}
	return string(b)
}

func (s *Server) renderSettings(w nethttp.ResponseWriter, r *nethttp.Request, status int, u *tengen.User, notice, section string, err error) {
	data := s.newPage(r)
	if u != nil {
		data.User = u
		data.BoardPrefs = boardPrefs(u)
	}
	if data.User == nil {
		nethttp.Redirect(w, r, "/login", nethttp.StatusSeeOther)
		return
	}
	if err != nil {
		if tengen.ErrorCode(err) == tengen.EINTERNAL {
			s.error(w, r, err)
			return
		}
		status = ErrorStatusCode(tengen.ErrorCode(err))
	}
	data.Settings = &settingsPage{settingsResponse: s.settingsOf(data.User), Notice: notice, NoticeIn: section,
		Notations: []tengen.Notation{tengen.NotationGTP, tengen.NotationKorschelt, tengen.NotationJapanese}}
	if err != nil {
		data.Settings.Error, data.Settings.ErrorIn = s.errorText(data.Lang, err), section
	}
	s.render(w, r, status, "settings", data)
}

func (s *Server) handleSettingsPage(w nethttp.ResponseWriter, r *nethttp.Request) {
	notice, section := "", ""
	if done := r.URL.Query().Get("done"); settingsNotices[done] != "" {
		notice, section = s.pages.cats[chooseLanguage(r)].must("settings.done."+done), settingsNotices[done]
	}
	s.renderSettings(w, r, nethttp.StatusOK, nil, notice, section, nil)
}

// settingsNotices are the changes the settings page confirms after its
// forms redirect back to it (?done=...), with the section each belongs to.
// The forms post to their section's anchor, which the redirect keeps, so
// that the answer shows next to the form.
var settingsNotices = map[string]string{"saved": "board", "password": "password", "vacationStarted": "vacation", "vacationEnded": "vacation"}

// settingsDone redirects to the settings page after a change, or shows it
// again with the refusal in the form's section.
func (s *Server) settingsDone(w nethttp.ResponseWriter, r *nethttp.Request, section, done string, err error) {
	if err != nil {
		s.renderSettings(w, r, nethttp.StatusOK, nil, "", section, err)
		return
	}
	nethttp.Redirect(w, r, "/settings?done="+done, nethttp.StatusSeeOther)
}

func (s *Server) handleSettingsForm(w nethttp.ResponseWriter, r *nethttp.Request) {
	b := settingsBody{Language: r.PostFormValue("language"), UserSettings: tengen.UserSettings{
		Coordinates: r.PostFormValue("coordinates") != "", MoveNumbers: r.PostFormValue("moveNumbers") != "",
		Sound: r.PostFormValue("sound") != "", ConfirmMove: r.PostFormValue("confirmMove") != "",
		Notation: tengen.Notation(r.PostFormValue("notation"))}}
	_, err := s.saveSettings(w, r, b)
	s.settingsDone(w, r, "board", "saved", err)
}

func (s *Server) handlePasswordForm(w nethttp.ResponseWriter, r *nethttp.Request) {
	var err error
	if r.PostFormValue("new") != r.PostFormValue("repeat") {
		err = tengen.Errorf(tengen.EINVALID, "The new password and its repetition differ.")
	} else {
		err = s.changePassword(r, r.PostFormValue("old"), r.PostFormValue("new"))
	}
	s.settingsDone(w, r, "password", "password", err)
}

func (s *Server) handleVacationForm(w nethttp.ResponseWriter, r *nethttp.Request) {
	if r.PostFormValue("action") == "end" {
		_, err := s.endVacation(r)
		s.settingsDone(w, r, "vacation", "vacationEnded", err)
		return
	}
	days, err := strconv.Atoi(r.PostFormValue("days"))
	if err != nil {
		err = tengen.Errorf(tengen.EINVALID, "The number of vacation days must be a whole number.")
	} else {
		_, err = s.startVacation(r, days)
	}
	s.settingsDone(w, r, "vacation", "vacationStarted", err)
}
