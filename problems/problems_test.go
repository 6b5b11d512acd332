package problems

import (
	"fmt"
	"testing"

	"tengen"
	"tengen/goban"
	"tengen/tsumego"
)

// TestProblems checks every problem file with the solver: the position is
// worth exactly the stated result; at every user's turn in the tree every
// legal move (and the pass) is there; each right move reaches the goal
// against every defence, each wrong move fails, and each answer in the
// tree (the defence after a right move, the refutation after a wrong one)
// keeps that so. An unsound or incomplete problem fails the build.
func TestProblems(t *testing.T) {
	set, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	if n := len(set.Problems()); n < 60 {
		t.Errorf("%d problems, want at least 60", n)
	}
	for _, p := range set.Problems() {
		t.Run(p.ID, func(t *testing.T) {
			t.Parallel()
			if err := check(p); err != nil {
				t.Error(err)
			}
		})
	}
}

func check(p *tengen.Problem) error {
	pos, err := position(p)
	if err != nil {
		return err
	}
	s, err := tsumego.New(pos, tsumego.Limits{})
	if err != nil {
		return err
	}
	attacker := p.Goal == "kill" || p.Goal == "capture"
	if attacker == (s.Defender() == p.ToPlay) {
		return fmt.Errorf("goal %s with the target's colour %v and %v to play", p.Goal, s.Defender(), p.ToPlay)
	}
	want := wanted(p)
	if got := s.Evaluate(p.ToPlay); got != want {
		return fmt.Errorf("the position is worth %v for %v, the problem says %v", got, p.ToPlay, want)
	}
	return checkTurn(s, p.ToPlay, want, p.Tree, nil)
}

// checkTurn checks the user's moves at one turn; line is the way there.
func checkTurn(s *tsumego.Solver, user goban.Color, want tsumego.Result, nodes []*tengen.ProblemNode, line []string) error {
	legal := map[string]bool{}
	for _, m := range s.Moves() {
		legal[m.String()] = true
	}
	for _, n := range nodes {
		k := moveKey(n.Pass, n.Point)
		here := append(line, k)
		if n.Color != user {
			return fmt.Errorf("%v: a move of %v at the user's turn", here, n.Color)
		}
		if !legal[k] {
			return fmt.Errorf("%v: illegal, or twice in the tree", here)
		}
		delete(legal, k)
		if n.Correct == n.Wrong {
			return fmt.Errorf("%v: the user's move must be either right (TE) or wrong (BM)", here)
		}
		if err := s.PlayMove(tsumego.Move{Point: n.Point, Pass: n.Pass}); err != nil {
			return fmt.Errorf("%v: %w", here, err)
		}
		err := checkAnswer(s, user, want, n, here)
		s.Undo()
		if err != nil {
			return err
		}
	}
	if len(legal) > 0 {
		return fmt.Errorf("%v: the tree lacks the user's moves %v", line, legal)
	}
	return nil
}

// checkAnswer checks a user's move n, already played, and what follows.
func checkAnswer(s *tsumego.Solver, user goban.Color, want tsumego.Result, n *tengen.ProblemNode, line []string) error {
	r := s.Evaluate(user)
	switch {
	case r == tsumego.Unknown:
		return fmt.Errorf("%v: the solver cannot tell within its bounds", line)
	case n.Correct && r < want:
		return fmt.Errorf("%v: marked right, but it is worth %v, not %v", line, r, want)
	case n.Wrong && r >= want:
		return fmt.Errorf("%v: marked wrong, but it is worth %v", line, r)
	}
	if len(n.Children) > 1 {
		return fmt.Errorf("%v: more than one answer", line)
	}
	if len(n.Children) == 0 {
		if n.Wrong {
			return fmt.Errorf("%v: a wrong move without its refutation", line)
		}
		return nil
	}
	a := n.Children[0]
	here := append(line, moveKey(a.Pass, a.Point))
	if a.Color != user.Opponent() || a.Correct || a.Wrong {
		return fmt.Errorf("%v: the answer must be an unmarked move of %v", here, user.Opponent())
	}
	if err := s.PlayMove(tsumego.Move{Point: a.Point, Pass: a.Pass}); err != nil {
		return fmt.Errorf("%v: %w", here, err)
	}
	defer s.Undo()
	r = s.Evaluate(user)
	if n.Wrong {
		if r == tsumego.Unknown || r >= want {
			return fmt.Errorf("%v: the refutation does not refute: %v", here, r)
		}
		if len(a.Children) > 0 {
			return fmt.Errorf("%v: the tree goes on after a refutation", here)
		}
		return nil
	}
	if r < want {
		return fmt.Errorf("%v: after this defence the position is worth %v", here, r)
	}
	if len(a.Children) == 0 {
		return fmt.Errorf("%v: the user has no move after the defence", here)
	}
	return checkTurn(s, user, want, a.Children, here)
}
