package http

import (
	"errors"
	"fmt"
	"io"
	"mime"
	nethttp "net/http"
	"strconv"
	"strings"

	"tengen"
)

// Reviews (docs/API.md, "Reviews"): game records uploaded as SGF or taken
// from finished games, studied on the review board with variations,
// comments and markup, and shown live to spectators (reviews_ws.go). The
// server keeps each record in the canonical form of package sgf, through
// the RecordService; it never edits a tree itself: the board sends the
// whole record back and the server checks and canonicalises it again.

// Default review limits (Config.ReviewQuota, Config.MaxSGFBytes).
const (
	defaultMaxReviews   = 500
	defaultReviewBytes  = 50 << 20
	defaultMaxSGFBytes  = 2 << 20
	reviewChatOnConnect = 50
)

func (s *Server) reviewRoutes(mux *nethttp.ServeMux) {
	if s.svc.Reviews == nil || s.svc.Records == nil {
		return
	}
	mux.HandleFunc("GET /reviews", s.handleReviewsPage)
	mux.HandleFunc("GET /reviews/new", s.handleUploadPage)
	mux.HandleFunc("GET /reviews/{id}", s.handleReviewPage)
	mux.HandleFunc("POST /games/{id}/review", s.handleReviewGameForm)
	mux.HandleFunc("GET /api/v1/reviews", s.apiListReviews)
	mux.HandleFunc("POST /api/v1/reviews", s.apiCreateReviews)
	mux.HandleFunc("GET /api/v1/reviews/{id}", s.apiGetReview)
	mux.HandleFunc("PATCH /api/v1/reviews/{id}", s.apiPatchReview)
	mux.HandleFunc("DELETE /api/v1/reviews/{id}", s.apiDeleteReview)
	mux.HandleFunc("GET /api/v1/reviews/{id}/sgf", s.apiReviewSGF)
	mux.HandleFunc("PUT /api/v1/reviews/{id}/sgf", s.apiPutReviewSGF)
	mux.HandleFunc("GET /api/v1/reviews/{id}/chat", s.apiReviewChat)
	mux.HandleFunc("DELETE /api/v1/reviews/{id}/chat/{msg}", s.apiDeleteReviewChat)
	mux.HandleFunc("GET /api/v1/reviews/{id}/ws", s.handleReviewWS)
	mux.HandleFunc("POST /api/v1/games/{id}/review", s.apiReviewGame)
}

// isSGFBody reports whether r sends a record, whose body may be larger than
// other requests' (Config.MaxSGFBytes).
func isSGFBody(r *nethttp.Request) bool {
	if !strings.HasPrefix(r.URL.Path, "/api/v1/reviews") {
		return false
	}
	mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	return mt == "application/x-go-sgf"
}

// bodyLimit is the most bytes r's body may have.
func (s *Server) bodyLimit(r *nethttp.Request) int64 {
	if isSGFBody(r) {
		return s.cfg.MaxSGFBytes
	}
	return maxBodyBytes
}

// readSGF reads a record from the body; the Content-Type must say SGF.
func (s *Server) readSGF(r *nethttp.Request) ([]byte, error) {
	if !isSGFBody(r) {
		return nil, tengen.Errorf(tengen.EINVALID, "Content-Type must be application/x-go-sgf.")
	}
	data, err := io.ReadAll(r.Body)
	if err != nil {
		var tooBig *nethttp.MaxBytesError
		if errors.As(err, &tooBig) {
			return nil, errTooLarge(s.cfg.MaxSGFBytes)
		}
		return nil, bodyError(err)
	}
	if len(data) == 0 {
		return nil, tengen.Errorf(tengen.EINVALID, "The record is empty.")
	}
	return data, nil
}

// canSee reports whether u may see review rv: private reviews are their
// owner's and controller's, the others anyone's who has the link.
func canSee(u *tengen.User, rv *tengen.Review) bool {
	if rv.Visibility != tengen.Private {
		return true
	}
	return u != nil && (u.ID == rv.OwnerID || u.ID == rv.ControllerID)
}

