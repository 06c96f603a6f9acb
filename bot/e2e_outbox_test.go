package bot_test

import (
	"context"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
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

// chooseOr is choose that gives up when stop() becomes true (the bot
// crashed: the panel will not be updated by this bot).
func (h *harness) chooseOr(user string, panel *fakediscord.Message, r *rand.Rand, stop func() bool) (*fakediscord.Message, bool) {
	h.t.Helper()
	buttons, selects := choiceComponents(panel)
	var i *fakediscord.Interaction
	if n := len(buttons); n > 0 && (len(selects) == 0 || r.IntN(2) == 0) {
		i = h.srv.Click(user, panel, buttons[r.IntN(n)].CustomID)
	} else {
		s := selects[r.IntN(len(selects))]
		i = h.srv.Select(user, panel, s.CustomID, s.Options[r.IntN(len(s.Options))].Value)
	}
	_, err := i.WaitResponse(h.ctx)
	require.NoError(h.t, err)
	var got *fakediscord.Message
	ok := h.srv.WaitFor(h.ctx, func() bool {
		if m := h.srv.Message(panel.ID); m != nil && m.Version > panel.Version {
			got = m
			return true
		}
		return stop()
	})
	require.True(h.t, ok, "the panel was not updated after %s", i)
	if got != nil {
		// The panel does not wait for the publication; the crash may
		// come in it.
		require.NoError(h.t, h.b.WaitPublished(h.ctx))
	}
	return got, got != nil && !stop()
}

// playUntilCrash plays random choices by clicking, as takeTurn does,
// until stop() (the crash) happens.
func (h *harness) playUntilCrash(gameID int64, users []string, r *rand.Rand, stop func() bool) {
	h.t.Helper()
	for n := 0; n < 3000; n++ {
		for _, u := range users {
			if stop() {
				return
			}
			require.Equal(h.t, storage.StatusActive, h.gameByID(gameID).Status, "the game ended before the crash")
			board := h.findTurnMessage(chanID)
			require.NotNil(h.t, board)
			h.clock.Advance(10 * time.Minute) // the players take their time (notifications)
			resp, err := h.srv.ClickLabel(u, board, "Take my turn").WaitResponse(h.ctx)
			require.NoError(h.t, err)
			panel := resp.Message
			for steps := 0; steps < 200; steps++ {
				if b, s := choiceComponents(panel); len(b)+len(s) == 0 {
					break
				}
				var ok bool
				if panel, ok = h.chooseOr(u, panel, r, stop); !ok {
					return
				}
			}
		}
	}
	h.t.Fatal("no crash happened")
}

// requireNoDuplicateBoards: every board message in the channel is one
// the bot recorded (no board was posted twice), and the newest is live.
func (h *harness) requireNoDuplicateBoards(gameID int64) {
	h.t.Helper()
	stored, err := h.store.Messages(context.Background(), gameID, storage.KindBoard)
	require.NoError(h.t, err)
	recorded := map[string]bool{}
	for _, m := range stored {
		recorded[m.MessageID] = true
	}
	for _, m := range h.boardMessages(chanID) {
		require.True(h.t, recorded[m.ID], "board %s was posted but is not the bot's record: a duplicate", m.ID)
	}
}

func (h *harness) dmsContaining(user, s string) []*fakediscord.Message {
	var out []*fakediscord.Message
	for _, m := range h.srv.DMs(user) {
		if strings.Contains(m.Content, s) {
			out = append(out, m)
		}
	}
	return out
}

// Issue #12 "Crash at every publication step": the round-ending move is
// committed, then the bot dies before one step of its publication (the
// new board that calls both players — its mention is the ping —, the old
// board's collapse, the hand DMs, the mover's panel) or right after the
// board was posted but before it was recorded. A new bot on the same
// database and fake Discord delivers the rest: every message exists
// exactly once, and the game goes on.
func TestE2ECrashAtEveryPublicationStep(t *testing.T) {
	t.Parallel()
	for _, step := range []string{"dm:versailles", "dm:commune", "board", "board-posted", "collapse", "panel"} {
		t.Run(step, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			rec := h.startChallenge(chanID, "versailles")
			var crashed atomic.Bool
			bot.SetCrashHook(h.b, func(id int64, s string) bool {
				if crashed.Load() || !strings.HasPrefix(s, step) {
					return false
				}
				g, err := h.store.GameByID(context.Background(), id)
				if err != nil || h.engineGame(g).S.Round < 2 {
					return false
				}
				crashed.Store(true)
				return true
			})
			r := rand.New(rand.NewPCG(21, 22))
			h.playUntilCrash(rec.ID, []string{alice, bob}, r, crashed.Load)
			crashedAt := h.gameByID(rec.ID)
			require.EqualValues(t, 2, h.engineGame(crashedAt).S.Round)
			h.restart()
			require.NoError(t, h.b.WaitPublished(t.Context()))

			// Nothing is left undelivered, and nothing was sent twice.
			pending, err := h.store.PendingOutbox(t.Context(), rec.ID)
			require.NoError(t, err)
			assert.Empty(t, pending)
			assert.Equal(t, crashedAt.StateVersion, h.gameByID(rec.ID).StateVersion, "the restart replays no move")
			for _, u := range []string{alice, bob} {
				assert.Len(t, h.dmsContaining(u, "— Round 2. Your hand: "), 1, "%s's round-2 hand DM, exactly once", u)
				assert.Len(t, h.dmsContaining(u, "— Round 1. Your hand: "), 1, "%s's round-1 hand DM, exactly once", u)
			}
			h.requireNoDuplicateBoards(rec.ID)
			live := h.requireOneLiveBoard(chanID)
			assert.Contains(t, live.Content, "Round 2")
			assert.ElementsMatch(t, calledAfter([]string{alice, bob}, h.lastMover(rec.ID)), h.srv.MessageHistory(live.ID)[0].Notified,
				"the round-2 board calls both players but the one who ended round 1, once")
			round2 := 0
			for _, m := range h.boardMessages(chanID) {
				if strings.Contains(strings.SplitN(m.Content, "\n", 2)[0], "· Round 2") {
					round2++
				}
			}
			assert.Equal(t, 1, round2, "exactly one board for the new round")
			// The mover's panel shows their objective choice.
			mover := h.srv.FindMessage(func(m *fakediscord.Message) bool {
				return m.Ephemeral() && strings.Contains(m.Content, "Round 2") && strings.Contains(m.Content, "A new deal")
			})
			assert.NotNil(t, mover, "the mover's panel was updated after the restart")

			// The game goes on.
			h.playUntil(rec.ID, chanID, []string{alice, bob}, r, func(g storage.Game) bool { return g.StateVersion >= crashedAt.StateVersion+6 })
			h.requireNoDuplicateBoards(rec.ID)
		})
	}
}

