package http

import (
	"fmt"
	nethttp "net/http"
	"strconv"
	"time"

	"tengen"
	"tengen/goban"
)

// playRoutes registers the game-play endpoints of docs/API.md ("Playing a
// game"): the state, commands for bots, SGF download and the WebSocket.
func (s *Server) playRoutes(mux *nethttp.ServeMux) {
	mux.HandleFunc("GET /api/v1/games/{id}/state", s.apiGameState)
	mux.HandleFunc("POST /api/v1/games/{id}/moves", s.apiMove)
	mux.HandleFunc("POST /api/v1/games/{id}/toggle", s.apiToggle)
	mux.HandleFunc("POST /api/v1/games/{id}/accept", s.apiAccept)
	mux.HandleFunc("POST /api/v1/games/{id}/resume", s.apiResume)
	mux.HandleFunc("POST /api/v1/games/{id}/repetition", s.apiRepetition)
	mux.HandleFunc("POST /api/v1/games/{id}/handicap", s.apiPlaceHandicap)
	mux.HandleFunc("POST /api/v1/games/{id}/undo", s.apiUndo(tengen.CommandUndo))
	mux.HandleFunc("POST /api/v1/games/{id}/undo/accept", s.apiUndo(tengen.CommandUndoAccept))
	mux.HandleFunc("POST /api/v1/games/{id}/undo/decline", s.apiUndo(tengen.CommandUndoDecline))
	mux.HandleFunc("GET /api/v1/games/{id}/sgf", s.handleSGF)
	mux.HandleFunc("GET /games/{id}/sgf", s.handleSGF)
	mux.HandleFunc("GET /api/v1/games/{id}/ws", s.handleGameWS)
}

// stateResponse wraps a game snapshot.
type stateResponse struct {
	State *tengen.GameSnapshot `json:"state"`
}

// gamePlay reads the game id from the path and returns it with the
// PlayService; on an error it has already answered the request and ok is
// false.
func (s *Server) gamePlay(w nethttp.ResponseWriter, r *nethttp.Request) (id int64, p tengen.PlayService, ok bool) {
	id, err := pathID(r)
	if err != nil {
		s.error(w, r, err)
		return 0, nil, false
	}
	return id, s.svc.Play, true
}

// userID returns the logged-in user's id, 0 for anonymous visitors.
func userID(r *nethttp.Request) int64 {
	if u := currentUser(r.Context()); u != nil {
		return u.ID
	}
	return 0
}

func (s *Server) apiGameState(w nethttp.ResponseWriter, r *nethttp.Request) {
	id, p, ok := s.gamePlay(w, r)
	if !ok {
		return
	}
	snap, err := p.Snapshot(r.Context(), id, userID(r))
	if err != nil {
		s.error(w, r, err)
		return
	}
	writeJSON(w, nethttp.StatusOK, stateResponse{snap})
}

// commandRequest reads what every command needs: the game id, the
// logged-in user and the JSON body into body. On an error it has already
// answered the request and ok is false.
func (s *Server) commandRequest(w nethttp.ResponseWriter, r *nethttp.Request, body any) (id int64, p tengen.PlayService, u *tengen.User, ok bool) {
	id, p, ok = s.gamePlay(w, r)
	if !ok {
		return 0, nil, nil, false
	}
	u, err := requireUser(r)
	if err == nil {
		err = readJSON(w, r, body)
	}
	if err != nil {
		s.error(w, r, err)
		return 0, nil, nil, false
	}
	return id, p, u, true
}

// playCommand runs one state-changing command for the logged-in user and
// answers with the new state.
func (s *Server) playCommand(w nethttp.ResponseWriter, r *nethttp.Request, body any, run func(p tengen.PlayService, gameID, userID int64) (*tengen.GameSnapshot, error)) {
	id, p, u, ok := s.commandRequest(w, r, body)
	if !ok {
		return
	}
	snap, err := run(p, id, u.ID)
	if err != nil {
		s.error(w, r, err)
		return
	}
	writeJSON(w, nethttp.StatusOK, stateResponse{snap})
}

// moveRequest is the body of a move. Pointer fields tell missing and null
// coordinates from 0.
type moveRequest struct {
	Seq  int             `json:"seq"`
	Kind tengen.MoveKind `json:"kind"`
	X    *int            `json:"x"`
	Y    *int            `json:"y"`
}

// moveResponse answers a move: the move as stored, the game after it and
// the clocks. The whole state is GET .../state; a move's answer stays small
// however long the game is.
type moveResponse struct {
	Move       *tengen.GameMove  `json:"move"`
	Game       *tengen.Game      `json:"game"`
	Clock      *tengen.ClockView `json:"clock,omitempty"`
	ServerTime time.Time         `json:"serverTime"`
}

