package http

import (
	nethttp "net/http"

	"tengen"
	"tengen/goban"
)

// Problems (docs/API.md, "Problems"): life-and-death and tesuji problems
// played on the board. The page's script plays the opponent's answers from
// the problem's solution tree; when a line ends it reports the user's moves,
// and the server walks the same tree to decide whether they solved it, so a
// rating cannot be claimed without the moves.

func (s *Server) problemRoutes(mux *nethttp.ServeMux) {
	if s.svc.Problems == nil {
		return
	}
	mux.HandleFunc("GET /problems", s.handleProblemsPage)
	mux.HandleFunc("GET /problems/{id}", s.handleProblemPage)
	mux.HandleFunc("GET /api/v1/problems", s.apiListProblems)
	mux.HandleFunc("GET /api/v1/problems/{id}/sgf", s.apiProblemSGF)
	mux.HandleFunc("POST /api/v1/problems/{id}/attempts", s.apiProblemAttempt)
}

// problemInfo is a problem in the API's list.
type problemInfo struct {
	ID    string `json:"id"`
	Level string `json:"level"`
	Goal  string `json:"goal"`
	Ko    bool   `json:"ko,omitempty"`
	// Solved is there for a logged-in user only.
	Solved *bool `json:"solved,omitempty"`
}

// problemsPage is what the problem list template gets.
type problemsPage struct {
	Levels   []problemLevel
	Progress *tengen.ProblemProgress // nil for visitors
	Solved   int
	Total    int
}

type problemLevel struct {
	Level    string
	Problems []problemItem
}

type problemItem struct {
	*tengen.Problem
	Solved bool
}

// problemPage is what the problem page template gets.
type problemPage struct {
	Problem *tengen.Problem
	// Data is the problem for the script (the template writes it as JSON).
	Data  problemData
	Texts map[string]string
	// Next is the id of the next problem in the list, if any.
	Next   string
	Solved bool
}

// problemData is the problem as the page's script reads it.
type problemData struct {
	ID       string      `json:"id"`
	Goal     string      `json:"goal"`
	Size     int         `json:"size"`
	ToPlay   string      `json:"toPlay"`
	Black    []xy        `json:"black"`
	White    []xy        `json:"white"`
	Target   xy          `json:"target"`
	Tree     []*treeNode `json:"tree"`
	LoggedIn bool        `json:"loggedIn"`
}

type xy struct {
	X int `json:"x"`
	Y int `json:"y"`
}

// treeNode is a ProblemNode for the script: c is "black" or "white", ok and
// bad mark the user's right and wrong moves, text is in the page's language.
type treeNode struct {
	C    string      `json:"c"`
	X    int         `json:"x"`
	Y    int         `json:"y"`
	Pass bool        `json:"pass,omitempty"`
	OK   bool        `json:"ok,omitempty"`
	Bad  bool        `json:"bad,omitempty"`
	Text string      `json:"text,omitempty"`
	Kids []*treeNode `json:"kids,omitempty"`
}

func points(ps []goban.Point) []xy {
	out := make([]xy, len(ps))
	for i, p := range ps {
		out[i] = xy{p.X, p.Y}
	}
	return out
}

func treeFor(nodes []*tengen.ProblemNode, lang string) []*treeNode {
	out := make([]*treeNode, len(nodes))
	for i, n := range nodes {
		text := n.Text[lang]
		if text == "" {
			text = n.Text["en"]
		}
		out[i] = &treeNode{C: n.Color.String(), X: n.Point.X, Y: n.Point.Y, Pass: n.Pass, OK: n.Correct, Bad: n.Wrong,
			Text: text, Kids: treeFor(n.Children, lang)}
	}
	return out
}

// problemProgress returns u's progress and the problems u has solved;
// nothing for visitors.
func (s *Server) problemProgress(r *nethttp.Request, u *tengen.User) (*tengen.ProblemProgress, map[string]bool, error) {
	solved := map[string]bool{}
	if u == nil || s.svc.ProblemProgress == nil {
		return nil, solved, nil
	}
	p, err := s.svc.ProblemProgress.ProblemProgress(r.Context(), u.ID)
	if err != nil {
		return nil, nil, err
	}
	for _, rec := range p.Records {
		solved[rec.ProblemID] = rec.Solved
	}
	return p, solved, nil
}

func (s *Server) handleProblemsPage(w nethttp.ResponseWriter, r *nethttp.Request) {
	data := s.newPage(r)
	progress, solved, err := s.problemProgress(r, data.User)
	if err != nil {
		s.error(w, r, err)
		return
	}
	pp := &problemsPage{Progress: progress}
	for _, p := range s.svc.Problems.Problems() {
		if n := len(pp.Levels); n == 0 || pp.Levels[n-1].Level != p.Level {
			pp.Levels = append(pp.Levels, problemLevel{Level: p.Level})
		}
		l := &pp.Levels[len(pp.Levels)-1]
		l.Problems = append(l.Problems, problemItem{Problem: p, Solved: solved[p.ID]})
		pp.Total++
		if solved[p.ID] {
			pp.Solved++
		}
	}
	data.Problems = pp
	s.render(w, r, nethttp.StatusOK, "problems", data)
}

