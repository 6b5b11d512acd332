package goban

import (
	"fmt"
	"sort"
	"strings"
)

// KoRule says which repetitions of a position are forbidden.
type KoRule uint8

// The ko rules.
const (
	// SimpleKo forbids only recapturing a single stone that has just captured
	// a single stone, which would recreate the position before the
	// opponent's last move. Longer cycles are allowed; a position that
	// recurs three times with no pass in between ends the game without
	// result (1989 Japanese rules, Art. 12).
	SimpleKo KoRule = iota
	// PositionalSuperko forbids every move that recreates an earlier
	// arrangement of stones.
	PositionalSuperko
	// SituationalSuperko forbids every move that recreates an earlier
	// arrangement of stones with the same player to move.
	SituationalSuperko
)

// String returns "simple", "positional" or "situational".
func (k KoRule) String() string {
	switch k {
	case SimpleKo:
		return "simple"
	case PositionalSuperko:
		return "positional"
	case SituationalSuperko:
		return "situational"
	}
	return fmt.Sprintf("KoRule(%d)", uint8(k))
}

// Scoring says how the final position is counted.
type Scoring uint8

// The scoring methods.
const (
	// TerritoryScoring counts surrounded empty points and prisoners (stones
	// captured during the game and dead stones removed at the end).
	TerritoryScoring Scoring = iota
	// AreaScoring counts surrounded empty points and the player's living
	// stones on the board.
	AreaScoring
	// LossScoring is the formula of the Go server in seed 003: own territory
	// minus the own stones the opponent captured minus the own dead stones,
	// with komi subtracted from Black. Its margin equals territory scoring's.
	LossScoring
)

// String returns "territory", "area" or "losses".
func (s Scoring) String() string {
	switch s {
	case TerritoryScoring:
		return "territory"
	case AreaScoring:
		return "area"
	case LossScoring:
		return "losses"
	}
	return fmt.Sprintf("Scoring(%d)", uint8(s))
}

// HandicapBonus says how many points White receives for Black's handicap
// stones under area scoring.
type HandicapBonus uint8

// The handicap compensations.
const (
	// BonusNone gives White nothing.
	BonusNone HandicapBonus = iota
	// BonusN gives White one point per handicap stone (Chinese rules).
	BonusN
	// BonusNMinus1 gives White one point per handicap stone but the first
	// (AGA rules).
	BonusNMinus1
)

// Points returns the compensation for n handicap stones.
func (h HandicapBonus) Points(n int) float64 {
	if n < 2 {
		return 0
	}
	switch h {
	case BonusN:
		return float64(n)
	case BonusNMinus1:
		return float64(n - 1)
	}
	return 0
}

// String returns "0", "N" or "N-1".
func (h HandicapBonus) String() string {
	switch h {
	case BonusN:
		return "N"
	case BonusNMinus1:
		return "N-1"
	}
	return "0"
}

// Ruleset is a set of rules as a value. The named rulesets are returned by
// RulesetByName; a Ruleset may also be built field by field.
type Ruleset struct {
	// Name is the ruleset's name as RulesetByName knows it, or a free label.
	Name string
	// Ko is the ko rule.
	Ko KoRule
	// Scoring is the counting method.
	Scoring Scoring
	// SekiTerritory is true when empty points inside a seki count as
	// territory; the Japanese rules count none (seed 001, Dia. 10).
	SekiTerritory bool
	// MultiStoneSuicide allows a move that leaves the player's own chain of
	// two or more stones without liberties; the chain is removed. A
	// single stone may never commit suicide.
	MultiStoneSuicide bool
	// HandicapBonus is White's compensation for handicap stones under area
	// scoring.
	HandicapBonus HandicapBonus
	// FreeHandicap means handicap stones are placed by Black where Black
	// wants them rather than on the fixed star points.
	FreeHandicap bool
	// FirstCaptureWins is Atari-Go (seed 004): the first player to capture
	// a stone wins at once.
	FirstCaptureWins bool
	// BlackFirstAfterHandicap lets Black move first after placing handicap
	// stones, as in Pfaundler §9; otherwise White moves first after two
	// or more stones.
	BlackFirstAfterHandicap bool
	// Repetition says how a whole-board repetition ends the game under
	// simple ko.
	Repetition Repetition
	// HistoricHandicap places fixed handicap stones as Pfaundler §9 does:
	// on 19×19, 10 to 13 stones add the 3-3 points to the nine star points
	// (see FixedHandicap). Every placement of the ruleset uses it: the
	// server's, GTP's fixed_handicap and place_free_handicap, and SGF replay.
	HistoricHandicap bool
	// AllStonesAlive counts every stone on the board at the end as alive:
	// there is no agreement about dead stones, so a player must capture
	// them before passing (Tromp-Taylor). Dead-stone estimates and
	// proposals are empty under it.
	AllStonesAlive bool
	// BentFourDead marks a bent four in the corner dead in the confirmation
	// of life and death without playing it out, as the commentary to the
	// 1989 Japanese rules, Art. 7.2, rules: the owner of the surrounding
	// stones can remove every ko threat before starting the ko, so the
	// corner group dies (see Board.BentFours).
	BentFourDead bool
	// ResumeByRequest makes the opponent of the player who asks to resume
	// after two passes move first (1989 Japanese rules, Art. 9.3);
	// otherwise the alternation continues as if the passes had not been
	// played, so the player who passed first moves.
	ResumeByRequest bool
	// PassOnlyWithoutMove allows a pass only when no stone can be played
	// (Atari-Go).
	PassOnlyWithoutMove bool
	// Komi19, Komi13 and Komi9 are the default komi on boards of those
	// sizes; KomiOther is used on every other size unless
	// KomiBySmallerSide is set.
	Komi19, Komi13, Komi9, KomiOther float64
	// NoKomi means there is never komi, not even the 0.5 of handicap
	// games (Pfaundler's 1908 rules, Atari-Go).
	NoKomi bool
	// KomiBySmallerSide takes the komi of the largest of 19, 13 and 9 that
	// is not larger than the board's smaller side (9 for smaller boards),
	// instead of KomiOther.
	KomiBySmallerSide bool
}

