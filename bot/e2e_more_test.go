package bot_test

import (
	"bytes"
	"context"
	"log"
	"log/slog"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rfop/rfop/bot"
	"github.com/rfop/rfop/engine"
	"github.com/rfop/rfop/internal/fakediscord"
	"github.com/rfop/rfop/internal/testctx"
	"github.com/rfop/rfop/storage"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Reminders: the player to act is mentioned once after the guild's
// interval, then at most once per interval.
func TestE2EReminders(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	rec := h.startChallenge(chanID, "versailles")
	count := func() int {
		n := 0
		for _, m := range h.srv.Messages(chanID) {
			if strings.Contains(m.Content, "is waiting for you") {
				n++
			}
		}
		return n
	}
	h.b.Remind(t.Context())
	assert.Equal(t, 0, count(), "nothing is due yet")
	h.clock.Advance(25 * time.Hour)
	h.b.Remind(t.Context())
	require.Equal(t, 1, count())
	last := h.srv.LastMessage(chanID)
	assert.Contains(t, last.Content, "<@"+alice+">")
	assert.Contains(t, last.Content, "<@"+bob+">", "both choose their objective at once")
	h.b.Remind(t.Context())
	assert.Equal(t, 1, count(), "at most one reminder per interval")
	h.clock.Advance(25 * time.Hour)
	h.b.Remind(t.Context())
	assert.Equal(t, 2, count())

	// The interval is the guild's setting; 0 turns reminders off.
	_, resp := h.command(manager, guildID, chanID, fakediscord.SubCmd("settings", fakediscord.IntArg("reminder_hours", 0)))
	assert.Contains(t, resp.Content, "reminders off")
	h.clock.Advance(100 * time.Hour)
	h.b.Remind(t.Context())
	assert.Equal(t, 2, count())
	_ = rec
}

// A deleted channel archives its game.
func TestE2EDeletedChannelArchivesGame(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	rec := h.startChallenge(chan2ID, "commune")
	require.True(t, h.srv.DeleteChannel(chan2ID))
	require.True(t, h.srv.WaitFor(h.ctx, func() bool { return h.gameByID(rec.ID).Status == storage.StatusAbandoned }))
}

// Challenges: only the invitee accepts; the challenger may withdraw.
func TestE2EChallengeAnswers(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	_, resp := h.command(alice, guildID, chanID, fakediscord.SubCmd("new", fakediscord.UserArg("opponent", bob)))
	i := h.srv.ClickLabel(carol, resp.Message, "Accept")
	f, err := i.WaitFollowup(h.ctx, nil)
	require.NoError(t, err)
	assert.True(t, f.Ephemeral())
	assert.Contains(t, f.Content, "Only <@"+bob+">")
	_, busy := h.command(carol, guildID, chanID, fakediscord.SubCmd("new", fakediscord.UserArg("opponent", alice)))
	assert.Contains(t, busy.Content, "already has a game")
	i = h.srv.ClickLabel(alice, resp.Message, "Decline")
	_, err = i.WaitResponse(h.ctx)
	require.NoError(t, err)
	m, err := h.srv.WaitMessage(h.ctx, func(m *fakediscord.Message) bool {
		return m.ID == resp.Message.ID && strings.Contains(m.Content, "declined or withdrawn")
	})
	require.NoError(t, err)
	assert.Empty(t, m.AllComponents(), "the challenge's buttons are gone")
	_, err = h.store.GameByChannel(t.Context(), chanID)
	assert.ErrorIs(t, err, storage.ErrNotFound)
}

// The informational commands answer privately and reveal nothing.
func TestE2EInfoCommands(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.startChallenge(chanID, "versailles")

	_, resp := h.command(carol, guildID, chanID, fakediscord.SubCmd("rules", fakediscord.StrArg("topic", "military")))
	assert.True(t, resp.Ephemeral())
	assert.Contains(t, resp.Content, "p. 6")

	i := h.srv.Autocomplete(carol, guildID, chanID, "rfop", fakediscord.SubCmd("card", fakediscord.StrArg("name", "louise").Focus()))
	ac, err := i.WaitResponse(h.ctx)
	require.NoError(t, err)
	require.NotEmpty(t, ac.Choices)
	assert.Contains(t, ac.Choices[0].Name, "Louise Michel")

	i, resp = h.command(carol, guildID, chanID, fakediscord.SubCmd("card", fakediscord.StrArg("name", "27")))
	m := h.settled(i)
	assert.True(t, m.Ephemeral())
	assert.Contains(t, m.Content, "provisional")
	assert.NotNil(t, m.Attachment("card-27.png"))

	_, resp = h.command(carol, guildID, chanID, fakediscord.SubCmd("status"))
	assert.Contains(t, resp.Content, "Round 1")

	_, resp = h.command(carol, guildID, chanID, fakediscord.SubCmd("log", fakediscord.IntArg("count", 5)))
	assert.True(t, resp.Ephemeral())
	assert.NotContains(t, resp.Content, "🔒", "a spectator sees no private lines")

	_, resp = h.command(carol, guildID, chanID, fakediscord.SubCmd("help"))
	assert.Contains(t, resp.Content, "Take my turn")

	i, _ = h.command(carol, guildID, chanID, fakediscord.SubCmd("board"))
	assert.True(t, h.settled(i).Ephemeral(), "the board is posted as a channel message; the answer is private")
	assert.NotNil(t, h.requireOneLiveBoard(chanID).Attachment("board.png"))

	_, resp = h.command(carol, guildID, chanID, fakediscord.SubCmd("settings", fakediscord.IntArg("reminder_hours", 2)))
	assert.Contains(t, resp.Content, "Only members with Manage Server")
}

// Undo: while still deciding, a player takes a choice back at once; once
// the opponent could have seen it, the opponent must agree.
func TestE2EUndoAndResign(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	rec := h.startChallenge(chanID, "versailles")
	r := rand.New(rand.NewPCG(2, 2))
	// Both choose objectives and the initiative is decided, up to the
	// first card play.
	h.playUntil(rec.ID, chanID, []string{alice, bob}, r, func(g storage.Game) bool {
		_, ok := h.engineGame(g).PromptFor(h.engineGame(g).S.First)
		return ok && h.engineGame(g).Prompts()[0].Kind == engine.PromptPlay
	})
	g := h.engineGame(h.gameByID(rec.ID))
	mover, side := alice, "versailles"
	if g.S.First == engine.Commune {
		mover, side = bob, "commune"
	}
	// The first player plays a card for momentum: nothing hidden is revealed.
	i := h.srv.ClickLabel(mover, h.turnMessage(chanID), "Take my turn")
	resp0, err := i.WaitResponse(h.ctx)
	require.NoError(t, err)
	_, selects := choiceComponents(resp0.Message)
	require.NotEmpty(t, selects)
	value := ""
	for _, o := range selects[0].Options {
		if strings.Contains(o.Label, "to advance") {
			value = o.Value
		}
	}
	require.NotEmpty(t, value)
	before := h.gameByID(rec.ID).StateVersion
	i = h.srv.Select(mover, resp0.Message, selects[0].CustomID, value)
	_, err = i.WaitResponse(h.ctx)
	require.NoError(t, err)
	require.True(t, h.srv.WaitFor(h.ctx, func() bool { return h.gameByID(rec.ID).StateVersion == before+1 }))
	_, err = h.srv.WaitMessage(h.ctx, func(m *fakediscord.Message) bool {
		return m.ID == resp0.Message.ID && strings.Contains(m.Content, "Done")
	})
	require.NoError(t, err, "the chain ended: the board is public")
	g = h.engineGame(h.gameByID(rec.ID))
	require.True(t, g.CanUndo(g.S.First))
	before = h.gameByID(rec.ID).StateVersion
	ui, _ := h.command(mover, guildID, chanID, fakediscord.SubCmd("undo"))
	assert.True(t, h.settled(ui).Ephemeral())
	other := bob
	if mover == bob {
		other = alice
	}
	ask, err := h.srv.WaitMessage(h.ctx, func(m *fakediscord.Message) bool {
		return m.ChannelID == chanID && strings.Contains(m.Content, "asks to take back")
	})
	require.NoError(t, err, "the opponent is asked")
	assert.Equal(t, []string{other}, ask.Notified)
	i = h.srv.ClickLabel(mover, ask, "Allow undo")
	rr, err := i.WaitFollowup(h.ctx, nil)
	require.NoError(t, err)
	assert.Contains(t, rr.Content, "Only", "the asker cannot consent for the opponent")
	i = h.srv.ClickLabel(other, ask, "Allow undo")
	_, err = i.WaitResponse(h.ctx)
	require.NoError(t, err)
	require.True(t, h.srv.WaitFor(h.ctx, func() bool { return h.gameByID(rec.ID).StateVersion == before+1 }))
	g = h.engineGame(h.gameByID(rec.ID))
	_, again := g.PromptFor(g.S.First)
	assert.True(t, again, "%s decides again", side)

	_, resp := h.command(alice, guildID, chanID, fakediscord.SubCmd("resign"))
	i = h.srv.ClickLabel(alice, resp.Message, "Yes, resign")
	_, err = i.WaitResponse(h.ctx)
	require.NoError(t, err)
	require.True(t, h.srv.WaitFor(h.ctx, func() bool { return h.gameByID(rec.ID).Status == storage.StatusFinished }))
	assert.Equal(t, "resigned", resultOf(t, h.gameByID(rec.ID)).Reason)
}

// The real Run, pointed at the fake with DISCORD_API_BASE's setting:
// connects, registers commands, serves, and shuts down cleanly; nothing it
// or discordgo logs, even at debug level, contains the token (issue #7).
func TestRunAgainstFakeDiscord(t *testing.T) {
	t.Parallel()
	const token = "MTk4NjIyNDgzNDcxOTI1MjQ4.Cl2FMQ.ZnCjm1XVW7vRze4b7Cq4se7kKWs"
	var logs syncBuffer
	stdlog := log.Writer()
	log.SetOutput(&logs) // discordgo logs through the standard library's log
	t.Cleanup(func() { log.SetOutput(stdlog) })
	logger := slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))

	wait := testctx.Context(t)
	srv := fakediscord.New(t, defaultGuild(), botAPIVersion(), discordSpec(t))
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		done <- bot.Run(ctx, bot.Config{Token: token, DBPath: filepath.Join(t.TempDir(), "db", "rfop.db"), Log: logger,
			APIBase: srv.URL(), Pictures: newStubPictures(), Solo: bot.DefaultSolo(), Ready: func() { close(ready) }})
	}()
	select {
	case <-ready:
	case err := <-done:
		t.Fatalf("Run stopped: %v", err)
	case <-wait.Done():
		t.Fatal("Run did not become ready")
	}
	require.NotEmpty(t, srv.Commands(""), "commands registered globally")
	i := srv.SlashCommand(alice, guildID, chanID, "rfop", fakediscord.SubCmd("help"))
	resp, err := i.WaitResponse(wait)
	require.NoError(t, err)
	assert.Contains(t, resp.Content, "Red Flag Over Paris")
	cancel()
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-wait.Done():
		t.Fatal("Run did not shut down")
	}
	out := logs.String()
	assert.Contains(t, out, `"msg":"ready"`, "the health line")
	assert.NotContains(t, out, token)
	assert.NotContains(t, out, strings.Split(token, ".")[2], "not even its secret part")
}

