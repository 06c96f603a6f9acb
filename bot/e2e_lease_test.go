package bot_test

import (
	"math/rand/v2"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rfop/rfop/bot"
	"github.com/rfop/rfop/engine"
	"github.com/rfop/rfop/internal/fakediscord"
	"github.com/rfop/rfop/storage"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// chainNoWait is takeTurn without waiting for the publication: the
// player opens the panel from the live board (still the last one posted)
// and decides until the chain ends, each choice answered by the panel.
func (h *harness) chainNoWait(user, channel string, r *rand.Rand) bool {
	h.t.Helper()
	resp, err := h.srv.ClickLabel(user, h.turnMessage(channel), "Take my turn").WaitResponse(h.ctx)
	require.NoError(h.t, err)
	panel := resp.Message
	acted := false
	for steps := 0; steps < 200; steps++ {
		buttons, selects := choiceComponents(panel)
		if len(buttons)+len(selects) == 0 {
			return acted
		}
		var i *fakediscord.Interaction
		if n := len(buttons); n > 0 && (len(selects) == 0 || r.IntN(2) == 0) {
			i = h.srv.Click(user, panel, buttons[r.IntN(n)].CustomID)
		} else {
			s := selects[r.IntN(len(selects))]
			i = h.srv.Select(user, panel, s.CustomID, s.Options[r.IntN(len(s.Options))].Value)
		}
		_, err := i.WaitResponse(h.ctx)
		require.NoError(h.t, err)
		prev := panel
		require.True(h.t, h.srv.WaitFor(h.ctx, func() bool {
			m := h.srv.Message(prev.ID)
			if m != nil && m.Version > prev.Version {
				panel = m
				return true
			}
			return false
		}), "the panel was not updated after %s", i)
		acted = true
	}
	h.t.Fatalf("%s's decision chain did not end", user)
	return acted
}

// Issue 24 item 6, "crash recovery without waiting": the bot is killed
// right after a move commits, holding the game's outbox lease (a killed
// process releases nothing). Its restart, the same shard, takes the
// lease over at once instead of waiting for it to expire: the clock is
// set back an hour, so the old lease cannot expire during the test, and
// the board still comes. The delay from the restart to the board is
// logged (a figure, not an assertion: a busy machine may be slow).
func TestE2ERestartTakesOverItsLeasesAtOnce(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	rec := h.startChallenge(chanID, "versailles")
	r := rand.New(rand.NewPCG(24, 6))
	// Until a player plays cards: the next chain calls the other one
	// with a new board.
	h.playUntil(rec.ID, chanID, []string{alice, bob}, r, func(g storage.Game) bool {
		ps := h.engineGame(g).Prompts()
		return g.StateVersion > 4 && len(ps) == 1 && ps[0].Kind == engine.PromptPlay
	})
	var crashed atomic.Bool
	bot.SetCrashHook(h.b, func(_ int64, s string) bool {
		if s == "board" && !crashed.Load() {
			crashed.Store(true)
			return true
		}
		return false
	})
	before := len(h.boardMessages(chanID))
	for !crashed.Load() {
		deciders := h.decidersOf(rec.ID)
		require.NotEmpty(t, deciders)
		h.chainNoWait(deciders[0], chanID, r)
		require.NoError(t, h.b.WaitPublished(h.ctx))
	}
	require.NoError(t, h.b.WaitPublished(h.ctx))
	committed := h.gameByID(rec.ID)
	pending, err := h.store.PendingOutbox(t.Context(), rec.ID)
	require.NoError(t, err)
	require.NotEmpty(t, pending, "the move's board is not posted")
	require.Len(t, h.boardMessages(chanID), before)

	h.clock.Advance(-time.Hour) // the dead process's lease cannot expire now
	restarted := time.Now()
	h.restart()
	board, err := h.srv.WaitMessage(h.ctx, func(m *fakediscord.Message) bool {
		return m.ChannelID == chanID && m.Button("Take my turn") != nil && boardTitle.MatchString(m.Content) &&
			h.srv.MessageHistory(m.ID)[0].CreatedAt.After(restarted)
	})
	require.NoError(t, err, "the restarted bot posts the board without waiting for the old lease")
	t.Logf("board in the channel %v after the restart began", h.srv.MessageHistory(board.ID)[0].CreatedAt.Sub(restarted).Round(time.Millisecond))
	require.NoError(t, h.b.WaitPublished(h.ctx))
	pending, err = h.store.PendingOutbox(t.Context(), rec.ID)
	require.NoError(t, err)
	assert.Empty(t, pending)
	assert.Equal(t, committed.StateVersion, h.gameByID(rec.ID).StateVersion, "the restart replays no move")
	h.requireNoDuplicateBoards(rec.ID)
	h.requireOneLiveBoard(chanID)
}
