package http

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	nethttp "net/http"
	"strconv"
	"strings"
	"time"

	"tengen"
)

// The calls between the instances of one deployment (issue 20): an instance
// that gets a command, a snapshot or a record of a game owned by another
// instance asks that owner under /internal/v1/ (package play decides when).
// Every call is signed with an HMAC-SHA256 of the cluster secret, which the
// instances share through the database; the signature covers the method,
// the path, the time and the body, and a call older than peerMaxSkew is
// refused, so that a recorded call cannot be replayed later. The secret
// never travels: neither in a URL nor in a log.

// peerHeader carries "UNIXSECONDS.HEXSIGNATURE".
const peerHeader = "X-Tengen-Peer"

// peerMaxSkew is how far the time of a call may be from the receiver's.
const peerMaxSkew = time.Minute

// peerMaxBody bounds a peer call's body and answer (a snapshot of a long
// game with its move list is some hundred kilobytes).
const peerMaxBody = 8 << 20

// peerSign returns the signature of a call.
func peerSign(secret []byte, method, path string, unix int64, body []byte) string {
	m := hmac.New(sha256.New, secret)
	fmt.Fprintf(m, "%s\n%s\n%d\n", method, path, unix)
	m.Write(body)
	return hex.EncodeToString(m.Sum(nil))
}

// peerRequest is the body of every peer call.
type peerRequest struct {
	UserID  int64          `json:"userId"`
	Command tengen.Command `json:"command"`
}

// peerError is an error as it travels between instances: enough to make
// the same *tengen.Error, translations included, on the other side.
type peerError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Format  string `json:"format"`
	Args    []any  `json:"args"`
}

// peerRoutes adds the peer endpoints; without a PeerHandler and a secret
// there are none (a single instance).
func (s *Server) peerRoutes(mux *nethttp.ServeMux) {
	if s.svc.Peer == nil || len(s.cfg.PeerSecret) == 0 {
		return
	}
	mux.HandleFunc("POST /internal/v1/games/{id}/do", s.peerCall(func(ctx context.Context, id int64, req peerRequest) (any, error) {
		return s.svc.Peer.PeerDo(ctx, id, req.UserID, req.Command)
	}))
	mux.HandleFunc("POST /internal/v1/games/{id}/snapshot", s.peerCall(func(ctx context.Context, id int64, req peerRequest) (any, error) {
		return s.svc.Peer.PeerSnapshot(ctx, id, req.UserID)
	}))
	mux.HandleFunc("POST /internal/v1/games/{id}/sgf", s.peerCall(func(ctx context.Context, id int64, _ peerRequest) (any, error) {
		return s.svc.Peer.PeerSGF(ctx, id)
	}))
}

// peerCall returns the handler of one peer endpoint: it checks the
// signature, decodes the request, runs fn and answers with its result as
// JSON (a record as application/x-go-sgf), or with a peerError.
func (s *Server) peerCall(fn func(ctx context.Context, id int64, req peerRequest) (any, error)) nethttp.HandlerFunc {
	return func(w nethttp.ResponseWriter, r *nethttp.Request) {
		body, err := io.ReadAll(nethttp.MaxBytesReader(w, r.Body, peerMaxBody))
		if err != nil {
			writeJSON(w, nethttp.StatusBadRequest, peerError{Code: tengen.EINVALID, Message: "Malformed peer call."})
			return
		}
		if status := s.peerCheck(r, body); status != nethttp.StatusOK {
			// Logged without the header: it is a valid signature's
			// neighbour at best, and worth nothing to a reader.
			s.log.Warn("peer call refused", "id", requestID(r.Context()), "path", r.URL.Path, "addr", s.clientKey(r), "status", status)
			writeJSON(w, status, peerError{Code: tengen.EFORBIDDEN, Message: "Peer call refused."})
			return
		}
		id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
		var req peerRequest
		if err == nil {
			err = json.Unmarshal(body, &req)
		}
		if err != nil {
			writeJSON(w, nethttp.StatusBadRequest, peerError{Code: tengen.EINVALID, Message: "Malformed peer call."})
			return
		}
		v, err := fn(r.Context(), id, req)
		if err != nil {
			code := tengen.ErrorCode(err)
			if code == tengen.EINTERNAL {
				s.log.Error("peer call failed", "id", requestID(r.Context()), "path", r.URL.Path, "err", err)
			}
			pe := peerError{Code: code, Message: tengen.ErrorMessage(err)}
			var e *tengen.Error
			if errors.As(err, &e) {
				pe.Format, pe.Args = e.Format, e.Args
			}
			writeJSON(w, ErrorStatusCode(code), pe)
			return
		}
		if b, ok := v.([]byte); ok {
			w.Header().Set("Content-Type", "application/x-go-sgf")
			w.Write(b)
			return
		}
		writeJSON(w, nethttp.StatusOK, v)
	}
}