// The result, too: the game's last move is committed and the bot dies
// before announcing it; the next bot announces it once.
func TestE2ECrashBeforeTheResult(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	rec := h.startChallenge(chanID, "versailles")
	var crashed atomic.Bool
	bot.SetCrashHook(h.b, func(_ int64, s string) bool {
		if s == "result" && !crashed.Load() {
			crashed.Store(true)
			return true
		}
		return false
	})
	h.playUntilCrash(rec.ID, []string{alice, bob}, rand.New(rand.NewPCG(1, 2)), crashed.Load)
	require.Equal(t, storage.StatusFinished, h.gameByID(rec.ID).Status)
	over := func() int {
		n := 0
		for _, m := range h.srv.Messages(chanID) {
			if strings.Contains(m.Content, "is over") {
				n++
			}
		}
		return n
	}
	require.Equal(t, 0, over())
	h.restart()
	require.NoError(t, h.b.WaitPublished(t.Context()))
	assert.Equal(t, 1, over(), "the result is announced exactly once")
	h.requireNoDuplicateBoards(rec.ID)
	h.restart()
	require.NoError(t, h.b.WaitPublished(t.Context()))
	assert.Equal(t, 1, over(), "and not again at the next start")
}

func sideOf(rec storage.Game, user string) engine.Side {
	for _, p := range rec.Players {
		if p.UserID == user && p.Side == storage.SideCommune {
			return engine.Commune
		}
	}
	return engine.Versailles
}