// canEdit reports whether u may change review rv's record.
func canEdit(u *tengen.User, rv *tengen.Review) bool {
	return u != nil && (u.ID == rv.OwnerID || u.ID == rv.ControllerID)
}

// visibleReview loads the {id} review if the current user may see it; a
// private review of somebody else is "not found", so that its existence is
// not told.
func (s *Server) visibleReview(r *nethttp.Request) (*tengen.Review, error) {
	id, err := pathID(r)
	if err != nil {
		return nil, err
	}
	rv, err := s.svc.Reviews.FindReview(r.Context(), id)
	if err != nil {
		return nil, err
	}
	if !canSee(currentUser(r.Context()), rv) {
		return nil, tengen.Errorf(tengen.ENOTFOUND, "Review not found.")
	}
	return rv, nil
}

// reviewResponse is a review in the API, with what the viewer may do.
type reviewResponse struct {
	*tengen.Review
	CanEdit bool `json:"canEdit"`
	IsOwner bool `json:"isOwner"`
}

func respond(u *tengen.User, rv *tengen.Review) reviewResponse {
	return reviewResponse{Review: rv, CanEdit: canEdit(u, rv), IsOwner: u != nil && u.ID == rv.OwnerID}
}

// createResponse answers an upload.
type createResponse struct {
	// ID is the first game's review, the one the board opens.
	ID       int64               `json:"id"`
	Reviews  []reviewResponse    `json:"reviews"`
	Warnings []tengen.SGFWarning `json:"warnings"`
}

// reviewTitle returns the title of game i of n: the given one, else the
// players, numbered when a file holds several games.
func reviewTitle(given string, info tengen.ReviewInfo, i, n int) string {
	t := strings.TrimSpace(given)
	if t == "" {
		switch {
		case info.Black != "" && info.White != "":
			t = info.Black + " – " + info.White
		case info.Black != "" || info.White != "":
			t = info.Black + info.White
		case info.Event != "":
			t = info.Event
		default:
			t = "SGF"
		}
	}
	if n > 1 {
		t += fmt.Sprintf(" (%d/%d)", i+1, n)
	}
	if len(t) > tengen.MaxReviewTitleLen {
		t = strings.ToValidUTF8(t[:tengen.MaxReviewTitleLen], "")
	}
	return t
}

// parseVisibility reads the visibility query parameter (default private).
func parseVisibility(v string) (tengen.Visibility, error) {
	if v == "" {
		return tengen.Private, nil
	}
	if vis := tengen.Visibility(v); vis.Valid() {
		return vis, nil
	}
	return "", tengen.Errorf(tengen.EINVALID, "Visibility must be private, unlisted or public.")
}

// createReviews imports data and stores one review per game, all or none.
func (s *Server) createReviews(r *nethttp.Request, u *tengen.User, data []byte, title string, vis tengen.Visibility, gameID int64) (*createResponse, error) {
	games, warns, err := s.svc.Records.Import(data)
	if err != nil {
		return nil, err
	}
	rs := make([]*tengen.Review, len(games))
	for i, g := range games {
		rs[i] = &tengen.Review{OwnerID: u.ID, Title: reviewTitle(title, g.Info, i, len(games)), Visibility: vis,
			SGF: g.SGF, Info: g.Info, GameID: gameID}
	}
	if err := s.svc.Reviews.CreateReviews(r.Context(), rs, s.cfg.ReviewQuota); err != nil {
		return nil, err
	}
	out := &createResponse{ID: rs[0].ID, Warnings: warns}
	if out.Warnings == nil {
		out.Warnings = []tengen.SGFWarning{}
	}
	for _, rv := range rs {
		out.Reviews = append(out.Reviews, respond(u, rv))
	}
	return out, nil
}

