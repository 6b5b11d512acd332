package http

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"html/template"
	nethttp "net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"tengen"
	"tengen/clock"
	"tengen/goban"
)

//go:embed templates/*.html
var templateFS embed.FS

// pageNames are the page templates; each is parsed together with layout.html.
var pageNames = []string{"home", "signup", "login", "profile", "error", "game", "mygames", "admin", "learn", "lesson", "rules", "glossary", "help", "players", "settings",
	"reviews", "review_new", "review"}

// pages holds the parsed templates, one set per language, so that the
// template function t resolves against that language's catalogue.
type pages struct {
	cats    map[string]catalog                       // UI texts per language
	errCats map[string]catalog                       // error formats per language but English
	byLng   map[string]map[string]*template.Template // language → page → template
}

func loadPages(a *assets) (*pages, error) {
	cats, err := loadCatalogs()
	if err != nil {
		return nil, fmt.Errorf("http: %w", err)
	}
	errCats, err := loadErrorCatalogs()
	if err != nil {
		return nil, fmt.Errorf("http: %w", err)
	}
	p := &pages{cats: cats, errCats: errCats, byLng: map[string]map[string]*template.Template{}}
	for _, lang := range languages {
		cat := cats[lang]
		funcs := template.FuncMap{
			"t":         func(key string) (string, error) { return cat.text(key) },
			"tf":        func(key string, args ...any) (string, error) { return cat.text(key, args...) },
			"asset":     a.url,
			"importMap": a.importMap,
			"tc":        func(tc clock.TimeControl) string { return timeControlText(cat, tc) },
			"komi":      func(s tengen.GameSettings) string { return komiText(cat, s) },
			"opponent":  opponentOf,
			"isTurn":    func(g *tengen.Game, u *tengen.User) bool { return u != nil && g.IsTurnOf(u.ID) },
			"date":      func(t time.Time) string { return t.Format("2006-01-02") },
			"list":      func(xs ...string) []string { return xs },
			"rank":      rankHTML,
			"delta":     func(a, b float64) float64 { return a - b },
			"inc":       func(i int) int { return i + 1 },
			"outcome":   gameOutcome,
		}
		p.byLng[lang] = map[string]*template.Template{}
		for _, name := range pageNames {
			t, err := template.New("layout.html").Funcs(funcs).ParseFS(templateFS, "templates/layout.html", "templates/chat.html", "templates/"+name+".html")
			if err != nil {
				return nil, fmt.Errorf("http: template %s: %w", name, err)
			}
			p.byLng[lang][name] = t
		}
	}
	return p, nil
}

// opponentOf returns the player u plays against in g (for a spectator: White).
func opponentOf(g *tengen.Game, u *tengen.User) *tengen.User {
	if u != nil && g.WhiteID == u.ID {
		return g.Black
	}
	if u != nil && g.BlackID == u.ID {
		return g.White
	}
	return g.White
}

// komiText shows the komi of a game with settings s.
func komiText(cat catalog, s tengen.GameSettings) string {
	if s.Komi != nil {
		return cat.decimal(*s.Komi)
	}
	// The ruleset's default, as the game will have it: a player deciding
	// on a challenge wants the number, not "the rules' default".
	r, err := goban.RulesetByName(s.Ruleset)
	if err != nil {
		return cat.must("komi.default")
	}
	return cat.decimal(r.DefaultKomi(s.BoardSize, s.BoardSize, s.Handicap))
}

// timeControlText summarises a time control for people.
func timeControlText(cat catalog, tc clock.TimeControl) string {
	d := func(d time.Duration) string {
		switch {
		case d >= time.Hour && d%time.Hour == 0:
			return cat.must("unit.hours", int(d/time.Hour))
		case d >= time.Minute && d%time.Minute == 0:
			return cat.must("unit.minutes", int(d/time.Minute))
		}
		return cat.must("unit.seconds", int(d/time.Second))
	}
	switch tc.Kind {
	case clock.None:
		return cat.must("tc.summary.none")
	case clock.Absolute:
		return cat.must("tc.summary.absolute", d(tc.MainTime))
	case clock.ByoYomi:
		return cat.must("tc.summary.byoyomi", d(tc.MainTime), tc.Periods, d(tc.PeriodTime))
	case clock.Canadian:
		return cat.must("tc.summary.canadian", d(tc.MainTime), tc.Stones, d(tc.PeriodTime))
	case clock.Fischer:
		return cat.must("tc.summary.fischer", d(tc.MainTime), d(tc.Increment), d(tc.MaxTime))
	case clock.Correspondence:
		if days, maxDays, ok := tc.Days(); ok {
			return cat.must("tc.summary.correspondence", days, maxDays)
		}
	}
	return tc.String()
}

