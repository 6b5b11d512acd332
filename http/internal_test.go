package http

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	nethttp "net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"tengen"
	"tengen/clock"
)

func TestErrorStatusCode(t *testing.T) {
	tests := []struct {
		code string
		want int
	}{
		{tengen.ECONFLICT, 409}, {tengen.EFORBIDDEN, 403}, {tengen.EINTERNAL, 500}, {tengen.EINVALID, 400},
		{tengen.ENOTFOUND, 404}, {tengen.ERATELIMIT, 429}, {tengen.EUNAUTHORIZED, 401}, {"bogus", 500},
	}
	for _, tt := range tests {
		if got := ErrorStatusCode(tt.code); got != tt.want {
			t.Errorf("ErrorStatusCode(%q) = %d, want %d", tt.code, got, tt.want)
		}
	}
}

func TestMatchAcceptLanguage(t *testing.T) {
	tests := []struct{ header, want string }{
		{"", "en"},
		{"de", "de"},
		{"de-DE,de;q=0.9,en;q=0.8", "de"},
		{"en-US,en;q=0.9,de;q=0.8", "en"},
		{"fr-CH, fr;q=0.9, de;q=0.7, *;q=0.5", "de"},
		{"fr", "en"},
		{"en;q=0.2, de;q=0.5", "de"},
		{"DE-at", "de"},
		{"de;q=bogus, en;q=0.1", "en"},
	}
	for _, tt := range tests {
		if got := matchAcceptLanguage(tt.header); got != tt.want {
			t.Errorf("matchAcceptLanguage(%q) = %q, want %q", tt.header, got, tt.want)
		}
	}
}

func TestChooseLanguageCookie(t *testing.T) {
	r, _ := nethttp.NewRequest("GET", "/", nil)
	r.Header.Set("Accept-Language", "de")
	r.AddCookie(&nethttp.Cookie{Name: langCookie, Value: "en"})
	if got := chooseLanguage(r); got != "en" {
		t.Errorf("cookie en, header de: %q", got)
	}
	r, _ = nethttp.NewRequest("GET", "/", nil)
	r.Header.Set("Accept-Language", "de")
	r.AddCookie(&nethttp.Cookie{Name: langCookie, Value: "xx"})
	if got := chooseLanguage(r); got != "de" {
		t.Errorf("bad cookie, header de: %q", got)
	}
}

func TestLimiter(t *testing.T) {
	now := time.Unix(0, 0)
	l := newLimiter(3, 10*time.Second, 100, func() time.Time { return now })
	for i := range 3 {
		if ok, _ := l.allow("a"); !ok {
			t.Fatalf("attempt %d refused within burst", i+1)
		}
	}
	ok, wait := l.allow("a")
	if ok || wait != 10*time.Second {
		t.Fatalf("4th attempt: ok=%v wait=%v, want refused, 10s", ok, wait)
	}
	if ok, _ := l.allow("b"); !ok {
		t.Error("other key refused")
	}
	now = now.Add(5 * time.Second)
	if ok, wait := l.allow("a"); ok || wait != 5*time.Second {
		t.Errorf("after 5s: ok=%v wait=%v", ok, wait)
	}
	now = now.Add(5 * time.Second)
	if ok, _ := l.allow("a"); !ok {
		t.Error("after 10s: refused")
	}
	l.reset("a")
	for i := range 3 {
		if ok, _ := l.allow("a"); !ok {
			t.Fatalf("after reset, attempt %d refused", i+1)
		}
	}
}

func TestLimiterBounded(t *testing.T) {
	now := time.Unix(0, 0)
	l := newLimiter(5, time.Minute, 64, func() time.Time { return now })
	for i := range 10_000 {
		l.allow(string(rune('a'+i%26)) + time.Duration(i).String())
		if n := l.size(); n > 64 {
			t.Fatalf("after %d keys the limiter holds %d buckets, bound 64", i+1, n)
		}
	}
}

// brokenLimits is a shared rate limiter whose storage fails.
type brokenLimits struct{ calls int }

func (b *brokenLimits) Take(context.Context, string, int, time.Duration, time.Time) (bool, time.Duration, error) {
	b.calls++
	return false, 0, errors.New("connection refused")
}

