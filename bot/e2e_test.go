package bot_test

import (
	"database/sql"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/rfop/rfop/engine"
	"github.com/rfop/rfop/internal/fakediscord"

	"github.com/rfop/rfop/storage"
	"github.com/rfop/rfop/storage/storagetest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestE2ETwoPlayerGame: two members play a complete game from /rfop new to
// the result, by clicking only, in a server channel. Every live board
// carries exactly one PNG, superseded boards none, the final board keeps
// its picture, and the winner is announced.
func TestE2ETwoPlayerGame(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	rec := h.startChallenge(chanID, "versailles")
	r := rand.New(rand.NewPCG(1, 2))
	rec = h.playUntil(rec.ID, chanID, []string{alice, bob}, r, func(storage.Game) bool { return false })
	require.Equal(t, storage.StatusFinished, rec.Status)
	res := resultOf(t, rec)

	boards := h.boardMessages(chanID)
	versions := 0
	for k, m := range boards {
		for _, v := range h.srv.MessageHistory(m.ID) {
			versions++
			final := k == len(boards)-1 && v.Version == m.Version
			switch {
			case v.Button("Take my turn") != nil || final:
				require.Len(t, v.Attachments, 1, "a live board version has exactly one PNG (replaced, not appended)")
				img, err := v.Attachments[0].Image()
				require.NoError(t, err)
				assert.Equal(t, 1600, img.Bounds().Dx())
			default:
				require.Empty(t, v.Attachments, "a superseded board keeps its text only")
				require.Empty(t, v.AllComponents(), "a superseded board has no buttons")
			}
		}
	}
	assert.Greater(t, len(boards), 20, "a new board calls each next player")
	assert.Greater(t, versions, 2*len(boards), "boards are edited (collapsed, or updated in place)")
	// Each player's hand came by DM at the start of every round played,
	// also when they made the round's first choice before the DM went out.
	rounds := map[string]bool{}
	for _, b := range boards {
		if _, after, ok := strings.Cut(strings.SplitN(b.Content, "\n", 2)[0], " · "); ok {
			rounds[strings.TrimSuffix(after, "**")] = true
		}
	}
	require.Contains(t, rounds, "Round 1")
	require.Contains(t, rounds, "Final Crisis")
	for _, u := range []string{alice, bob} {
		got := map[string]bool{}
		for _, m := range h.srv.DMs(u) {
			for r := range rounds {
				if strings.Contains(m.Content, "— "+r+". Your hand: ") {
					got[r] = true
					assert.NotNil(t, m.Attachment("hand.png"))
				}
			}
		}
		assert.Equal(t, rounds, got, "%s's hand DMs", u)
	}
	final := boards[len(boards)-1]
	assert.Nil(t, final.Button("Take my turn"), "the final board has no live buttons")
	assert.NotNil(t, final.Attachment("board.png"), "the final board keeps its picture")
	last := h.srv.LastMessage(chanID)
	assert.Contains(t, last.Content, "is over")
	assert.Contains(t, last.Content, res.Winner.String())
	assert.Contains(t, last.Content, "<@"+alice+">")
	assert.Empty(t, h.srv.Unknown())
}

// TestE2ESoloGameInDM: a lone member plays a complete solo game in a DM;
// the solo opponent's turns run by themselves after each decision.
func TestE2ESoloGameInDM(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	i, resp := h.command(alice, "", "", fakediscord.SubCmd("solo", fakediscord.StrArg("side", "commune")))
	require.Equal(t, discordgo.InteractionResponseDeferredChannelMessageWithSource, resp.Type)
	m := h.settled(i)
	require.Contains(t, m.Content, "Solo game #")
	dm := i.ChannelID
	require.NotEmpty(t, dm)
	rec := h.game(dm)
	require.Equal(t, storage.ModeSolo, rec.Mode)
	_, err := h.srv.WaitMessage(h.ctx, func(m *fakediscord.Message) bool { return m.ChannelID == dm && m.Button("Take my turn") != nil })
	require.NoError(t, err, "the board is posted in the DM")
	r := rand.New(rand.NewPCG(3, 4))
	rec = h.playUntil(rec.ID, dm, []string{alice}, r, func(storage.Game) bool { return false })
	require.Equal(t, storage.StatusFinished, rec.Status)
	// The same publication model as in a channel: each call of the player
	// is a new board summarising their chain and the solo opponent's turn
	// after it; older boards keep only their text; the final one its picture.
	boards := h.boardMessages(dm)
	require.Greater(t, len(boards), 5)
	bot := 0
	for k, b := range boards {
		if k < len(boards)-1 {
			assert.Empty(t, b.Attachments)
			assert.Empty(t, b.AllComponents())
			// Each board is a DM; only the first mentions the player: the
			// next ones follow moves they made moments before (no
			// notification while a player is at the table).
			want := []string(nil)
			if k == 0 {
				want = []string{alice}
			}
			assert.Equal(t, want, h.srv.MessageHistory(b.ID)[0].Notified, "board %d", k)
		}
		if strings.Contains(b.Content, "Solo opponent") {
			bot++
		}
		assert.NotContains(t, b.Content, "§", "the bot's rule-table explanations stay in /rfop log")
	}
	assert.Greater(t, bot, len(boards)/2, "the bot's steps are in the boards' summaries")
	assert.NotNil(t, boards[len(boards)-1].Attachment("board.png"))
	res := resultOf(t, rec)
	assert.Contains(t, h.srv.LastMessage(dm).Content, res.Winner.String())
	// The bot's decisions are explained in the log, what it does and why,
	// naming table rows at the end.
	g := h.engineGame(rec)
	explained := 0
	for _, e := range g.S.Log {
		if line := e.English(nil); e.Msg != nil && e.Msg.ID == "engine.log.note" && strings.HasPrefix(line, "Solo opponent ") &&
			strings.Contains(line, " because ") && strings.ContainsAny(line, "0123456789") {
			explained++
		}
	}
	assert.Greater(t, explained, 10)
	assert.Empty(t, h.srv.Messages(chanID), "nothing was posted in the server")
}

// hiddenNames lists the names of cards a side could not see: hands,
// set-aside cards, objectives offered or kept but not revealed.
func hiddenNames(g *engine.Game) []string {
	s := &g.S
	var out []string
	add := func(cards []int8) {
		for _, c := range cards {
			out = append(out, g.Deck().Card(int(c)).Name)
		}
	}
	for side := 0; side < 2; side++ {
		add(s.Hand[side])
		add(s.SetAside[side])
		add(s.ObjOffer[side])
		if !s.ObjRevealed && s.Objective[side] != 0 && engine.Side(side) != s.BotSide {
			add([]int8{s.Objective[side]})
		}
	}
	return out
}

// TestE2EHiddenInfoNeverInChannel: across a whole game, no channel message
// (content, embed, attachment name) names a card that was hidden both
// before and after the decision that produced it.
func TestE2EHiddenInfoNeverInChannel(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	rec := h.startChallenge(chanID, "commune")
	r := rand.New(rand.NewPCG(5, 6))
	seen := map[string]int{}
	checkNew := func(hidden map[string]bool) {
		for _, m := range h.srv.Messages(chanID) {
			hist := h.srv.MessageHistory(m.ID)
			for _, v := range hist[seen[m.ID]:] {
				require.False(t, v.Ephemeral(), "an ephemeral message is not in the channel list")
				text := v.Content
				for _, e := range v.Embeds {
					text += e.Title + e.Description
				}
				for _, a := range v.Attachments {
					text += a.Filename
				}
				for name := range hidden {
					require.NotContains(t, text, name, "hidden card named in channel message %s", v.ID)
				}
			}
			seen[m.ID] = len(hist)
		}
	}
	for steps := 0; steps < 3000; steps++ {
		rec = h.gameByID(rec.ID)
		if rec.Status != storage.StatusActive {
			break
		}
		for _, u := range []string{alice, bob} {
			before := map[string]bool{}
			for _, n := range hiddenNames(h.engineGame(h.gameByID(rec.ID))) {
				before[n] = true
			}
			h.takeTurn(u, chanID, r)
			both := map[string]bool{}
			if cur := h.gameByID(rec.ID); cur.Status == storage.StatusActive {
				for _, n := range hiddenNames(h.engineGame(cur)) {
					if before[n] {
						both[n] = true
					}
				}
			}
			checkNew(both)
		}
	}
	require.Equal(t, storage.StatusFinished, h.gameByID(rec.ID).Status)
	// The secrets did go somewhere: by DM, with the hand picture.
	dms := h.srv.DMs(alice)
	require.NotEmpty(t, dms)
	assert.NotNil(t, dms[0].Attachment("hand.png"))
	assert.Contains(t, dms[0].Content, "Your hand")
}

// TestE2EStaleAndForeignClicks: clicks by a non-player, by the wrong player,
// on an outdated panel and with forged custom_ids change nothing and say why.
func TestE2EStaleAndForeignClicks(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	rec := h.startChallenge(chanID, "versailles")
	board := h.turnMessage(chanID)
	version := func() int64 { return h.gameByID(rec.ID).StateVersion }

	// A member who does not play.
	i := h.srv.ClickLabel(carol, board, "Take my turn")
	resp, err := i.WaitResponse(h.ctx)
	require.NoError(t, err)
	assert.True(t, resp.Ephemeral())
	assert.Contains(t, resp.Content, "You are not playing")

	// Alice opens her panel (objective choice), makes her choice; then
	// clicks the outdated version of the panel.
	i = h.srv.ClickLabel(alice, board, "Take my turn")
	resp, err = i.WaitResponse(h.ctx)
	require.NoError(t, err)
	oldPanel := resp.Message
	v0 := version()
	h.choose(alice, oldPanel, rand.New(rand.NewPCG(1, 1)))
	require.Equal(t, v0+1, version())
	i = h.clickFirst(alice, oldPanel)
	_, err = i.WaitResponse(h.ctx)
	require.NoError(t, err)
	m, err := h.srv.WaitMessage(h.ctx, func(m *fakediscord.Message) bool {
		return m.ID == oldPanel.ID && strings.Contains(m.Content, "out of date") || m.ID == oldPanel.ID && strings.Contains(m.Content, "not your decision")
	})
	require.NoError(t, err, "an outdated panel answers clearly")
	_ = m
	assert.Equal(t, v0+1, version(), "the stale click changed nothing")

	// Forged custom_ids, sent as a tampered client would (Discord shows a
	// user only their own ephemeral panels, so these come from a client
	// that invents the id).
	forge := func(user, id string) *fakediscord.Interaction {
		fake := *board
		fake.Components = []*fakediscord.Component{{Type: discordgo.ActionsRowComponent, Components: []*fakediscord.Component{{Type: discordgo.ButtonComponent, CustomID: id, Label: "x", Style: 1}}}}
		return h.srv.Click(user, &fake, id)
	}

	// The wrong player, and a non-player, pressing Bob's choice: refused.
	bobsChoice := "rfop/c/" + itoa(rec.ID) + "/" + itoa(version()) + "/commune/0"
	for _, u := range []string{alice, carol} {
		i = forge(u, bobsChoice)
		_, err = i.WaitResponse(h.ctx)
		require.NoError(t, err)
		f, err := i.WaitFollowup(h.ctx, nil)
		require.NoError(t, err)
		assert.Contains(t, f.Content, "only they can use them")
		assert.True(t, f.Ephemeral())
		assert.Equal(t, v0+1, version())
	}
	for _, id := range []string{
		"rfop/c/999/0/commune/0",      // no such game
		"rfop/c/" + itoa(rec.ID),      // malformed
		"not-ours",                    // not ours at all
		"rfop/accept/" + itoa(rec.ID), // accept an already running game
	} {
		text, _ := h.answer(forge(alice, id))
		assert.NotEmpty(t, text, "forged id %q is answered", id)
		assert.Equal(t, v0+1, version(), "forged id %q changed the game", id)
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// TestE2ERestartResumes: stop the bot mid-game, start a new one on the same
// database; the old buttons keep working and the game finishes.
func TestE2ERestartResumes(t *testing.T) {
	t.Parallel()
	restartResumes(t, newHarness(t))
}

// TestE2ERestartResumesOnPostgres: the same on PostgreSQL (RFOP_DB a
// postgres URL): a game played through the real bot, a restart, the game
// verified against its log and finished. Skipped without a server (see
// storagetest), failed under RFOP_REQUIRE_POSTGRES=1.
func TestE2ERestartResumesOnPostgres(t *testing.T) {
	t.Parallel()
	h := &harness{t: t, srv: fakediscord.New(t, defaultGuild(), botAPIVersion(), discordSpec(t)), dbPath: storagetest.PostgresURL(t), seed: 7, clock: &offsetClock{}}
	h.start()
	t.Cleanup(h.stop)
	restartResumes(t, h)
}

func restartResumes(t *testing.T, h *harness) {
	rec := h.startChallenge(chanID, "versailles")
	r := rand.New(rand.NewPCG(8, 9))
	rec = h.playUntil(rec.ID, chanID, []string{alice, bob}, r, func(g storage.Game) bool { return g.StateVersion >= 40 })
	mid := rec.StateVersion
	h.restart()
	require.Equal(t, mid, h.gameByID(rec.ID).StateVersion)
	require.NoError(t, h.store.VerifyGame(t.Context(), rec.ID, h.b.Verify), "the stored state matches a replay of its action log")
	rec = h.playUntil(rec.ID, chanID, []string{alice, bob}, r, func(storage.Game) bool { return false })
	assert.Equal(t, storage.StatusFinished, rec.Status)
}

// TestE2EAdminAbandon: a member who neither plays nor administers cannot
// abandon someone else's game; an admin can.
func TestE2EAdminAbandon(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	rec := h.startChallenge(chanID, "commune")
	_, resp := h.command(carol, guildID, chanID, fakediscord.SubCmd("abandon"))
	assert.True(t, resp.Ephemeral())
	assert.Contains(t, resp.Content, "Only a player")
	assert.Equal(t, storage.StatusActive, h.gameByID(rec.ID).Status)

	// Alice has her panel open when the admin abandons the game.
	board := h.turnMessage(chanID)
	pi := h.srv.ClickLabel(alice, board, "Take my turn")
	pr, err := pi.WaitResponse(h.ctx)
	require.NoError(t, err)
	panel := pr.Message

	i, _ := h.command(admin, guildID, chanID, fakediscord.SubCmd("abandon"))
	assert.Contains(t, h.settled(i).Content, "abandoned")
	assert.Equal(t, storage.StatusAbandoned, h.gameByID(rec.ID).Status)

	// The board's buttons are gone, the open panel says the game stopped,
	// and the channel is free for a new game.
	require.True(t, h.srv.WaitFor(h.ctx, func() bool { return len(h.srv.Message(board.ID).AllComponents()) == 0 }))
	assert.NotNil(t, h.srv.Message(board.ID).Attachment("board.png"), "the picture stays")
	i = h.clickFirst(alice, panel)
	_, err = i.WaitResponse(h.ctx)
	require.NoError(t, err)
	_, err = h.srv.WaitMessage(h.ctx, func(m *fakediscord.Message) bool {
		return m.ID == panel.ID && strings.Contains(m.Content, "not running")
	})
	require.NoError(t, err)
	h.startChallenge(chanID, "versailles")
}

// TestE2EClosedDMs: a player with closed DMs is told so in the channel,
// without any secret, and gets the hand privately instead.
func TestE2EClosedDMs(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.srv.CloseDMs(bob)
	h.startChallenge(chanID, "versailles")
	m, err := h.srv.WaitMessage(h.ctx, func(m *fakediscord.Message) bool {
		return m.ChannelID == chanID && strings.Contains(m.Content, "can't send you direct messages")
	})
	require.NoError(t, err)
	assert.Contains(t, m.Content, "<@"+bob+">")
	i := h.srv.ClickLabel(bob, m, "My hand")
	_, err = i.WaitResponse(h.ctx)
	require.NoError(t, err)
	hand := h.settled(i)
	assert.True(t, hand.Ephemeral())
	assert.Contains(t, hand.Content, "Hand:")
	assert.NotNil(t, hand.Attachment("hand.png"))
}

// TestE2ERateLimits: with 429s injected on the bot's REST calls, discordgo
// waits and retries; no move is lost or duplicated.
func TestE2ERateLimits(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	rec := h.startChallenge(chanID, "versailles")
	h.srv.RateLimit(fakediscord.Route("PATCH /webhooks/**"), 5, 30*time.Millisecond)
	h.srv.RateLimit(fakediscord.Route("POST /channels/*/messages"), 3, 30*time.Millisecond)
	h.srv.RateLimit(fakediscord.Route("PATCH /channels/*/messages/*"), 3, 30*time.Millisecond)
	r := rand.New(rand.NewPCG(10, 11))
	rec = h.playUntil(rec.ID, chanID, []string{alice, bob}, r, func(g storage.Game) bool { return g.StateVersion >= 30 })
	assert.Greater(t, h.srv.RateLimited(), 5)
	actions, err := h.store.Actions(t.Context(), rec.ID)
	require.NoError(t, err)
	assert.Equal(t, int(rec.StateVersion), len(actions), "one action per accepted move")
	for k, a := range actions {
		assert.Equal(t, int64(k+1), a.Seq)
	}
	require.NoError(t, h.store.VerifyGame(t.Context(), rec.ID, h.b.Verify))
	for _, ir := range h.srv.InteractionResponses() {
		assert.Empty(t, ir.Interaction.Errors(), "no interaction answered twice or late")
	}
}

// Issue #4 "Integrity on load": a game whose stored state does not match a
// replay of its action log is reported, not silently used. After a restart
// finds the mismatch, no move is played on it; players are told why, and
// /rfop abandon still ends it.
func TestE2EGameFailingItsIntegrityCheckIsPaused(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	rec := h.startChallenge(chanID, "versailles")
	r := rand.New(rand.NewPCG(3, 4))
	rec = h.playUntil(rec.ID, chanID, []string{alice, bob}, r, func(g storage.Game) bool { return g.StateVersion >= 6 })
	h.stop()

	// Tamper with the stored state behind the bot's back: a Versailles
	// cube moves from its pool or a space to Republicans. The state still
	// loads (every cube is accounted for) but no longer matches the log.
	db, err := sql.Open("sqlite3", h.dbPath)
	require.NoError(t, err)
	var state []byte
	require.NoError(t, db.QueryRow(`SELECT state FROM games WHERE id = ?`, rec.ID).Scan(&state))
	g, err := engine.Load(state, nil)
	require.NoError(t, err)
	from := engine.Royalists
	for g.S.Cubes[engine.Versailles][from] == 0 {
		from++
	}
	g.S.Cubes[engine.Versailles][from]--
	g.S.Cubes[engine.Versailles][engine.Republicans]++
	tampered, err := g.Save()
	require.NoError(t, err)
	_, err = db.Exec(`UPDATE games SET state = ? WHERE id = ?`, string(tampered), rec.ID)
	require.NoError(t, err)
	require.NoError(t, db.Close())

	h.start()
	require.ErrorIs(t, h.store.VerifyGame(t.Context(), rec.ID, h.b.Verify), storage.ErrIntegrity)
	version := h.gameByID(rec.ID).StateVersion

	i := h.srv.ClickLabel(alice, h.turnMessage(chanID), "Take my turn")
	resp, err := i.WaitResponse(h.ctx)
	require.NoError(t, err)
	assert.Contains(t, resp.Content, "is paused")
	assert.Contains(t, resp.Content, "/rfop abandon")
	_, resp = h.command(bob, guildID, chanID, fakediscord.SubCmd("turn"))
	assert.Contains(t, resp.Content, "is paused")
	assert.Equal(t, version, h.gameByID(rec.ID).StateVersion, "nothing was played")

	i, _ = h.command(bob, guildID, chanID, fakediscord.SubCmd("abandon"))
	assert.Contains(t, h.settled(i).Content, "abandoned")
	assert.Equal(t, storage.StatusAbandoned, h.gameByID(rec.ID).Status)
}

// tamperState moves a Versailles cube to Republicans in the stored state
// of game id, behind the bot's back: the state still loads, but no longer
// matches a replay of the log.
func tamperState(t *testing.T, dbPath string, id int64) {
	t.Helper()
	db, err := sql.Open("sqlite3", dbPath)
	require.NoError(t, err)
	defer db.Close()
	var state []byte
	require.NoError(t, db.QueryRow(`SELECT state FROM games WHERE id = ?`, id).Scan(&state))
	g, err := engine.Load(state, nil)
	require.NoError(t, err)
	from := engine.Royalists
	for g.S.Cubes[engine.Versailles][from] == 0 {
		from++
	}
	g.S.Cubes[engine.Versailles][from]--
	g.S.Cubes[engine.Versailles][engine.Republicans]++
	tampered, err := g.Save()
	require.NoError(t, err)
	_, err = db.Exec(`UPDATE games SET state = ? WHERE id = ?`, string(tampered), id)
	require.NoError(t, err)
}

// Issue 23: a reminder is the first load of its game in this process
// after a start; the game and its log are read once for both the check
// and the board, and a game tampered with while the bot was stopped is
// still caught before its board is posted: paused with the replay's
// reason, no reminder claimed, nothing posted, while an untouched game of
// the same pass is reminded (and checked) as usual.
func TestE2ETamperedGameIsCaughtBeforeItsReminder(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	r := rand.New(rand.NewPCG(23, 25))
	users := []string{alice, bob}
	a := h.startChallenge(chanID, "versailles")
	a = h.playUntil(a.ID, chanID, users, r, func(g storage.Game) bool { return g.StateVersion >= 6 })
	c := h.startChallenge(chan2ID, "commune")
	c = h.playUntil(c.ID, chan2ID, users, r, func(g storage.Game) bool { return g.StateVersion >= 6 })
	h.stop()
	tamperState(t, h.dbPath, a.ID)

	h.start()
	require.False(t, h.b.Checked(a.ID), "the start did not load game %d", a.ID)
	require.False(t, h.b.Checked(c.ID), "the start did not load game %d", c.ID)
	before := len(h.srv.Messages(chanID))
	h.clock.Advance(storage.DefaultReminderInterval + time.Hour)
	h.b.Remind(h.ctx)

	why := h.b.Paused(a.ID)
	require.ErrorIs(t, why, storage.ErrIntegrity, "the reminder checked game %d first", a.ID)
	assert.Contains(t, why.Error(), "differs from a replay of the action log")
	assert.Zero(t, reminders(h.srv, chanID), "no reminder for the tampered game")
	assert.Len(t, h.srv.Messages(chanID), before, "nothing posted from its state")
	assert.True(t, h.gameByID(a.ID).RemindedAt.IsZero(), "no reminder claimed for game %d", a.ID)

	assert.True(t, h.b.Checked(c.ID), "the reminder checked game %d", c.ID)
	assert.NoError(t, h.b.Paused(c.ID))
	assert.Equal(t, 1, reminders(h.srv, chan2ID), "the untouched game is reminded")
	assert.False(t, h.gameByID(c.ID).RemindedAt.IsZero())
}

// Issue 23: a start replays nothing, yet a game tampered with while the
// bot was stopped is caught before anyone plays on it: the start touches
// neither game, the first click on one checks it (paused, the click
// refused, nothing played, the reason the replay's), and the background
// sweep checks the other before anyone clicks.
func TestE2ETamperedGameNotTouchedAtStartIsCaughtBeforePlay(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	r := rand.New(rand.NewPCG(23, 24))
	users := []string{alice, bob}
	a := h.startChallenge(chanID, "versailles")
	a = h.playUntil(a.ID, chanID, users, r, func(g storage.Game) bool { return g.StateVersion >= 6 })
	c := h.startChallenge(chan2ID, "commune")
	c = h.playUntil(c.ID, chan2ID, users, r, func(g storage.Game) bool { return g.StateVersion >= 6 })
	h.stop()
	tamperState(t, h.dbPath, a.ID)
	tamperState(t, h.dbPath, c.ID)

	h.start()
	assert.False(t, h.b.Checked(a.ID), "the start did not load game %d", a.ID)
	assert.False(t, h.b.Checked(c.ID), "the start did not load game %d", c.ID)
	assert.NoError(t, h.b.Paused(a.ID))

	// The first click on a checks it: refused, nothing played.
	i := h.srv.ClickLabel(alice, h.turnMessage(chanID), "Take my turn")
	resp, err := i.WaitResponse(h.ctx)
	require.NoError(t, err)
	assert.Contains(t, resp.Content, "is paused")
	why := h.b.Paused(a.ID)
	require.ErrorIs(t, why, storage.ErrIntegrity)
	assert.Contains(t, why.Error(), "differs from a replay of the action log")
	assert.Equal(t, a.StateVersion, h.gameByID(a.ID).StateVersion, "nothing was played on game %d", a.ID)

	// The sweep finds c before anyone clicks (a is checked already).
	swept, failed := h.b.Sweep(h.ctx, 1)
	assert.Equal(t, 1, swept)
	assert.Equal(t, 1, failed)
	require.ErrorIs(t, h.b.Paused(c.ID), storage.ErrIntegrity)
	_, resp = h.command(bob, guildID, chan2ID, fakediscord.SubCmd("turn"))
	assert.Contains(t, resp.Content, "is paused")
	assert.Equal(t, c.StateVersion, h.gameByID(c.ID).StateVersion, "nothing was played on game %d", c.ID)
}
