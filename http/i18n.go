package http

import (
	"embed"
	"encoding/json"
	"fmt"
	nethttp "net/http"
	"slices"
	"strconv"
	"strings"
)

//go:embed locales/*.json
var localeFS embed.FS

// languages are the supported UI languages; the first is the fallback.
var languages = []string{"en", "de"}

// langCookie remembers the language chosen with the switch.
const langCookie = "lang"

// catalog maps message keys to texts in one language. Texts with arguments
// use fmt verbs.
type catalog map[string]string

// loadCatalogs reads locales/<lang>.json for every language and checks that
// all catalogues have the same keys, so that no page can miss a text in one
// language only.
func loadCatalogs() (map[string]catalog, error) {
	cats := map[string]catalog{}
	for _, lang := range languages {
		data, err := localeFS.ReadFile("locales/" + lang + ".json")
		if err != nil {
			return nil, err
		}
		var c catalog
		if err := json.Unmarshal(data, &c); err != nil {
			return nil, fmt.Errorf("locales/%s.json: %w", lang, err)
		}
		cats[lang] = c
	}
	ref := cats[languages[0]]
	for _, lang := range languages[1:] {
		for k := range ref {
			if _, ok := cats[lang][k]; !ok {
				return nil, fmt.Errorf("locales/%s.json lacks %q", lang, k)
			}
		}
		for k := range cats[lang] {
			if _, ok := ref[k]; !ok {
				return nil, fmt.Errorf("locales/%s.json lacks %q", languages[0], k)
			}
		}
	}
	return cats, nil
}

// loadErrorCatalogs reads locales/errors.<lang>.json for every language but
// English. They translate the formats of application errors (tengen.Error's
// Format, the English text being the message id); English shows Message.
func loadErrorCatalogs() (map[string]catalog, error) {
	cats := map[string]catalog{}
	for _, lang := range languages[1:] {
		data, err := localeFS.ReadFile("locales/errors." + lang + ".json")
		if err != nil {
			return nil, err
		}
		var c catalog
		if err := json.Unmarshal(data, &c); err != nil {
			return nil, fmt.Errorf("locales/errors.%s.json: %w", lang, err)
		}
		cats[lang] = c
	}
	return cats, nil
}

// text returns the text for key, or an error for an unknown key (which
// makes template execution fail loudly).
func (c catalog) text(key string, args ...any) (string, error) {
	s, ok := c[key]
	if !ok {
		return "", fmt.Errorf("no message %q", key)
	}
	if len(args) > 0 {
		s = fmt.Sprintf(s, args...)
	}
	return s, nil
}

// decimal writes f with as many decimals as it needs and the language's
// decimal separator (6.5 in English, 6,5 in German), as formatNumber does in
// the browser.
func (c catalog) decimal(f float64) string {
	return strings.Replace(strconv.FormatFloat(f, 'f', -1, 64), ".", c.must("number.decimalSeparator"), 1)
}

// must is text for Go code with keys known to exist.
func (c catalog) must(key string, args ...any) string {
	s, err := c.text(key, args...)
	if err != nil {
		return key
	}
	return s
}

// chooseLanguage picks the UI language: the lang cookie if set to a
// supported language, else the best match in Accept-Language, else English.
func chooseLanguage(r *nethttp.Request) string {
	if c, err := r.Cookie(langCookie); err == nil && slices.Contains(languages, c.Value) {
		return c.Value
	}
	if u := currentUser(r.Context()); u != nil && slices.Contains(languages, u.Language) {
		return u.Language // chosen on the settings page
	}
	return matchAcceptLanguage(r.Header.Get("Accept-Language"))
}

// matchAcceptLanguage returns the supported language with the highest
// quality in an Accept-Language header ("de-CH, de;q=0.9, en;q=0.8"),
// comparing primary subtags only; ties go to the earlier entry.
func matchAcceptLanguage(header string) string {
	best, bestQ := languages[0], 0.0
	for _, part := range strings.Split(header, ",") {
		tag, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		q := 1.0
		if v, ok := strings.CutPrefix(strings.TrimSpace(params), "q="); ok {
			f, err := strconv.ParseFloat(v, 64)
			if err != nil {
				continue
			}
			q = f
		}
		primary, _, _ := strings.Cut(strings.ToLower(strings.TrimSpace(tag)), "-")
		if slices.Contains(languages, primary) && q > bestQ {
			best, bestQ = primary, q
		}
	}
	return best
}