// Issue #12 "Simultaneous round end": the move that ends round 1 (and
// the one that starts the Final Crisis) publishes the board and both hand
// DMs before either player decides; the opponent chooses first, from the
// DM, then the mover, from their panel; the game goes on.
func TestE2ESimultaneousRoundEnd(t *testing.T) {
	t.Parallel()
	simultaneousSeed := uint64(31) // seeds the random play (RFOP_SEED overrides it)
	if s := os.Getenv("RFOP_SEED"); s != "" {
		simultaneousSeed, _ = strconv.ParseUint(s, 10, 64)
	}
	h := newHarness(t)
	rec := h.startChallenge(chanID, "versailles")
	r := rand.New(rand.NewPCG(simultaneousSeed, 32))
	for _, target := range []struct {
		round int8
		name  string
	}{{2, "Round 2"}, {4, "Final Crisis"}} {
		var mover string
		var moverPanel *fakediscord.Message
		// Play chains until one ends the round; remember its mover's panel.
	play:
		for n := 0; n < 3000; n++ {
			for _, u := range []string{alice, bob} {
				board := h.turnMessage(chanID)
				h.clock.Advance(10 * time.Minute) // the players take their time (notifications)
				resp, err := h.srv.ClickLabel(u, board, "Take my turn").WaitResponse(h.ctx)
				require.NoError(t, err)
				panel := resp.Message
				for steps := 0; steps < 200; steps++ {
					if b, s := choiceComponents(panel); len(b)+len(s) == 0 {
						break
					}
					panel = h.choose(u, panel, r)
					if h.engineGame(h.gameByID(rec.ID)).S.Round == target.round {
						mover, moverPanel = u, panel
						break play
					}
				}
			}
		}
		require.NotEmpty(t, mover, "%s never began", target.name)
		opponent := map[string]string{alice: bob, bob: alice}[mover]
		v := h.gameByID(rec.ID).StateVersion
		g := h.engineGame(h.gameByID(rec.ID))
		simultaneous := 0
		for _, p := range g.Prompts() {
			if p.Kind == engine.PromptObjective || p.Kind == engine.PromptFCDiscard {
				simultaneous++
			}
		}

		// Before anyone decides: both hand DMs, and the board calling
		// whoever decides.
		for _, u := range []string{alice, bob} {
			require.Len(t, h.dmsContaining(u, "— "+target.name+". Your hand: "), 1, "%s's hand DM for %s", u, target.name)
		}
		live := h.requireOneLiveBoard(chanID)
		assert.Contains(t, live.Content, target.name)
		assert.ElementsMatch(t, calledAfter(h.decidersOf(rec.ID), mover), h.srv.MessageHistory(live.ID)[0].Notified,
			"the mover is at the table; the other decider is called")
		if _, decides := g.PromptFor(sideOf(rec, mover)); decides {
			assert.Contains(t, moverPanel.Content, "A new deal", "the mover's panel says the round's hand is out")
			buttons, selects := choiceComponents(moverPanel)
			require.NotEmpty(t, len(buttons)+len(selects), "the mover chooses from the panel")
		}
		require.Equal(t, v, h.gameByID(rec.ID).StateVersion, "nobody has decided yet")
		if simultaneous < 2 {
			// Final Crisis hands within the limit: no discard to make at once.
			t.Logf("%s: %d player(s) discard; the simultaneous choice is checked at round 2", target.name, simultaneous)
			continue
		}

		// The opponent first, from the DM.
		dm := h.dmsContaining(opponent, "— "+target.name+". Your hand: ")[0]
		i := h.clickFirst(opponent, dm)
		_, err := i.WaitResponse(h.ctx)
		require.NoError(t, err)
		recorded, err := h.srv.WaitMessage(h.ctx, func(m *fakediscord.Message) bool { return m.ID == dm.ID && m.Version > dm.Version })
		require.NoError(t, err)
		assert.Contains(t, recorded.Content, "Your hand: ", "the DM keeps the hand")
		assert.Contains(t, recorded.Content, "✅ You chose: ", "and records the choice")
		assert.NotNil(t, recorded.Attachment("hand.png"))
		require.Equal(t, v+1, h.gameByID(rec.ID).StateVersion)

		// Then the mover, from the panel made before the opponent chose.
		panel := moverPanel
		for steps := 0; steps < 200; steps++ {
			if b, s := choiceComponents(panel); len(b)+len(s) == 0 {
				break
			}
			panel = h.choose(mover, panel, r)
		}
		require.Greater(t, h.gameByID(rec.ID).StateVersion, v+1, "the mover's choice was accepted")
		g = h.engineGame(h.gameByID(rec.ID))
		for _, p := range g.Prompts() {
			assert.NotEqual(t, engine.PromptObjective, p.Kind, "both objectives are chosen")
			assert.NotEqual(t, engine.PromptFCDiscard, p.Kind, "both discards are made")
		}
		h.requireOneLiveBoard(chanID)
	}
	// The game goes on to its end.
	rec = h.playUntil(rec.ID, chanID, []string{alice, bob}, r, func(storage.Game) bool { return false })
	assert.Equal(t, storage.StatusFinished, rec.Status)
}

