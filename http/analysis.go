package http

import (
	"context"
	"encoding/json"
	"fmt"
	nethttp "net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"tengen"
)

// analysisRoutes registers the engine's analysis (docs/API.md,
// "Analysis").
func (s *Server) analysisRoutes(mux *nethttp.ServeMux) {
	mux.HandleFunc("GET /api/v1/games/{id}/analysis", s.apiGameAnalysis)
	mux.HandleFunc("GET /api/v1/games/{id}/analysis/{move}", s.apiGameAnalysisMove)
	mux.HandleFunc("POST /api/v1/analysis", s.apiAnalysis)
}

// maxAnalysisStreams bounds the whole-game analyses one user runs at once:
// each keeps up to all of the pool's slots busy.
const maxAnalysisStreams = 2

// analysisStreams counts each user's running whole-game analyses. The zero
// value is ready.
type analysisStreams struct {
	mu sync.Mutex    // guards n
	n  map[int64]int // user id → streams
}

// enter counts a new stream of userID, or refuses it when the user has
// maxAnalysisStreams already; leave must follow an accepted enter.
func (a *analysisStreams) enter(userID int64) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.n == nil {
		a.n = map[int64]int{}
	}
	if a.n[userID] >= maxAnalysisStreams {
		return tengen.Errorf(tengen.ERATELIMIT, "You are running %d analyses already; stop one first.", maxAnalysisStreams)
	}
	a.n[userID]++
	return nil
}

func (a *analysisStreams) leave(userID int64) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.n[userID]--; a.n[userID] <= 0 {
		delete(a.n, userID)
	}
}

// analysisUser returns the logged-in user who may use the analysis, or
// the error to answer.
func (s *Server) analysisUser(r *nethttp.Request) (*tengen.User, error) {
	if s.svc.Analysis == nil {
		return nil, tengen.Errorf(tengen.ENOTFOUND, "This server does not offer the engine's analysis.")
	}
	u := currentUser(r.Context())
	if u == nil {
		return nil, tengen.Errorf(tengen.EUNAUTHORIZED, "Log in to use the engine's analysis.")
	}
	return u, nil
}

// playoutsParam reads the optional ?playouts= (0 when absent: the
// default).
func playoutsParam(r *nethttp.Request) (int, error) {
	v := r.URL.Query().Get("playouts")
	if v == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n <= 0 {
		return 0, tengen.Errorf(tengen.EINVALID, "Playouts must be between %d and %d.", tengen.MinAnalysisPlayouts, tengen.MaxAnalysisPlayouts)
	}
	return n, nil
}

// gameAnalysisRequest checks the viewer and builds the request of the
// game in the path.
func (s *Server) gameAnalysisRequest(r *nethttp.Request) (*tengen.User, *tengen.AnalysisRequest, error) {
	u, err := s.analysisUser(r)
	if err != nil {
		return nil, nil, err
	}
	id, err := pathID(r)
	if err != nil {
		return nil, nil, err
	}
	playouts, err := playoutsParam(r)
	if err != nil {
		return nil, nil, err
	}
	req, err := s.svc.Analysis.GameAnalysisRequest(r.Context(), id, u.ID, playouts)
	if err != nil {
		return nil, nil, err
	}
	return u, req, nil
}

// apiGameAnalysis streams the analysis of every position of a game as
// server-sent events.
func (s *Server) apiGameAnalysis(w nethttp.ResponseWriter, r *nethttp.Request) {
	u, req, err := s.gameAnalysisRequest(r)
	if err != nil {
		s.analysisError(w, r, err)
		return
	}
	s.streamAnalysis(w, r, u, req)
}

// analysisResponse wraps one position's analysis.
type analysisResponse struct {
	Analysis *tengen.PositionAnalysis `json:"analysis"`
}

// apiGameAnalysisMove answers the full analysis of one position of a game.
func (s *Server) apiGameAnalysisMove(w nethttp.ResponseWriter, r *nethttp.Request) {
	_, req, err := s.gameAnalysisRequest(r)
	if err != nil {
		s.analysisError(w, r, err)
		return
	}
	n, err := strconv.Atoi(r.PathValue("move"))
	if err != nil {
		s.analysisError(w, r, tengen.Errorf(tengen.EINVALID, "The move number must be a whole number."))
		return
	}
	res, err := s.svc.Analysis.AnalyzePosition(r.Context(), req, n)
	if err != nil {
		s.analysisError(w, r, err)
		return
	}
	writeJSON(w, nethttp.StatusOK, analysisResponse{res})
}

// analysisBody is the body of POST /api/v1/analysis: a position
// description and, optionally, the number of moves after which to analyse
// (default all of them).
type analysisBody struct {
	tengen.AnalysisRequest
	Move *int `json:"move"`
}

