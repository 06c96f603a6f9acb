package bot_test

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rfop/rfop/bot"
	"github.com/rfop/rfop/internal/fakediscord"
	"github.com/rfop/rfop/storage"
)

// notifications are what told a member that a game waits for them: the
// messages that pinged them (a board, a result) and the turn, reminder
// and digest DMs. Hand DMs are the hand itself, not a notification.
type notifications struct {
	pings, turnDMs, digests []*fakediscord.Message
}

func (n notifications) total() int { return len(n.pings) + len(n.turnDMs) + len(n.digests) }

func (h *harness) notificationsOf(user, channel string) notifications {
	var n notifications
	for _, m := range h.srv.Messages(channel) {
		first := h.srv.MessageHistory(m.ID)[0]
		if !boardTitle.MatchString(first.Content) && !strings.Contains(first.Content, "is over") {
			continue // a challenge calls its invitee; it is not a game's notification
		}
		if slices.Contains(first.Notified, user) {
			n.pings = append(n.pings, first)
		}
	}
	for _, m := range h.srv.DMs(user) {
		switch {
		case strings.HasPrefix(m.Content, "🔔") || strings.HasPrefix(m.Content, "⏰"):
			n.turnDMs = append(n.turnDMs, m)
		case strings.HasPrefix(m.Content, "📬"):
			n.digests = append(n.digests, m)
		}
	}
	return n
}

// hasDecision: the user has a decision in the game now.
func (h *harness) hasDecision(rec storage.Game, user string) bool {
	g := h.engineGame(h.gameByID(rec.ID))
	for _, p := range g.Prompts() {
		if pl, ok := rec.Player(storage.Side(p.Side.Key())); ok && pl.UserID == user {
			return true
		}
	}
	return false
}

// For each preference, a whole game between alice (who chose it) and bob,
// the players taking their time (gap between turns): alice is told
// exactly once per hand-over, as she chose (a mention on the board, or a
// DM), or gets one digest a day at most, or nothing at all.
func TestE2ENotificationsFollowThePreference(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		how storage.Notify
		gap time.Duration // between two players' turns
	}{
		{storage.NotifyMention, 10 * time.Minute},
		{storage.NotifyDM, 10 * time.Minute},
		{storage.NotifyDigest, 3 * time.Hour},
		{storage.NotifyOff, 10 * time.Minute},
	} {
		t.Run(string(tc.how), func(t *testing.T) {
			t.Parallel()
			h := newHarnessWith(t, newStubPictures(), defaultGuild())
			_, resp := h.command(alice, guildID, chanID, fakediscord.SubCmd("notify", fakediscord.StrArg("how", string(tc.how))))
			require.True(t, resp.Ephemeral())
			prefs, err := h.store.MemberPrefs(h.ctx, alice)
			require.NoError(t, err)
			require.Equal(t, tc.how, prefs.Notify)

			rec := h.startChallenge(chanID, "versailles")
			r := rand.New(rand.NewPCG(11, 12))
			seen, handOvers := 0, 0
			var digestAt []time.Time
			for round := 0; round < 2000 && h.gameByID(rec.ID).Status == storage.StatusActive; round++ {
				for _, u := range []string{alice, bob} {
					h.clock.Advance(tc.gap)
					h.b.Remind(h.ctx) // due work: reminders, digests
					now := h.notificationsOf(alice, chanID)
					if n := len(now.digests); n > len(digestAt) {
						for range n - len(digestAt) {
							digestAt = append(digestAt, h.clock.Now())
						}
					}
					if u == alice && h.gameByID(rec.ID).Status == storage.StatusActive && h.hasDecision(rec, alice) {
						handOvers++
						switch tc.how {
						case storage.NotifyMention, storage.NotifyDM:
							require.Equal(t, seen+1, now.total(), "turn %d: one notification since alice's last decision", handOvers)
						}
						seen = now.total()
					}
					h.takeTurn(u, chanID, r)
				}
			}
			require.Equal(t, storage.StatusFinished, h.gameByID(rec.ID).Status)
			got := h.notificationsOf(alice, chanID)
			require.Greater(t, handOvers, 10)
			switch tc.how {
			case storage.NotifyMention:
				assert.Empty(t, got.turnDMs)
				assert.Empty(t, got.digests)
			case storage.NotifyDM:
				assert.Empty(t, got.pings, "no mention, not even the result")
				assert.Empty(t, got.digests)
				assert.Contains(t, got.turnDMs[0].Content, "your turn")
				assert.Contains(t, got.turnDMs[0].Content, "https://discord.com/channels/"+guildID+"/"+chanID+"/")
			case storage.NotifyDigest:
				assert.Empty(t, got.pings)
				assert.Empty(t, got.turnDMs)
				require.NotEmpty(t, got.digests, "a game over days sends digests")
				assert.Contains(t, got.digests[0].Content, "game is waiting for you")
				for k := 1; k < len(digestAt); k++ {
					assert.GreaterOrEqual(t, digestAt[k].Sub(digestAt[k-1]), 23*time.Hour, "digest %d: at most one a day", k)
				}
			case storage.NotifyOff:
				assert.Zero(t, got.total(), "nothing when off")
			}
		})
	}
}