func (b *brokenLimits) Forget(context.Context, string) error { return errors.New("connection refused") }

// TestLimiterSharedFails: when the shared buckets cannot be reached, the
// instance's own buckets hold the limit instead of letting every attempt
// through or refusing every one.
func TestLimiterSharedFails(t *testing.T) {
	now := time.Unix(0, 0)
	l := newLimiter(3, time.Minute, 64, func() time.Time { return now })
	shared := &brokenLimits{}
	l.shared, l.name, l.log = shared, "login", slog.New(slog.NewTextHandler(io.Discard, nil))
	for i, want := range []bool{true, true, true, false} {
		if ok, _ := l.take(context.Background(), "10.0.0.1"); ok != want {
			t.Errorf("take %d: %v, want %v", i+1, ok, want)
		}
	}
	if shared.calls != 4 {
		t.Errorf("the shared buckets were asked %d times, want 4", shared.calls)
	}
	l.forget(context.Background(), "10.0.0.1")
	if ok, _ := l.take(context.Background(), "10.0.0.1"); !ok {
		t.Error("a forgotten key was refused")
	}
}

// TestTemplateKeys checks that every literal message key in the templates
// and every key built from a domain value exists in every catalogue, so that
// branches the page tests do not reach cannot fail in production.
func TestTemplateKeys(t *testing.T) {
	cats, err := loadCatalogs()
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`\btf? "([^"]+)"`)
	var keys []string
	fs.WalkDir(templateFS, "templates", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, _ := templateFS.ReadFile(p)
		for _, m := range re.FindAllStringSubmatch(string(data), -1) {
			keys = append(keys, m[1])
		}
		return nil
	})
	if len(keys) < 50 {
		t.Fatalf("found only %d keys; is the pattern broken?", len(keys))
	}
	// The scripts read their texts as T.name from the catalogue's "js."
	// entries (scriptTexts); a missing one would show "undefined" on the page.
	jsRe := regexp.MustCompile(`\bT\.([A-Za-z_][A-Za-z0-9_]*)`)
	nJS := 0
	fs.WalkDir(staticFS, "static/js", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".js") {
			return err
		}
		data, _ := staticFS.ReadFile(p)
		for _, m := range jsRe.FindAllStringSubmatch(string(data), -1) {
			keys = append(keys, "js."+m[1])
			nJS++
		}
		return nil
	})
	if nJS < 50 {
		t.Fatalf("found only %d script text keys; is the pattern broken?", nJS)
	}
	for _, k := range []string{"territory", "captures", "dead", "komi", "total", "stones", "lost", "ownDead", "handicapBonus"} {
		keys = append(keys, "js.score."+k) // game.js reads T[`score.${key}`]
	}
	for _, r := range tengen.Rulesets() {
		keys = append(keys, "ruleset."+r)
	}
	for _, s := range []tengen.GameStatus{tengen.GamePlaying, tengen.GameScoring, tengen.GameFinished} {
		keys = append(keys, "status."+string(s))
	}
	for _, c := range []tengen.ColorChoice{tengen.ChooseBlack, tengen.ChooseWhite, tengen.ChooseNigiri} {
		keys = append(keys, "color."+string(c))
	}
	for _, k := range []clock.Kind{clock.None, clock.Absolute, clock.ByoYomi, clock.Canadian, clock.Fischer, clock.Correspondence} {
		keys = append(keys, "tc."+k.String(), "tc.summary."+k.String())
	}
	for code := range codeStatus {
		keys = append(keys, "error."+code)
	}
	for _, l := range tengen.StartingLevels {
		keys = append(keys, "level."+l.Name)
	}
	for _, c := range []string{"auto", "yes", "no"} {
		keys = append(keys, "rating.choice."+c)
	}
	for _, lang := range languages {
		keys = append(keys, "lang."+lang)
	}
	for lang, cat := range cats {
		for _, k := range keys {
			if _, ok := cat[k]; !ok {
				t.Errorf("catalogue %s lacks %q", lang, k)
			}
		}
	}
}

