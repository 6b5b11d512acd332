package http

import (
	"context"
	"errors"
	nethttp "net/http"
	"strconv"
	"time"

	"golang.org/x/crypto/bcrypt"

	"tengen"
)

// sessionCookie holds the session token.
const sessionCookie = "tengen_session"

func (s *Server) bcryptCost() int {
	if s.cfg.BcryptCost < bcrypt.MinCost || s.cfg.BcryptCost > bcrypt.MaxCost {
		return bcrypt.DefaultCost
	}
	return s.cfg.BcryptCost
}

func (s *Server) setSessionCookie(w nethttp.ResponseWriter, sess *tengen.Session) {
	nethttp.SetCookie(w, &nethttp.Cookie{
		Name:     sessionCookie,
		Value:    sess.Token,
		Path:     "/",
		Expires:  sess.ExpiresAt,
		MaxAge:   int(sess.ExpiresAt.Sub(s.cfg.Now()).Seconds()),
		HttpOnly: true,
		Secure:   s.secure,
		SameSite: nethttp.SameSiteLaxMode,
	})
}

func (s *Server) clearSessionCookie(w nethttp.ResponseWriter) {
	nethttp.SetCookie(w, &nethttp.Cookie{
		Name: sessionCookie, Value: "", Path: "/", MaxAge: -1,
		HttpOnly: true, Secure: s.secure, SameSite: nethttp.SameSiteLaxMode,
	})
}

// rateLimited returns ERATELIMIT and sets Retry-After.
func rateLimited(w nethttp.ResponseWriter, wait time.Duration) error {
	w.Header().Set("Retry-After", strconv.Itoa(int(wait.Seconds())+1))
	return tengen.Errorf(tengen.ERATELIMIT, "Too many attempts; try again in %d seconds.", int(wait.Seconds())+1)
}

// register creates an account and logs it in.
func (s *Server) register(w nethttp.ResponseWriter, r *nethttp.Request, name, password, level string) (*tengen.User, error) {
	if ok, wait := s.ipLimit.take(r.Context(), "register "+s.clientKey(r)); !ok {
		return nil, rateLimited(w, wait)
	}
	if err := tengen.ValidateUserName(name); err != nil {
		return nil, err
	}
	if err := tengen.ValidatePassword(password); err != nil {
		return nil, err
	}
	rank, err := startingRank(level)
	if err != nil {
		return nil, err
	}
	hash, err := bcrypt.GenerateFromPassword([]byte(password), s.bcryptCost())
	if err != nil {
		return nil, err
	}
	u := &tengen.User{Name: name, PasswordHash: string(hash), Rank: rank}
	if err := s.svc.Users.CreateUser(r.Context(), u); err != nil {
		return nil, err
	}
	s.log.Info("user registered", "id", requestID(r.Context()), "user", u.ID, "name", u.Name)
	if err := s.grantAdmin(r, u); err != nil {
		return nil, err
	}
	return u, s.startSession(w, r.Context(), u)
}

// login checks the credentials and starts a session. Attempts are limited
// per client address and, for failures, per account.
func (s *Server) login(w nethttp.ResponseWriter, r *nethttp.Request, name, password string) (*tengen.User, error) {
	if ok, wait := s.ipLimit.take(r.Context(), "login "+s.clientKey(r)); !ok {
		return nil, rateLimited(w, wait)
	}
	account := tengen.UserNameKey(name)
	if ok, wait := s.accountLimit.take(r.Context(), account); !ok {
		s.log.Warn("login rate limited", "id", requestID(r.Context()), "account", account)
		return nil, rateLimited(w, wait)
	}
	fail := tengen.Errorf(tengen.EUNAUTHORIZED, "Wrong user name or password.")
	if len(password) > tengen.MaxPasswordLen {
		return nil, fail
	}
	u, err := s.svc.Users.FindUserByName(r.Context(), name)
	if tengen.ErrorCode(err) == tengen.ENOTFOUND {
		bcrypt.CompareHashAndPassword(s.dummyHash, []byte(password))
		return nil, fail
	} else if err != nil {
		return nil, err
	}
	if u.Bot {
		// Bot accounts have no password; the server plays for them.
		bcrypt.CompareHashAndPassword(s.dummyHash, []byte(password))
		s.log.Warn("login as a bot refused", "id", requestID(r.Context()), "user", u.ID)
		return nil, fail
	}
	if err := bcrypt.CompareHashAndPassword([]byte(u.PasswordHash), []byte(password)); err != nil {
		if !errors.Is(err, bcrypt.ErrMismatchedHashAndPassword) {
			return nil, err
		}
		s.log.Info("login failed", "id", requestID(r.Context()), "user", u.ID)
		return nil, fail
	}
	s.accountLimit.forget(r.Context(), account)
	if u.Disabled {
		// Told only to someone who knows the password, so that the
		// message does not reveal which accounts exist.
		s.log.Warn("login to a disabled account refused", "id", requestID(r.Context()), "user", u.ID)
		return nil, tengen.Errorf(tengen.EFORBIDDEN, "This account has been disabled by an admin.")
	}
	return u, s.startSession(w, r.Context(), u)
}

func (s *Server) startSession(w nethttp.ResponseWriter, ctx context.Context, u *tengen.User) error {
	sess, err := s.svc.Sessions.CreateSession(ctx, u.ID, s.cfg.Now().Add(s.cfg.SessionTTL))
	if err != nil {
		return err
	}
	s.setSessionCookie(w, sess)
	return nil
}

// logout ends the current session, if any.
func (s *Server) logout(w nethttp.ResponseWriter, r *nethttp.Request) error {
	if sess := currentSession(r.Context()); sess != nil {
		if err := s.svc.Sessions.DeleteSession(r.Context(), sess.Token); err != nil {
			return err
		}
		s.hub.closeSession(sess.Token)
		s.closeSockets(sess.Token) // and on the other instances
	}
	s.clearSessionCookie(w)
	return nil
}

// requireUser returns the logged-in user or EUNAUTHORIZED.
func requireUser(r *nethttp.Request) (*tengen.User, error) {
	if u := currentUser(r.Context()); u != nil {
		return u, nil
	}
	return nil, tengen.Errorf(tengen.EUNAUTHORIZED, "You must log in first.")
}