// Quick replies: players who answer within minutes are not notified of
// the turns they are already playing; only the game's start calls them.
func TestE2ENoNotificationWhilePlaying(t *testing.T) {
	t.Parallel()
	h := newHarnessWith(t, newStubPictures(), defaultGuild())
	rec := h.startChallenge(chanID, "versailles")
	r := rand.New(rand.NewPCG(5, 6))
	for range 12 {
		h.takeTurn(alice, chanID, r)
		h.takeTurn(bob, chanID, r)
	}
	require.Greater(t, len(h.boardMessages(chanID)), 6, "the game went on")
	for _, u := range []string{alice, bob} {
		got := h.notificationsOf(u, chanID)
		assert.Len(t, got.pings, 1, "%s: only the start's board mentions them", u)
		assert.Empty(t, got.turnDMs)
	}
	_ = rec
}

// Reminders follow the preference (a DM for a member who chose DMs,
// nothing when off) and stop after three while nobody moves.
func TestE2ERemindersAreBoundedAndFollowThePreference(t *testing.T) {
	t.Parallel()
	h := newHarnessWith(t, newStubPictures(), defaultGuild())
	h.command(bob, guildID, chanID, fakediscord.SubCmd("notify", fakediscord.StrArg("how", "dm")))
	h.startChallenge(chanID, "versailles") // both choose their objective: both wait
	reminders := func() int {
		n := 0
		for _, m := range h.srv.Messages(chanID) {
			if strings.Contains(m.Content, "is waiting for you") {
				n++
			}
		}
		return n
	}
	for day := 1; day <= 6; day++ {
		h.clock.Advance(24*time.Hour + time.Minute)
		h.b.Remind(h.ctx)
	}
	assert.Equal(t, 3, reminders(), "three reminders, then the game waits")
	got := h.notificationsOf(bob, chanID)
	assert.Empty(t, got.pings, "bob chose DMs")
	require.Len(t, got.turnDMs, 4, "bob's call at the start and his three reminders come by DM")
	assert.Contains(t, got.turnDMs[0].Content, "your turn")
	assert.Contains(t, got.turnDMs[3].Content, "Reminder")
	assert.Len(t, h.notificationsOf(alice, chanID).pings, 4, "alice: the start and three reminders")
}

// /rfop notify without a choice says the current one; the choice is the
// member's everywhere, also asked in DMs.
func TestE2ENotifyCommandShowsAndStoresTheChoice(t *testing.T) {
	t.Parallel()
	h := newHarnessWith(t, newStubPictures(), defaultGuild())
	_, resp := h.command(carol, guildID, chanID, fakediscord.SubCmd("notify"))
	assert.True(t, resp.Ephemeral())
	assert.Contains(t, resp.Content, "mentions you")
	_, resp = h.command(carol, "", "", fakediscord.SubCmd("notify", fakediscord.StrArg("how", "digest")))
	assert.Contains(t, resp.Content, "Once a day")
	assert.Contains(t, resp.Content, "<t:")
	_, resp = h.command(carol, guildID, chanID, fakediscord.SubCmd("notify"))
	assert.Contains(t, resp.Content, "Once a day")
	_, resp = h.command(carol, guildID, chanID, fakediscord.SubCmd("notify", fakediscord.StrArg("how", "off")))
	assert.Contains(t, resp.Content, "will not tell you")
}

