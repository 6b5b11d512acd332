package sqlrow

import (
	"testing"
	"time"

	"tengen"
	"tengen/clock"
	"tengen/goban"
	"tengen/internal/rating"
)

func TestText(t *testing.T) {
	for _, tc := range []struct {
		src     any
		want    goban.Color
		wantErr bool
	}{
		{src: "black", want: goban.Black},
		{src: []byte("white"), want: goban.White},
		{src: int64(1), wantErr: true},
		{src: nil, wantErr: true},
		{src: "red", wantErr: true},
	} {
		var c goban.Color
		err := Text{V: &c}.Scan(tc.src)
		if (err != nil) != tc.wantErr || !tc.wantErr && c != tc.want {
			t.Errorf("Scan(%#v) = %v, %v; want %v, error %v", tc.src, c, err, tc.want, tc.wantErr)
		}
	}
	var k clock.Kind
	if err := (Text{V: &k}).Scan("byoyomi"); err != nil || k != clock.ByoYomi {
		t.Errorf("Scan(byoyomi) into clock.Kind = %v, %v", k, err)
	}
}

func TestColorText(t *testing.T) {
	for c, want := range map[goban.Color]string{goban.Black: "black", goban.White: "white", goban.Empty: ""} {
		if got := ColorText(c); got != want {
			t.Errorf("ColorText(%v) = %q, want %q", c, got, want)
		}
	}
}

func TestMillis(t *testing.T) {
	for _, tc := range []struct {
		src     any
		want    time.Duration
		wantErr bool
	}{
		{src: int64(0), want: 0},
		{src: int64(1500), want: 1500 * time.Millisecond},
		{src: "1500", wantErr: true},
		{src: float64(1), wantErr: true},
	} {
		var d time.Duration
		err := Millis{D: &d}.Scan(tc.src)
		if (err != nil) != tc.wantErr || d != tc.want {
			t.Errorf("Scan(%#v) = %v, %v; want %v, error %v", tc.src, d, err, tc.want, tc.wantErr)
		}
	}
}

func TestRank(t *testing.T) {
	anchored := rating.NewAt(rating.RankOf(1500)).Rating
	for _, tc := range []struct {
		name    string
		u       tengen.User
		src     any
		want    string
		wantErr bool
	}{
		{name: "sqlite fixed bot", u: tengen.User{Bot: true, Rating: anchored, Deviation: 60}, src: int64(1),
			want: rating.RankOf(anchored).String()},
		{name: "postgres fixed bot", u: tengen.User{Bot: true, Rating: anchored, Deviation: 60}, src: true,
			want: rating.RankOf(anchored).String()},
		{name: "bot without anchor", u: tengen.User{Bot: true, Rating: 1500, Deviation: 350}, src: int64(0), want: ""},
		{name: "person", u: tengen.User{Rating: 1500, Deviation: 350}, src: false,
			want: rating.Rating{Rating: 1500, Deviation: 350}.RankString()},
		{name: "wrong type", u: tengen.User{}, src: "1", wantErr: true},
	} {
		u := tc.u
		err := Rank{U: &u}.Scan(tc.src)
		if (err != nil) != tc.wantErr || u.Rank != tc.want {
			t.Errorf("%s: Rank %q, error %v; want %q, error %v", tc.name, u.Rank, err, tc.want, tc.wantErr)
		}
	}
}

func TestLikeContains(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"", "%%"},
		{"Honinbo", "%Honinbo%"},
		{"50%", `%50\%%`},
		{"a_b", `%a\_b%`},
		{`C:\go`, `%C:\\go%`},
	} {
		if got := LikeContains(tt.in); got != tt.want {
			t.Errorf("LikeContains(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