// chooseLabelled makes the choice whose label contains want, if the panel
// offers it, and returns the updated panel.
func (h *harness) chooseLabelled(user string, panel *fakediscord.Message, want string) (*fakediscord.Message, bool) {
	h.t.Helper()
	buttons, selects := choiceComponents(panel)
	var i *fakediscord.Interaction
	for _, b := range buttons {
		if strings.Contains(b.Label, want) {
			i = h.srv.Click(user, panel, b.CustomID)
		}
	}
	for _, s := range selects {
		for _, o := range s.Options {
			if i == nil && strings.Contains(o.Label, want) {
				i = h.srv.Select(user, panel, s.CustomID, o.Value)
			}
		}
	}
	if i == nil {
		return panel, false
	}
	_, err := i.WaitResponse(h.ctx)
	require.NoError(h.t, err)
	m, err := h.srv.WaitMessage(h.ctx, func(m *fakediscord.Message) bool { return m.ID == panel.ID && m.Version > panel.Version })
	require.NoError(h.t, err)
	require.NoError(h.t, h.b.WaitPublished(h.ctx))
	return m, true
}

// Issue #12 "Reveal": #1 Jules Ducatel makes the Commune reveal its hand
// to Versailles. The Versailles player's panel lists the cards (names and
// OP) and a DM keeps them; no channel message names them.
func TestE2ERevealReachesThePlayerPrivately(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.seed = 0 // the game's seed is 1: Versailles is dealt #1 at once
	h.restart()
	rec := h.startChallenge(chanID, "versailles") // alice plays Versailles
	r := rand.New(rand.NewPCG(41, 42))
	const event = "Play #1 Jules Ducatel for its event"
	revealed := func() bool {
		for _, e := range h.engineGame(h.gameByID(rec.ID)).S.Log {
			if strings.Contains(e.English(nil), "reveals its hand to Versailles") {
				return true
			}
		}
		return false
	}
	var panel *fakediscord.Message
	var shown []string
play:
	for n := 0; n < 3000; n++ {
		if st := h.gameByID(rec.ID); st.Status != storage.StatusActive {
			for _, e := range h.engineGame(st).S.Log {
				if strings.Contains(e.English(nil), "Ducatel") {
					t.Logf("LOG %+v", e)
				}
			}
			t.Fatal("the game ended without #1 played for its event")
		}
		for _, u := range []string{alice, bob} {
			board := h.turnMessage(chanID)
			resp, err := h.srv.ClickLabel(u, board, "Take my turn").WaitResponse(h.ctx)
			require.NoError(t, err)
			p := resp.Message
			for steps := 0; steps < 200; steps++ {
				if b, s := choiceComponents(p); len(b)+len(s) == 0 {
					break
				}
				before := h.engineGame(h.gameByID(rec.ID))
				var played bool
				if u == alice {
					p, played = h.chooseLabelled(u, p, event)
				}
				if !played {
					p = h.choose(u, p, r)
				}
				if played && revealed() {
					panel = p
					for _, c := range before.S.Hand[engine.Commune] {
						shown = append(shown, before.Deck().Card(int(c)).Name)
					}
					break play
				}
			}
		}
	}
	require.NotNil(t, panel, "#1 was never played for its event")
	require.NotEmpty(t, shown, "the Commune held cards")
	require.NoError(t, h.b.WaitPublished(t.Context()))

	// The panel lists them, with their OP.
	assert.Contains(t, panel.Content, "Shown to you only")
	for _, name := range shown {
		assert.Contains(t, panel.Content, name)
	}
	assert.Regexp(t, `\(\d OP, (red|blue|grey|gray|neutral)`, panel.Content)
	// A DM keeps them.
	dms := h.dmsContaining(alice, "Shown to you only")
	require.Len(t, dms, 1)
	for _, name := range shown {
		assert.Contains(t, dms[0].Content, name)
	}
	// Never in the channel (every version of every message).
	for _, m := range h.srv.Messages(chanID) {
		for _, v := range h.srv.MessageHistory(m.ID) {
			for _, name := range shown {
				assert.NotContains(t, v.Content, name, "a revealed card named in the channel")
			}
		}
	}
	assert.Empty(t, h.dmsContaining(bob, "Shown to you only"), "the Commune is shown nothing")
}

// Issue #12 item 5: "Waiting for @X…" (the answer to Take my turn when it
// is not your decision) carries no buttons that would only say it again.
func TestE2EWaitingReplyHasNoButtons(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	rec := h.startChallenge(chanID, "versailles")
	r := rand.New(rand.NewPCG(51, 52))
	h.playUntil(rec.ID, chanID, []string{alice, bob}, r, func(g storage.Game) bool {
		ps := h.engineGame(g).Prompts()
		return len(ps) == 1 && ps[0].Kind == engine.PromptPlay
	})
	waiting := map[string]string{alice: bob, bob: alice}[h.decidersOf(rec.ID)[0]]
	resp, err := h.srv.ClickLabel(waiting, h.turnMessage(chanID), "Take my turn").WaitResponse(h.ctx)
	require.NoError(t, err)
	assert.Contains(t, resp.Content, "Waiting for")
	assert.Empty(t, resp.Message.AllComponents(), "no Take my turn / My hand buttons in the reply")
}

