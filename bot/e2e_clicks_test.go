package bot_test

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/rfop/rfop/bot"
	"github.com/rfop/rfop/internal/fakediscord"
	"github.com/rfop/rfop/storage"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Issue 27: who sees what, and nothing is changed before the clicker is
// allowed.

// craft sends customID from user as if it were a component of msg: what a
// tampered client could send (Discord's own clients only send the
// components a message has). The interaction carries msg as it is.
func (h *harness) craft(user string, msg *fakediscord.Message, customID string) *fakediscord.Interaction {
	fake := *msg
	comp := &fakediscord.Component{Type: discordgo.ButtonComponent, CustomID: customID, Label: "x", Style: int(discordgo.PrimaryButton)}
	if bot.IsSelectID(customID) {
		comp = &fakediscord.Component{Type: discordgo.SelectMenuComponent, CustomID: customID,
			Options: []fakediscord.SelectOption{{Label: "x", Value: "0"}}}
	}
	fake.Components = []*fakediscord.Component{{Type: discordgo.ActionsRowComponent, Components: []*fakediscord.Component{comp}}}
	if comp.Type == discordgo.SelectMenuComponent {
		return h.srv.Select(user, &fake, customID, "0")
	}
	return h.srv.Click(user, &fake, customID)
}

// seenByOthers is every message more than one member could see in the
// test's channels, and every DM, by id: its version.
func (h *harness) seenByOthers() map[string]int {
	out := map[string]int{}
	for _, ch := range []string{chanID, chan2ID, staffID} {
		for _, m := range h.srv.Messages(ch) {
			out[m.ID] = m.Version
		}
	}
	for _, u := range []string{alice, bob, carol} {
		for _, m := range h.srv.DMs(u) {
			out[m.ID] = m.Version
		}
	}
	return out
}

// Every kind of custom_id the bot emits (bot.EveryCustomID, built from the
// code's id table), sent by a member who does not play, by each player for
// each side and at the current, a past and a future version, crafted on a
// running game's public board and on a finished game's result message, for
// either game: every one is answered privately, and no message anyone
// else sees changes, nor does either game. Only the result message's own
// Rematch button, clicked by a player, may post (TestE2EHistoryStatsReplayRematch).
func TestE2EEveryButtonAuthorisesBeforeAnswering(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	ctx := context.Background()
	fin := h.startChallenge(chan2ID, "versailles")
	h.resign(bob, chan2ID, fin.ID)
	result := h.finalBoard(chan2ID, fin.ID, true)
	live := h.startChallenge(chanID, "versailles")
	board := h.turnMessage(chanID)
	require.NoError(t, h.b.WaitPublished(ctx))
	fin, live = h.gameByID(fin.ID), h.gameByID(live.ID)
	before := h.seenByOthers()
	require.Contains(t, before, board.ID)
	require.Contains(t, before, result.ID)

	clicks := 0
	for _, on := range []*fakediscord.Message{board, result} {
		for _, game := range []storage.Game{live, fin} {
			ids := map[string]bool{}
			past := max(game.StateVersion-1, 0)
			for _, v := range []int64{game.StateVersion, past, game.StateVersion + 1} {
				for _, side := range []string{"versailles", "commune"} {
					for _, id := range bot.EveryCustomID(game.ID, v, side) {
						ids[id] = true
					}
				}
			}
			for id := range ids {
				for _, user := range []string{carol, alice, bob} {
					if on.ID == result.ID && id == "rfop/rematch/"+fmtInt(fin.ID) && user != carol {
						continue // the one allowed click here
					}
					what := fmt.Sprintf("%s by %s on message %s", id, user, on.ID)
					text, private := h.answer(h.craft(user, on, id))
					clicks++
					assert.True(t, private, "%s: answered in public: %q", what, text)
					assert.NotEmpty(t, text, what)
					if !assert.Equal(t, before, h.seenByOthers(), "%s changed a message others see", what) {
						before = h.seenByOthers()
					}
					assert.Equal(t, live.StateVersion, h.gameByID(live.ID).StateVersion, what)
					assert.Equal(t, storage.StatusActive, h.gameByID(live.ID).Status, what)
					assert.Equal(t, fin.StateVersion, h.gameByID(fin.ID).StateVersion, what)
				}
			}
		}
	}
	t.Logf("%d crafted clicks", clicks)
	_, err := h.store.GameByChannel(ctx, chan2ID)
	assert.ErrorIs(t, err, storage.ErrNotFound, "no rematch was created")
	assert.Greater(t, clicks, 4*3*len(bot.EveryCustomID(1, 1, "commune")))
}