// pageData is what every page template gets.
type pageData struct {
	Lang      string
	Languages []string
	User      *tengen.User
	// Path is the current path, for the language switch to come back to.
	Path string
	// Error is a translated error message shown above the content.
	Error string
	// FormError and FormNotice are shown at the lobby's challenge form:
	// why it was refused, or that the challenge was made.
	FormError, FormNotice string
	// BoardPrefs is the JSON of the user's board options, which every
	// page's board applies (layout.html's data-board); "" for visitors.
	BoardPrefs string

	Name       string           // user name typed into sign-up and log-in forms
	Lobby      *lobbyResponse   // home
	Profile    *profileResponse // profile
	Rulesets   []string         // challenge form
	Form       challengeForm    // challenge form values
	Heading    string           // error page
	Detail     string           // error page
	Game       *gamePage        // game page
	MyGames    *myGamesPage     // "my games" page
	Live       []*tengen.Game   // home: games being played, to watch
	Online     []*tengen.User   // home: players with a page open
	Bots       []tengen.BotInfo // home: computer opponents
	BotForm    challengeForm    // home: "Play the computer" form values (Opponent is the bot)
	Admin      *adminPage       // admin page
	Learn      *lessonPage      // lessons
	Masters    []masterGame     // the book's master games
	RulesTable *rulesPage       // rules page
	Glossary   []glossaryEntry  // glossary
	Help       []string         // help page sections
	// Level and StartingLevels are the sign-up form's starting level.
	Level          string
	StartingLevels []tengen.StartingLevel
	Players        *playersPage  // players page
	Problems       *problemsPage // problem list
	Problem        *problemPage  // one problem
	Settings       *settingsPage // settings page
	// Reviews is the review library, Upload the upload form and Review
	// the review board; ReviewsOn says whether the server keeps reviews.
	Reviews   *reviewsPage
	Upload    *uploadPage
	Review    *reviewPage
	ReviewsOn bool
	// Chat shows the chat panel (game page, lobby): the server has chat.
	Chat bool
}

func (s *Server) newPage(r *nethttp.Request) *pageData {
	return &pageData{
		Lang:       chooseLanguage(r),
		Languages:  languages,
		User:       currentUser(r.Context()),
		BoardPrefs: boardPrefs(currentUser(r.Context())),
		Path:       r.URL.Path,
		Rulesets:   tengen.Rulesets(),
		Form:       defaultChallengeForm,
		Bots:       s.bots(),
		BotForm:    defaultBotForm,
		Chat:       s.svc.Chat != nil,
		ReviewsOn:  s.svc.Reviews != nil && s.svc.Records != nil,
	}
}

