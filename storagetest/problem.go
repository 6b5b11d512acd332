package storagetest

import (
	"context"
	"math"
	"testing"
	"time"

	"tengen"
)

// testProblemProgress: records and the problem rating. Only the first
// attempt at a problem changes the rating; a problem once solved stays
// solved with its first time; users do not see each other's records.
func testProblemProgress(t *testing.T, b *Backend) {
	if b.Problems == nil {
		t.Fatal("the backend has no ProblemProgressService")
	}
	ctx := context.Background()
	ann, bob := mustUser(t, b.Services, "ann"), mustUser(t, b.Services, "bob")
	p, err := b.Problems.ProblemProgress(ctx, ann.ID)
	if err != nil {
		t.Fatal(err)
	}
	if p.Rating != tengen.InitialProblemRating || p.Rated != 0 || len(p.Records) != 0 {
		t.Fatalf("new user's progress = %+v", p)
	}
	t0 := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	steps := []struct {
		problem    string
		solved     bool
		difficulty float64
		rated      int
		changes    bool
	}{
		{"p001", false, 500, 1, true},
		{"p001", true, 500, 1, false}, // a second attempt: solved, rating unchanged
		{"p002", true, 1500, 2, true},
		{"p002", false, 1500, 2, false}, // failing later does not unsolve
	}
	rating := float64(tengen.InitialProblemRating)
	for i, st := range steps {
		got, err := b.Problems.RecordProblemAttempt(ctx, ann.ID, st.problem, st.solved, st.difficulty, t0.Add(time.Duration(i)*time.Minute))
		if err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		if st.changes {
			rating = tengen.ProblemRatingUpdate(rating, st.difficulty, st.solved)
		}
		if math.Abs(got.Rating-rating) > 1e-9 || got.Rated != st.rated {
			t.Errorf("step %d: rating %v rated %d, want %v and %d", i, got.Rating, got.Rated, rating, st.rated)
		}
	}
	p, err = b.Problems.ProblemProgress(ctx, ann.ID)
	if err != nil {
		t.Fatal(err)
	}
	want := []tengen.ProblemRecord{
		{ProblemID: "p001", Solved: true, Attempts: 2, SolvedAt: t0.Add(time.Minute)},
		{ProblemID: "p002", Solved: true, Attempts: 2, SolvedAt: t0.Add(2 * time.Minute)},
	}
	if len(p.Records) != len(want) {
		t.Fatalf("records = %+v, want %+v", p.Records, want)
	}
	for i := range want {
		if g := p.Records[i]; g.ProblemID != want[i].ProblemID || g.Solved != want[i].Solved || g.Attempts != want[i].Attempts || !g.SolvedAt.Equal(want[i].SolvedAt) {
			t.Errorf("record %d = %+v, want %+v", i, g, want[i])
		}
	}
	if p, err := b.Problems.ProblemProgress(ctx, bob.ID); err != nil || len(p.Records) != 0 || p.Rating != tengen.InitialProblemRating {
		t.Errorf("bob's progress = %+v, %v; want none", p, err)
	}
	_, err = b.Problems.RecordProblemAttempt(ctx, 99999, "p001", true, 500, t0)
	wantCode(t, "attempt of an unknown user", err, tengen.ENOTFOUND)
	_, err = b.Problems.RecordProblemAttempt(ctx, ann.ID, "", true, 500, t0)
	wantCode(t, "attempt without a problem", err, tengen.EINVALID)
}
