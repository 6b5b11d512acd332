package http

import (
	"context"
	nethttp "net/http"
	"time"

	"github.com/coder/websocket"

	"tengen"
)

// Ending sessions reaches the game WebSockets opened with them: logging out
// closes the sockets of that session, logging out everywhere, changing the
// password and disabling an account close all of the user's (the others').
// A socket also looks its session up again before its first command and
// then at most every wsSessionRecheck (wsSessionLive), so that a session
// ended elsewhere (deleted in storage by another instance or while the
// socket was being opened) can act at most wsSessionRecheck longer, and an
// expired one not at all. Looking it up before every command cost a tenth
// of the server's CPU under load (docs/PERFORMANCE.md).

// wsSessionRecheck bounds how long a socket trusts its last lookup of its
// session: the staleness of a session ended without this server's
// knowledge.
const wsSessionRecheck = 5 * time.Second

// wsSessionEnded is the close reason of a socket whose session ended.
const wsSessionEnded = "session ended: log in again"

// closeSession ends the sockets opened with the session token.
func (h *hub) closeSession(token string) int {
	return h.closeWhere(func(c *wsClient) bool { return token != "" && c.session == token })
}

// closeUser ends every socket of userID, whatever its session.
func (h *hub) closeUser(userID int64) int {
	return h.closeWhere(func(c *wsClient) bool { return userID != 0 && c.userID == userID })
}

// closeWhere ends the sockets for which match is true with a policy
// violation status and returns how many. Ending is a signal to the socket's
// writer, which sends the close frame, so it does not block.
func (h *hub) closeWhere(match func(*wsClient) bool) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := 0
	for c := range h.conns {
		if match(c) {
			c.end(websocket.StatusPolicyViolation, wsSessionEnded)
			n++
		}
	}
	return n
}

// sessionToken returns the token of the request's session, "" for
// anonymous requests.
func sessionToken(r *nethttp.Request) string {
	if sess := currentSession(r.Context()); sess != nil {
		return sess.Token
	}
	return ""
}

// wsSessionLive reports whether the socket's session still exists, for a
// socket opened by a logged-in user; anonymous sockets have none to lose.
// It trusts the socket's last lookup for less than wsSessionRecheck and
// until the session's expiry, and looks it up again otherwise.
// A socket whose session ended is answered with an error and closed with a
// policy violation status.
func (s *Server) wsSessionLive(ctx context.Context, c *wsClient, id string) bool {
	if c.session == "" {
		return true
	}
	now := s.cfg.Now()
	if !c.sessionChecked.IsZero() && now.Sub(c.sessionChecked) < wsSessionRecheck && now.Before(c.sessionExpires) {
		return true
	}
	sess, err := s.svc.Sessions.FindSession(ctx, c.session)
	if err == nil && sess.UserID == c.userID {
		c.sessionChecked, c.sessionExpires = now, sess.ExpiresAt
		return true
	}
	if err != nil && tengen.ErrorCode(err) != tengen.ENOTFOUND {
		c.enqueue(s.wsError(c, id, err))
		return false
	}
	s.log.Info("websocket session ended", "game", c.gameID, "user", c.userID)
	c.enqueue(s.wsError(c, id, tengen.Errorf(tengen.EUNAUTHORIZED, "Your session has ended; log in again.")))
	c.end(websocket.StatusPolicyViolation, wsSessionEnded)
	return false
}

// logoutEverywhere ends every session of the logged-in user and closes
// their sockets.
func (s *Server) logoutEverywhere(w nethttp.ResponseWriter, r *nethttp.Request) error {
	u, err := requireUser(r)
	if err != nil {
		return err
	}
	n, err := s.svc.Sessions.DeleteUserSessions(r.Context(), u.ID)
	if err != nil {
		return err
	}
	sockets := s.hub.closeUser(u.ID)
	s.closeSockets("", u.ID) // and on the other instances
	s.log.Info("logged out everywhere", "id", requestID(r.Context()), "user", u.ID, "sessions", n, "sockets", sockets)
	s.clearSessionCookie(w)
	return nil
}

func (s *Server) apiLogoutEverywhere(w nethttp.ResponseWriter, r *nethttp.Request) {
	if err := s.logoutEverywhere(w, r); err != nil {
		s.error(w, r, err)
		return
	}
	w.WriteHeader(nethttp.StatusNoContent)
}

func (s *Server) handleLogoutEverywhereForm(w nethttp.ResponseWriter, r *nethttp.Request) {
	if err := s.logoutEverywhere(w, r); err != nil {
		s.error(w, r, err)
		return
	}
	nethttp.Redirect(w, r, "/", nethttp.StatusSeeOther)
}
