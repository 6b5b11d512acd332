package http

import (
	"html/template"
	nethttp "net/http"

	"tengen"
)

// settingsRequest is GameSettings as a request gives them: "rated" may be
// left out (or the form's "automatic" chosen), and the game is then rated
// by tengen.GameSettings.DefaultRated — even games are, handicap games are
// not — and, against a bot, only if the bot's rating is anchored.
type settingsRequest struct {
	tengen.GameSettings
	// Rated shadows GameSettings.Rated in JSON: nil means the default.
	Rated *bool `json:"rated"`
}

// resolve returns the settings with Rated decided; anchored tells whether
// the opponent can be rated against (every person can; a bot only with an
// anchor).
func (s settingsRequest) resolve(anchored bool) tengen.GameSettings {
	set := s.GameSettings
	if s.Rated != nil {
		set.Rated = *s.Rated
	} else {
		set.Rated = anchored && set.DefaultRated()
	}
	return set
}

// ratedChoice is the form's "rated" select: "" or "auto" leaves the
// default, "yes" and "no" decide.
func ratedChoice(v string) *bool {
	switch v {
	case "yes":
		t := true
		return &t
	case "no":
		f := false
		return &f
	}
	return nil
}

// botAnchored reports whether the bot called name has a fixed rating.
func (s *Server) botAnchored(name string) bool {
	for _, b := range s.bots() {
		if tengen.UserNameKey(b.Name) == tengen.UserNameKey(name) {
			return b.Rated
		}
	}
	return false
}

// rankHTML is the template function "rank": the user's rank after the
// name, or nothing for a user without one (a bot without anchor).
func rankHTML(u *tengen.User) template.HTML {
	if u == nil || u.Rank == "" {
		return ""
	}
	return template.HTML(` <span class="rank">[` + template.HTMLEscapeString(u.Rank) + `]</span>`)
}

// startingRank checks the starting level a new player chose ("" for none)
// and returns its rank.
func startingRank(level string) (string, error) {
	if level == "" {
		return "", nil
	}
	rank := tengen.StartingRank(level)
	if rank == "" {
		return "", tengen.Errorf(tengen.EINVALID, "Unknown starting level %q.", level)
	}
	return rank, nil
}

// profileHistory is how many rating changes a profile shows.
const profileHistory = 20

// ratingProfile adds the user's record and latest rating changes to p.
func (s *Server) ratingProfile(r *nethttp.Request, p *profileResponse) error {
	if s.svc.Ratings == nil {
		return nil
	}
	rec, err := s.svc.Ratings.FindRecord(r.Context(), p.User.ID)
	if err != nil {
		return err
	}
	h, err := s.svc.Ratings.FindRatingHistory(r.Context(), p.User.ID, profileHistory)
	if err != nil {
		return err
	}
	p.Record, p.History = &rec, h
	if p.Stats, err = s.svc.Ratings.FindStats(r.Context(), p.User.ID); err != nil {
		return err
	}
	return s.profileGraph(r, p)
}