func (s *Server) apiMove(w nethttp.ResponseWriter, r *nethttp.Request) {
	var req moveRequest
	id, p, u, ok := s.commandRequest(w, r, &req)
	if !ok {
		return
	}
	cmd := tengen.MoveCommand{Seq: req.Seq, Kind: req.Kind}
	if req.X != nil {
		cmd.X = *req.X
	}
	if req.Y != nil {
		cmd.Y = *req.Y
	}
	if req.Kind == tengen.MovePlay && (req.X == nil || req.Y == nil) {
		s.error(w, r, tengen.Errorf(tengen.EINVALID, "A play needs x and y."))
		return
	}
	// Quiet: the answer needs the move, the game and the clock, not the
	// board and every move of the game.
	snap, err := p.Do(r.Context(), id, u.ID, tengen.Command{Kind: tengen.CommandMove, Move: cmd, Quiet: true})
	if err != nil {
		s.error(w, r, err)
		return
	}
	resp := moveResponse{Move: snap.LastMove, Game: snap.Game, Clock: snap.Clock, ServerTime: snap.ServerTime}
	if req.Seq > 0 && (resp.Move == nil || resp.Move.Seq != req.Seq) {
		// A repeated submission of a move the opponent has answered since.
		moves, err := s.svc.Games.FindMoves(r.Context(), id, req.Seq-1)
		if err == nil && len(moves) == 0 {
			err = fmt.Errorf("http: move %d of game %d not found after it was played", req.Seq, id)
		}
		if err != nil {
			s.error(w, r, err)
			return
		}
		resp.Move = moves[0]
	}
	writeJSON(w, nethttp.StatusOK, resp)
}

// pointRequest is the body of a toggle.
type pointRequest struct {
	X *int `json:"x"`
	Y *int `json:"y"`
}

func (s *Server) apiToggle(w nethttp.ResponseWriter, r *nethttp.Request) {
	var req pointRequest
	s.playCommand(w, r, &req, func(p tengen.PlayService, gameID, userID int64) (*tengen.GameSnapshot, error) {
		if req.X == nil || req.Y == nil {
			return nil, tengen.Errorf(tengen.EINVALID, "A point needs x and y.")
		}
		return p.Do(r.Context(), gameID, userID, tengen.Command{Kind: tengen.CommandToggle, Point: goban.Point{X: *req.X, Y: *req.Y}})
	})
}

// acceptRequest is the body of an acceptance.
type acceptRequest struct {
	Seq int `json:"seq"`
}

func (s *Server) apiAccept(w nethttp.ResponseWriter, r *nethttp.Request) {
	var req acceptRequest
	s.playCommand(w, r, &req, func(p tengen.PlayService, gameID, userID int64) (*tengen.GameSnapshot, error) {
		return p.Do(r.Context(), gameID, userID, tengen.Command{Kind: tengen.CommandAccept, Seq: req.Seq})
	})
}

func (s *Server) apiResume(w nethttp.ResponseWriter, r *nethttp.Request) {
	var req struct{}
	s.playCommand(w, r, &req, func(p tengen.PlayService, gameID, userID int64) (*tengen.GameSnapshot, error) {
		return p.Do(r.Context(), gameID, userID, tengen.Command{Kind: tengen.CommandResume})
	})
}

// apiUndo returns the handler of a takeback command of kind: the request to
// take back one's last move, or the answer to the opponent's request. The
// body is an empty object.
func (s *Server) apiUndo(kind tengen.CommandKind) nethttp.HandlerFunc {
	return func(w nethttp.ResponseWriter, r *nethttp.Request) {
		var req struct{}
		s.playCommand(w, r, &req, func(p tengen.PlayService, gameID, userID int64) (*tengen.GameSnapshot, error) {
			return p.Do(r.Context(), gameID, userID, tengen.Command{Kind: kind})
		})
	}
}

// repetitionRequest is the body of an answer to a repetition offer.
type repetitionRequest struct {
	Seq   int  `json:"seq"`
	Agree bool `json:"agree"`
}

func (s *Server) apiRepetition(w nethttp.ResponseWriter, r *nethttp.Request) {
	var req repetitionRequest
	s.playCommand(w, r, &req, func(p tengen.PlayService, gameID, userID int64) (*tengen.GameSnapshot, error) {
		kind := tengen.CommandDeclineVoid
		if req.Agree {
			kind = tengen.CommandAgreeVoid
		}
		return p.Do(r.Context(), gameID, userID, tengen.Command{Kind: kind, Seq: req.Seq})
	})
}

// handicapRequest is the body of a placement of all free handicap stones.
type handicapRequest struct {
	Seq    int           `json:"seq"`
	Points []goban.Point `json:"points"`
}

func (s *Server) apiPlaceHandicap(w nethttp.ResponseWriter, r *nethttp.Request) {
	var req handicapRequest
	s.playCommand(w, r, &req, func(p tengen.PlayService, gameID, userID int64) (*tengen.GameSnapshot, error) {
		return p.Do(r.Context(), gameID, userID, tengen.Command{Kind: tengen.CommandPlaceHandicap, Seq: req.Seq, Points: req.Points})
	})
}

// handleSGF serves a game record as a download.
func (s *Server) handleSGF(w nethttp.ResponseWriter, r *nethttp.Request) {
	id, p, ok := s.gamePlay(w, r)
	if !ok {
		return
	}
	data, err := p.SGF(r.Context(), id)
	if err != nil {
		s.error(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "application/x-go-sgf; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="tengen-`+strconv.FormatInt(id, 10)+`.sgf"`)
	w.Header().Set("Cache-Control", "no-store")
	w.Write(data)
}
