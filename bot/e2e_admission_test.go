package bot_test

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rfop/rfop/bot"
	"github.com/rfop/rfop/internal/fakediscord"
)

// openPanel: user's panel, opened from the channel's board.
func (h *harness) openPanel(user, channel string) *fakediscord.Message {
	h.t.Helper()
	resp, err := h.srv.ClickLabel(user, h.turnMessage(channel), "Take my turn").WaitResponse(h.ctx)
	require.NoError(h.t, err)
	require.NotNil(h.t, resp.Message)
	return resp.Message
}

// deciderOf: the player of the game in channel who has a choice now.
func (h *harness) deciderOf(channel string) (user string, panel *fakediscord.Message) {
	h.t.Helper()
	for _, u := range []string{alice, bob} {
		p := h.openPanel(u, channel)
		if b, s := choiceComponents(p); len(b)+len(s) > 0 {
			return u, p
		}
	}
	h.t.Fatal("nobody has a choice")
	return "", nil
}

// TestE2EAClickIsAcknowledgedBeforeItsTurn (issue 30, admission.go): the
// acknowledgement never waits for admission; the move waits for a turn
// and is played once one is given back.
func TestE2EAClickIsAcknowledgedBeforeItsTurn(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	rec := h.startChallenge(chanID, "versailles")
	user, panel := h.deciderOf(chanID)

	release := bot.HoldAdmission(h.b, time.Hour)
	resp, err := h.clickFirst(user, panel).WaitResponse(h.ctx)
	require.NoError(t, err)
	assert.Equal(t, discordgo.InteractionResponseDeferredMessageUpdate, resp.Type, "acknowledged with every turn taken")
	assert.Equal(t, rec.StateVersion, h.gameByID(rec.ID).StateVersion, "the move waits for a turn")

	release()
	_, err = h.srv.WaitMessage(h.ctx, func(m *fakediscord.Message) bool { return m.ID == panel.ID && m.Version > panel.Version })
	require.NoError(t, err, "the panel is updated once a turn is free")
	assert.Greater(t, h.gameByID(rec.ID).StateVersion, rec.StateVersion)
	require.NoError(t, h.b.WaitPublished(h.ctx))
}

// TestE2EAClickGoesOnWithoutATurnAfterItsPatience (admission.go): a click
// whose turn does not come (every holder stuck) is played all the same
// once it has waited its patience, and the game goes on.
func TestE2EAClickGoesOnWithoutATurnAfterItsPatience(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	rec := h.startChallenge(chanID, "versailles")
	release := bot.HoldAdmission(h.b, time.Millisecond)
	defer release()
	user, panel := h.deciderOf(chanID)
	h.choose(user, panel, rand.New(rand.NewPCG(1, 2)))
	assert.Greater(t, h.gameByID(rec.ID).StateVersion, rec.StateVersion)
}