// apiAnalysis analyses a position sent in the body: one position as JSON,
// or every position as server-sent events when the client accepts
// text/event-stream.
func (s *Server) apiAnalysis(w nethttp.ResponseWriter, r *nethttp.Request) {
	u, err := s.analysisUser(r)
	if err != nil {
		s.analysisError(w, r, err)
		return
	}
	var body analysisBody
	if err := readJSON(w, r, &body); err != nil {
		s.analysisError(w, r, err)
		return
	}
	req := &body.AnalysisRequest
	if wantsEventStream(r) {
		if body.Move != nil {
			s.analysisError(w, r, tengen.Errorf(tengen.EINVALID, "A stream analyses every position: leave out \"move\"."))
			return
		}
		if err := req.Validate(); err != nil {
			s.analysisError(w, r, err)
			return
		}
		s.streamAnalysis(w, r, u, req)
		return
	}
	n := len(req.Moves)
	if body.Move != nil {
		n = *body.Move
	}
	res, err := s.svc.Analysis.AnalyzePosition(r.Context(), req, n)
	if err != nil {
		s.analysisError(w, r, err)
		return
	}
	writeJSON(w, nethttp.StatusOK, analysisResponse{res})
}

func wantsEventStream(r *nethttp.Request) bool {
	return strings.Contains(r.Header.Get("Accept"), "text/event-stream")
}

// analysisEvent is the data of a "position" event: one position's
// summary and the progress.
type analysisEvent struct {
	Position *tengen.PositionAnalysis `json:"position"`
	Done     int                      `json:"done"`
	Total    int                      `json:"total"`
}

// streamAnalysis answers the analysis of every position of req as
// server-sent events (docs/API.md): "start" with the number of positions,
// "position" per result (summary and progress), and "done" or "error" at
// the end. The analysis stops when the client goes away.
func (s *Server) streamAnalysis(w nethttp.ResponseWriter, r *nethttp.Request, u *tengen.User, req *tengen.AnalysisRequest) {
	if err := s.analysisStreams.enter(u.ID); err != nil {
		s.analysisError(w, r, err)
		return
	}
	defer s.analysisStreams.leave(u.ID)
	// A stream lasts as long as the analysis; Shutdown must not wait for
	// it, so the server's stop ends it like the client leaving does.
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	go func() {
		select {
		case <-s.stop:
			cancel()
		case <-ctx.Done():
		}
	}()
	rc := nethttp.NewResponseController(w)
	h := w.Header()
	h.Set("Content-Type", "text/event-stream; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no") // a proxy must pass each event on at once
	w.WriteHeader(nethttp.StatusOK)
	total := len(req.Moves) + 1
	var mu sync.Mutex // serialises writes: results come from several goroutines
	send := func(event string, v any) {
		data, err := json.Marshal(v)
		if err != nil {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		// The server's WriteTimeout is for ordinary answers; a stream
		// lives as long as the analysis, each write gets its own bound.
		_ = rc.SetWriteDeadline(time.Now().Add(30 * time.Second))
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", event, data)
		_ = rc.Flush()
	}
	send("start", map[string]int{"total": total, "firstMove": req.FirstMove, "playouts": req.Playouts})
	done := 0
	err := s.svc.Analysis.AnalyzeGame(ctx, req, func(p *tengen.PositionAnalysis) {
		done++
		send("position", analysisEvent{Position: p.Summary(), Done: done, Total: total})
	})
	switch {
	case err == nil:
		send("done", map[string]int{"done": done, "total": total})
	case ctx.Err() != nil:
		// The client left or the server stops: nobody reads an answer.
	default:
		if tengen.ErrorCode(err) == tengen.EINTERNAL {
			s.log.Error("analysis failed", "id", requestID(r.Context()), "path", r.URL.Path, "err", err)
		}
		send("error", errorBody{Code: tengen.ErrorCode(err), Message: s.localMessage(r, err), RequestID: requestID(r.Context())})
	}
}

// localMessage is err's message in the language of the request: the
// analysis panel shows it as it comes.
func (s *Server) localMessage(r *nethttp.Request, err error) string {
	if msg := s.pages.errorMessage(chooseLanguage(r), err); msg != "" {
		return msg
	}
	return tengen.ErrorMessage(err)
}

// analysisError answers an application error as s.error does, with the
// message in the request's language.
func (s *Server) analysisError(w nethttp.ResponseWriter, r *nethttp.Request, err error) {
	code := tengen.ErrorCode(err)
	if code == tengen.EINTERNAL || r.Context().Err() != nil {
		s.error(w, r, err) // logs what the server should know
		return
	}
	if code == tengen.ERATELIMIT {
		w.Header().Set("Retry-After", "10") // a running analysis of a game takes a while
	}
	if code == tengen.EFORBIDDEN {
		s.log.Warn("refused", "id", requestID(r.Context()), "method", r.Method, "path", r.URL.Path, "user", userID(r), "reason", tengen.ErrorMessage(err))
	}
	writeJSON(w, ErrorStatusCode(code), errorResponse{errorBody{Code: code, Message: s.localMessage(r, err), RequestID: requestID(r.Context())}})
}