// The registration carries both installs and the three contexts, and each
// subcommand is allowed where the issue says: the personal and
// information commands everywhere, the game commands where a game can be,
// challenges and settings in servers only.
func TestE2ERegistrationForServerAndUserInstalls(t *testing.T) {
	t.Parallel()
	h := newHarnessWith(t, newStubPictures(), defaultGuild())
	cmds := h.srv.Commands("")
	require.Len(t, cmds, 1)
	c := cmds[0]
	require.NotNil(t, c.IntegrationTypes)
	assert.ElementsMatch(t, []discordgo.ApplicationIntegrationType{discordgo.ApplicationIntegrationGuildInstall,
		discordgo.ApplicationIntegrationUserInstall}, *c.IntegrationTypes)
	require.NotNil(t, c.Contexts)
	assert.ElementsMatch(t, []discordgo.InteractionContextType{discordgo.InteractionContextGuild,
		discordgo.InteractionContextBotDM, discordgo.InteractionContextPrivateChannel}, *c.Contexts)
	all := []discordgo.InteractionContextType{0, 1, 2}
	games := []discordgo.InteractionContextType{0, 1}
	server := []discordgo.InteractionContextType{0}
	want := map[string][]discordgo.InteractionContextType{
		"solo": all, "ai": all, "hint": all, "status": all, "history": all, "stats": all, "help": all,
		"rules": all, "card": all, "notify": all, "away": all, "back": all,
		"board": games, "hand": games, "turn": games, "log": games, "resign": games, "undo": games,
		"abandon": games, "replay": games, "analysis": games,
		"new": server, "settings": server,
	}
	for _, s := range c.Options {
		assert.Equal(t, want[s.Name], bot.SubcommandContexts(s.Name), "/rfop %s", s.Name)
	}
	assert.Len(t, c.Options, len(want), "every subcommand has its contexts")

	// Where the bot cannot post (a group DM, through the user install),
	// the information commands answer and the server's refuse, privately.
	in := fakediscord.Where{UserInstall: true, Private: true}
	i := h.srv.SlashCommandWhere(alice, "", "", in, "rfop", fakediscord.SubCmd("rules", fakediscord.StrArg("topic", "military")))
	text, private := h.answer(i)
	assert.True(t, private)
	assert.Contains(t, text, "p. 6")
	i = h.srv.SlashCommandWhere(alice, "", "", in, "rfop", fakediscord.SubCmd("new", fakediscord.UserArg("opponent", bob)))
	text, private = h.answer(i)
	assert.True(t, private)
	assert.Contains(t, text, "works in a server channel where I am installed")
	i = h.srv.SlashCommandWhere(alice, "", "", in, "rfop", fakediscord.SubCmd("turn"))
	text, _ = h.answer(i)
	assert.Contains(t, text, "your DM with me")
}

// A user-installed /rfop solo in the bot's DM plays the whole game there.
func TestE2EUserInstalledSoloInTheBotsDM(t *testing.T) {
	t.Parallel()
	h := newHarnessWith(t, newStubPictures(), defaultGuild())
	i := h.srv.SlashCommandWhere(alice, "", "", fakediscord.Where{UserInstall: true}, "rfop",
		fakediscord.SubCmd("solo", fakediscord.StrArg("side", "versailles")))
	text, _ := h.answer(i)
	require.Contains(t, text, "Solo game #")
	dm := i.ChannelID
	rec := h.game(dm)
	require.Empty(t, rec.GuildID)
	rec = h.playUntil(rec.ID, dm, []string{alice}, rand.New(rand.NewPCG(8, 9)), func(storage.Game) bool { return false })
	require.Equal(t, storage.StatusFinished, rec.Status)
	assert.Contains(t, h.srv.LastMessage(dm).Content, resultOf(t, rec).Winner.String())
	assert.Empty(t, h.srv.Messages(chanID), "nothing in the server")
}

