package bot_test

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/rfop/rfop/engine"
	"github.com/rfop/rfop/internal/fakediscord"
	"github.com/rfop/rfop/storage"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Issue 18, one test per row of the README's "Who may do what" table.
// The cast (defaultGuild): admin holds "mods" (Manage Channels in every
// channel), manager holds "managers" (Manage Server), chanMod has Manage
// Channels in chanID only (a channel overwrite), owner owns the server;
// staffID is seen only by mods and managers.

// Settings need Manage Server (guild-wide) or the admin role: a channel
// moderator cannot take over the server's settings, and the admin role
// can be cleared.
func TestE2EWhoMayChangeSettings(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	settings := func() storage.Settings {
		s, err := h.store.GuildSettings(t.Context(), guildID)
		require.NoError(t, err)
		return s
	}
	refused := func(user string, arg fakediscord.Arg) {
		t.Helper()
		before := settings()
		_, resp := h.command(user, guildID, chanID, fakediscord.SubCmd("settings", arg))
		assert.True(t, resp.Ephemeral())
		assert.Contains(t, resp.Content, "Only members with Manage Server, or the admin role, can change settings.")
		assert.Equal(t, before, settings(), "%s changed nothing", user)
	}
	saved := func(user string, args ...fakediscord.Arg) string {
		t.Helper()
		_, resp := h.command(user, guildID, chanID, fakediscord.SubCmd("settings", args...))
		require.Contains(t, resp.Content, "Settings saved", "%s may change settings", user)
		return resp.Content
	}

	// Anyone may read them.
	_, resp := h.command(carol, guildID, chanID, fakediscord.SubCmd("settings"))
	assert.Contains(t, resp.Content, "Settings: reminders every 24 h")

	// Manage Channels in this channel (the channel moderator), or
	// in every channel, is not Manage Server.
	for _, user := range []string{chanMod, admin, carol} {
		refused(user, fakediscord.StrArg("language", "fr"))
		refused(user, fakediscord.IntArg("reminder_hours", 0))
		refused(user, fakediscord.RoleArg("admin_role", modsRole))
	}

	// Manage Server, and the owner, may.
	saved(manager, fakediscord.IntArg("reminder_hours", 5))
	saved(owner, fakediscord.IntArg("reminder_hours", 6))
	assert.Equal(t, 6*time.Hour, settings().ReminderInterval)

	// The admin role may, until it is cleared.
	text := saved(manager, fakediscord.RoleArg("admin_role", modsRole))
	assert.Contains(t, text, "admin role <@&"+modsRole+">")
	saved(admin, fakediscord.IntArg("reminder_hours", 7))
	assert.Equal(t, 7*time.Hour, settings().ReminderInterval)
	text = saved(manager, fakediscord.BoolArg("clear_admin_role", true))
	assert.Contains(t, text, "admin role none")
	assert.Empty(t, settings().AdminRoleID)
	refused(admin, fakediscord.IntArg("reminder_hours", 0))
}

// Abandoning someone else's game needs Manage Channels in that game's
// channel, or the admin role.
func TestE2EWhoMayAbandon(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	other := h.startChallenge(chan2ID, "commune")
	for _, user := range []string{chanMod, carol, manager} {
		_, resp := h.command(user, guildID, chan2ID, fakediscord.SubCmd("abandon"))
		assert.Contains(t, resp.Content, "Only a player of this game", "%s may not abandon a game in chan2", user)
	}
	assert.Equal(t, storage.StatusActive, h.gameByID(other.ID).Status)

	// chanMod moderates chanID: they may abandon its game.
	rec := h.startChallenge(chanID, "commune")
	i, _ := h.command(chanMod, guildID, chanID, fakediscord.SubCmd("abandon"))
	assert.Contains(t, h.settled(i).Content, "abandoned")
	assert.Equal(t, storage.StatusAbandoned, h.gameByID(rec.ID).Status)

	// The admin role may abandon any game.
	_, resp := h.command(manager, guildID, chanID, fakediscord.SubCmd("settings", fakediscord.RoleArg("admin_role", mgrRole)))
	require.Contains(t, resp.Content, "Settings saved")
	i, _ = h.command(manager, guildID, chan2ID, fakediscord.SubCmd("abandon"))
	assert.Contains(t, h.settled(i).Content, "abandoned")
	assert.Equal(t, storage.StatusAbandoned, h.gameByID(other.ID).Status)
}

// Naming both players (the game starts at once) needs Manage Channels in
// that channel, or the admin role.
func TestE2EWhoMayNameBothPlayers(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	name := func(user, channel string) (*fakediscord.Interaction, *fakediscord.InteractionResponse) {
		return h.command(user, guildID, channel, fakediscord.SubCmd("new",
			fakediscord.UserArg("opponent", bob), fakediscord.UserArg("player", alice)))
	}
	for _, user := range []string{carol, manager} {
		_, resp := name(user, chanID)
		assert.Contains(t, resp.Content, "Only members with Manage Channels in this channel, or the admin role, can name both players.")
	}
	_, resp := name(chanMod, chan2ID)
	assert.Contains(t, resp.Content, "Only members with Manage Channels", "chanMod does not moderate chan2")
	_, err := h.store.GameByChannel(t.Context(), chanID)
	require.ErrorIs(t, err, storage.ErrNotFound, "no game was created")

	i, _ := name(chanMod, chanID)
	assert.Contains(t, h.settled(i).Content, "begins")
	i, _ = name(admin, chan2ID)
	assert.Contains(t, h.settled(i).Content, "begins")
	h.waitBoard(chanID)
	h.waitBoard(chan2ID)
}

