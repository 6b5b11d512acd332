package play_test

import (
	"context"
	"testing"

	"tengen"
	"tengen/play"
)

// TestForfeitCommandIsTheBots: CommandForfeit is how a bot worker on any
// instance gives up a game; a person cannot send it for themselves or
// for the bot, and a stale one changes nothing.
func TestForfeitCommandIsTheBots(t *testing.T) {
	e := newBotEnv(t, func() []play.Bot { return []play.Bot{{Name: "Passer", Player: passBot{}}} }, nil)
	ctx := context.Background()
	id := e.playBot("Passer", nineByNine(tengen.ChooseBlack))
	_, err := e.svc.Do(ctx, id, e.human.ID, tengen.Command{Kind: tengen.CommandForfeit, Seq: 0})
	wantCode(t, "a person's forfeit", err, tengen.EFORBIDDEN)
	e.move(id, 1, tengen.MovePlay, 2, 2)
	snap := e.waitFor(id, "the bot's pass", movesAtLeast(2))
	bot := snap.Game.WhiteID
	// A forfeit for a move count the game has left behind changes nothing.
	if _, err := e.svc.Do(ctx, id, bot, tengen.Command{Kind: tengen.CommandForfeit, Seq: 1}); err != nil {
		t.Fatal(err)
	}
	if snap := e.waitFor(id, "the game", movesAtLeast(2)); snap.Game.Status != tengen.GamePlaying {
		t.Fatalf("after a stale forfeit: %s %q", snap.Game.Status, snap.Game.Result)
	}
	snap, err = e.svc.Do(ctx, id, bot, tengen.Command{Kind: tengen.CommandForfeit, Seq: 2})
	if err != nil {
		t.Fatal(err)
	}
	if snap.Game.Status != tengen.GameFinished || snap.Game.Result != "B+F" {
		t.Fatalf("after the bot's forfeit: %s %q, want finished B+F", snap.Game.Status, snap.Game.Result)
	}
}