// Repetition is what a whole-board repetition means under simple ko.
type Repetition uint8

// The repetition rules.
const (
	// RepetitionVoid ends the game without result when a situation occurs
	// the third time with no pass in between (1989 Japanese rules, Art. 12).
	RepetitionVoid Repetition = iota
	// RepetitionTie ends the game as a tie when a play recreates an earlier
	// position and both colours lost the same number of stones in between
	// (Jasiek's applicable Japanese rules; Pfaundler §6 calls endless
	// retaking a "Remis").
	RepetitionTie
	// RepetitionVoidByAgreement reports the third occurrence of a situation
	// with no pass in between (Game.RepetitionOffered) but lets play go on;
	// the game ends without result only when both players agree
	// (Game.AgreeVoid). This is the wording of the 1989 Japanese rules,
	// Art. 12: "so endet das Spiel ohne Ergebnis, wenn beide Spieler
	// zustimmen".
	RepetitionVoidByAgreement
)

// Named rulesets. Their sources are documented in docs/RULES.md.
var rulesets = map[string]Ruleset{
	"japanese": {Name: "japanese", Ko: SimpleKo, Scoring: TerritoryScoring, ResumeByRequest: true,
		Repetition: RepetitionVoidByAgreement, BentFourDead: true,
		Komi19: 6.5, Komi13: 6.5, Komi9: 6.5, KomiOther: 6.5},
	"korean": {Name: "korean", Ko: SimpleKo, Scoring: TerritoryScoring, ResumeByRequest: true,
		Komi19: 6.5, Komi13: 6.5, Komi9: 6.5, KomiOther: 6.5},
	"jasiek": {Name: "jasiek", Ko: SimpleKo, Scoring: TerritoryScoring, Repetition: RepetitionTie,
		Komi19: 6.5, Komi13: 6.5, Komi9: 6.5, KomiOther: 6.5},
	"pfaundler": {Name: "pfaundler", Ko: SimpleKo, Scoring: TerritoryScoring, MultiStoneSuicide: true,
		Repetition: RepetitionTie, BlackFirstAfterHandicap: true, NoKomi: true, HistoricHandicap: true},
	"chinese-ogs": {Name: "chinese-ogs", Ko: PositionalSuperko, Scoring: AreaScoring, SekiTerritory: true, HandicapBonus: BonusN,
		FreeHandicap: true, Komi19: 7.5, Komi13: 7.5, Komi9: 7.5, KomiOther: 7.5},
	"chinese": {Name: "chinese", Ko: SimpleKo, Scoring: AreaScoring, SekiTerritory: true, HandicapBonus: BonusN,
		FreeHandicap: true, Komi19: 7.5, Komi13: 7.5, Komi9: 7.5, KomiOther: 7.5},
	"aga": {Name: "aga", Ko: SituationalSuperko, Scoring: AreaScoring, SekiTerritory: true, HandicapBonus: BonusNMinus1,
		Komi19: 7.5, Komi13: 7.5, Komi9: 7.5, KomiOther: 7.5},
	"new-zealand": {Name: "new-zealand", Ko: SituationalSuperko, Scoring: AreaScoring, SekiTerritory: true,
		MultiStoneSuicide: true, FreeHandicap: true, Komi19: 7, Komi13: 7, Komi9: 7, KomiOther: 7},
	"tromp-taylor": {Name: "tromp-taylor", Ko: PositionalSuperko, Scoring: AreaScoring, SekiTerritory: true, AllStonesAlive: true,
		MultiStoneSuicide: true, FreeHandicap: true, Komi19: 7.5, Komi13: 7.5, Komi9: 7.5, KomiOther: 7.5},
	"atari": {Name: "atari", Ko: SimpleKo, Scoring: AreaScoring, SekiTerritory: true, FirstCaptureWins: true,
		FreeHandicap: true, PassOnlyWithoutMove: true, NoKomi: true},
	"online": {Name: "online", Ko: SimpleKo, Scoring: LossScoring, FreeHandicap: true, ResumeByRequest: true,
		Komi19: 5.5, Komi13: 4.5, Komi9: 3.5, KomiOther: 5.5, KomiBySmallerSide: true},
}