// waitBoard waits for a game's first board in channel (drawn after the
// command is answered), so that nothing is in flight when the test ends.
func (h *harness) waitBoard(channel string) {
	h.t.Helper()
	_, err := h.srv.WaitMessage(h.ctx, func(m *fakediscord.Message) bool {
		return m.ChannelID == channel && m.Button("Take my turn") != nil
	}) // two games' first pictures may be drawn at once
	require.NoError(h.t, err, "the board is posted when the game starts")
}

// /rfop status lists only games in channels the caller can view.
func TestE2EStatusShowsOnlyViewableChannels(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.startChallenge(chanID, "commune")
	i, _ := h.command(admin, guildID, staffID, fakediscord.SubCmd("new",
		fakediscord.UserArg("opponent", manager), fakediscord.UserArg("player", admin)))
	require.Contains(t, h.settled(i).Content, "begins")
	h.waitBoard(staffID)

	_, resp := h.command(carol, guildID, chanID, fakediscord.SubCmd("status"))
	assert.Contains(t, resp.Content, "<#"+chanID+">")
	assert.NotContains(t, resp.Content, staffID, "carol cannot see the staff channel")
	assert.NotContains(t, resp.Content, manager)

	_, resp = h.command(carol, guildID, chan2ID, fakediscord.SubCmd("status"))
	assert.Contains(t, resp.Content, "<#"+chanID+">", "a channel carol can view, from another channel")
	assert.NotContains(t, resp.Content, staffID)

	_, resp = h.command(admin, guildID, chanID, fakediscord.SubCmd("status"))
	assert.Contains(t, resp.Content, "<#"+chanID+">")
	assert.Contains(t, resp.Content, "<#"+staffID+">", "mods see the staff channel")
}

// Reposting the board: anyone in the channel, once a minute each.
func TestE2EBoardRepostCoolDown(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.startChallenge(chanID, "commune")
	repost := func(user string) string {
		t.Helper()
		i, resp := h.command(user, guildID, chanID, fakediscord.SubCmd("board"))
		if !strings.Contains(resp.Content, "post it again") {
			return h.settled(i).Content
		}
		return resp.Content
	}
	boards := func() int { return len(h.boardMessages(chanID)) }
	n := boards()
	assert.Contains(t, repost(carol), "is posted below")
	assert.Equal(t, n+1, boards())
	text := repost(carol)
	assert.Contains(t, text, "The board was just posted for you; you can post it again in")
	assert.Equal(t, n+1, boards(), "a refused repost posts nothing")
	assert.Contains(t, repost(alice), "is posted below", "the cool-down is each member's own")
	h.clock.Advance(61 * time.Second)
	assert.Contains(t, repost(carol), "is posted below")
	assert.Equal(t, n+3, boards())
}

// reachPublicUndo plays a game up to the first card play, played for
// momentum (nothing hidden revealed), whose chain ended: its player may
// ask the opponent to take it back. It returns that player, the
// opponent, and the player's side.
func reachPublicUndo(t *testing.T, h *harness, rec storage.Game) (mover, other string, side engine.Side) {
	t.Helper()
	r := rand.New(rand.NewPCG(2, 2))
	h.playUntil(rec.ID, chanID, []string{alice, bob}, r, func(g storage.Game) bool {
		eg := h.engineGame(g)
		_, ok := eg.PromptFor(eg.S.First)
		return ok && eg.Prompts()[0].Kind == engine.PromptPlay
	})
	g := h.engineGame(h.gameByID(rec.ID))
	side = g.S.First
	p, ok := h.gameByID(rec.ID).Player(storage.Side(side.Key()))
	require.True(t, ok)
	mover, other = p.UserID, alice
	if mover == alice {
		other = bob
	}
	i := h.srv.ClickLabel(mover, h.turnMessage(chanID), "Take my turn")
	resp, err := i.WaitResponse(h.ctx)
	require.NoError(t, err)
	_, selects := choiceComponents(resp.Message)
	require.NotEmpty(t, selects)
	value := ""
	for _, o := range selects[0].Options {
		if strings.Contains(o.Label, "to advance") {
			value = o.Value
		}
	}
	require.NotEmpty(t, value)
	before := h.gameByID(rec.ID).StateVersion
	i = h.srv.Select(mover, resp.Message, selects[0].CustomID, value)
	_, err = i.WaitResponse(h.ctx)
	require.NoError(t, err)
	_, err = h.srv.WaitMessage(h.ctx, func(m *fakediscord.Message) bool {
		return m.ID == resp.Message.ID && strings.Contains(m.Content, "Done")
	})
	require.NoError(t, err)
	require.Equal(t, before+1, h.gameByID(rec.ID).StateVersion)
	require.True(t, h.engineGame(h.gameByID(rec.ID)).CanUndo(side))
	return mover, other, side
}

