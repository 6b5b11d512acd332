package http

import (
	"fmt"
	nethttp "net/http"

	"tengen/goban"
)

// The /rules page compares the rulesets Tengen offers. Its table is made
// from goban's Ruleset values, so that it cannot say something the rules
// core does not do; the catalogues only name the values ("rules.ko.simple").

// rulesRow is one property of the rulesets, one cell per ruleset.
type rulesRow struct {
	Label string   // catalogue key of the row's heading
	Cells []string // the texts, in the order of rulesPage.Names
}

// rulesPage is what the rules template gets.
type rulesPage struct {
	Names []string
	Rows  []rulesRow
}

// rulesRows builds the comparison table in the catalogue's language. Every
// field of goban.Ruleset is shown in some row (TestRulesTableCoversRuleset).
func rulesRows(cat catalog, rulesets []goban.Ruleset) []rulesRow {
	yesNo := func(b bool) string {
		if b {
			return cat.must("rules.yes")
		}
		return cat.must("rules.no")
	}
	row := func(label string, cell func(r goban.Ruleset) string) rulesRow {
		out := rulesRow{Label: label}
		for _, r := range rulesets {
			out.Cells = append(out.Cells, cell(r))
		}
		return out
	}
	komi := func(r goban.Ruleset) string {
		if r.NoKomi {
			return cat.must("rules.komi.none")
		}
		f := cat.decimal
		s := f(r.Komi19)
		if r.Komi19 != r.Komi13 || r.Komi13 != r.Komi9 || r.Komi9 != r.KomiOther {
			s = cat.must("rules.komi.sizes", f(r.Komi19), f(r.Komi13), f(r.Komi9))
			if !r.KomiBySmallerSide {
				s += " " + cat.must("rules.komi.other", f(r.KomiOther))
			}
		}
		if r.KomiBySmallerSide {
			s += " " + cat.must("rules.komi.bySide")
		}
		return s
	}
	rows := []rulesRow{
		row("rules.row.ko", func(r goban.Ruleset) string {
			s := cat.must("rules.ko." + r.Ko.String())
			if r.Ko == goban.SimpleKo {
				s += " " + cat.must(fmt.Sprintf("rules.repetition.%d", r.Repetition))
			}
			return s
		}),
		row("rules.row.suicide", func(r goban.Ruleset) string {
			if r.MultiStoneSuicide {
				return cat.must("rules.suicide.many")
			}
			return cat.must("rules.suicide.none")
		}),
		row("rules.row.pass", func(r goban.Ruleset) string {
			if r.PassOnlyWithoutMove {
				return cat.must("rules.pass.onlyWithoutMove")
			}
			return cat.must("rules.pass.always")
		}),
		row("rules.row.end", func(r goban.Ruleset) string {
			switch {
			case r.FirstCaptureWins:
				return cat.must("rules.end.firstCapture")
			case r.AllStonesAlive:
				return cat.must("rules.end.allAlive")
			}
			s := cat.must("rules.end.agree")
			if r.BentFourDead {
				s += " " + cat.must("rules.end.bentFour")
			}
			return s
		}),
		row("rules.row.resume", func(r goban.Ruleset) string {
			if r.ResumeByRequest {
				return cat.must("rules.resume.request")
			}
			return cat.must("rules.resume.continue")
		}),
		row("rules.row.scoring", func(r goban.Ruleset) string { return cat.must("rules.scoring." + r.Scoring.String()) }),
		row("rules.row.seki", func(r goban.Ruleset) string { return yesNo(r.SekiTerritory) }),
		row("rules.row.komi", komi),
		row("rules.row.handicap", func(r goban.Ruleset) string {
			s := cat.must("rules.handicap.fixed")
			if r.HistoricHandicap {
				s = cat.must("rules.handicap.historic")
			}
			if r.FreeHandicap {
				s += " " + cat.must("rules.handicap.free")
			}
			return s
		}),
		row("rules.row.afterHandicap", func(r goban.Ruleset) string {
			if r.BlackFirstAfterHandicap {
				return cat.must("rules.afterHandicap.black")
			}
			return cat.must("rules.afterHandicap.white")
		}),
		row("rules.row.bonus", func(r goban.Ruleset) string {
			if r.Scoring != goban.AreaScoring {
				return "—"
			}
			return cat.must("rules.bonus." + r.HandicapBonus.String())
		}),
	}
	return rows
}

