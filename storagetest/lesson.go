package storagetest

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"tengen"
)

// testLessonProgress: progress is kept per user and lesson, never goes
// back, and refuses bad values.
func testLessonProgress(t *testing.T, b *Backend) {
	if b.Lessons == nil {
		t.Fatal("the backend has no LessonService")
	}
	ctx := context.Background()
	alice, bob := mustUser(t, b.Services, "alice"), mustUser(t, b.Services, "bob")
	got, err := b.Lessons.FindLessonProgress(ctx, alice.ID)
	if err != nil || len(got) != 0 {
		t.Fatalf("fresh progress %v, %v; want none", got, err)
	}
	for _, s := range []struct {
		user   int64
		lesson string
		steps  int
	}{
		{alice.ID, "liberties", 2}, {alice.ID, "liberties", 4}, {alice.ID, "liberties", 1},
		{alice.ID, "ko", 3}, {bob.ID, "ko", 1},
	} {
		if err := b.Lessons.SaveLessonProgress(ctx, s.user, map[string]int{s.lesson: s.steps}); err != nil {
			t.Fatalf("save %+v: %v", s, err)
		}
	}
	got, err = b.Lessons.FindLessonProgress(ctx, alice.ID)
	if want := map[string]int{"liberties": 4, "ko": 3}; err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("alice's progress %v, %v; want %v (never going back)", got, err, want)
	}
	got, err = b.Lessons.FindLessonProgress(ctx, bob.ID)
	if want := map[string]int{"ko": 1}; err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("bob's progress %v, %v; want %v", got, err, want)
	}
	wantCode(t, "empty lesson", b.Lessons.SaveLessonProgress(ctx, alice.ID, map[string]int{"": 1}), tengen.EINVALID)
	wantCode(t, "long lesson", b.Lessons.SaveLessonProgress(ctx, alice.ID, map[string]int{strings.Repeat("x", tengen.MaxLessonIDLen+1): 1}), tengen.EINVALID)
	wantCode(t, "negative steps", b.Lessons.SaveLessonProgress(ctx, alice.ID, map[string]int{"ko": -1}), tengen.EINVALID)
	wantCode(t, "too many steps", b.Lessons.SaveLessonProgress(ctx, alice.ID, map[string]int{"ko": tengen.MaxLessonSteps + 1}), tengen.EINVALID)
	// Several lessons in one call are all or nothing: a bad one stores none.
	if err := b.Lessons.SaveLessonProgress(ctx, bob.ID, map[string]int{"atari": 2, "seki": 5, "ko": 2}); err != nil {
		t.Fatalf("save three: %v", err)
	}
	wantCode(t, "one bad of two", b.Lessons.SaveLessonProgress(ctx, bob.ID, map[string]int{"eyes": 3, "ladder": tengen.MaxLessonSteps + 1}), tengen.EINVALID)
	got, err = b.Lessons.FindLessonProgress(ctx, bob.ID)
	if want := map[string]int{"ko": 2, "atari": 2, "seki": 5}; err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("bob's progress after several %v, %v; want %v", got, err, want)
	}
	wantCode(t, "unknown user", b.Lessons.SaveLessonProgress(ctx, alice.ID+bob.ID+100, map[string]int{"ko": 1}), tengen.ENOTFOUND)
}