// Undo consent answers only a pending, stored request made by the other
// side for that version; the log names who asked and who allowed; asking
// again is refused while a request waits, and limited to once every five
// minutes.
func TestE2EUndoConsentNeedsAPendingRequest(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	rec := h.startChallenge(chanID, "versailles")
	mover, other, side := reachPublicUndo(t, h, rec)
	version := func() int64 { return h.gameByID(rec.ID).StateVersion }
	v := version()
	board := h.turnMessage(chanID)
	forge := func(user, id string) *fakediscord.Interaction {
		fake := *board
		fake.Components = []*fakediscord.Component{{Type: 1, Components: []*fakediscord.Component{{Type: 2, CustomID: id, Label: "x", Style: 1}}}}
		return h.srv.Click(user, &fake, id)
	}
	answer := func(i *fakediscord.Interaction) string {
		t.Helper()
		text, _ := h.answer(i)
		return text
	}

	// The attack: the opponent crafts "allow undo" for the mover's
	// side with no request pending: refused, and nothing changes.
	i := forge(other, "rfop/undook/"+itoa(rec.ID)+"/"+itoa(v)+"/"+side.Key())
	assert.Contains(t, answer(i), "There is no pending undo request for this; nothing was changed.")
	assert.Equal(t, v, version())

	// The mover asks; asking again while it waits pings nobody.
	ui, _ := h.command(mover, guildID, chanID, fakediscord.SubCmd("undo"))
	assert.Contains(t, h.settled(ui).Content, "I asked them to allow the undo")
	ask, err := h.srv.WaitMessage(h.ctx, func(m *fakediscord.Message) bool {
		return m.ChannelID == chanID && strings.Contains(m.Content, "asks to take back")
	})
	require.NoError(t, err)
	asks := func() int {
		n := 0
		for _, m := range h.srv.Messages(chanID) {
			if strings.Contains(m.Content, "asks to take back") || strings.Contains(m.Content, "refused the undo") {
				n++
			}
		}
		return n
	}
	ui, _ = h.command(mover, guildID, chanID, fakediscord.SubCmd("undo"))
	assert.Contains(t, h.settled(ui).Content, "You already asked your opponent")
	assert.Equal(t, 1, asks())

	// Refused: the request is gone, so its Allow button no longer acts.
	i = h.srv.ClickLabel(other, ask, "Refuse")
	_, err = i.WaitResponse(h.ctx)
	require.NoError(t, err)
	_, err = h.srv.WaitMessage(h.ctx, func(m *fakediscord.Message) bool { return m.ID == ask.ID && strings.Contains(m.Content, "refused") })
	require.NoError(t, err)
	i = forge(other, "rfop/undook/"+itoa(rec.ID)+"/"+itoa(v)+"/"+side.Key())
	assert.Contains(t, answer(i), "There is no pending undo request")
	assert.Equal(t, v, version())

	// Asking again within five minutes is refused politely.
	ui, _ = h.command(mover, guildID, chanID, fakediscord.SubCmd("undo"))
	assert.Contains(t, h.settled(ui).Content, "You asked your opponent recently; you can ask again in")
	assert.Equal(t, 1, asks(), "no second ping")

	h.clock.Advance(6 * time.Minute)
	ui, _ = h.command(mover, guildID, chanID, fakediscord.SubCmd("undo"))
	assert.Contains(t, h.settled(ui).Content, "I asked them")
	require.True(t, h.srv.WaitFor(h.ctx, func() bool { return asks() == 2 }))
	msgs := h.srv.Messages(chanID)
	var ask2 *fakediscord.Message
	for _, m := range msgs {
		if strings.Contains(m.Content, "asks to take back") && m.ID != ask.ID {
			ask2 = m
		}
	}
	require.NotNil(t, ask2)
	i = h.srv.ClickLabel(other, ask2, "Allow undo")
	_, err = i.WaitResponse(h.ctx)
	require.NoError(t, err)
	require.True(t, h.srv.WaitFor(h.ctx, func() bool { return version() == v+1 }))
	_, err = h.srv.WaitMessage(h.ctx, func(m *fakediscord.Message) bool {
		return m.ID == ask2.ID && strings.Contains(m.Content, "<@"+other+"> allowed <@"+mover+">")
	})
	require.NoError(t, err)
	actions, err := h.store.Actions(t.Context(), rec.ID)
	require.NoError(t, err)
	last := actions[len(actions)-1]
	assert.Equal(t, mover, last.UserID, "the log names who asked")
	assert.Equal(t, other, last.AllowedBy, "and who allowed")
	assert.Contains(t, string(last.Choice), `"undo":true`)
	require.NoError(t, h.store.VerifyGame(t.Context(), rec.ID, h.b.Verify))
}