func (s *Server) handleProblemPage(w nethttp.ResponseWriter, r *nethttp.Request) {
	p, err := s.svc.Problems.Problem(r.PathValue("id"))
	if err != nil {
		s.error(w, r, err)
		return
	}
	data := s.newPage(r)
	_, solved, err := s.problemProgress(r, data.User)
	if err != nil {
		s.error(w, r, err)
		return
	}
	pd := (problemData{ID: p.ID, Goal: p.Goal, Size: p.Size, ToPlay: p.ToPlay.String(), Black: points(p.Black),
		White: points(p.White), Target: xy{p.Target.X, p.Target.Y}, Tree: treeFor(p.Tree, data.Lang), LoggedIn: data.User != nil})
	pg := &problemPage{Problem: p, Data: pd, Texts: s.pages.scriptTexts(data.Lang), Solved: solved[p.ID]}
	list := s.svc.Problems.Problems()
	for i, q := range list {
		if q.ID == p.ID && i+1 < len(list) {
			pg.Next = list[i+1].ID
		}
	}
	data.Problem = pg
	s.render(w, r, nethttp.StatusOK, "problem", data)
}

func (s *Server) apiListProblems(w nethttp.ResponseWriter, r *nethttp.Request) {
	u := currentUser(r.Context())
	_, solved, err := s.problemProgress(r, u)
	if err != nil {
		s.error(w, r, err)
		return
	}
	out := []problemInfo{}
	for _, p := range s.svc.Problems.Problems() {
		info := problemInfo{ID: p.ID, Level: p.Level, Goal: p.Goal, Ko: p.Ko}
		if u != nil {
			v := solved[p.ID]
			info.Solved = &v
		}
		out = append(out, info)
	}
	writeJSON(w, nethttp.StatusOK, out)
}

func (s *Server) apiProblemSGF(w nethttp.ResponseWriter, r *nethttp.Request) {
	p, err := s.svc.Problems.Problem(r.PathValue("id"))
	if err != nil {
		s.error(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "application/x-go-sgf; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="`+p.ID+`.sgf"`)
	w.Write(p.SGF)
}

// attemptRequest is the body of POST /api/v1/problems/{id}/attempts: the
// user's moves of one attempt, in order (the opponent's answers are not
// sent; they come from the tree).
type attemptRequest struct {
	Moves []struct {
		X    int  `json:"x"`
		Y    int  `json:"y"`
		Pass bool `json:"pass,omitempty"`
	} `json:"moves"`
}

// attemptResponse is the answer: whether the moves solved the problem, and
// the user's problem rating afterwards.
type attemptResponse struct {
	Solved bool    `json:"solved"`
	Rating float64 `json:"rating"`
	Rated  int     `json:"rated"`
}

func (s *Server) apiProblemAttempt(w nethttp.ResponseWriter, r *nethttp.Request) {
	u, err := requireUser(r)
	if err != nil {
		s.error(w, r, err)
		return
	}
	p, err := s.svc.Problems.Problem(r.PathValue("id"))
	if err != nil {
		s.error(w, r, err)
		return
	}
	var req attemptRequest
	if err := readJSON(w, r, &req); err != nil {
		s.error(w, r, err)
		return
	}
	// Walk the tree: each user's move must be in it; a wrong move or the
	// end of a right line finishes the attempt.
	nodes, solved, finished := p.Tree, false, false
	for i, m := range req.Moves {
		if finished {
			s.error(w, r, tengen.Errorf(tengen.EINVALID, "Moves after the end of the line."))
			return
		}
		var n *tengen.ProblemNode
		for _, c := range nodes {
			if c.Pass == m.Pass && (m.Pass || (c.Point.X == m.X && c.Point.Y == m.Y)) {
				n = c
			}
		}
		if n == nil {
			s.error(w, r, tengen.Errorf(tengen.EINVALID, "Move %d is not in the problem's tree.", i+1))
			return
		}
		switch {
		case n.Wrong:
			finished = true
		case len(n.Children) == 0:
			solved, finished = true, true
		default:
			nodes = n.Children[0].Children
		}
	}
	if !finished {
		s.error(w, r, tengen.Errorf(tengen.EINVALID, "The attempt is not finished."))
		return
	}
	if s.svc.ProblemProgress == nil {
		writeJSON(w, nethttp.StatusOK, attemptResponse{Solved: solved})
		return
	}
	prog, err := s.svc.ProblemProgress.RecordProblemAttempt(r.Context(), u.ID, p.ID, solved, tengen.ProblemDifficulty(p.Kyu), s.cfg.Now())
	if err != nil {
		s.error(w, r, err)
		return
	}
	writeJSON(w, nethttp.StatusOK, attemptResponse{Solved: solved, Rating: prog.Rating, Rated: prog.Rated})
}

func init() { pageNames = append(pageNames, "problems", "problem") }