// A player's own stale choice on the public board shows their panel only
// to them: never in place of the board (issue 27's third case).
func TestE2EStaleChoiceOnTheBoardStaysPrivate(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	rec := h.startChallenge(chanID, "versailles")
	board := h.turnMessage(chanID)
	require.NoError(t, h.b.WaitPublished(context.Background()))
	before := h.seenByOthers()
	stale := "rfop/c/" + fmtInt(rec.ID) + "/" + fmtInt(rec.StateVersion+1) + "/versailles/0"
	text, private := h.answer(h.craft(alice, board, stale))
	assert.True(t, private)
	assert.Contains(t, text, "out of date", "her panel, with the note, privately")
	assert.Equal(t, before, h.seenByOthers())
	assert.Equal(t, board.Version, h.srv.Message(board.ID).Version, "the board is untouched")

	// Resigning from the board: refused, the game goes on.
	text, private = h.answer(h.craft(alice, board, "rfop/resign/"+fmtInt(rec.ID)+"/"+fmtInt(rec.StateVersion)+"/versailles"))
	assert.True(t, private)
	assert.Contains(t, text, "only on your own panel")
	assert.Equal(t, storage.StatusActive, h.gameByID(rec.ID).Status)
	// An outsider's resignation: the first case.
	text, private = h.answer(h.craft(carol, board, "rfop/resign/"+fmtInt(rec.ID)+"/"+fmtInt(rec.StateVersion)+"/versailles"))
	assert.True(t, private)
	assert.Contains(t, text, "You cannot resign this game.")
	assert.Equal(t, before, h.seenByOthers())
}

// Games in a channel a member cannot view are not shown to them anywhere:
// not in /rfop history, /rfop stats, /rfop status or /rfop replay, nor by
// a crafted Take my turn or My hand; their players and the members who
// can view the channel see them. A DM game is its player's only.
func TestE2EHiddenChannelGamesStayHidden(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	ctx := context.Background()
	// S1 in the staff channel: manager against carol, named by admin (carol
	// plays a game in a channel she cannot view); manager resigns.
	i, _ := h.command(admin, guildID, staffID, fakediscord.SubCmd("new",
		fakediscord.UserArg("opponent", carol), fakediscord.UserArg("player", manager), fakediscord.StrArg("side", "versailles")))
	require.Contains(t, h.settled(i).Content, "begins")
	h.waitBoard(staffID)
	s1 := h.game(staffID)
	h.resign(manager, staffID, s1.ID)
	// S2 running there: admin against manager.
	i, _ = h.command(admin, guildID, staffID, fakediscord.SubCmd("new",
		fakediscord.UserArg("opponent", manager), fakediscord.UserArg("player", admin)))
	require.Contains(t, h.settled(i).Content, "begins")
	h.waitBoard(staffID)
	s2 := h.game(staffID)
	// A game bob can click on, in a channel everyone views.
	live := h.startChallenge(chanID, "commune")
	board := h.turnMessage(chanID)
	// D: alice's solo game in her DMs.
	i, _ = h.command(alice, "", "", fakediscord.SubCmd("solo", fakediscord.StrArg("side", "commune")))
	h.settled(i)
	d := h.game(i.ChannelID)
	require.Empty(t, d.GuildID)
	require.NoError(t, h.b.WaitPublished(ctx))
	// A game number, not a channel mention (<#200>) nor a longer number.
	gameRef := func(id int64) *regexp.Regexp { return regexp.MustCompile(`(^|[^<\d])#` + fmtInt(id) + `(\D|$)`) }
	notShown := func(text, what string) {
		t.Helper()
		for _, id := range []int64{s1.ID, s2.ID} {
			assert.NotRegexp(t, gameRef(id), text, "%s shows game %d", what, id)
		}
		for _, s := range []string{"<@" + manager + ">", "<#" + staffID + ">"} {
			assert.NotContains(t, text, s, "%s shows %s", what, s)
		}
	}
	private := func(user string, sub fakediscord.Arg) string {
		t.Helper()
		i, resp := h.command(user, guildID, chanID, sub)
		if resp.Type == discordgo.InteractionResponseDeferredChannelMessageWithSource {
			m := h.settled(i)
			assert.True(t, m.Ephemeral())
			return m.Content
		}
		assert.True(t, resp.Ephemeral())
		return resp.Content
	}

	// History: bob sees none of the staff games; carol her own; admin, who
	// views the staff channel, all.
	text := private(bob, fakediscord.SubCmd("history"))
	notShown(text, "bob's history")
	assert.Contains(t, text, "No finished game here yet.")
	assert.Contains(t, private(carol, fakediscord.SubCmd("history")), "**#"+fmtInt(s1.ID)+"**", "a player sees her game")
	assert.Contains(t, private(admin, fakediscord.SubCmd("history")), "**#"+fmtInt(s1.ID)+"**")
	notShown(private(bob, fakediscord.SubCmd("history", fakediscord.UserArg("member", carol))), "carol's history, to bob")

	// Stats count only the games the member can see.
	text = private(bob, fakediscord.SubCmd("stats"))
	assert.Contains(t, text, "0 finished games (0 rated)")
	notShown(text, "bob's stats")
	assert.Contains(t, private(bob, fakediscord.SubCmd("stats", fakediscord.UserArg("member", carol))), "has no finished game")
	assert.Contains(t, private(carol, fakediscord.SubCmd("stats")), "1 finished game (1 rated)")
	assert.Contains(t, private(admin, fakediscord.SubCmd("stats")), "1 finished game (1 rated)")

	// Status lists neither the staff game nor its players.
	notShown(private(bob, fakediscord.SubCmd("status")), "bob's status")
	assert.Contains(t, private(admin, fakediscord.SubCmd("status")), "<#"+staffID+">")

	// Replay: the same answer as for a game that does not exist.
	for _, id := range []int64{s1.ID, d.ID, 999999} {
		text = private(bob, fakediscord.SubCmd("replay", fakediscord.IntArg("game", id)))
		assert.Equal(t, "There is no game #"+fmtInt(id)+" that you can see.", text)
	}
	// Its player sees it, privately outside its channel.
	i, resp := h.command(carol, guildID, chanID, fakediscord.SubCmd("replay", fakediscord.IntArg("game", s1.ID)))
	require.True(t, resp.Ephemeral(), "shown to her, not to the channel")
	m := h.settled(i)
	assert.NotNil(t, m.Attachment("replay-"+fmtInt(s1.ID)+".gif"), "%s", m)
	assert.True(t, m.Ephemeral())
	assert.Contains(t, private(alice, fakediscord.SubCmd("replay", fakediscord.IntArg("game", d.ID))), "is not finished",
		"alice's own DM game, from a channel")

	// Crafted Take my turn and My hand, for the running staff game and the
	// DM game: nothing of who plays or whose turn it is.
	before := h.seenByOthers()
	for _, g := range []storage.Game{s2, d} {
		for _, verb := range []string{"turn", "hand"} {
			text, priv := h.answer(h.craft(bob, board, "rfop/"+verb+"/"+fmtInt(g.ID)))
			assert.True(t, priv)
			assert.Equal(t, "There is no game #"+fmtInt(g.ID)+" that you can see; nothing was changed.", text, verb)
		}
	}
	assert.Equal(t, before, h.seenByOthers())
	// The staff game's players and viewers still get their panels.
	text, priv := h.answer(h.craft(manager, board, "rfop/turn/"+fmtInt(s2.ID)))
	assert.True(t, priv)
	assert.Contains(t, text, "#"+fmtInt(s2.ID))
	text, _ = h.answer(h.craft(carol, board, "rfop/turn/"+fmtInt(live.ID)))
	assert.Contains(t, text, "You are not playing in game #"+fmtInt(live.ID), "a visible game: who is waiting is no secret")
}

