package play_test

import (
	"context"
	"testing"

	"tengen"
	"tengen/engine"
	"tengen/play"
	"tengen/sqlite"
)

// TestBotAnchors checks that Open fixes the bots' ratings at their
// anchors, that only anchored bots play rated games, and that a rated game
// against one moves the human's rating and not the bot's.
func TestBotAnchors(t *testing.T) {
	e := newBotEnv(t, func() []play.Bot {
		return []play.Bot{
			{Name: "Anchored", Anchor: "10k", Player: passBot{}},
			{Name: "Loose", Player: passBot{}},
		}
	}, nil)
	e.cfg = func(c *play.Config) { c.Ratings = sqlite.NewRatingService(e.db) }
	e.restart()
	ctx := context.Background()
	users := sqlite.NewUserService(e.db)
	want := map[string]string{"Anchored": "10k", "Loose": ""}
	for _, b := range e.svc.Bots() {
		u, err := users.FindUserByName(ctx, b.Name)
		if err != nil {
			t.Fatal(err)
		}
		if u.Rank != want[b.Name] || b.Rated != (want[b.Name] != "") {
			t.Errorf("bot %s: rank %q, offered rated %v; want %q", b.Name, u.Rank, b.Rated, want[b.Name])
		}
	}
	rated := nineByNine(tengen.ChooseBlack)
	rated.Rated = true
	if _, err := e.svc.PlayBot(ctx, e.human.ID, "Loose", rated); tengen.ErrorCode(err) != tengen.EINVALID {
		t.Errorf("rated game against a bot without anchor: %v, want EINVALID", err)
	}
	id := e.playBot("Anchored", rated)
	e.move(id, 1, tengen.MoveResign, 0, 0)
	human, err := users.FindUserByID(ctx, e.human.ID)
	if err != nil {
		t.Fatal(err)
	}
	bot, err := users.FindUserByName(ctx, "Anchored")
	if err != nil {
		t.Fatal(err)
	}
	if human.Rating >= 1500 || human.Deviation >= 350 || bot.Rank != "10k" {
		t.Errorf("after losing to the anchored bot: human %v ± %v, bot %q", human.Rating, human.Deviation, bot.Rank)
	}
}

// TestEngineBotAnchors checks that Tengen's levels are anchored at their
// measured ranks (docs/STRENGTH.md) and the estimated ones not at all.
func TestEngineBotAnchors(t *testing.T) {
	bots := engineBots()
	for i, sp := range engine.Levels() {
		want := ""
		if sp.Measured {
			want = bots[i].Rank[:len(bots[i].Rank)-len(" kyu")] + "k"
		}
		if bots[i].Anchor != want {
			t.Errorf("%s: anchor %q, want %q", bots[i].Name, bots[i].Anchor, want)
		}
	}
}

// TestCancelledGameUnrated checks that an admin's cancellation of a rated
// game (result Void) rates nobody, while a resignation in the same setting
// does.
func TestCancelledGameUnrated(t *testing.T) {
	ctx := context.Background()
	for _, cancel := range []bool{true, false} {
		e := newEnv(t)
		set := settings(9, "japanese", noTime)
		set.Rated = true
		id := e.newGame(set)
		users := sqlite.NewUserService(e.db)
		if cancel {
			if _, err := users.SetUserAdmin(ctx, e.user("carol"), true); err != nil {
				t.Fatal(err)
			}
			if _, err := e.svc.Do(ctx, id, e.user("carol"), tengen.Command{Kind: tengen.CommandCancel}); err != nil {
				t.Fatal(err)
			}
		} else {
			e.run(id, []step{{user: "black", cmd: "resign"}})
		}
		for _, who := range []string{"black", "white"} {
			u, err := users.FindUserByID(ctx, e.user(who))
			if err != nil {
				t.Fatal(err)
			}
			if moved := u.Rating != 1500 || u.Deviation != 350; moved == cancel {
				t.Errorf("cancelled %v: %s's rating %v ± %v", cancel, who, u.Rating, u.Deviation)
			}
		}
	}
}