// Asked in a group DM (the user install), /rfop ai starts the game in the
// bot's DM and says where it is.
func TestE2EUserInstalledAIFromAGroupDMMovesToTheBotsDM(t *testing.T) {
	t.Parallel()
	h := newHarnessWith(t, newStubPictures(), defaultGuild())
	i := h.srv.SlashCommandWhere(alice, "", "", fakediscord.Where{UserInstall: true, Private: true}, "rfop",
		fakediscord.SubCmd("ai", fakediscord.StrArg("side", "commune"), fakediscord.StrArg("level", "easy")))
	text, private := h.answer(i)
	assert.True(t, private)
	require.Contains(t, text, "is in your DM with me: https://discord.com/channels/@me/")
	dm := h.srv.DMs(alice)
	require.NotEmpty(t, dm)
	rec := h.game(dm[0].ChannelID)
	assert.Empty(t, rec.GuildID)
	assert.NotEqual(t, i.ChannelID, rec.ChannelID, "not in the group DM")
	_, err := h.srv.WaitMessage(h.ctx, func(m *fakediscord.Message) bool {
		return m.ChannelID == rec.ChannelID && m.Button("Take my turn") != nil
	})
	require.NoError(t, err, "the board is in the bot's DM")
}

// A server that never invited the bot, where a member uses the app
// through their own install (fakediscord.Guild.WithoutBot).
const (
	aloneGuildID = "110"
	aloneChanID  = "270"
)

func guildWithoutBot() fakediscord.Option {
	return fakediscord.WithGuild(fakediscord.Guild{ID: aloneGuildID, Name: "Montmartre", OwnerID: owner, WithoutBot: true,
		Channels: []fakediscord.Channel{{ID: aloneChanID, Name: "general"}},
		Members:  []fakediscord.Member{{UserID: alice, Username: "alice"}, {UserID: owner, Username: "owner"}}})
}

// Asked through the user install in a server where the bot is not a
// member, /rfop solo and /rfop ai start the game in the member's DM with
// the bot and answer, privately, with a link to it; the bot posts nothing
// in that server (it cannot) and the game plays in the DM. The commands
// that need the bot in a server refuse, privately.
func TestE2EUserInstalledGameFromAServerWithoutTheBot(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		sub  fakediscord.Arg
	}{
		{"solo", fakediscord.SubCmd("solo", fakediscord.StrArg("side", "versailles"))},
		{"ai", fakediscord.SubCmd("ai", fakediscord.StrArg("side", "commune"), fakediscord.StrArg("level", "easy"))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarnessWith(t, newStubPictures(), defaultGuild(), guildWithoutBot())
			i := h.srv.SlashCommandWhere(alice, aloneGuildID, aloneChanID, fakediscord.Where{UserInstall: true}, "rfop", tc.sub)
			text, private := h.answer(i)
			assert.True(t, private, "answered privately")
			dm := h.srv.DMs(alice)
			require.NotEmpty(t, dm, "the game is in alice's DM with the bot")
			dmID := dm[0].ChannelID
			assert.Contains(t, text, "is in your DM with me: https://discord.com/channels/@me/"+dmID)
			rec := h.game(dmID)
			assert.Empty(t, rec.GuildID, "a DM game")
			assert.NotEqual(t, aloneChanID, rec.ChannelID)
			_, err := h.srv.WaitMessage(h.ctx, func(m *fakediscord.Message) bool {
				return m.ChannelID == dmID && m.Button("Take my turn") != nil
			})
			require.NoError(t, err, "the board is in the DM")
			require.NoError(t, h.b.WaitPublished(h.ctx))
			v := h.gameByID(rec.ID).StateVersion
			require.True(t, h.takeTurn(alice, dmID, rand.New(rand.NewPCG(24, 4))), "alice plays in the DM")
			assert.Greater(t, h.gameByID(rec.ID).StateVersion, v)

			for _, m := range h.srv.Messages(aloneChanID) {
				assert.NotEmpty(t, m.EphemeralTo, "nothing public in the server without the bot: %q", m.Content)
			}
			for _, r := range h.srv.Requests() {
				assert.NotContains(t, r.Path, "/channels/"+aloneChanID, "the bot does not try the server's channel")
				assert.NotContains(t, r.Path, "/guilds/"+aloneGuildID, "nor the server")
			}

			// What needs the bot in the server says so.
			i = h.srv.SlashCommandWhere(alice, aloneGuildID, aloneChanID, fakediscord.Where{UserInstall: true}, "rfop",
				fakediscord.SubCmd("new", fakediscord.UserArg("opponent", owner)))
			text, private = h.answer(i)
			assert.True(t, private)
			assert.Contains(t, text, "works in a server channel where I am installed")
		})
	}
}

