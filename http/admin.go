package http

import (
	nethttp "net/http"
	"strconv"

	"tengen"
)

// The admin role (docs/API.md, "Admin"): admins list users, disable and
// enable accounts, cancel games and remove challenges, through the API under
// /api/v1/admin/ and the page /admin. Every action is logged with who did
// what to whom.

func (s *Server) adminRoutes(mux *nethttp.ServeMux) {
	mux.HandleFunc("GET /api/v1/admin/users", s.apiAdminUsers)
	mux.HandleFunc("POST /api/v1/admin/users/{name}/disable", s.apiAdminUser(true))
	mux.HandleFunc("POST /api/v1/admin/users/{name}/enable", s.apiAdminUser(false))
	mux.HandleFunc("POST /api/v1/admin/games/{id}/cancel", s.apiAdminCancelGame)
	mux.HandleFunc("POST /api/v1/admin/challenges/{id}/cancel", s.apiAdminRemoveChallenge)

	mux.HandleFunc("GET /admin", s.handleAdminPage)
	mux.HandleFunc("POST /admin/users/{name}/disable", s.adminForm(func(r *nethttp.Request) error {
		_, err := s.setUserDisabled(r, true)
		return err
	}))
	mux.HandleFunc("POST /admin/users/{name}/enable", s.adminForm(func(r *nethttp.Request) error {
		_, err := s.setUserDisabled(r, false)
		return err
	}))
	mux.HandleFunc("POST /admin/games/{id}/cancel", s.adminForm(func(r *nethttp.Request) error {
		_, err := s.cancelGame(r)
		return err
	}))
	mux.HandleFunc("POST /admin/challenges/{id}/cancel", s.adminForm(func(r *nethttp.Request) error {
		_, err := s.removeChallenge(r)
		return err
	}))
}

// requireAdmin returns the logged-in admin, EUNAUTHORIZED for anonymous
// requests and EFORBIDDEN for everyone else.
func requireAdmin(r *nethttp.Request) (*tengen.User, error) {
	u, err := requireUser(r)
	if err != nil {
		return nil, err
	}
	if !u.Admin {
		return nil, tengen.Errorf(tengen.EFORBIDDEN, "Only admins may do this.")
	}
	return u, nil
}

// grantAdmin makes a newly registered user an admin if it is the account
// named by Config.Admin, or, without that setting, the first person to
// register.
func (s *Server) grantAdmin(r *nethttp.Request, u *tengen.User) error {
	reason := "first user"
	if s.cfg.Admin != "" {
		if tengen.UserNameKey(u.Name) != tengen.UserNameKey(s.cfg.Admin) {
			return nil
		}
		if _, err := s.svc.Users.SetUserAdmin(r.Context(), u.ID, true); err != nil {
			return err
		}
		reason = "named by the admin setting"
	} else if ok, err := s.svc.Users.ClaimFirstAdmin(r.Context(), u.ID); err != nil || !ok {
		return err
	}
	u.Admin = true
	s.log.Info("admin role granted", "id", requestID(r.Context()), "user", u.ID, "name", u.Name, "reason", reason)
	return nil
}

// adminLog logs an admin action: who did what to whom, and whether it
// succeeded.
func (s *Server) adminLog(r *nethttp.Request, admin *tengen.User, action string, err error, attrs ...any) {
	attrs = append([]any{"id", requestID(r.Context()), "admin", admin.Name, "adminId", admin.ID, "action", action}, attrs...)
	if err != nil {
		s.log.Warn("admin action failed", append(attrs, "err", err)...)
		return
	}
	s.log.Info("admin action", attrs...)
}

// setUserDisabled disables or enables the account named in the path. Its
// sessions end in the same transaction, and its sockets at once.
func (s *Server) setUserDisabled(r *nethttp.Request, disabled bool) (*tengen.User, error) {
	a, err := requireAdmin(r)
	if err != nil {
		return nil, err
	}
	action := "enable user"
	if disabled {
		action = "disable user"
	}
	u, err := s.svc.Users.FindUserByName(r.Context(), r.PathValue("name"))
	switch {
	case err != nil:
	case disabled && u.ID == a.ID:
		err = tengen.Errorf(tengen.EINVALID, "You cannot disable your own account.")
	case disabled && u.Bot:
		err = tengen.Errorf(tengen.EINVALID, "Computer players cannot be disabled.")
	default:
		u, err = s.svc.Users.SetUserDisabled(r.Context(), u.ID, disabled)
	}
	if err != nil {
		s.adminLog(r, a, action, err, "user", r.PathValue("name"))
		return nil, err
	}
	sockets := 0
	if disabled {
		sockets = s.hub.closeUser(u.ID)
		s.closeSockets("", u.ID) // and on the other instances
	}
	s.adminLog(r, a, action, nil, "user", u.Name, "userId", u.ID, "sockets", sockets)
	return u, nil
}

// cancelGame ends the game in the path without a result (Void) through the
// play service, which checks the role again and tells the watchers.
func (s *Server) cancelGame(r *nethttp.Request) (*tengen.GameSnapshot, error) {
	a, err := requireAdmin(r)
	if err != nil {
		return nil, err
	}
	id, err := pathID(r)
	if err != nil {
		return nil, err
	}
	snap, err := s.svc.Play.Do(r.Context(), id, a.ID, tengen.Command{Kind: tengen.CommandCancel})
	if err != nil {
		s.adminLog(r, a, "cancel game", err, "game", id)
		return nil, err
	}
	g := snap.Game
	s.adminLog(r, a, "cancel game", nil, "game", id, "black", userName(g.Black), "white", userName(g.White), "moves", g.MoveCount)
	return snap, nil
}