func TestTimeControlText(t *testing.T) {
	cats, err := loadCatalogs()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		tc     clock.TimeControl
		en, de string
	}{
		{clock.TimeControl{Kind: clock.None}, "no clock", "ohne Uhr"},
		{clock.TimeControl{Kind: clock.Absolute, MainTime: 90 * time.Minute}, "90 min", "90 Min."},
		{clock.TimeControl{Kind: clock.ByoYomi, MainTime: time.Hour, Periods: 5, PeriodTime: 30 * time.Second}, "1 h + 5 × 30 s", "1 Std. + 5 × 30 Sek."},
		{clock.TimeControl{Kind: clock.Canadian, MainTime: 0, Stones: 25, PeriodTime: 10 * time.Minute}, "0 s + 25 stones / 10 min", "0 Sek. + 25 Steine / 10 Min."},
		{clock.CorrespondenceDays(3, 14), "3 days per move, at most 14", "3 Tage pro Zug, höchstens 14"},
	}
	for _, tt := range tests {
		if got := timeControlText(cats["en"], tt.tc); got != tt.en {
			t.Errorf("en %+v = %q, want %q", tt.tc, got, tt.en)
		}
		if got := timeControlText(cats["de"], tt.tc); got != tt.de {
			t.Errorf("de %+v = %q, want %q", tt.tc, got, tt.de)
		}
	}
}

// TestKomiText checks that komi on server-rendered pages uses the page
// language's decimal separator, as the game page's script does: a German lobby
// said "7.5" next to a game header saying "6,5".
func TestKomiText(t *testing.T) {
	cats, err := loadCatalogs()
	if err != nil {
		t.Fatal(err)
	}
	k := func(f float64) *float64 { return &f }
	tests := []struct {
		s      tengen.GameSettings
		en, de string
	}{
		{tengen.GameSettings{BoardSize: 19, Ruleset: "japanese"}, "6.5", "6,5"},
		{tengen.GameSettings{BoardSize: 13, Ruleset: "chinese"}, "7.5", "7,5"},
		{tengen.GameSettings{BoardSize: 9, Ruleset: "japanese", Komi: k(-3.5)}, "-3.5", "-3,5"},
		{tengen.GameSettings{BoardSize: 9, Ruleset: "japanese", Komi: k(0)}, "0", "0"},
		{tengen.GameSettings{BoardSize: 9, Ruleset: "nonesuch"}, "rule default", "Regelvorgabe"},
	}
	for _, tt := range tests {
		if got := komiText(cats["en"], tt.s); got != tt.en {
			t.Errorf("en %+v = %q, want %q", tt.s, got, tt.en)
		}
		if got := komiText(cats["de"], tt.s); got != tt.de {
			t.Errorf("de %+v = %q, want %q", tt.s, got, tt.de)
		}
	}
}

// TestErrorCatalogs checks that every application error format in the
// packages that make them (root, sqlite, play, http) has a translation with the
// same verbs in every non-English error catalogue, and that no catalogue
// keeps formats nobody uses.
func TestErrorCatalogs(t *testing.T) {
	cats, err := loadErrorCatalogs()
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`Errorf\((?:tengen\.)?E[A-Z]+, ("(?:[^"\\]|\\.)*")`)
	used := map[string]bool{}
	for _, dir := range []string{"..", "../sqlite", "../internal/sqlrow", "../postgres", "../play", "../problems", "../analysis", "../review", "."} {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range re.FindAllStringSubmatch(string(data), -1) {
				format, err := strconv.Unquote(m[1])
				if err != nil {
					t.Fatalf("%s: %v", f, err)
				}
				used[format] = true
			}
		}
	}
	if len(used) < 40 {
		t.Fatalf("found only %d error formats; is the pattern broken?", len(used))
	}
	verbs := regexp.MustCompile(`%[-+# 0-9.]*[a-zA-Z]`)
	for lang, cat := range cats {
		for format := range used {
			tr, ok := cat[format]
			if !ok {
				t.Errorf("errors.%s.json lacks %q", lang, format)
				continue
			}
			if a, b := fmt.Sprint(verbs.FindAllString(format, -1)), fmt.Sprint(verbs.FindAllString(tr, -1)); a != b {
				t.Errorf("errors.%s.json: %q has verbs %s, its translation %s", lang, format, a, b)
			}
		}
		for format := range cat {
			if !used[format] {
				t.Errorf("errors.%s.json has unused format %q", lang, format)
			}
		}
	}
}
