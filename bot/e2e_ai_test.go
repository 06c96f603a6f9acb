package bot_test

import (
	"math/rand/v2"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/rfop/rfop/bot"
	"github.com/rfop/rfop/engine"
	"github.com/rfop/rfop/internal/fakediscord"
	"github.com/rfop/rfop/storage"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// waitHuman waits until the game is over or the human side has a decision
// and the AI has none (the AI plays off the interaction path).
func (h *harness) waitHuman(id int64, human engine.Side) storage.Game {
	h.t.Helper()
	var rec storage.Game
	ok := h.srv.WaitFor(h.ctx, func() bool { // the AI thinks: slow under -race on a busy machine
		rec = h.gameByID(id)
		if rec.Status != storage.StatusActive {
			return true
		}
		g := h.engineGame(rec)
		_, mine := g.PromptFor(human)
		_, its := g.PromptFor(human.Other())
		// The AI's run ends with a new board calling the player.
		m := h.findTurnMessage(rec.ChannelID)
		return mine && !its && m != nil && strings.Contains(m.Content, "<@"+alice+">")
	})
	require.True(h.t, ok, "game %d: the AI did not hand over to the player", id)
	return rec
}

// TestE2EAIGame: a member plays a whole two-player game against the AI in a
// channel; the AI's turns run by themselves, and each call of the player is
// one board with the AI's steps before it. /rfop hint answers privately.
func TestE2EAIGame(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	i, _ := h.command(alice, guildID, chanID, fakediscord.SubCmd("ai", fakediscord.StrArg("side", "commune"), fakediscord.StrArg("level", "easy")))
	m := h.settled(i)
	require.Contains(t, m.Content, "against the AI opponent (easy)")
	rec := h.game(chanID)
	require.Equal(t, storage.ModeTwoPlayer, rec.Mode)
	p, ok := rec.Player(storage.SideVersailles)
	require.True(t, ok)
	require.True(t, p.IsAI())
	r := rand.New(rand.NewPCG(5, 6))
	hinted := false
	for turns := 0; turns < 500; turns++ {
		rec = h.waitHuman(rec.ID, engine.Commune)
		if rec.Status != storage.StatusActive {
			break
		}
		if !hinted {
			hi, resp := h.command(alice, guildID, chanID, fakediscord.SubCmd("hint"))
			require.True(t, resp.Ephemeral(), "a hint is private")
			hm := h.settled(hi)
			assert.Contains(t, hm.Content, "Hint")
			assert.Contains(t, hm.Content, "1. ")
			assert.Regexp(t, `to win|only choice`, hm.Content)
			hinted = true
			// Someone else cannot ask for the player's hint.
			_, resp = h.command(bob, guildID, chanID, fakediscord.SubCmd("hint"))
			assert.Contains(t, resp.Content, "Only the player")
		}
		require.True(t, h.takeTurn(alice, chanID, r), "alice could act")
	}
	require.Equal(t, storage.StatusFinished, rec.Status)
	g := h.engineGame(rec)
	require.NotNil(t, g.S.Result)
	boards := h.boardMessages(chanID)
	require.Greater(t, len(boards), 5)
	ai := 0
	for k, b := range boards {
		if k < len(boards)-1 {
			assert.Empty(t, b.AllComponents(), "older boards keep only their text")
		}
		if strings.Contains(b.Content, "Versailles plays") {
			ai++
		}
	}
	assert.Greater(t, ai, len(boards)/3, "the AI's plays are in the boards' summaries")
	assert.Contains(t, h.srv.LastMessage(chanID).Content, g.S.Result.Winner.String())
}

// /rfop hint is for games against the AI.
func TestE2EHintOnlyAgainstAI(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.startChallenge(chanID, "commune")
	_, resp := h.command(alice, guildID, chanID, fakediscord.SubCmd("hint"))
	assert.Contains(t, resp.Content, "game against the AI")
}

// A game whose AI was to decide when the bot stopped carries on after a
// restart, in DMs too.
func TestE2EAIResumesAfterRestart(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	i, _ := h.command(alice, "", "", fakediscord.SubCmd("ai", fakediscord.StrArg("side", "versailles"), fakediscord.StrArg("level", "easy")))
	h.settled(i)
	dm := i.ChannelID
	rec := h.game(dm)
	r := rand.New(rand.NewPCG(1, 2))
	for turns := 0; turns < 3; turns++ {
		rec = h.waitHuman(rec.ID, engine.Versailles)
		require.True(t, h.takeTurn(alice, dm, r))
	}
	h.restart()
	rec = h.waitHuman(rec.ID, engine.Versailles)
	require.Equal(t, storage.StatusActive, rec.Status)
	g := h.engineGame(rec)
	_, ok := g.PromptFor(engine.Versailles)
	require.True(t, ok)
}

// heldAI is the real AI opponent, held at its first decision until released.
type heldAI struct {
	bot.AIOpponent
	thinking chan struct{}
	release  chan struct{}
	once     sync.Once
	freed    sync.Once
}

func (a *heldAI) free() { a.freed.Do(func() { close(a.release) }) }

func (a *heldAI) Choose(game int64, level string, seed uint64, is *engine.InfoSet) (engine.Choice, error) {
	a.once.Do(func() { close(a.thinking); <-a.release })
	return a.AIOpponent.Choose(game, level, seed, is)
}

// While the AI thinks, the bot answers other commands and other games:
// the AI runs off the interaction path and does not hold the game's lock.
func TestE2EAIThinksOffTheInteractionPath(t *testing.T) {
	t.Parallel()
	held := &heldAI{AIOpponent: bot.DefaultAI(), thinking: make(chan struct{}), release: make(chan struct{})}
	h := &harness{t: t, srv: fakediscord.New(t, defaultGuild(), botAPIVersion(), discordSpec(t)), dbPath: filepath.Join(t.TempDir(), "rfop.db"), seed: 7, clock: &offsetClock{}, ai: held}
	h.start()
	t.Cleanup(h.stop)
	t.Cleanup(held.free) // before stop: a held AI would keep Shutdown waiting
	i, _ := h.command(alice, guildID, chanID, fakediscord.SubCmd("ai", fakediscord.StrArg("side", "commune"), fakediscord.StrArg("level", "easy")))
	h.settled(i)
	select {
	case <-held.thinking: // the AI chooses its objective
	case <-h.ctx.Done():
		t.Fatal("the AI did not start thinking")
	}
	// The same game's commands are answered meanwhile...
	hi, resp := h.command(alice, guildID, chanID, fakediscord.SubCmd("hand"))
	require.True(t, resp.Ephemeral())
	require.NotEmpty(t, h.settled(hi).Content)
	// ... and another channel starts a game and plays.
	rec := h.startChallenge(chan2ID, "commune")
	require.Equal(t, storage.StatusActive, rec.Status)
	r := rand.New(rand.NewPCG(7, 8))
	require.True(t, h.takeTurn(alice, chan2ID, r) || h.takeTurn(bob, chan2ID, r))
	held.free()
	rec = h.waitHuman(h.game(chanID).ID, engine.Commune)
	require.Equal(t, storage.StatusActive, rec.Status)
}