// removeChallenge cancels the open challenge in the path, whoever made it.
func (s *Server) removeChallenge(r *nethttp.Request) (*tengen.Challenge, error) {
	a, err := requireAdmin(r)
	if err != nil {
		return nil, err
	}
	id, err := pathID(r)
	if err != nil {
		return nil, err
	}
	c, err := s.svc.Challenges.RemoveChallenge(r.Context(), id)
	if err != nil {
		s.adminLog(r, a, "remove challenge", err, "challenge", id)
		return nil, err
	}
	s.adminLog(r, a, "remove challenge", nil, "challenge", id, "challenger", c.ChallengerID)
	s.LobbyChanged()
	return c, nil
}

func userName(u *tengen.User) string {
	if u == nil {
		return ""
	}
	return u.Name
}

// usersResponse is a page of users.
type usersResponse struct {
	Users []*tengen.User `json:"users"`
	Total int            `json:"total"`
}

func (s *Server) apiAdminUsers(w nethttp.ResponseWriter, r *nethttp.Request) {
	if _, err := requireAdmin(r); err != nil {
		s.error(w, r, err)
		return
	}
	limit, offset, err := pageParams(r)
	if err != nil {
		s.error(w, r, err)
		return
	}
	users, total, err := s.svc.Users.FindUsers(r.Context(), tengen.UserFilter{Limit: limit, Offset: offset})
	if err != nil {
		s.error(w, r, err)
		return
	}
	if users == nil {
		users = []*tengen.User{}
	}
	writeJSON(w, nethttp.StatusOK, usersResponse{users, total})
}

func (s *Server) apiAdminUser(disabled bool) nethttp.HandlerFunc {
	return func(w nethttp.ResponseWriter, r *nethttp.Request) {
		u, err := s.setUserDisabled(r, disabled)
		if err != nil {
			s.error(w, r, err)
			return
		}
		writeJSON(w, nethttp.StatusOK, userResponse{u})
	}
}

func (s *Server) apiAdminCancelGame(w nethttp.ResponseWriter, r *nethttp.Request) {
	snap, err := s.cancelGame(r)
	if err != nil {
		s.error(w, r, err)
		return
	}
	writeJSON(w, nethttp.StatusOK, stateResponse{snap})
}

func (s *Server) apiAdminRemoveChallenge(w nethttp.ResponseWriter, r *nethttp.Request) {
	c, err := s.removeChallenge(r)
	if err != nil {
		s.error(w, r, err)
		return
	}
	writeJSON(w, nethttp.StatusOK, challengeResponse{c})
}

// adminPageSize is the number of users, games and challenges the admin
// page lists at once.
const adminPageSize = 50

// adminPage is what the admin page shows: a page of users, the unfinished
// games and the open challenges.
type adminPage struct {
	Users      []*tengen.User
	Total      int
	Offset     int
	Prev, Next int // offsets of the neighbouring pages, -1 for none
	Games      []*tengen.Game
	GamesTotal int
	Challenges []*tengen.Challenge
}

func (s *Server) handleAdminPage(w nethttp.ResponseWriter, r *nethttp.Request) {
	s.renderAdmin(w, r, nethttp.StatusOK, "")
}

// renderAdmin renders the admin page with an error message, if any.
func (s *Server) renderAdmin(w nethttp.ResponseWriter, r *nethttp.Request, status int, errText string) {
	if _, err := requireAdmin(r); err != nil {
		s.error(w, r, err)
		return
	}
	offset, _ := strconv.Atoi(r.FormValue("offset"))
	offset = max(offset, 0)
	ctx := r.Context()
	p := &adminPage{Offset: offset, Prev: -1, Next: -1}
	var err error
	if p.Users, p.Total, err = s.svc.Users.FindUsers(ctx, tengen.UserFilter{Limit: adminPageSize, Offset: offset}); err != nil {
		s.error(w, r, err)
		return
	}
	if offset > 0 {
		p.Prev = max(offset-adminPageSize, 0)
	}
	if offset+adminPageSize < p.Total {
		p.Next = offset + adminPageSize
	}
	if p.Games, p.GamesTotal, err = s.svc.Games.FindGames(ctx, tengen.GameFilter{
		Status: []tengen.GameStatus{tengen.GamePlaying, tengen.GameScoring}, Limit: adminPageSize}); err != nil {
		s.error(w, r, err)
		return
	}
	open := tengen.ChallengeOpen
	if p.Challenges, _, err = s.svc.Challenges.FindChallenges(ctx, tengen.ChallengeFilter{Status: &open, Limit: adminPageSize}); err != nil {
		s.error(w, r, err)
		return
	}
	data := s.newPage(r)
	data.Admin, data.Error = p, errText
	s.render(w, r, status, "admin", data)
}

// adminForm runs an admin action from the admin page's forms and goes back
// to the page (to the page of users the form was on), or shows the page
// with the error.
func (s *Server) adminForm(run func(r *nethttp.Request) error) nethttp.HandlerFunc {
	return func(w nethttp.ResponseWriter, r *nethttp.Request) {
		err := run(r)
		switch code := tengen.ErrorCode(err); code {
		case "":
			offset, _ := strconv.Atoi(r.PostFormValue("offset"))
			nethttp.Redirect(w, r, "/admin?offset="+strconv.Itoa(max(offset, 0)), nethttp.StatusSeeOther)
		case tengen.EUNAUTHORIZED, tengen.EFORBIDDEN, tengen.EINTERNAL:
			s.error(w, r, err)
		default:
			s.renderAdmin(w, r, ErrorStatusCode(code), s.errorText(chooseLanguage(r), err))
		}
	}
}
