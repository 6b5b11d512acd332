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

// testMarkProblemsSolved: the problems a visitor solved in the browser join
// the account's records without a rated attempt; a problem solved before
// keeps its attempts and first time, one tried and failed becomes solved,
// and marking again changes nothing.
func testMarkProblemsSolved(t *testing.T, b *Backend) {
	ctx := context.Background()
	cy := mustUser(t, b.Services, "cyra")
	t0 := time.Date(2026, 4, 1, 9, 0, 0, 0, time.UTC)
	if _, err := b.Problems.RecordProblemAttempt(ctx, cy.ID, "p001", true, 500, t0); err != nil {
		t.Fatal(err)
	}
	before, err := b.Problems.RecordProblemAttempt(ctx, cy.ID, "p002", false, 500, t0.Add(time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	t1 := t0.Add(time.Hour)
	want := []tengen.ProblemRecord{
		{ProblemID: "p001", Solved: true, Attempts: 1, SolvedAt: t0},
		{ProblemID: "p002", Solved: true, Attempts: 1, SolvedAt: t1},
		{ProblemID: "p003", Solved: true, Attempts: 1, SolvedAt: t1},
	}
	for round := range 2 {
		got, err := b.Problems.MarkProblemsSolved(ctx, cy.ID, []string{"p003", "p001", "p002", "p003"}, t1.Add(time.Duration(round)*time.Hour))
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		if got.Rating != before.Rating || got.Rated != before.Rated {
			t.Errorf("round %d: rating %v rated %d, want %v and %d unchanged", round, got.Rating, got.Rated, before.Rating, before.Rated)
		}
		if len(got.Records) != len(want) {
			t.Fatalf("round %d: records = %+v, want %+v", round, got.Records, want)
		}
		for i := range want {
			if g := got.Records[i]; g.ProblemID != want[i].ProblemID || g.Solved != want[i].Solved || g.Attempts != want[i].Attempts || !g.SolvedAt.Equal(want[i].SolvedAt) {
				t.Errorf("round %d: record %d = %+v, want %+v", round, i, g, want[i])
			}
		}
	}
	if got, err := b.Problems.MarkProblemsSolved(ctx, cy.ID, nil, t1); err != nil || len(got.Records) != len(want) {
		t.Errorf("marking nothing: %+v, %v", got, err)
	}
	_, err = b.Problems.MarkProblemsSolved(ctx, 99999, []string{"p001"}, t1)
	wantCode(t, "marking for an unknown user", err, tengen.ENOTFOUND)
	_, err = b.Problems.MarkProblemsSolved(ctx, cy.ID, []string{"p004", ""}, t1)
	wantCode(t, "marking an empty id", err, tengen.EINVALID)
	if got, err := b.Problems.ProblemProgress(ctx, cy.ID); err != nil || len(got.Records) != len(want) {
		t.Errorf("a refused mark changed the records: %+v, %v", got, err)
	}
}