func (s *Server) handleRules(w nethttp.ResponseWriter, r *nethttp.Request) {
	data := s.newPage(r)
	names := goban.OfferedRulesetNames()
	var rulesets []goban.Ruleset
	for _, n := range names {
		rulesets = append(rulesets, goban.MustRuleset(n))
	}
	data.RulesTable = &rulesPage{Names: names, Rows: rulesRows(s.pages.cats[data.Lang], rulesets)}
	s.render(w, r, nethttp.StatusOK, "rules", data)
}

// glossaryTerm is one entry of /glossary; Board is a small diagram, rows
// as in package learn ('.' empty, 'X' black, 'O' white), or nil.
type glossaryTerm struct {
	ID    string
	Board []string
}

// glossary lists the terms of the seeds in alphabetical order; their
// meanings are the catalogues' "glossary.<id>".
var glossary = []glossaryTerm{
	{ID: "agehama"},
	{ID: "atari", Board: []string{".....", "..X..", ".XO..", "..X..", "....."}},
	{ID: "byoyomi"},
	{ID: "dame", Board: []string{"..XO.", "..XO.", "..X.O", "..XO.", "..XO."}},
	{ID: "dan"},
	{ID: "fuseki"},
	{ID: "geta", Board: []string{".......", "...X...", "..XO...", ".......", ".......", ".......", "......."}},
	{ID: "goban"},
	{ID: "gote"},
	{ID: "hane", Board: []string{".....", ".....", ".XX..", ".OOX.", "....."}},
	{ID: "hoshi"},
	{ID: "jigo"},
	{ID: "joseki"},
	{ID: "ko", Board: []string{".....", "..XO.", ".X.XO", "..XO.", "....."}},
	{ID: "komi"},
	{ID: "kyu"},
	{ID: "liberty", Board: []string{".....", ".....", "..X..", ".....", "....."}},
	{ID: "nigiri"},
	{ID: "seki", Board: []string{"........", "........", "OOOOOOO.", "XXXXXXO.", ".OOO.XO."}},
	{ID: "sente"},
	{ID: "shicho", Board: []string{".......", ".......", "...X...", "..XO...", "....X..", ".......", "......."}},
	{ID: "tengen"},
	{ID: "tesuji"},
	{ID: "tsumego"},
}

// glossaryEntry is a term with its meaning in the page's language.
type glossaryEntry struct {
	ID, Meaning string
	Board       string // the diagram's rows joined by "/", for the script
}

func (s *Server) handleGlossary(w nethttp.ResponseWriter, r *nethttp.Request) {
	data := s.newPage(r)
	cat := s.pages.cats[data.Lang]
	for _, g := range glossary {
		e := glossaryEntry{ID: g.ID, Meaning: cat.must("glossary." + g.ID)}
		for i, row := range g.Board {
			if i > 0 {
				e.Board += "/"
			}
			e.Board += row
		}
		data.Glossary = append(data.Glossary, e)
	}
	s.render(w, r, nethttp.StatusOK, "glossary", data)
}

// helpSections are the sections of /help in order; each has the
// catalogue entries help.<id>.title and help.<id>.text.
var helpSections = []string{"challenge", "computer", "clocks", "counting", "resume", "ranks", "takeback", "correspondence", "settings", "learn", "reviews"}

func (s *Server) handleHelp(w nethttp.ResponseWriter, r *nethttp.Request) {
	data := s.newPage(r)
	data.Help = helpSections
	s.render(w, r, nethttp.StatusOK, "help", data)
}