// render executes a page into a buffer first, so that a template error
// gives a clean 500 instead of half a page.
func (s *Server) render(w nethttp.ResponseWriter, r *nethttp.Request, status int, name string, data *pageData) {
	var buf bytes.Buffer
	if err := s.pages.byLng[data.Lang][name].ExecuteTemplate(&buf, "layout", data); err != nil {
		s.log.Error("template", "id", requestID(r.Context()), "page", name, "err", err)
		nethttp.Error(w, "Internal error", nethttp.StatusInternalServerError)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Language", data.Lang)
	h.Set("Vary", "Accept-Language, Cookie")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Content-Security-Policy", s.assets.csp)
	h.Set("Referrer-Policy", "same-origin")
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}

// errorMessage returns err's message in lang: the error catalogue's
// translation of its format, filled with its arguments, or else the English
// message. Internal errors have no message to show.
func (p *pages) errorMessage(lang string, err error) string {
	var e *tengen.Error
	if !errors.As(err, &e) || e.Code == tengen.EINTERNAL {
		return ""
	}
	if tr, ok := p.errCats[lang][e.Format]; ok {
		return fmt.Sprintf(tr, e.Args...)
	}
	return e.Message
}

// errorText translates an application error for a page: its message, or
// the code's general text when it has none. The two together read doubled
// ("Not found. User not found.").
func (s *Server) errorText(lang string, err error) string {
	if msg := s.pages.errorMessage(lang, err); msg != "" {
		return msg
	}
	return s.pages.cats[lang].must("error." + tengen.ErrorCode(err))
}

func (s *Server) renderError(w nethttp.ResponseWriter, r *nethttp.Request, status int, code string, err error) {
	data := s.newPage(r)
	cat := s.pages.cats[data.Lang]
	data.Heading = cat.must("error." + code)
	if msg := s.pages.errorMessage(data.Lang, err); msg != data.Heading {
		data.Detail = msg
	}
	s.render(w, r, status, "error", data)
}

func (s *Server) handleHome(w nethttp.ResponseWriter, r *nethttp.Request) {
	s.renderHomeData(w, r, nethttp.StatusOK, "", func(data *pageData) {
		// A profile's "challenge" button: the form aimed at that player.
		if name := r.URL.Query().Get("opponent"); tengen.ValidateUserName(name) == nil {
			data.Form.Opponent = name
		}
		if r.URL.Query().Get("challenge") == "created" {
			data.FormNotice = s.pages.cats[data.Lang].must("challenge.created")
		}
	})
}

// renderHome renders the lobby with errText: next to the challenge form
// when form (as the user filled it in) is given, else at the top.
func (s *Server) renderHome(w nethttp.ResponseWriter, r *nethttp.Request, status int, errText string, form *challengeForm) {
	top := errText
	if form != nil {
		top = ""
	}
	s.renderHomeData(w, r, status, top, func(data *pageData) {
		if form != nil {
			data.Form = *form
			data.FormError = errText
		}
	})
}

// renderHomeData renders the lobby; fill sets the form values shown.
func (s *Server) renderHomeData(w nethttp.ResponseWriter, r *nethttp.Request, status int, errText string, fill func(*pageData)) {
	lobby, err := s.lobby(r)
	if err != nil {
		s.error(w, r, err)
		return
	}
	// Games being played, for anyone who wants to watch.
	live, err := s.liveGames(r.Context())
	if err != nil {
		s.error(w, r, err)
		return
	}
	data := s.newPage(r)
	data.Lobby, data.Error, data.Live, data.Online = lobby, errText, live, s.onlineUsers()
	fill(data)
	s.render(w, r, status, "home", data)
}

func (s *Server) handleSignupPage(w nethttp.ResponseWriter, r *nethttp.Request) {
	data := s.newPage(r)
	data.Level, data.StartingLevels = tengen.StartingLevels[0].Name, tengen.StartingLevels
	s.render(w, r, nethttp.StatusOK, "signup", data)
}

// formError shows err on the page a form came from, with the error's status.
func (s *Server) formError(w nethttp.ResponseWriter, r *nethttp.Request, page string, data *pageData, msg string, err error) {
	if tengen.ErrorCode(err) == tengen.EINTERNAL {
		s.error(w, r, err)
		return
	}
	data.Error = msg
	s.render(w, r, ErrorStatusCode(tengen.ErrorCode(err)), page, data)
}

func (s *Server) handleSignupForm(w nethttp.ResponseWriter, r *nethttp.Request) {
	data := s.newPage(r)
	cat := s.pages.cats[data.Lang]
	name, password := strings.TrimSpace(r.PostFormValue("name")), r.PostFormValue("password")
	data.Name = name
	data.Level, data.StartingLevels = r.PostFormValue("level"), tengen.StartingLevels
	if password != r.PostFormValue("password2") {
		s.formError(w, r, "signup", data, cat.must("signup.mismatch"), tengen.Errorf(tengen.EINVALID, "passwords differ"))
		return
	}
	if _, err := s.register(w, r, name, password, data.Level); err != nil {
		msg := s.errorText(data.Lang, err)
		switch {
		case tengen.ErrorCode(err) == tengen.ECONFLICT:
			msg = cat.must("signup.taken")
		case tengen.ValidateUserName(name) != nil:
			msg = cat.must("signup.badName", tengen.MinUserNameLen, tengen.MaxUserNameLen)
		case tengen.ValidatePassword(password) != nil:
			msg = cat.must("signup.badPassword", tengen.MinPasswordLen)
		case tengen.ErrorCode(err) == tengen.ERATELIMIT:
			msg = cat.must("error.rate_limited")
		}
		s.formError(w, r, "signup", data, msg, err)
		return
	}
	nethttp.Redirect(w, r, "/", nethttp.StatusSeeOther)
}

func (s *Server) handleLoginPage(w nethttp.ResponseWriter, r *nethttp.Request) {
	s.render(w, r, nethttp.StatusOK, "login", s.newPage(r))
}

func (s *Server) handleLoginForm(w nethttp.ResponseWriter, r *nethttp.Request) {
	data := s.newPage(r)
	cat := s.pages.cats[data.Lang]
	name := strings.TrimSpace(r.PostFormValue("name"))
	data.Name = name
	if _, err := s.login(w, r, name, r.PostFormValue("password")); err != nil {
		msg := s.errorText(data.Lang, err)
		switch tengen.ErrorCode(err) {
		case tengen.EUNAUTHORIZED:
			msg = cat.must("login.failed")
		case tengen.ERATELIMIT:
			msg = cat.must("error.rate_limited")
		}
		s.formError(w, r, "login", data, msg, err)
		return
	}
	nethttp.Redirect(w, r, "/", nethttp.StatusSeeOther)
}

func (s *Server) handleLogoutForm(w nethttp.ResponseWriter, r *nethttp.Request) {
	if err := s.logout(w, r); err != nil {
		s.error(w, r, err)
		return
	}
	nethttp.Redirect(w, r, "/", nethttp.StatusSeeOther)
}

func (s *Server) handleProfile(w nethttp.ResponseWriter, r *nethttp.Request) {
	p, err := s.profile(r)
	if err != nil {
		s.error(w, r, err)
		return
	}
	data := s.newPage(r)
	data.Profile = p
	s.render(w, r, nethttp.StatusOK, "profile", data)
}

// handleLang sets the language cookie and goes back to the page the switch
// was clicked on. Only local paths are followed, so the switch cannot be
// used as an open redirect.
func (s *Server) handleLang(w nethttp.ResponseWriter, r *nethttp.Request) {
	lang := r.PathValue("lang")
	if !slices.Contains(languages, lang) {
		s.error(w, r, tengen.Errorf(tengen.ENOTFOUND, "Unknown language."))
		return
	}
	nethttp.SetCookie(w, &nethttp.Cookie{Name: langCookie, Value: lang, Path: "/", MaxAge: 365 * 24 * 3600,
		Secure: s.secure, SameSite: nethttp.SameSiteLaxMode})
	next := r.URL.Query().Get("next")
	if u, err := url.Parse(next); err != nil || !strings.HasPrefix(next, "/") || strings.HasPrefix(next, "//") ||
		strings.HasPrefix(next, "/\\") || u.Host != "" || u.Scheme != "" {
		next = "/"
	}
	nethttp.Redirect(w, r, next, nethttp.StatusSeeOther)
}

// challengeForm holds the lobby's challenge form as typed, so that a
// refused form comes back with the user's values.
type challengeForm struct {
	Opponent, BoardSize, Ruleset, Komi, Handicap string
	FreeHandicap                                 bool
	// NoTakeback turns takeback off for the game.
	NoTakeback bool
	// AutoHandicap asks for the handicap from the players' ranks
	// (tengen.GameSettings.ForRanks); Handicap and Color are then ignored.
	AutoHandicap  bool
	Color, TCKind string
	// Rated is "auto" (rated if even), "yes" or "no".
	Rated                               string
	MainMinutes, Periods, PeriodSeconds string
	Stones, CanadianMinutes             string
	IncrementSeconds, MaxMinutes        string
	DaysPerMove, MaxDays                string
}

// defaultChallengeForm is a 19×19 game with byo-yomi, as in a club evening.
var defaultChallengeForm = challengeForm{
	BoardSize: "19", Ruleset: "japanese", Handicap: "0", Color: "nigiri", TCKind: "byoyomi", Rated: "auto",
	MainMinutes: "20", Periods: "5", PeriodSeconds: "30", Stones: "25", CanadianMinutes: "10",
	IncrementSeconds: "10", MaxMinutes: "30", DaysPerMove: "3", MaxDays: "14",
}

func readChallengeForm(r *nethttp.Request) challengeForm {
	v := func(name string) string { return strings.TrimSpace(r.PostFormValue(name)) }
	return challengeForm{
		Opponent: v("opponent"), BoardSize: v("boardSize"), Ruleset: v("ruleset"), Komi: v("komi"),
		Handicap: v("handicap"), FreeHandicap: v("freeHandicap") != "", NoTakeback: v("noTakeback") != "", AutoHandicap: v("autoHandicap") != "", Color: v("color"), TCKind: v("tcKind"), Rated: v("rated"),
		MainMinutes: v("mainMinutes"), Periods: v("periods"), PeriodSeconds: v("periodSeconds"),
		Stones: v("stones"), CanadianMinutes: v("canadianMinutes"), IncrementSeconds: v("incrementSeconds"),
		MaxMinutes: v("maxMinutes"), DaysPerMove: v("daysPerMove"), MaxDays: v("maxDays"),
	}
}

// request converts the form. Only the time fields that belong to the chosen
// kind are read, since the others stay in the form (hidden by script, or
// visible without script).
func (f challengeForm) request() (challengeRequest, error) {
	var errs []string
	num := func(field, v string) int {
		n, err := strconv.Atoi(v)
		if err != nil {
			errs = append(errs, field)
		}
		return n
	}
	req := challengeRequest{Opponent: f.Opponent}
	set := &req.Settings
	set.BoardSize = num("boardSize", f.BoardSize)
	set.Ruleset = f.Ruleset
	if f.Komi != "" {
		// German keyboards type a decimal comma.
		k, err := strconv.ParseFloat(strings.Replace(f.Komi, ",", ".", 1), 64)
		if err != nil {
			errs = append(errs, "komi")
		}
		set.Komi = &k
	}
	if f.AutoHandicap {
		set.HandicapBy = tengen.HandicapByRank
	} else {
		set.Handicap = num("handicap", f.Handicap)
	}
	set.FreeHandicap = f.FreeHandicap
	set.NoTakeback = f.NoTakeback
	set.Color = tengen.ColorChoice(f.Color)
	set.Rated = ratedChoice(f.Rated)
	tc := &set.TimeControl
	kind, err := clock.ParseKind(f.TCKind)
	if err != nil {
		return req, tengen.Errorf(tengen.EINVALID, "Unknown time control %q.", f.TCKind)
	}
	tc.Kind = kind
	minutes := func(field, v string) time.Duration { return time.Duration(num(field, v)) * time.Minute }
	seconds := func(field, v string) time.Duration { return time.Duration(num(field, v)) * time.Second }
	switch tc.Kind {
	case clock.Absolute:
		tc.MainTime = minutes("mainMinutes", f.MainMinutes)
	case clock.ByoYomi:
		tc.MainTime = minutes("mainMinutes", f.MainMinutes)
		tc.Periods = num("periods", f.Periods)
		tc.PeriodTime = seconds("periodSeconds", f.PeriodSeconds)
	case clock.Canadian:
		tc.MainTime = minutes("mainMinutes", f.MainMinutes)
		tc.Stones = num("stones", f.Stones)
		tc.PeriodTime = minutes("canadianMinutes", f.CanadianMinutes)
	case clock.Fischer:
		tc.MainTime = minutes("mainMinutes", f.MainMinutes)
		tc.Increment = seconds("incrementSeconds", f.IncrementSeconds)
		tc.MaxTime = minutes("maxMinutes", f.MaxMinutes)
	case clock.Correspondence:
		*tc = clock.CorrespondenceDays(num("daysPerMove", f.DaysPerMove), num("maxDays", f.MaxDays))
	}
	if len(errs) > 0 {
		return req, tengen.Errorf(tengen.EINVALID, "Not a number: %s.", strings.Join(errs, ", "))
	}
	return req, nil
}

func (s *Server) handleChallengeForm(w nethttp.ResponseWriter, r *nethttp.Request) {
	form := readChallengeForm(r)
	req, err := form.request()
	if err == nil {
		_, err = s.createChallenge(w, r, req)
	}
	if err == nil {
		// Back at the form, with a word that the challenge is out.
		nethttp.Redirect(w, r, "/?challenge=created#new-challenge", nethttp.StatusSeeOther)
		return
	}
	s.afterLobbyForm(w, r, err, &form)
}

// handleAcceptForm accepts a challenge and opens the new game.
func (s *Server) handleAcceptForm(w nethttp.ResponseWriter, r *nethttp.Request) {
	g, err := s.acceptChallenge(r)
	if err == nil {
		nethttp.Redirect(w, r, "/games/"+strconv.FormatInt(g.ID, 10), nethttp.StatusSeeOther)
		return
	}
	s.afterLobbyForm(w, r, err, nil)
}

func (s *Server) handleCancelForm(w nethttp.ResponseWriter, r *nethttp.Request) {
	_, err := s.cancelChallenge(r)
	s.afterLobbyForm(w, r, err, nil)
}

// afterLobbyForm goes back to the lobby, or shows it with the error and,
// if given, the challenge form as the user filled it in.
func (s *Server) afterLobbyForm(w nethttp.ResponseWriter, r *nethttp.Request, err error, form *challengeForm) {
	switch code := tengen.ErrorCode(err); code {
	case "":
		nethttp.Redirect(w, r, "/", nethttp.StatusSeeOther)
	case tengen.EINTERNAL:
		s.error(w, r, err)
	case tengen.EUNAUTHORIZED:
		nethttp.Redirect(w, r, "/login", nethttp.StatusSeeOther)
	default:
		s.renderHome(w, r, ErrorStatusCode(code), s.errorText(chooseLanguage(r), err), form)
	}
}