// aliases maps names that GTP controllers and SGF files use to Tengen's.
var aliases = map[string]string{
	"jp": "japanese", "japan": "japanese", "ko": "korean", "korea": "korean",
	"cn": "chinese", "china": "chinese", "chinese-kgs": "chinese-ogs", "chinese_ogs": "chinese-ogs", "chinese_kgs": "chinese-ogs",
	"japanese-applicable": "jasiek", "pfaundler-1908": "pfaundler",
	"nz": "new-zealand", "new_zealand": "new-zealand", "newzealand": "new-zealand",
	"tromp_taylor": "tromp-taylor", "tromptaylor": "tromp-taylor", "tt": "tromp-taylor",
	"atari-go": "atari", "atarigo": "atari", "ag": "atari",
}

// rulesetOrder lists the named rulesets in the order people are offered them:
// the territory rulesets of the seeds first, then area scoring, then the
// teaching and server variants. A test checks that it names every ruleset.
var rulesetOrder = []string{"japanese", "korean", "jasiek", "pfaundler", "chinese", "chinese-ogs", "aga", "new-zealand", "tromp-taylor", "atari", "online"}

// OfferedRulesetNames returns the names of the named rulesets in the order a
// lobby offers them (see rulesetOrder).
func OfferedRulesetNames() []string { return append([]string(nil), rulesetOrder...) }

// RulesetNames returns the names of the named rulesets, sorted.
func RulesetNames() []string {
	names := make([]string, 0, len(rulesets))
	for n := range rulesets {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// RulesetByName returns a named ruleset. Names are matched without regard to
// case, and common spellings of other programs (such as KGS's new_zealand
// and SGF's "Japanese") are accepted.
func RulesetByName(name string) (Ruleset, error) {
	n := strings.ToLower(strings.TrimSpace(name))
	if a, ok := aliases[n]; ok {
		n = a
	}
	if r, ok := rulesets[n]; ok {
		return r, nil
	}
	return Ruleset{}, fmt.Errorf("goban: unknown ruleset %q (known: %s)", name, strings.Join(RulesetNames(), ", "))
}

// MustRuleset is RulesetByName for names known to exist; it panics otherwise.
func MustRuleset(name string) Ruleset {
	r, err := RulesetByName(name)
	if err != nil {
		panic(err)
	}
	return r
}

// DefaultKomi returns the ruleset's komi for a board of the given size and
// number of handicap stones. Handicap games (one stone or more) get 0.5, so
// that there is no jigo (seed 004: "+0.5 Punkte Komi für Weiß, wenn man ein
// Unentschieden vermeiden will"); rulesets with NoKomi have none.
func (r Ruleset) DefaultKomi(width, height, handicap int) float64 {
	if r.NoKomi {
		return 0
	}
	if handicap >= 1 {
		return 0.5
	}
	if width == height {
		switch width {
		case 19:
			return r.Komi19
		case 13:
			return r.Komi13
		case 9:
			return r.Komi9
		}
	}
	if r.KomiBySmallerSide {
		switch side := min(width, height); {
		case side >= 19:
			return r.Komi19
		case side >= 13:
			return r.Komi13
		default:
			return r.Komi9
		}
	}
	return r.KomiOther
}

// String describes the ruleset in one line.
func (r Ruleset) String() string {
	s := fmt.Sprintf("%s (ko %v, %v scoring", r.Name, r.Ko, r.Scoring)
	if !r.SekiTerritory {
		s += ", no territory in seki"
	}
	if r.MultiStoneSuicide {
		s += ", multi-stone suicide"
	}
	if r.HandicapBonus != BonusNone {
		s += ", handicap bonus " + r.HandicapBonus.String()
	}
	if r.FreeHandicap {
		s += ", free handicap"
	}
	if r.FirstCaptureWins {
		s += ", first capture wins"
	}
	if r.BlackFirstAfterHandicap {
		s += ", Black moves first after handicap"
	}
	switch r.Repetition {
	case RepetitionTie:
		s += ", repetition is a tie"
	case RepetitionVoidByAgreement:
		s += ", repetition is void if both agree"
	}
	if r.HistoricHandicap {
		s += ", historic handicap"
	}
	if r.AllStonesAlive {
		s += ", all stones alive"
	}
	if r.BentFourDead {
		s += ", bent four in the corner is dead"
	}
	return s + ")"
}