// Visibility follows the channel's permissions as they change: a member
// who loses View Channel no longer sees the channel's games listed.
func TestE2EVisibilityFollowsChannelOverwrites(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	rec := h.startChallenge(chan2ID, "commune")
	h.resign(alice, chan2ID, rec.ID)
	history := func() string {
		_, resp := h.command(carol, guildID, chanID, fakediscord.SubCmd("history"))
		return resp.Content
	}
	require.Contains(t, history(), "**#"+fmtInt(rec.ID)+"**")
	require.True(t, h.srv.SetOverwrites(chan2ID, []*discordgo.PermissionOverwrite{
		{ID: carol, Type: discordgo.PermissionOverwriteTypeMember, Deny: discordgo.PermissionViewChannel}}))
	// The bot learns it from CHANNEL_UPDATE, through discordgo's cache.
	require.True(t, h.srv.WaitFor(h.ctx, func() bool {
		ch, err := h.dg.State.Channel(chan2ID)
		if err != nil {
			return false
		}
		h.dg.State.RLock() // discordgo updates the cached channel in place
		defer h.dg.State.RUnlock()
		return len(ch.PermissionOverwrites) == 1
	}))
	assert.NotContains(t, history(), "#"+fmtInt(rec.ID))
	_, resp := h.command(alice, guildID, chanID, fakediscord.SubCmd("history"))
	assert.Contains(t, resp.Content, "**#"+fmtInt(rec.ID)+"**", "others still see it")
	assert.True(t, strings.HasPrefix(resp.Content, "**Finished games"))
}
