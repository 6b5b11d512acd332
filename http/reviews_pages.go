package http

import (
	nethttp "net/http"
	"net/url"
	"strconv"

	"tengen"
)

// reviewsPage is what the library template gets.
type reviewsPage struct {
	// Mine is the user's own library (nil for visitors), Public the
	// public reviews that match the search.
	Mine, Public           reviewList
	MineTotal, PublicTotal int
	Player, Date, Result   string
	Quota                  tengen.ReviewQuota
}

// reviewList is one table of the library.
type reviewList struct {
	List []*tengen.Review
	Mine bool // the user's own: the table shows visibility, not the owner
	// Prev and Next are the links to the neighbouring pages, "" if none.
	Prev, Next string
}

// pageLinks sets l's links for a page at offset of total, keeping the
// search in q; param names the offset's query parameter.
func (l *reviewList) pageLinks(q url.Values, param string, offset, limit, total int) {
	link := func(off int) string {
		v := url.Values{}
		for k, vs := range q {
			v[k] = vs
		}
		v.Set(param, strconv.Itoa(off))
		return "/reviews?" + v.Encode()
	}
	if offset > 0 {
		l.Prev = link(max(offset-limit, 0))
	}
	if offset+limit < total {
		l.Next = link(offset + limit)
	}
}

// reviewPage is what the review board template gets.
type reviewPage struct {
	Review *tengen.Review
	// Data is what the board's script reads (the template writes it as
	// JSON); the record itself comes from the API.
	Data  reviewData
	Texts map[string]string
}

// reviewData is the review as the board's script reads it.
type reviewData struct {
	ID      int64 `json:"id"`
	CanEdit bool  `json:"canEdit"`
	IsOwner bool  `json:"isOwner"`
	// CanModerate lets the viewer delete chat messages (the owner, admins).
	CanModerate  bool   `json:"canModerate"`
	UserID       int64  `json:"userId"`
	UserName     string `json:"userName"`
	Controller   string `json:"controller"`
	ControllerID int64  `json:"controllerId"`
	Owner        string `json:"owner"`
	Visibility   string `json:"visibility"`
	Title        string `json:"title"`
	// Analysis says that the viewer may ask for the engine's analysis
	// of the line shown (analysis.js); Rulesets are the names it takes.
	Analysis bool     `json:"analysis"`
	Rulesets []string `json:"rulesets"`
}

// handleReviewsPage shows the library: the user's reviews and the public
// ones, searchable by player, date and result, a page of each (the
// parameters offset and mineOffset).
func (s *Server) handleReviewsPage(w nethttp.ResponseWriter, r *nethttp.Request) {
	f, err := reviewFilter(r, false)
	if err != nil {
		s.error(w, r, err)
		return
	}
	q := url.Values{}
	for k, v := range map[string]string{"player": f.Player, "date": f.Date, "result": f.Result, "limit": r.URL.Query().Get("limit")} {
		if v != "" {
			q.Set(k, v)
		}
	}
	data := s.newPage(r)
	rp := &reviewsPage{Player: f.Player, Date: f.Date, Result: f.Result, Quota: s.cfg.ReviewQuota}
	if rp.Public.List, rp.PublicTotal, err = s.svc.Reviews.FindReviews(r.Context(), f); err != nil {
		s.error(w, r, err)
		return
	}
	limit, _ := f.Clamped()
	rp.Public.pageLinks(q, "offset", f.Offset, limit, rp.PublicTotal)
	if data.User != nil {
		f.OwnerID, f.Offset = data.User.ID, 0
		if v, err := strconv.Atoi(r.URL.Query().Get("mineOffset")); err == nil && v > 0 {
			f.Offset = v
		}
		rp.Mine.Mine = true
		if rp.Mine.List, rp.MineTotal, err = s.svc.Reviews.FindReviews(r.Context(), f); err != nil {
			s.error(w, r, err)
			return
		}
		rp.Mine.pageLinks(q, "mineOffset", f.Offset, limit, rp.MineTotal)
	}
	data.Reviews = rp
	s.render(w, r, nethttp.StatusOK, "reviews", data)
}

// handleUploadPage shows the upload form; visitors are sent to log in.
func (s *Server) handleUploadPage(w nethttp.ResponseWriter, r *nethttp.Request) {
	data := s.newPage(r)
	if data.User == nil {
		nethttp.Redirect(w, r, "/login", nethttp.StatusSeeOther)
		return
	}
	data.Upload = &uploadPage{Texts: s.pages.scriptTexts(data.Lang), MaxKiB: s.cfg.MaxSGFBytes >> 10, Quota: s.cfg.ReviewQuota}
	s.render(w, r, nethttp.StatusOK, "review_new", data)
}

// uploadPage is what the upload template gets.
type uploadPage struct {
	Texts  map[string]string
	MaxKiB int64
	Quota  tengen.ReviewQuota
}

// handleReviewPage shows the review board.
func (s *Server) handleReviewPage(w nethttp.ResponseWriter, r *nethttp.Request) {
	rv, err := s.visibleReview(r)
	if err != nil {
		s.error(w, r, err)
		return
	}
	data := s.newPage(r)
	d := reviewData{ID: rv.ID, CanEdit: canEdit(data.User, rv), Controller: rv.ControllerName, ControllerID: rv.ControllerID,
		Owner: rv.OwnerName, Visibility: string(rv.Visibility), Title: rv.Title}
	if data.User != nil {
		d.UserID, d.UserName, d.IsOwner = data.User.ID, data.User.Name, data.User.ID == rv.OwnerID
		d.CanModerate = d.IsOwner || data.User.Admin
		d.Analysis, d.Rulesets = s.svc.Analysis != nil, tengen.Rulesets()
	}
	data.Review = &reviewPage{Review: rv, Data: d, Texts: s.pages.scriptTexts(data.Lang)}
	s.render(w, r, nethttp.StatusOK, "review", data)
}
