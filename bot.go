package tengen

import "context"

// BotInfo describes a computer opponent offered in the lobby.
type BotInfo struct {
	// UserID and Name are the bot's account (see User.Bot).
	UserID int64  `json:"userId"`
	Name   string `json:"name"`
	// Level is the engine level ("beginner" … "full") of Tengen's own
	// engine, "" for external engines.
	Level string `json:"level,omitempty"`
	// Rank is the strength label shown to players, e.g. "25 kyu"; it may
	// be "" for external engines whose operator gave none.
	Rank string `json:"rank,omitempty"`
	// RankEstimated is true while no match has measured Rank.
	RankEstimated bool `json:"rankEstimated,omitempty"`
	// Rated is true when the bot's rating is anchored, so that games
	// against it may be rated (the bot's own rating never moves).
	Rated bool `json:"rated,omitempty"`
	// External is true for engines the operator configured (GTP).
	External bool `json:"external,omitempty"`
	// BoardSizes and Rulesets list what the bot plays; nil means any.
	BoardSizes []int    `json:"boardSizes,omitempty"`
	Rulesets   []string `json:"rulesets,omitempty"`
}

// BotService starts games against the computer.
type BotService interface {
	// Bots lists the computer opponents, Tengen's own levels weakest
	// first, then the external engines.
	Bots() []BotInfo
	// PlayBot starts a game of userID against the named bot at once, with
	// no challenge to accept, and returns it. Settings the bot does not
	// play (board size, ruleset, free handicap) give EINVALID; a bot
	// that plays as many games as it may gives ECONFLICT; an unknown bot
	// gives ENOTFOUND.
	PlayBot(ctx context.Context, userID int64, bot string, settings GameSettings) (*Game, error)
}