// When Discord refuses the DM (no mutual server, or closed DMs), the
// answer says what to do; the game is saved and waits, and its board
// arrives once the member can be written to.
func TestE2EARefusedDMIsExplained(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		refuse func(*fakediscord.Server, string)
		want   string
	}{
		{"no mutual server (50278)", (*fakediscord.Server).NoMutualGuilds, "only once we share a server"},
		{"closed DMs (50007)", (*fakediscord.Server).CloseDMs, "privacy settings refuse my messages"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarnessWith(t, newStubPictures(), defaultGuild())
			tc.refuse(h.srv, alice)
			i := h.srv.SlashCommandWhere(alice, "", "", fakediscord.Where{UserInstall: true, Private: true}, "rfop",
				fakediscord.SubCmd("solo", fakediscord.StrArg("side", "commune")))
			text, private := h.answer(i)
			assert.True(t, private)
			assert.Contains(t, text, tc.want)
			assert.Contains(t, text, "is saved and waits")
			games, err := h.store.ActiveGamesOf(h.ctx, alice)
			require.NoError(t, err)
			require.Len(t, games, 1, "the game is kept")
			h.srv.OpenDMs(alice)
			h.b.Redeliver(h.ctx)
			_, err = h.srv.WaitMessage(h.ctx, func(m *fakediscord.Message) bool {
				return m.ChannelID == games[0].ChannelID && m.Button("Take my turn") != nil
			})
			require.NoError(t, err, "the board arrives once DMs are possible")
		})
	}
}

// lastMover is the member who made the game's last move ("" if none).
func (h *harness) lastMover(gameID int64) string {
	h.t.Helper()
	acts, err := h.store.Actions(h.ctx, gameID)
	require.NoError(h.t, err)
	if len(acts) == 0 {
		return ""
	}
	return acts[len(acts)-1].UserID
}

// calledAfter are the deciders a new board mentions after mover's chain
// when the players take their time: all but the mover, who is at the
// table.
func calledAfter(deciders []string, mover string) []string {
	var out []string
	for _, u := range deciders {
		if u != mover {
			out = append(out, u)
		}
	}
	return out
}

// TestE2EADMChannelIsOpenedOncePerPlayer: the bot opens a player's DM
// channel (POST /users/@me/channels) once and writes there from then on:
// discordgo runs that route's requests one at a time, so under a burst
// every hand DM of every game waited in one line for it (issue 30). Two
// deals of hand DMs to both players open two channels in all.
func TestE2EADMChannelIsOpenedOncePerPlayer(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	rec := h.startChallenge(chanID, "versailles")
	r := rand.New(rand.NewPCG(31, 7))
	h.playUntil(rec.ID, chanID, []string{alice, bob}, r, func(g storage.Game) bool { return h.engineGame(g).S.Round >= 2 })
	require.NoError(t, h.b.WaitPublished(h.ctx))
	for _, u := range []string{alice, bob} {
		hands := 0
		for _, m := range h.srv.DMs(u) {
			if len(m.Attachments) > 0 {
				hands++
			}
		}
		assert.GreaterOrEqual(t, hands, 2, "%s got a hand DM at each deal", u)
	}
	opened := 0
	for _, req := range h.srv.Requests() {
		if req.Method == "POST" && req.Path == "/users/@me/channels" {
			opened++
		}
	}
	assert.Equal(t, 2, opened, "one DM channel opened for each player")
}