// peerCheck returns 200 when r carries a fresh, valid signature of body,
// 401 when it carries none and 403 when it carries a wrong or stale one.
func (s *Server) peerCheck(r *nethttp.Request, body []byte) int {
	h := r.Header.Get(peerHeader)
	if h == "" {
		return nethttp.StatusUnauthorized
	}
	ts, sig, ok := strings.Cut(h, ".")
	unix, err := strconv.ParseInt(ts, 10, 64)
	if !ok || err != nil {
		return nethttp.StatusForbidden
	}
	if d := s.cfg.Now().Sub(time.Unix(unix, 0)); d > peerMaxSkew || d < -peerMaxSkew {
		return nethttp.StatusForbidden
	}
	want := peerSign(s.cfg.PeerSecret, r.Method, r.URL.Path, unix, body)
	if !hmac.Equal([]byte(sig), []byte(want)) {
		return nethttp.StatusForbidden
	}
	return nethttp.StatusOK
}

// PeerClient implements tengen.Peer over HTTP: it calls the peer endpoints
// of the owning instance at its advertised URL.
type PeerClient struct {
	secret []byte
	client *nethttp.Client
	now    func() time.Time
}

// Compile-time check that PeerClient implements the interface.
var _ tengen.Peer = (*PeerClient)(nil)

// peerTimeout bounds one peer call. An owner that does not answer within
// it is frozen or overloaded; as an instance that misses its heartbeats for
// the default instance timeout (also 5 s) loses its games, the caller's
// user gets a "try again" (503) rather than waiting longer than a takeover
// takes.
const peerTimeout = 5 * time.Second

// NewPeerClient returns a client that signs its calls with secret.
func NewPeerClient(secret []byte) *PeerClient {
	return &PeerClient{secret: secret, now: time.Now,
		client: &nethttp.Client{Timeout: peerTimeout, Transport: &nethttp.Transport{
			MaxIdleConnsPerHost: 64, IdleConnTimeout: time.Minute}}}
}

// Do implements tengen.Peer.
func (c *PeerClient) Do(ctx context.Context, owner tengen.Instance, gameID, userID int64, cmd tengen.Command) (*tengen.PeerSnapshot, error) {
	var ps tengen.PeerSnapshot
	if err := c.call(ctx, owner, gameID, "do", peerRequest{UserID: userID, Command: cmd}, &ps); err != nil {
		return nil, err
	}
	return &ps, nil
}

// Snapshot implements tengen.Peer.
func (c *PeerClient) Snapshot(ctx context.Context, owner tengen.Instance, gameID, userID int64) (*tengen.PeerSnapshot, error) {
	var ps tengen.PeerSnapshot
	if err := c.call(ctx, owner, gameID, "snapshot", peerRequest{UserID: userID}, &ps); err != nil {
		return nil, err
	}
	return &ps, nil
}

// SGF implements tengen.Peer.
func (c *PeerClient) SGF(ctx context.Context, owner tengen.Instance, gameID int64) ([]byte, error) {
	var b []byte
	if err := c.call(ctx, owner, gameID, "sgf", peerRequest{}, &b); err != nil {
		return nil, err
	}
	return b, nil
}

// call makes one signed call and decodes its answer into out (a *[]byte
// takes the body as it is).
func (c *PeerClient) call(ctx context.Context, owner tengen.Instance, gameID int64, op string, req peerRequest, out any) error {
	if owner.Advertise == "" {
		return fmt.Errorf("peer: instance %d advertises no URL", owner.ID)
	}
	body, err := json.Marshal(req)
	if err != nil {
		return err
	}
	path := fmt.Sprintf("/internal/v1/games/%d/%s", gameID, op)
	hr, err := nethttp.NewRequestWithContext(ctx, nethttp.MethodPost, strings.TrimSuffix(owner.Advertise, "/")+path, bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("peer %s: %w", owner.Advertise, err)
	}
	unix := c.now().Unix()
	hr.Header.Set("Content-Type", "application/json")
	hr.Header.Set(peerHeader, strconv.FormatInt(unix, 10)+"."+peerSign(c.secret, nethttp.MethodPost, path, unix, body))
	resp, err := c.client.Do(hr)
	if err != nil {
		return fmt.Errorf("peer %s: %w", owner.Advertise, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, peerMaxBody))
	if err != nil {
		return fmt.Errorf("peer %s: %w", owner.Advertise, err)
	}
	if resp.StatusCode != nethttp.StatusOK {
		var pe peerError
		if err := json.Unmarshal(data, &pe); err != nil || pe.Code == "" {
			return fmt.Errorf("peer %s: %s", owner.Advertise, resp.Status)
		}
		if pe.Code == tengen.EINTERNAL || pe.Code == tengen.EFORBIDDEN && pe.Message == "Peer call refused." {
			return fmt.Errorf("peer %s: %s: %s", owner.Advertise, resp.Status, pe.Message)
		}
		return &tengen.Error{Code: pe.Code, Message: pe.Message, Format: pe.Format, Args: integral(pe.Args)}
	}
	if b, ok := out.(*[]byte); ok {
		*b = data
		return nil
	}
	if err := json.Unmarshal(data, out); err != nil {
		return fmt.Errorf("peer %s: %w", owner.Advertise, err)
	}
	return nil
}

// integral turns the whole numbers among args back into int64, as which
// they left (JSON made them float64), so that %d formats them.
func integral(args []any) []any {
	for i, a := range args {
		if f, ok := a.(float64); ok && f == math.Trunc(f) && math.Abs(f) < 1<<53 {
			args[i] = int64(f)
		}
	}
	return args
}