// Issue #12 follow-up "A panel never goes back": the mover's panel is one
// message edited through each click's token. A chain's end is committed
// (its panel entry pending) and shown at once; the publisher, which read
// the pending entries before the panel was shown, is held at that batch's
// board while the player makes the next choice on the panel, which shows
// the newer state. Released, the publisher must not edit the panel with
// the older version's token and state: the panel's last edit is the newer
// choice's.
func TestE2EPanelNeverShowsAnOlderVersion(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	i, _ := h.command(alice, "", "", fakediscord.SubCmd("solo", fakediscord.StrArg("side", "commune")))
	h.settled(i)
	dm := i.ChannelID
	rec := h.game(dm)
	_, err := h.srv.WaitMessage(h.ctx, func(m *fakediscord.Message) bool { return m.ChannelID == dm && m.Button("Take my turn") != nil })
	require.NoError(t, err)
	require.NoError(t, h.b.WaitPublished(t.Context()))

	// Once armed: the first board step of the publisher waits for
	// release, and the first panel shown at once waits until the publisher
	// got there (so its list of pending entries holds that panel's entry).
	var armed, boardHeld, panelHeld atomic.Bool
	boardReached, release := make(chan struct{}), make(chan struct{})
	wait := func(c chan struct{}) {
		select {
		case <-c:
		case <-h.ctx.Done():
		}
	}
	bot.SetCrashHook(h.b, func(_ int64, s string) bool {
		if !armed.Load() {
			return false
		}
		switch {
		case s == "board" && boardHeld.CompareAndSwap(false, true):
			close(boardReached)
			wait(release)
		case s == "panel:commune" && panelHeld.CompareAndSwap(false, true):
			wait(boardReached)
		}
		return false
	})
	defer func() {
		if !isClosed(release) { // a failure before the release
			close(release)
		}
	}()

	resp, err := h.srv.ClickLabel(alice, h.turnMessage(dm), "Take my turn").WaitResponse(h.ctx)
	require.NoError(t, err)
	panel := resp.Message
	armed.Store(true)
	// Choose until a choice ends the chain: its publication is then held.
	for steps := 0; !boardHeld.Load(); steps++ {
		require.Less(t, steps, 200, "no choice ended the chain")
		b, s := choiceComponents(panel)
		require.NotEmpty(t, len(b)+len(s), "the panel offers a choice")
		_, err := h.clickFirst(alice, panel).WaitResponse(h.ctx)
		require.NoError(t, err)
		panel, err = h.srv.WaitMessage(h.ctx, func(m *fakediscord.Message) bool { return m.ID == panel.ID && m.Version > panel.Version })
		require.NoError(t, err)
	}
	v := h.gameByID(rec.ID).StateVersion
	require.True(t, h.srv.WaitFor(h.ctx, func() bool {
		batch, err := h.store.OutboxBatch(t.Context(), rec.ID, v)
		require.NoError(t, err)
		for _, e := range batch {
			if e.Kind == "panel" {
				return !e.DoneAt.IsZero()
			}
		}
		return false
	}), "the panel of version %d is shown and marked at once", v)

	// The next choice, on the panel, while the publication of v is held.
	_, err = h.clickFirst(alice, panel).WaitResponse(h.ctx)
	require.NoError(t, err)
	newer, err := h.srv.WaitMessage(h.ctx, func(m *fakediscord.Message) bool { return m.ID == panel.ID && m.Version > panel.Version })
	require.NoError(t, err)
	require.Greater(t, h.gameByID(rec.ID).StateVersion, v, "the newer choice is committed")
	require.NotEqual(t, panel.Content, newer.Content, "the panel changed with the newer choice")

	close(release)
	require.NoError(t, h.b.WaitPublished(t.Context()))
	pending, err := h.store.PendingOutbox(t.Context(), rec.ID)
	require.NoError(t, err)
	assert.Empty(t, pending, "the held publication is delivered")
	final := h.srv.Message(panel.ID)
	require.NotNil(t, final)
	assert.Equal(t, newer.Content, final.Content, "the panel shows the newer choice's state, not version %d's", v)
	assert.Equal(t, newer.Version, final.Version, "the panel was not edited after the newer choice")
	assert.Equal(t, storage.StatusActive, h.gameByID(rec.ID).Status)
}

func isClosed(c chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}