// apiCreateReviews serves POST /api/v1/reviews: the body is an SGF file.
func (s *Server) apiCreateReviews(w nethttp.ResponseWriter, r *nethttp.Request) {
	u, err := requireUser(r)
	if err != nil {
		s.error(w, r, err)
		return
	}
	q := r.URL.Query()
	vis, err := parseVisibility(q.Get("visibility"))
	if err != nil {
		s.error(w, r, err)
		return
	}
	if len(q.Get("title")) > tengen.MaxReviewTitleLen {
		s.error(w, r, tengen.Errorf(tengen.EINVALID, "A review title has at most %d characters.", tengen.MaxReviewTitleLen))
		return
	}
	data, err := s.readSGF(r)
	if err != nil {
		s.error(w, r, err)
		return
	}
	out, err := s.createReviews(r, u, data, q.Get("title"), vis, 0)
	if err != nil {
		s.error(w, r, err)
		return
	}
	w.Header().Set("Location", "/api/v1/reviews/"+strconv.FormatInt(out.ID, 10))
	writeJSON(w, nethttp.StatusCreated, out)
}

// reviewGame creates a review of the {id} game, which must be finished.
func (s *Server) reviewGame(r *nethttp.Request) (*createResponse, error) {
	u, err := requireUser(r)
	if err != nil {
		return nil, err
	}
	id, err := pathID(r)
	if err != nil {
		return nil, err
	}
	g, err := s.svc.Games.FindGameByID(r.Context(), id)
	if err != nil {
		return nil, err
	}
	if g.Status != tengen.GameFinished {
		return nil, tengen.Errorf(tengen.ECONFLICT, "Only a finished game can be reviewed.")
	}
	data, err := s.svc.Play.SGF(r.Context(), id)
	if err != nil {
		return nil, err
	}
	vis := tengen.Unlisted
	if v := r.URL.Query().Get("visibility"); v != "" {
		if vis, err = parseVisibility(v); err != nil {
			return nil, err
		}
	}
	return s.createReviews(r, u, data, "", vis, id)
}

// apiReviewGame serves POST /api/v1/games/{id}/review.
func (s *Server) apiReviewGame(w nethttp.ResponseWriter, r *nethttp.Request) {
	out, err := s.reviewGame(r)
	if err != nil {
		s.error(w, r, err)
		return
	}
	w.Header().Set("Location", "/api/v1/reviews/"+strconv.FormatInt(out.ID, 10))
	writeJSON(w, nethttp.StatusCreated, out)
}

// handleReviewGameForm serves the game page's "Review this game" button.
func (s *Server) handleReviewGameForm(w nethttp.ResponseWriter, r *nethttp.Request) {
	out, err := s.reviewGame(r)
	if err != nil {
		s.error(w, r, err)
		return
	}
	nethttp.Redirect(w, r, "/reviews/"+strconv.FormatInt(out.ID, 10), nethttp.StatusSeeOther)
}

// reviewsResponse is a page of reviews.
type reviewsResponse struct {
	Reviews []*tengen.Review `json:"reviews"`
	Total   int              `json:"total"`
}

// reviewFilter reads the list's query: player, date, result, limit,
// offset and, if withMine, mine.
func reviewFilter(r *nethttp.Request, withMine bool) (tengen.ReviewFilter, error) {
	limit, offset, err := pageParams(r)
	if err != nil {
		return tengen.ReviewFilter{}, err
	}
	q := r.URL.Query()
	f := tengen.ReviewFilter{Player: q.Get("player"), Date: q.Get("date"), Result: q.Get("result"), Limit: limit, Offset: offset}
	for _, v := range []string{f.Player, f.Date, f.Result} {
		if len(v) > tengen.MaxReviewInfoLen {
			return f, tengen.Errorf(tengen.EINVALID, "A search term has at most %d characters.", tengen.MaxReviewInfoLen)
		}
	}
	if mine := q.Get("mine"); withMine && mine != "" && mine != "0" && mine != "false" {
		u, err := requireUser(r)
		if err != nil {
			return f, err
		}
		f.OwnerID = u.ID
	}
	return f, nil
}

