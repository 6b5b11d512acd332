package storagetest

import (
	"context"
	"strings"
	"testing"

	"tengen"
)

func newReview(owner int64, title string, vis tengen.Visibility, black, white, date, result string) *tengen.Review {
	return &tengen.Review{OwnerID: owner, Title: title, Visibility: vis,
		SGF:  "(;FF[4]CA[UTF-8]PB[" + black + "]PW[" + white + "]\n;B[pd];W[dd])\n",
		Info: tengen.ReviewInfo{Black: black, White: white, Date: date, Result: result, Size: 19}}
}

// testReviews: reviews are stored with their records and search fields,
// listed by owner or publicly with the filters, updated, quota-checked and
// deleted with their chat; bad values change nothing.
func testReviews(t *testing.T, b *Backend) {
	if b.Reviews == nil {
		t.Fatal("the backend has no ReviewService")
	}
	ctx := context.Background()
	alice, bob := mustUser(t, b.Services, "alice"), mustUser(t, b.Services, "bob")
	rs := []*tengen.Review{
		newReview(alice.ID, "first", tengen.Public, "Honinbo Shusaku", "Gennan Inseki", "1846-09-11", "B+2"),
		newReview(alice.ID, "second", tengen.Private, "Shusaku", "Ota Yuzo", "1853", "Jigo"),
		newReview(alice.ID, "third", tengen.Unlisted, "Go Seigen", "Kitani Minoru", "1933-10-16", "W+2"),
	}
	rs[1].SGF += "(;FF[4]CA[UTF-8]C[私の100%_コメント]\n)\n" // non-ASCII, kept byte for byte
	if err := b.Reviews.CreateReviews(ctx, rs, tengen.ReviewQuota{Reviews: 10}); err != nil {
		t.Fatal(err)
	}
	for _, r := range rs {
		if r.ID == 0 || r.ControllerID != alice.ID || r.OwnerName != "alice" || r.CreatedAt.IsZero() {
			t.Fatalf("created %+v", r)
		}
		got, err := b.Reviews.FindReview(ctx, r.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got.SGF != r.SGF || got.Title != r.Title || got.Visibility != r.Visibility || got.Info != r.Info ||
			got.OwnerName != "alice" || got.ControllerName != "alice" || !got.CreatedAt.Equal(r.CreatedAt) {
			t.Errorf("read back %+v, want %+v", got, r)
		}
	}
	bobs := newReview(bob.ID, "bob's", tengen.Public, "bob", "Shusaku", "2024-01-02", "W+R")
	if err := b.Reviews.CreateReviews(ctx, []*tengen.Review{bobs}, tengen.ReviewQuota{}); err != nil {
		t.Fatal(err)
	}

	titles := func(f tengen.ReviewFilter) (string, int) {
		t.Helper()
		list, total, err := b.Reviews.FindReviews(ctx, f)
		if err != nil {
			t.Fatal(err)
		}
		var ts []string
		for _, r := range list {
			if r.SGF != "" {
				t.Errorf("list carries the record of %d", r.ID)
			}
			ts = append(ts, r.Title)
		}
		return strings.Join(ts, ","), total
	}
	for _, c := range []struct {
		name  string
		f     tengen.ReviewFilter
		want  string
		total int
	}{
		{"public", tengen.ReviewFilter{}, "bob's,first", 2},
		{"alice's own", tengen.ReviewFilter{OwnerID: alice.ID}, "third,second,first", 3},
		{"player any case", tengen.ReviewFilter{Player: "shusaku"}, "bob's,first", 2},
		{"player in own", tengen.ReviewFilter{OwnerID: alice.ID, Player: "SHUSAKU"}, "second,first", 2},
		{"player white", tengen.ReviewFilter{Player: "gennan"}, "first", 1},
		{"date", tengen.ReviewFilter{Date: "1846"}, "first", 1},
		{"result", tengen.ReviewFilter{Result: "W+"}, "bob's", 1},
		{"wildcards are literal", tengen.ReviewFilter{Player: "%"}, "", 0},
		{"underscore literal", tengen.ReviewFilter{Player: "_"}, "", 0},
		{"limit", tengen.ReviewFilter{OwnerID: alice.ID, Limit: 2}, "third,second", 3},
		{"offset", tengen.ReviewFilter{OwnerID: alice.ID, Limit: 2, Offset: 2}, "first", 3},
	} {
		if got, total := titles(c.f); got != c.want || total != c.total {
			t.Errorf("%s: %q (%d in all), want %q (%d)", c.name, got, total, c.want, c.total)
		}
	}

	// Update: title, visibility, record, info and controller.
	r := rs[2]
	r.Title, r.Visibility, r.SGF, r.ControllerID = "renamed", tengen.Public, "(;FF[4]CA[UTF-8]\n;B[aa])\n", bob.ID
	r.Info = tengen.ReviewInfo{Black: "X", White: "Y", Size: 9}
	before := r.UpdatedAt
	if err := b.Reviews.UpdateReview(ctx, r, tengen.ReviewQuota{}); err != nil {
		t.Fatal(err)
	}
	got, err := b.Reviews.FindReview(ctx, r.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Title != "renamed" || got.Visibility != tengen.Public || got.SGF != r.SGF || got.ControllerID != bob.ID ||
		got.ControllerName != "bob" || got.OwnerID != alice.ID || got.Info != r.Info || got.UpdatedAt.Before(before) {
		t.Errorf("updated %+v", got)
	}

	// Refusals change nothing.
	bad := []struct {
		name string
		r    *tengen.Review
		code string
	}{
		{"no record", &tengen.Review{OwnerID: alice.ID, Visibility: tengen.Public}, tengen.EINVALID},
		{"bad visibility", &tengen.Review{OwnerID: alice.ID, Visibility: "secret", SGF: "(;)"}, tengen.EINVALID},
		{"long title", &tengen.Review{OwnerID: alice.ID, Visibility: tengen.Public, SGF: "(;)", Title: strings.Repeat("x", tengen.MaxReviewTitleLen+1)}, tengen.EINVALID},
		{"big record", &tengen.Review{OwnerID: alice.ID, Visibility: tengen.Public, SGF: strings.Repeat("x", tengen.MaxReviewSGF+1)}, tengen.EINVALID},
		{"unknown owner", &tengen.Review{OwnerID: alice.ID + bob.ID + 100, Visibility: tengen.Public, SGF: "(;)"}, tengen.ENOTFOUND},
	}
	for _, c := range bad {
		wantCode(t, c.name, b.Reviews.CreateReviews(ctx, []*tengen.Review{c.r}, tengen.ReviewQuota{}), c.code)
	}
	wantCode(t, "two owners", b.Reviews.CreateReviews(ctx, []*tengen.Review{newReview(alice.ID, "a", tengen.Public, "", "", "", ""),
		newReview(bob.ID, "b", tengen.Public, "", "", "", "")}, tengen.ReviewQuota{}), tengen.EINVALID)
	// Quota: alice has 3; 2 more would be 5 > 4, and all of them are refused.
	wantCode(t, "count quota", b.Reviews.CreateReviews(ctx, []*tengen.Review{newReview(alice.ID, "q1", tengen.Public, "", "", "", ""),
		newReview(alice.ID, "q2", tengen.Public, "", "", "", "")}, tengen.ReviewQuota{Reviews: 4}), tengen.EFORBIDDEN)
	wantCode(t, "byte quota", b.Reviews.CreateReviews(ctx, []*tengen.Review{newReview(alice.ID, "q3", tengen.Public, "", "", "", "")},
		tengen.ReviewQuota{Bytes: 100}), tengen.EFORBIDDEN)
	big := *rs[0]
	big.SGF = strings.Repeat(";", 500)
	wantCode(t, "byte quota on update", b.Reviews.UpdateReview(ctx, &big, tengen.ReviewQuota{Bytes: 400}), tengen.EFORBIDDEN)
	wantCode(t, "update unknown", b.Reviews.UpdateReview(ctx, &tengen.Review{ID: 1e9, Visibility: tengen.Public, SGF: "(;)", ControllerID: alice.ID}, tengen.ReviewQuota{}), tengen.ENOTFOUND)
	bogus := *rs[0]
	bogus.ControllerID = alice.ID + bob.ID + 100
	wantCode(t, "unknown controller", b.Reviews.UpdateReview(ctx, &bogus, tengen.ReviewQuota{}), tengen.ENOTFOUND)
	if _, total := titles(tengen.ReviewFilter{OwnerID: alice.ID}); total != 3 {
		t.Errorf("alice has %d reviews after refusals, want 3", total)
	}
	if got, _ := b.Reviews.FindReview(ctx, rs[0].ID); got.SGF != rs[0].SGF {
		t.Errorf("a refused update changed the record to %q", got.SGF)
	}
	// Once within the quota, the same upload is stored.
	if err := b.Reviews.CreateReviews(ctx, []*tengen.Review{newReview(alice.ID, "q1", tengen.Public, "", "", "", "")}, tengen.ReviewQuota{Reviews: 4}); err != nil {
		t.Errorf("create within quota: %v", err)
	}

	// Chat: kept in order, the last ones on request, gone with the review.
	for _, text := range []string{"hello", "<b>not bold</b>", "third"} {
		m := &tengen.ReviewChatMessage{ReviewID: rs[0].ID, UserID: bob.ID, Text: text}
		if err := b.Reviews.AddReviewChat(ctx, m); err != nil || m.ID == 0 || m.UserName != "bob" {
			t.Fatalf("chat %q: %+v, %v", text, m, err)
		}
	}
	wantCode(t, "empty chat", b.Reviews.AddReviewChat(ctx, &tengen.ReviewChatMessage{ReviewID: rs[0].ID, UserID: bob.ID}), tengen.EINVALID)
	wantCode(t, "long chat", b.Reviews.AddReviewChat(ctx, &tengen.ReviewChatMessage{ReviewID: rs[0].ID, UserID: bob.ID,
		Text: strings.Repeat("x", tengen.MaxChatLen+1)}), tengen.EINVALID)
	wantCode(t, "chat unknown review", b.Reviews.AddReviewChat(ctx, &tengen.ReviewChatMessage{ReviewID: 1e9, UserID: bob.ID, Text: "x"}), tengen.ENOTFOUND)
	chat, err := b.Reviews.FindReviewChat(ctx, rs[0].ID, 2)
	if err != nil || len(chat) != 2 || chat[0].Text != "<b>not bold</b>" || chat[1].Text != "third" || chat[1].UserName != "bob" {
		t.Errorf("last two chat messages %+v, %v", chat, err)
	}
	// A message goes by its id and its review's only, once.
	wantCode(t, "delete chat of another review", b.Reviews.DeleteReviewChat(ctx, rs[0].ID+1e9, chat[0].ID), tengen.ENOTFOUND)
	if err := b.Reviews.DeleteReviewChat(ctx, rs[0].ID, chat[0].ID); err != nil {
		t.Fatal(err)
	}
	wantCode(t, "delete chat again", b.Reviews.DeleteReviewChat(ctx, rs[0].ID, chat[0].ID), tengen.ENOTFOUND)
	if chat, err := b.Reviews.FindReviewChat(ctx, rs[0].ID, 10); err != nil || len(chat) != 2 || chat[0].Text != "hello" || chat[1].Text != "third" {
		t.Errorf("chat after a deletion %+v, %v", chat, err)
	}
	if err := b.Reviews.DeleteReview(ctx, rs[0].ID); err != nil {
		t.Fatal(err)
	}
	wantCode(t, "deleted", func() error { _, err := b.Reviews.FindReview(ctx, rs[0].ID); return err }(), tengen.ENOTFOUND)
	wantCode(t, "delete again", b.Reviews.DeleteReview(ctx, rs[0].ID), tengen.ENOTFOUND)
	if chat, err := b.Reviews.FindReviewChat(ctx, rs[0].ID, 10); err != nil || len(chat) != 0 {
		t.Errorf("chat of a deleted review: %v, %v", chat, err)
	}
}
