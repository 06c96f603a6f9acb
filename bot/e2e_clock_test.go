package bot_test

import (
	"encoding/json"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/rfop/rfop/engine"
	"github.com/rfop/rfop/internal/fakediscord"
	"github.com/rfop/rfop/storage"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Issue 24, items 1 and 2: a pace with a clock, and time away. The bot's
// clock is the harness's offsetClock (real time moved forward by hand):
// the assertions on times left allow for the seconds a busy machine takes.

// startPaced: alice (Versailles) challenges bob (Commune) in channel with
// a pace, bob accepts.
// ("": the server's default). It returns the game and the challenge.
func (h *harness) startPaced(channel, pace string) (storage.Game, string) {
	h.t.Helper()
	return h.startPacedIn(guildID, channel, pace)
}

// startPacedIn is startPaced in another guild.
func (h *harness) startPacedIn(guild, channel, pace string) (storage.Game, string) {
	h.t.Helper()
	args := []fakediscord.Arg{fakediscord.UserArg("opponent", bob), fakediscord.StrArg("side", "versailles")}
	if pace != "" {
		args = append(args, fakediscord.StrArg("pace", pace))
	}
	_, resp := h.command(alice, guild, channel, fakediscord.SubCmd("new", args...))
	i := h.srv.Click(bob, resp.Message, h.verbButton(resp.Message, "accept").CustomID)
	_, err := i.WaitResponse(h.ctx)
	require.NoError(h.t, err)
	require.True(h.t, h.srv.WaitFor(h.ctx, func() bool {
		rec, err := h.store.GameByChannel(h.ctx, channel)
		return err == nil && rec.Status == storage.StatusActive && h.boardOf(channel) != nil
	}), "the board is posted when the game starts")
	require.NoError(h.t, h.b.WaitPublished(h.ctx))
	return h.game(channel), resp.Content
}

// boardOf is the channel's live board (the newest with a turn button),
// whatever the server's language.
func (h *harness) boardOf(channel string) *fakediscord.Message {
	msgs := h.srv.Messages(channel)
	for k := len(msgs) - 1; k >= 0; k-- {
		for _, c := range msgs[k].AllComponents() {
			if strings.HasPrefix(c.CustomID, "rfop/turn/") {
				return msgs[k]
			}
		}
	}
	return nil
}

// decide is takeTurn on a board in any language.
func (h *harness) decide(user, channel string, r *rand.Rand) {
	h.t.Helper()
	board := h.boardOf(channel)
	require.NotNil(h.t, board)
	i := h.srv.Click(user, board, h.verbButton(board, "turn").CustomID)
	resp, err := i.WaitResponse(h.ctx)
	require.NoError(h.t, err)
	panel := resp.Message
	for steps := 0; steps < 200; steps++ {
		if b, s := choiceComponents(panel); len(b)+len(s) == 0 {
			return
		}
		panel = h.choose(user, panel, r)
	}
	h.t.Fatalf("%s's decision chain did not end", user)
}

// storedClock is the clock's JSON as stored: each side's time when its
// clock started, and since when it runs.
type storedClock struct {
	Pace  string       `json:"pace"`
	Left  [2]int64     `json:"left"`
	Since [2]time.Time `json:"since"`
	// Warned, Offered: a side was warned, its opponent offered the claim.
	Warned  [2]bool `json:"warned"`
	Offered [2]bool `json:"offered"`
}

func (h *harness) clockOf(id int64) storedClock {
	h.t.Helper()
	var c storedClock
	require.NoError(h.t, json.Unmarshal(h.gameByID(id).Clock, &c))
	return c
}

// status is /rfop status as user sees it.
func (h *harness) status(user string) string {
	h.t.Helper()
	_, resp := h.command(user, guildID, chanID, fakediscord.SubCmd("status"))
	return resp.Content
}

// dmsWith counts user's DMs containing s.
func (h *harness) dmsWith(user, s string) int {
	n := 0
	for _, m := range h.srv.DMs(user) {
		if strings.Contains(m.Content, s) {
			n++
		}
	}
	return n
}

// offerFor is user's DM offering to claim the win (newest), or nil.
func (h *harness) offerFor(user string) *fakediscord.Message {
	dms := h.srv.DMs(user)
	for k := len(dms) - 1; k >= 0; k-- {
		for _, c := range dms[k].AllComponents() {
			if strings.HasPrefix(c.CustomID, "rfop/claim/") {
				return dms[k]
			}
		}
	}
	return nil
}

// Both players choose their objectives at once: both clocks run from the
// start, the board and /rfop status show each side's time, and a restart
// in the middle keeps the remaining times.
func TestE2EClockSimultaneousDecisionRunsBothAndSurvivesRestart(t *testing.T) {
	t.Parallel()
	h := newHarnessWith(t, newStubPictures(), defaultGuild())
	rec, _ := h.startPaced(chanID, "brisk")
	c := h.clockOf(rec.ID)
	assert.Equal(t, "brisk", c.Pace)
	for s := range 2 {
		assert.False(t, c.Since[s].IsZero(), "side %d's clock runs", s)
		assert.Equal(t, (24 * time.Hour).Milliseconds(), c.Left[s])
	}
	due, err := h.store.GameSchedule(h.ctx, rec.ID)
	require.NoError(t, err)
	kinds := map[string]int{}
	for _, d := range due {
		kinds[d.Kind]++
	}
	assert.Equal(t, 2, kinds["clock-out"], "one deadline per side: %v", due)
	assert.Equal(t, 2, kinds["clock-warn"], "one warning per side: %v", due)
	board := h.turnMessage(chanID)
	assert.Contains(t, board.Content, "Versailles to decide · 1 d left")
	assert.Contains(t, board.Content, "Commune to decide · 1 d left")

	h.clock.Advance(10 * time.Hour)
	both := regexp.MustCompile(`Versailles to decide · (14 h|13 h 5\d min) left \| Commune to decide · (14 h|13 h 5\d min) left`)
	assert.Regexp(t, both, h.status(carol))

	h.restart()
	assert.Equal(t, c, h.clockOf(rec.ID), "the clock is stored as it was")
	assert.Regexp(t, both, h.status(carol), "the times left survive the restart")

	// Alice chooses her objective: her clock stops (with the increment),
	// Bob's runs on.
	h.takeTurn(alice, chanID, rand.New(rand.NewPCG(1, 2)))
	c = h.clockOf(rec.ID)
	assert.True(t, c.Since[engine.Versailles].IsZero(), "Versailles handed over")
	left := time.Duration(c.Left[engine.Versailles]) * time.Millisecond
	assert.InDelta(t, float64(18*time.Hour), float64(left), float64(5*time.Minute), "14 h left + 4 h")
	assert.False(t, c.Since[engine.Commune].IsZero(), "the Commune still decides")
	assert.Regexp(t, `Versailles · (18 h|17 h 5\d min) left \| Commune to decide · (14 h|13 h 5\d min) left`, h.status(carol))
}

// A side lets its time run out: it is warned once at 80 %, then its
// opponent is offered, privately and in the server's language, to claim
// the win; the claim ends the game with a result "timeout", recorded in
// the history and rated.
func TestE2EClockRunsOutWarningOnceThenClaim(t *testing.T) {
	t.Parallel()
	h := newHarnessWith(t, newStubPictures(), defaultGuild())
	_, resp := h.command(manager, guildID, chanID, fakediscord.SubCmd("settings", fakediscord.StrArg("language", "fr"),
		fakediscord.StrArg("pace", "brisk")))
	require.Contains(t, resp.Content, "vif", "the server's default pace")
	rec, challenge := h.startPaced(chanID, "")
	require.Contains(t, challenge, "Rythme : vif", "the challenge says its pace")
	require.NotNil(t, rec.Clock, "the default pace applies")
	h.decide(alice, chanID, rand.New(rand.NewPCG(3, 4))) // only Bob decides now

	const warning = "il vous reste"
	h.clock.Advance(18 * time.Hour)
	h.b.Remind(h.ctx)
	assert.Zero(t, h.dmsWith(bob, warning), "not yet 80 %")
	h.clock.Advance(2 * time.Hour)
	h.b.Remind(h.ctx)
	h.b.Remind(h.ctx)
	h.clock.Advance(time.Hour)
	h.b.Remind(h.ctx)
	assert.Equal(t, 1, h.dmsWith(bob, warning), "warned once")
	assert.Zero(t, h.dmsWith(alice, warning), "alice's clock is stopped")
	assert.Nil(t, h.offerFor(alice), "no offer before the end")

	h.clock.Advance(4 * time.Hour)
	h.b.Remind(h.ctx)
	h.b.Remind(h.ctx)
	offer := h.offerFor(alice)
	require.NotNil(t, offer, "alice is offered the claim")
	assert.Contains(t, offer.Content, "a dépassé son temps")
	n := 0
	for _, m := range h.srv.DMs(alice) {
		if strings.Contains(m.Content, "a dépassé son temps") {
			n++
		}
	}
	assert.Equal(t, 1, n, "offered once")
	assert.Contains(t, h.status(carol), "temps dépassé")

	// Bob may not answer for alice (his click crafted on the board).
	text, private := h.answer(h.craft(bob, h.boardOf(chanID), h.verbButton(offer, "claim").CustomID))
	assert.True(t, private)
	assert.NotEmpty(t, text)
	assert.Equal(t, storage.StatusActive, h.gameByID(rec.ID).Status)

	text, private = h.answer(h.srv.Click(alice, offer, h.verbButton(offer, "claim").CustomID))
	assert.True(t, private)
	assert.Contains(t, text, "Vous avez réclamé la victoire")
	got := h.gameByID(rec.ID)
	require.Equal(t, storage.StatusFinished, got.Status)
	res := resultOf(t, got)
	assert.Equal(t, "timeout", res.Reason)
	assert.Equal(t, engine.Versailles, res.Winner)

	hist, err := h.store.History(h.ctx, guildID, "", 10)
	require.NoError(t, err)
	require.Len(t, hist, 1)
	assert.Equal(t, "timeout", hist[0].Reason)
	assert.True(t, hist[0].Rated)
	r, err := h.store.Rating(h.ctx, guildID, alice)
	require.NoError(t, err)
	assert.Equal(t, 1, r.Wins, "rated like a resignation")
	_, resp = h.command(carol, guildID, chanID, fakediscord.SubCmd("history"))
	assert.Contains(t, resp.Content, "a dépassé son temps", "the history says how it ended")

	// The server's default pace is for games between members: a solo
	// game has no clock.
	si, _ := h.command(carol, guildID, chan2ID, fakediscord.SubCmd("solo", fakediscord.StrArg("side", "commune")))
	h.settled(si)
	solo := h.game(chan2ID)
	assert.Equal(t, storage.ModeSolo, solo.Mode)
	assert.Nil(t, solo.Clock, "no clock against the solo opponent")
}

// One more day: the side out of time gets a day, its player is told, and
// the clock shows it.
func TestE2EClockOneMoreDay(t *testing.T) {
	t.Parallel()
	h := newHarnessWith(t, newStubPictures(), defaultGuild())
	rec, _ := h.startPaced(chanID, "brisk")
	h.takeTurn(alice, chanID, rand.New(rand.NewPCG(5, 6)))
	h.clock.Advance(25 * time.Hour)
	h.b.Remind(h.ctx)
	offer := h.offerFor(alice)
	require.NotNil(t, offer)
	assert.Contains(t, offer.Content, "has run out of time")

	text, private := h.answer(h.srv.Click(alice, offer, h.verbButton(offer, "moretime").CustomID))
	assert.True(t, private)
	assert.Contains(t, text, "one more day")
	assert.Equal(t, 1, h.dmsWith(bob, "gave you one more day"))
	assert.Regexp(t, `Commune to decide · (1 d|23 h 5\d min) left`, h.status(carol))
	c := h.clockOf(rec.ID)
	assert.Equal(t, (24 * time.Hour).Milliseconds(), c.Left[engine.Commune])

	// Pressed again: no longer out of time.
	text, _ = h.answer(h.srv.Click(alice, offer, h.verbButton(offer, "claim").CustomID))
	assert.Contains(t, text, "no longer out of time")
	assert.Equal(t, storage.StatusActive, h.gameByID(rec.ID).Status)
}

// Time away: the player's clocks stop in every game, no reminder reaches
// them, the opponent's board and /rfop status say "away until", and the
// budget is enforced.
func TestE2EAwayStopsClocksAndReminders(t *testing.T) {
	t.Parallel()
	h := newHarnessWith(t, newStubPictures(), defaultGuild())
	rec, _ := h.startPaced(chanID, "brisk")
	other, _ := h.startPaced(chan2ID, "steady")
	r := rand.New(rand.NewPCG(7, 8))
	h.takeTurn(alice, chanID, r) // only Bob decides in the first game

	i, resp := h.command(bob, guildID, chanID, fakediscord.SubCmd("away", fakediscord.IntArg("days", 3)))
	assert.True(t, resp.Ephemeral())
	text, _ := h.answer(i)
	assert.Contains(t, text, "You are away until <t:")
	assert.Contains(t, text, "2 games")
	for _, ch := range []string{chanID, chan2ID} {
		boards := h.boardMessages(ch)
		require.NotEmpty(t, boards)
		assert.Contains(t, boards[len(boards)-1].Content, "<@"+bob+"> is away until <t:", "the board in %s", ch)
	}
	before := h.clockOf(rec.ID)

	h.clock.Advance(30 * time.Hour)
	h.b.Remind(h.ctx)
	h.b.Remind(h.ctx)
	assert.Zero(t, reminders(h.srv, chanID), "no reminder reaches bob")
	assert.Nil(t, h.offerFor(alice), "bob's clock is stopped: nothing to claim")
	st := h.status(alice)
	assert.Regexp(t, `Commune to decide · (1 d|23 h 5\d min) left`, st)
	assert.Contains(t, st, "<@"+bob+"> is away until <t:")
	assert.Equal(t, before, h.clockOf(rec.ID), "nothing rewritten while away")
	due, err := h.store.GameSchedule(h.ctx, rec.ID)
	require.NoError(t, err)
	for _, d := range due {
		if d.Kind == "clock-out" {
			assert.True(t, d.At.After(h.clock.Now()), "the deadline moved after the time away")
		}
	}
	assert.Equal(t, storage.StatusActive, h.gameByID(other.ID).Status)

	i, _ = h.command(bob, guildID, chanID, fakediscord.SubCmd("back"))
	text, _ = h.answer(i)
	assert.Contains(t, text, "Welcome back")

	// 30 hours used of 14 days in 60: 13 more days is over the budget.
	i, _ = h.command(bob, guildID, chanID, fakediscord.SubCmd("away", fakediscord.IntArg("days", 13)))
	text, _ = h.answer(i)
	assert.Contains(t, text, "limited to 14 days in any 60 days")
	assert.Contains(t, text, "12 more days")
	spells, err := h.store.AwaySpells(h.ctx, time.Time{}, bob)
	require.NoError(t, err)
	assert.Len(t, spells, 1, "the refused spell is not recorded")

	// Back: bob's clock runs again and the reminder reaches him.
	h.clock.Advance(25 * time.Hour)
	h.b.Remind(h.ctx)
	assert.NotNil(t, h.offerFor(alice), "bob's time ran out once he was back")
}

// An undo gives back the time of the move undone: the side's clock is
// what it was before the move (without the increment), and runs again.
func TestE2EClockUndoGivesBackTheTime(t *testing.T) {
	t.Parallel()
	h := newHarnessWith(t, newStubPictures(), defaultGuild())
	rec, _ := h.startPaced(chanID, "brisk")
	h.clock.Advance(5 * time.Hour)
	h.takeTurn(alice, chanID, rand.New(rand.NewPCG(9, 9))) // her objective, after 5 hours
	c := h.clockOf(rec.ID)
	require.True(t, c.Since[engine.Versailles].IsZero())
	assert.InDelta(t, float64(23*time.Hour), float64(time.Duration(c.Left[engine.Versailles])*time.Millisecond), float64(5*time.Minute), "19 h + 4 h")
	require.True(t, h.engineGame(h.gameByID(rec.ID)).CanUndo(engine.Versailles))

	h.clock.Advance(time.Hour)
	before := h.gameByID(rec.ID).StateVersion
	ui, _ := h.command(alice, guildID, chanID, fakediscord.SubCmd("undo"))
	h.settled(ui)
	// Her turn is over: Bob is asked, and allows it.
	ask, err := h.srv.WaitMessage(h.ctx, func(m *fakediscord.Message) bool {
		return m.ChannelID == chanID && strings.Contains(m.Content, "asks to take back")
	})
	require.NoError(t, err)
	_, err = h.srv.ClickLabel(bob, ask, "Allow undo").WaitResponse(h.ctx)
	require.NoError(t, err)
	require.True(t, h.srv.WaitFor(h.ctx, func() bool { return h.gameByID(rec.ID).StateVersion == before+1 }), "undone")
	c = h.clockOf(rec.ID)
	assert.False(t, c.Since[engine.Versailles].IsZero(), "her clock runs again")
	assert.InDelta(t, float64(24*time.Hour), float64(time.Duration(c.Left[engine.Versailles])*time.Millisecond), float64(5*time.Minute),
		"the time before her move, without its increment")
	assert.Regexp(t, `Versailles to decide · (1 d|23 h 5\d min) left`, h.status(carol))
}