// apiListReviews serves GET /api/v1/reviews: public reviews, or with
// mine=1 the user's own library.
func (s *Server) apiListReviews(w nethttp.ResponseWriter, r *nethttp.Request) {
	f, err := reviewFilter(r, true)
	if err != nil {
		s.error(w, r, err)
		return
	}
	list, total, err := s.svc.Reviews.FindReviews(r.Context(), f)
	if err != nil {
		s.error(w, r, err)
		return
	}
	if list == nil {
		list = []*tengen.Review{}
	}
	writeJSON(w, nethttp.StatusOK, reviewsResponse{list, total})
}

func (s *Server) apiGetReview(w nethttp.ResponseWriter, r *nethttp.Request) {
	rv, err := s.visibleReview(r)
	if err != nil {
		s.error(w, r, err)
		return
	}
	writeJSON(w, nethttp.StatusOK, respond(currentUser(r.Context()), rv))
}

// apiReviewSGF serves the record in canonical form, as a download.
func (s *Server) apiReviewSGF(w nethttp.ResponseWriter, r *nethttp.Request) {
	rv, err := s.visibleReview(r)
	if err != nil {
		s.error(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "application/x-go-sgf; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="tengen-review-`+strconv.FormatInt(rv.ID, 10)+`.sgf"`)
	w.Header().Set("Cache-Control", "no-store")
	io.WriteString(w, rv.SGF)
}

// editableReview loads the {id} review for a change by its owner or
// controller (ownerOnly: by its owner).
func (s *Server) editableReview(r *nethttp.Request, ownerOnly bool) (*tengen.User, *tengen.Review, error) {
	u, err := requireUser(r)
	if err != nil {
		return nil, nil, err
	}
	rv, err := s.visibleReview(r)
	if err != nil {
		return nil, nil, err
	}
	if ownerOnly && rv.OwnerID != u.ID || !canEdit(u, rv) {
		return nil, nil, tengen.Errorf(tengen.EFORBIDDEN, "Only the owner of this review may change it.")
	}
	return u, rv, nil
}

// putResponse answers a saved record.
type putResponse struct {
	reviewResponse
	Warnings []tengen.SGFWarning `json:"warnings"`
}

// apiPutReviewSGF serves PUT /api/v1/reviews/{id}/sgf: the owner or the
// controller saves the edited record, one game tree.
func (s *Server) apiPutReviewSGF(w nethttp.ResponseWriter, r *nethttp.Request) {
	u, rv, err := s.editableReview(r, false)
	if err != nil {
		s.error(w, r, err)
		return
	}
	data, err := s.readSGF(r)
	if err != nil {
		s.error(w, r, err)
		return
	}
	games, warns, err := s.svc.Records.Import(data)
	if err != nil {
		s.error(w, r, err)
		return
	}
	if len(games) != 1 {
		s.error(w, r, tengen.Errorf(tengen.EINVALID, "A review holds one game; the record has %d.", len(games)))
		return
	}
	rv.SGF, rv.Info = games[0].SGF, games[0].Info
	if err := s.svc.Reviews.UpdateReview(r.Context(), rv, s.cfg.ReviewQuota); err != nil {
		s.error(w, r, err)
		return
	}
	s.reviewEvent(rv.ID, reviewEvent{Type: "tree", By: u.Name})
	if warns == nil {
		warns = []tengen.SGFWarning{}
	}
	writeJSON(w, nethttp.StatusOK, putResponse{respond(u, rv), warns})
}

// patchRequest changes a review's title, visibility or controller (a user
// name); missing fields stay.
type patchRequest struct {
	Title      *string            `json:"title"`
	Visibility *tengen.Visibility `json:"visibility"`
	Controller *string            `json:"controller"`
}

// apiPatchReview serves PATCH /api/v1/reviews/{id}. The owner changes
// everything; the controller may only give control back to the owner.
func (s *Server) apiPatchReview(w nethttp.ResponseWriter, r *nethttp.Request) {
	u, rv, err := s.editableReview(r, false)
	if err != nil {
		s.error(w, r, err)
		return
	}
	var req patchRequest
	if err := readJSON(w, r, &req); err != nil {
		s.error(w, r, err)
		return
	}
	owner := u.ID == rv.OwnerID
	if !owner && (req.Title != nil || req.Visibility != nil || req.Controller == nil || *req.Controller != rv.OwnerName) {
		s.error(w, r, tengen.Errorf(tengen.EFORBIDDEN, "Only the owner of this review may change it."))
		return
	}
	if req.Title != nil {
		rv.Title = strings.TrimSpace(*req.Title)
	}
	if req.Visibility != nil {
		rv.Visibility = *req.Visibility
	}
	controlChanged := false
	if req.Controller != nil {
		c, err := s.svc.Users.FindUserByName(r.Context(), *req.Controller)
		if err != nil {
			s.error(w, r, err)
			return
		}
		controlChanged = c.ID != rv.ControllerID
		rv.ControllerID = c.ID
	}
	if err := s.svc.Reviews.UpdateReview(r.Context(), rv, tengen.ReviewQuota{}); err != nil {
		s.error(w, r, err)
		return
	}
	if controlChanged {
		s.reviewEvent(rv.ID, reviewEvent{Type: "control", Controller: rv.ControllerName, ControllerID: rv.ControllerID})
	}
	writeJSON(w, nethttp.StatusOK, respond(u, rv))
}

// apiDeleteReview serves DELETE /api/v1/reviews/{id}: the owner only.
func (s *Server) apiDeleteReview(w nethttp.ResponseWriter, r *nethttp.Request) {
	_, rv, err := s.editableReview(r, true)
	if err != nil {
		s.error(w, r, err)
		return
	}
	if err := s.svc.Reviews.DeleteReview(r.Context(), rv.ID); err != nil {
		s.error(w, r, err)
		return
	}
	s.reviewEvent(rv.ID, reviewEvent{Type: "deleted"})
	w.WriteHeader(nethttp.StatusNoContent)
}

// apiDeleteReviewChat removes a message of a review's chat: the review's
// owner moderates the board's chat, an admin any board's.
func (s *Server) apiDeleteReviewChat(w nethttp.ResponseWriter, r *nethttp.Request) {
	u, err := requireUser(r)
	if err != nil {
		s.error(w, r, err)
		return
	}
	rv, err := s.visibleReview(r)
	if err != nil {
		s.error(w, r, err)
		return
	}
	if rv.OwnerID != u.ID && !u.Admin {
		s.error(w, r, tengen.Errorf(tengen.EFORBIDDEN, "Only the review's owner or an admin can delete its chat messages."))
		return
	}
	msg, err := strconv.ParseInt(r.PathValue("msg"), 10, 64)
	if err != nil || msg <= 0 {
		s.error(w, r, tengen.Errorf(tengen.ENOTFOUND, "Chat message not found."))
		return
	}
	if err := s.svc.Reviews.DeleteReviewChat(r.Context(), rv.ID, msg); err != nil {
		s.error(w, r, err)
		return
	}
	if u.Admin && rv.OwnerID != u.ID {
		s.adminLog(r, u, "delete review chat message", nil, "review", rv.ID, "message", msg)
	}
	s.reviewEvent(rv.ID, reviewEvent{Type: "chat-deleted", ChatID: msg})
	w.WriteHeader(nethttp.StatusNoContent)
}

// apiReviewChat serves the last chat messages of a review.
func (s *Server) apiReviewChat(w nethttp.ResponseWriter, r *nethttp.Request) {
	rv, err := s.visibleReview(r)
	if err != nil {
		s.error(w, r, err)
		return
	}
	msgs, err := s.svc.Reviews.FindReviewChat(r.Context(), rv.ID, reviewChatOnConnect)
	if err != nil {
		s.error(w, r, err)
		return
	}
	msgs = withoutMuted(msgs, s.mutedNames(r.Context(), userID(r)))
	if msgs == nil {
		msgs = []*tengen.ReviewChatMessage{}
	}
	writeJSON(w, nethttp.StatusOK, map[string]any{"messages": msgs})
}
