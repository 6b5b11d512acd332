package http

import (
	"fmt"
	nethttp "net/http"
	"strconv"

	"tengen"
	"tengen/learn"
)

// The lessons at /learn. Their positions and goals are in package learn,
// which judges every answer with goban; their texts are the catalogues'
// "learn.*" entries: learn.<id>.title and .intro, learn.<id>.<n> (the task
// of step n, counted from 1) and learn.<id>.<n>.done (why the answer is
// right), and learn.wrong.<reason> for the mistakes learn reports.

// lessonSummary is one lesson of GET /api/v1/lessons and of the /learn page.
type lessonSummary struct {
	ID    string `json:"id"`
	Title string `json:"title"`
	Steps int    `json:"steps"`
	// Done is how many steps the current user has done; visitors' progress
	// is kept by the browser.
	Done int `json:"done"`
}

// stepView is a step as the lesson page's script gets it.
type stepView struct {
	Board  []string `json:"board"`
	Kind   string   `json:"kind"`
	Goal   string   `json:"goal"`
	ToPlay string   `json:"toPlay"`
	Target string   `json:"target,omitempty"`
	Task   string   `json:"task"`
}

// lessonView is one lesson with its texts in the page's language.
type lessonView struct {
	ID      string     `json:"id"`
	Title   string     `json:"title"`
	Intro   string     `json:"intro"`
	Steps   []stepView `json:"steps"`
	Done    int        `json:"done"`
	Next    string     `json:"next,omitempty"`
	AtariGo bool       `json:"atariGo,omitempty"`
	// UI are the texts of the lesson page's script.
	UI map[string]string `json:"ui"`
}

// lessonPage is what the lesson templates get.
type lessonPage struct {
	Lessons []lessonSummary
	Lesson  *lessonView
	Number  int // the lesson's place in the order, from 1
	Terms   []string
	// AtariBots are the built-in computer players offered for Atari-Go.
	AtariBots []tengen.BotInfo
}

// lessonUI lists the catalogue keys of the lesson script's texts.
var lessonUI = []string{"check", "next", "again", "step", "right", "wrong", "finished", "marked", "count",
	"toPlay.black", "toPlay.white", "mark"}

// progress returns the current user's lesson progress, or none.
func (s *Server) progress(r *nethttp.Request) (map[string]int, error) {
	u := currentUser(r.Context())
	if u == nil || s.svc.Lessons == nil {
		return map[string]int{}, nil
	}
	return s.svc.Lessons.FindLessonProgress(r.Context(), u.ID)
}

func (s *Server) lessonSummaries(r *nethttp.Request, lang string) ([]lessonSummary, error) {
	done, err := s.progress(r)
	if err != nil {
		return nil, err
	}
	cat := s.pages.cats[lang]
	var out []lessonSummary
	for _, l := range learn.Lessons() {
		out = append(out, lessonSummary{ID: l.ID, Title: cat.must("learn." + l.ID + ".title"), Steps: len(l.Steps), Done: done[l.ID]})
	}
	return out, nil
}

func (s *Server) handleLearn(w nethttp.ResponseWriter, r *nethttp.Request) {
	data := s.newPage(r)
	ls, err := s.lessonSummaries(r, data.Lang)
	if err != nil {
		s.error(w, r, err)
		return
	}
	data.Learn = &lessonPage{Lessons: ls}
	s.render(w, r, nethttp.StatusOK, "learn", data)
}

func (s *Server) handleLesson(w nethttp.ResponseWriter, r *nethttp.Request) {
	data := s.newPage(r)
	l, num, ok := findLesson(r.PathValue("id"))
	if !ok {
		s.error(w, r, tengen.Errorf(tengen.ENOTFOUND, "Unknown lesson."))
		return
	}
	done, err := s.progress(r)
	if err != nil {
		s.error(w, r, err)
		return
	}
	cat := s.pages.cats[data.Lang]
	v := &lessonView{ID: l.ID, Title: cat.must("learn." + l.ID + ".title"), Intro: cat.must("learn." + l.ID + ".intro"),
		Done: done[l.ID], AtariGo: l.AtariGo, UI: map[string]string{}}
	for i, st := range l.Steps {
		v.Steps = append(v.Steps, stepView{Board: st.Board, Kind: string(st.Kind), Goal: string(st.Goal),
			ToPlay: st.ToPlay.String(), Target: st.Target, Task: cat.must(fmt.Sprintf("learn.%s.%d", l.ID, i+1))})
	}
	if all := learn.Lessons(); num < len(all) {
		v.Next = all[num].ID
	}
	for _, k := range lessonUI {
		v.UI[k] = cat.must("learn.ui." + k)
	}
	lp := &lessonPage{Lesson: v, Number: num, Terms: l.Terms}
	if l.AtariGo {
		for _, b := range s.bots() {
			if !b.External {
				lp.AtariBots = append(lp.AtariBots, b)
			}
		}
	}
	data.Learn = lp
	s.render(w, r, nethttp.StatusOK, "lesson", data)
}

// findLesson returns the lesson and its place in the order, from 1.
func findLesson(id string) (*learn.Lesson, int, bool) {
	for i, l := range learn.Lessons() {
		if l.ID == id {
			return &l, i + 1, true
		}
	}
	return nil, 0, false
}

func (s *Server) apiListLessons(w nethttp.ResponseWriter, r *nethttp.Request) {
	ls, err := s.lessonSummaries(r, chooseLanguage(r))
	if err != nil {
		s.error(w, r, err)
		return
	}
	writeJSON(w, nethttp.StatusOK, struct {
		Lessons []lessonSummary `json:"lessons"`
	}{ls})
}

// checkResponse is the answer of POST /api/v1/lessons/{id}/steps/{n}.
type checkResponse struct {
	learn.Verdict
	// Message explains the verdict in the request's language: why a right
	// answer is right, what is wrong with a wrong one.
	Message string `json:"message"`
	// Saved is true when the step was recorded as done for the user.
	Saved bool `json:"saved"`
}

// apiCheckStep judges an answer to step n (from 1) of a lesson; a right
// answer of a logged-in user is saved as progress.
func (s *Server) apiCheckStep(w nethttp.ResponseWriter, r *nethttp.Request) {
	l, _, ok := findLesson(r.PathValue("id"))
	if !ok {
		s.error(w, r, tengen.Errorf(tengen.ENOTFOUND, "Unknown lesson."))
		return
	}
	n, err := strconv.Atoi(r.PathValue("n"))
	if err != nil || n < 1 || n > len(l.Steps) {
		s.error(w, r, tengen.Errorf(tengen.ENOTFOUND, "Unknown step."))
		return
	}
	var a learn.Answer
	if err := readJSON(w, r, &a); err != nil {
		s.error(w, r, err)
		return
	}
	st := l.Steps[n-1]
	v, err := st.Check(a)
	if err != nil {
		s.error(w, r, fmt.Errorf("lesson %s step %d: %w", l.ID, n, err))
		return
	}
	cat := s.pages.cats[chooseLanguage(r)]
	resp := checkResponse{Verdict: v}
	if v.Right {
		resp.Message = cat.must(fmt.Sprintf("learn.%s.%d.done", l.ID, n))
		if u := currentUser(r.Context()); u != nil && s.svc.Lessons != nil {
			if err := s.svc.Lessons.SaveLessonProgress(r.Context(), u.ID, map[string]int{l.ID: n}); err != nil {
				s.error(w, r, err)
				return
			}
			resp.Saved = true
		}
	} else {
		resp.Message = cat.must("learn.wrong."+v.Reason, v.Args...)
	}
	writeJSON(w, nethttp.StatusOK, resp)
}
