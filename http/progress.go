package http

import (
	nethttp "net/http"
	"slices"

	"tengen"
)

// Visitor progress carried into the account (issue 18, docs/API.md
// "Progress"). A visitor's lesson steps and solved problems live in the
// browser's localStorage; once the visitor logs in or signs up, the page's
// script sends that record here, the server adds it to the account, and the
// script forgets its copy. Adding is idempotent (lesson progress never goes
// back, a problem is solved once), so a record sent twice, or after the
// account had got further, loses nothing and counts nothing twice.

// maxProgressProblems bounds the problems of one merge: more than there are
// problems cannot be a browser's honest record.
const maxProgressProblems = 1000

// progressRequest is the body of POST /api/v1/me/progress: the browser's
// record, lesson id → steps done, and the ids of the problems solved.
type progressRequest struct {
	Lessons  map[string]int `json:"lessons"`
	Problems []string       `json:"problems"`
}

// progressResponse is the account's progress after the merge.
type progressResponse struct {
	Lessons  map[string]int `json:"lessons"`
	Problems []string       `json:"problems"`
}

func (s *Server) apiMergeProgress(w nethttp.ResponseWriter, r *nethttp.Request) {
	u, err := requireUser(r)
	if err != nil {
		s.error(w, r, err)
		return
	}
	var req progressRequest
	if err := readJSON(w, r, &req); err != nil {
		s.error(w, r, err)
		return
	}
	// Check everything first, so that a refused record changes nothing.
	for id, n := range req.Lessons {
		l, _, ok := findLesson(id)
		if !ok {
			s.error(w, r, tengen.Errorf(tengen.EINVALID, "Unknown lesson %q in the progress.", id))
			return
		}
		if n < 0 || n > len(l.Steps) {
			s.error(w, r, tengen.Errorf(tengen.EINVALID, "Lesson %q has %d steps, not %d.", id, len(l.Steps), n))
			return
		}
	}
	if len(req.Problems) > maxProgressProblems {
		s.error(w, r, tengen.Errorf(tengen.EINVALID, "At most %d problems per progress record.", maxProgressProblems))
		return
	}
	var problems []string
	for _, id := range req.Problems {
		if s.svc.Problems == nil {
			s.error(w, r, tengen.Errorf(tengen.EINVALID, "Unknown problem %q in the progress.", id))
			return
		}
		if _, err := s.svc.Problems.Problem(id); err != nil {
			s.error(w, r, tengen.Errorf(tengen.EINVALID, "Unknown problem %q in the progress.", id))
			return
		}
		if !slices.Contains(problems, id) {
			problems = append(problems, id)
		}
	}

	resp := progressResponse{Lessons: map[string]int{}, Problems: []string{}}
	if s.svc.Lessons != nil {
		steps := map[string]int{}
		for id, n := range req.Lessons {
			if n > 0 {
				steps[id] = n
			}
		}
		if len(steps) > 0 {
			if err := s.svc.Lessons.SaveLessonProgress(r.Context(), u.ID, steps); err != nil {
				s.error(w, r, err)
				return
			}
		}
		done, err := s.svc.Lessons.FindLessonProgress(r.Context(), u.ID)
		if err != nil {
			s.error(w, r, err)
			return
		}
		for id, n := range done {
			resp.Lessons[id] = n
		}
	}
	if s.svc.ProblemProgress != nil {
		prog, err := s.svc.ProblemProgress.MarkProblemsSolved(r.Context(), u.ID, problems, s.cfg.Now())
		if err != nil {
			s.error(w, r, err)
			return
		}
		for _, rec := range prog.Records {
			if rec.Solved {
				resp.Problems = append(resp.Problems, rec.ProblemID)
			}
		}
	}
	writeJSON(w, nethttp.StatusOK, resp)
}