// syncBuffer is a bytes.Buffer safe for the goroutines that log.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestE2EObjectiveFromDM: each round's objective choice arrives by DM with
// its own buttons; a DM choice made after the opponent already chose (the
// game version moved on) is still accepted, since only the other side acted.
func TestE2EObjectiveFromDM(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	rec := h.startChallenge(chanID, "versailles")
	dmOf := func(user string) *fakediscord.Message {
		m, err := h.srv.WaitMessage(h.ctx, func(m *fakediscord.Message) bool {
			return m.ChannelID == h.srv.DMChannelID(user) && strings.Contains(m.Content, "Your hand")
		})
		require.NoError(t, err, "%s got no DM", user)
		return m
	}
	aliceDM, bobDM := dmOf(alice), dmOf(bob)
	assert.NotNil(t, aliceDM.Attachment("hand.png"))
	v0 := h.gameByID(rec.ID).StateVersion
	for _, turn := range []struct {
		user string
		dm   *fakediscord.Message
	}{{alice, aliceDM}, {bob, bobDM}} {
		i := h.clickFirst(turn.user, turn.dm)
		_, err := i.WaitResponse(h.ctx)
		require.NoError(t, err)
		_, err = h.srv.WaitMessage(h.ctx, func(m *fakediscord.Message) bool {
			return m.ID == turn.dm.ID && m.Version > turn.dm.Version
		})
		require.NoError(t, err)
	}
	require.True(t, h.srv.WaitFor(h.ctx, func() bool { return h.gameByID(rec.ID).StateVersion == v0+2 }),
		"both objectives chosen from the DMs")
	g := h.engineGame(h.gameByID(rec.ID))
	assert.NotZero(t, g.S.Objective[0])
	assert.NotZero(t, g.S.Objective[1])
}
