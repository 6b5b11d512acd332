package http

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"log/slog"
	"mime"
	"net"
	nethttp "net/http"
	"net/netip"
	"strings"
	"time"

	"tengen"
)

type ctxKey int

const (
	ctxRequestID ctxKey = iota
	ctxUser
	ctxSession
	ctxRoute // *routeSlot (metrics.go)
)

// requestID returns the id the request was logged under.
func requestID(ctx context.Context) string {
	id, _ := ctx.Value(ctxRequestID).(string)
	return id
}

// currentUser returns the logged-in user, or nil.
func currentUser(ctx context.Context) *tengen.User {
	u, _ := ctx.Value(ctxUser).(*tengen.User)
	return u
}

// currentSession returns the session of the logged-in user, or nil.
func currentSession(ctx context.Context) *tengen.Session {
	sess, _ := ctx.Value(ctxSession).(*tengen.Session)
	return sess
}

// statusRecorder remembers the status code for the request log.
type statusRecorder struct {
	nethttp.ResponseWriter
	status int
}

func (w *statusRecorder) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusRecorder) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = nethttp.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (w *statusRecorder) Unwrap() nethttp.ResponseWriter { return w.ResponseWriter }

// withRequestLog gives every request an id (echoed in X-Request-Id and in
// JSON errors) and logs it when done.
func (s *Server) withRequestLog(next nethttp.Handler) nethttp.Handler {
	return nethttp.HandlerFunc(func(w nethttp.ResponseWriter, r *nethttp.Request) {
		var b [8]byte
		rand.Read(b[:])
		id := hex.EncodeToString(b[:])
		w.Header().Set("X-Request-Id", id)
		rec := &statusRecorder{ResponseWriter: w}
		start := time.Now()
		ctx, route := withRouteSlot(context.WithValue(r.Context(), ctxRequestID, id))
		next.ServeHTTP(rec, r.WithContext(ctx))
		if s.cfg.OnRequest != nil {
			s.cfg.OnRequest(route.pattern, rec.status, time.Since(start))
		}
		if r.URL.Path == "/healthz" {
			return // load balancers poll it; logging it drowns everything else
		}
		s.log.LogAttrs(r.Context(), slog.LevelInfo, "request",
			slog.String("id", id), slog.String("method", r.Method), slog.String("path", r.URL.Path),
			slog.Int("status", rec.status), slog.Duration("duration", time.Since(start)))
	})
}

// withRecover turns a panic in a handler into a logged 500.
func (s *Server) withRecover(next nethttp.Handler) nethttp.Handler {
	return nethttp.HandlerFunc(func(w nethttp.ResponseWriter, r *nethttp.Request) {
		defer func() {
			if v := recover(); v != nil {
				if v == nethttp.ErrAbortHandler {
					panic(v)
				}
				s.log.Error("panic", "id", requestID(r.Context()), "value", v)
				s.error(w, r, tengen.Errorf(tengen.EINTERNAL, "Internal error."))
			}
		}()
		next.ServeHTTP(w, r)
	})
}

// maxBodyBytes bounds every request body but SGF records sent to the
// review API (Config.MaxSGFBytes). The largest other request, a challenge,
// is well under 1 KiB.
const maxBodyBytes = 64 << 10

// withBody bounds every request body, refuses multipart bodies and parses
// the page forms, so that no handler can read more than maxBodyBytes or
// make net/http spool an upload to a temporary file. (It did before: the
// handlers parsed multipart forms on the copy of the request that
// r.WithContext makes, and net/http removes the temporary files of the
// original request only.) A body that is announced too large is refused
// before it is read.
func (s *Server) withBody(next nethttp.Handler) nethttp.Handler {
	return nethttp.HandlerFunc(func(w nethttp.ResponseWriter, r *nethttp.Request) {
		if r.Body == nil || r.Body == nethttp.NoBody {
			next.ServeHTTP(w, r)
			return
		}
		limit := s.bodyLimit(r)
		if r.ContentLength > limit {
			w.Header().Set("Connection", "close")
			s.error(w, r, errTooLarge(limit))
			return
		}
		r.Body = nethttp.MaxBytesReader(w, r.Body, limit)
		if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); strings.HasPrefix(mt, "multipart/") {
			w.Header().Set("Connection", "close")
			s.error(w, r, tengen.Errorf(tengen.EINVALID, "Multipart bodies are not accepted: send forms as application/x-www-form-urlencoded and API requests as JSON."))
			return
		}
		if !isAPI(r) {
			if err := r.ParseForm(); err != nil {
				s.error(w, r, bodyError(err))
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

func errBodyTooLarge() error { return errTooLarge(maxBodyBytes) }

// errTooLarge refuses a body of more than limit bytes.
func errTooLarge(limit int64) error {
	return tengen.Errorf(tengen.EINVALID, "Request body too large (at most %d KiB).", limit>>10)
}

// bodyError is the refusal of a body that could not be read or parsed: too
// large, cut short by the client, or malformed.
func bodyError(err error) error {
	var tooBig *nethttp.MaxBytesError
	if errors.As(err, &tooBig) {
		return errBodyTooLarge()
	}
	return tengen.Errorf(tengen.EINVALID, "Malformed or incomplete request body.")
}

// withUser loads the session named by the session cookie. An unknown or
// expired session is not an error: the request goes on anonymously and
// the stale cookie is removed.
func (s *Server) withUser(next nethttp.Handler) nethttp.Handler {
	return nethttp.HandlerFunc(func(w nethttp.ResponseWriter, r *nethttp.Request) {
		c, err := r.Cookie(sessionCookie)
		if err != nil || c.Value == "" || strings.HasPrefix(r.URL.Path, "/static/") || r.URL.Path == "/healthz" {
			next.ServeHTTP(w, r)
			return
		}
		ctx := r.Context()
		sess, err := s.svc.Sessions.FindSession(ctx, c.Value)
		if err == nil {
			var u *tengen.User
			if u, err = s.svc.Users.FindUserByID(ctx, sess.UserID); err == nil && u.Disabled {
				// Disabling deletes the sessions; this covers a session
				// created in the moment before.
				err = tengen.Errorf(tengen.ENOTFOUND, "Session not found or expired.")
			} else if err == nil {
				ctx = context.WithValue(ctx, ctxUser, u)
				ctx = context.WithValue(ctx, ctxSession, sess)
			}
		}
		switch tengen.ErrorCode(err) {
		case "":
		case tengen.ENOTFOUND:
			s.clearSessionCookie(w)
		default:
			s.error(w, r, err)
			return
		}
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

// clientKey returns the rate-limiting key for the request's client: its IP
// address, or for IPv6 its /64 network, since one host usually owns a whole
// /64.
func (s *Server) clientKey(r *nethttp.Request) string {
	addr := r.RemoteAddr
	if s.cfg.TrustForwardedFor {
		if xff := r.Header.Values("X-Forwarded-For"); len(xff) > 0 {
			parts := strings.Split(xff[len(xff)-1], ",")
			addr = strings.TrimSpace(parts[len(parts)-1])
		}
	}
	if host, _, err := net.SplitHostPort(addr); err == nil {
		addr = host
	}
	ip, err := netip.ParseAddr(addr)
	if err != nil {
		return addr
	}
	ip = ip.Unmap()
	if ip.Is6() {
		p, _ := ip.Prefix(64)
		return p.String()
	}
	return ip.String()
}
