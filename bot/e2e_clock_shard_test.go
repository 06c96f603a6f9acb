package bot_test

import (
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rfop/rfop/bot"
	"github.com/rfop/rfop/engine"
	"github.com/rfop/rfop/internal/fakediscord"
	"github.com/rfop/rfop/storage"
)

// Issue 24, item 1: "pace and remaining times survive ... shard moves".
// The server of this test has shard key 3 (guild_id >> 22): with two
// shards it is shard 1's ((3 % 2) == 1), with three shard 0's
// ((3 % 3) == 0). Resharding from two processes to three moves its games
// from one process (A, shard 1 of 2, then 1 of 3) to another (B, shard 0
// of 2 then 0 of 3, which also receives the DMs).
var (
	movedGuildID = strconv.FormatInt(3<<22|100, 10)
	movedChanX   = "260"
	movedChanY   = "261"
)

func movedGuild() fakediscord.Option {
	return fakediscord.WithGuild(fakediscord.Guild{ID: movedGuildID, Name: "Belleville", OwnerID: owner,
		Channels: []fakediscord.Channel{{ID: movedChanX, Name: "x"}, {ID: movedChanY, Name: "y"}},
		Members: []fakediscord.Member{{UserID: alice, Username: "alice"}, {UserID: bob, Username: "bob"},
			{UserID: carol, Username: "carol"}, {UserID: owner, Username: "owner"}}})
}

// statusOf is what /rfop status (asked by carol in the game's server,
// answered by the process Discord routes the server to) says about the
// game in channel: its line and its clock's.
func (h *harness) statusOf(guild, channel string) string {
	h.t.Helper()
	_, resp := h.command(carol, guild, channel, fakediscord.SubCmd("status"))
	var out []string
	for _, l := range strings.Split(resp.Content, "\n") {
		switch {
		case strings.Contains(l, "<#"+channel+">"):
			out = append(out, l)
		case len(out) > 0 && !strings.HasPrefix(l, "•"):
			out = append(out, l) // the game's clock
		case len(out) > 0:
			return strings.Join(out, "\n")
		}
	}
	require.NotEmpty(h.t, out, "/rfop status has no line about <#%s>: %q", channel, resp.Content)
	return strings.Join(out, "\n")
}

// connected waits until the fake has exactly n gateway connections, all
// ready. A stopped bot's connection lingers until the fake reads its
// close: until then it still receives its shard's events, and an
// interaction routed to it is answered by a bot that is shutting down
// ("The bot is restarting").
func connected(t *testing.T, h *harness, n int) {
	t.Helper()
	require.True(t, h.srv.WaitFor(h.ctx, func() bool {
		st := h.srv.GatewayStats()
		return st.Connections == n && st.Ready == n
	}), "%d gateway connections: %+v", n, h.srv.GatewayStats())
}

// boardsWithClock counts the boards of channel whose clock line matches.
func (h *harness) boardsWithClock(channel string, line *regexp.Regexp) int {
	n := 0
	for _, m := range h.boardMessages(channel) {
		if line.MatchString(m.Content) {
			n++
		}
	}
	return n
}

// Two games with a clock are played on process A: X "brisk" (1 d + 4 h,
// at most 3 d), Y "steady" (3 d + 12 h, at most 5 d). Their server is
// resharded to process B while Bob's clocks run, X's already warned by A.
// B shows the same times left, sends the out-of-time offer and the
// warning A had not sent, at their times, and not the warning A sent; A,
// restarted as a shard that no longer owns the server, does nothing with
// the games; the claim is answered by B and records the timeout.
// Reminders move alike.
func TestE2EClockSurvivesAShardMove(t *testing.T) {
	t.Parallel()
	hB := newHarnessWith(t, newStubPictures(), defaultGuild(), movedGuild())
	hB.restartAs(bot.Shard{ID: 0, Count: 2})
	hA := shardBot(t, hB, bot.Shard{ID: 1, Count: 2})
	connected(t, hB, 2) // the unsharded session is gone: it owned every server
	require.NoError(t, hB.srv.WaitGuildReady(hB.ctx, movedGuildID))
	require.True(t, hA.b.Shard.Owns(movedGuildID) && !hB.b.Shard.Owns(movedGuildID), "A owns the server first")
	srv, clock := hB.srv, hB.clock

	const warning = "your clock has"
	warnedIn := func(channel string) int { return hB.dmsWith(bob, "in <#"+channel+">: "+warning) }
	offersIn := func(channel string) int {
		n := 0
		for _, m := range hB.srv.DMs(alice) {
			if strings.Contains(m.Content, "in <#"+channel+">: ") && strings.Contains(m.Content, "has run out of time") {
				n++
			}
		}
		return n
	}
	// quiet runs a pass of p's due work and publication retries and
	// checks that it sent, posted and edited nothing.
	quiet := func(p *harness, what string) {
		t.Helper()
		before := srv.Cursor()
		p.b.Remind(p.ctx)
		p.b.Redeliver(p.ctx)
		require.NoError(t, p.b.WaitPublished(p.ctx))
		assert.Equal(t, before, srv.Cursor(), "%s: no message sent or changed", what)
	}

	// Both games start at 0 h (a challenge takes the store's time, which
	// the harness does not move): Alice chooses her objectives at once,
	// Bob's clocks run, X's warning due at 19.2 h, Y's at 57.6 h.
	x, _ := hA.startPacedIn(movedGuildID, movedChanX, "brisk")
	hA.decide(alice, movedChanX, rand.New(rand.NewPCG(24, 1)))
	y, _ := hA.startPacedIn(movedGuildID, movedChanY, "steady")
	hA.decide(alice, movedChanY, rand.New(rand.NewPCG(24, 2)))
	require.True(t, hA.clockOf(x.ID).Since[engine.Versailles].IsZero(), "alice handed over in X")
	require.True(t, hA.clockOf(y.ID).Since[engine.Versailles].IsZero(), "and in Y")

	// 20 h: A warns Bob in X; B, which does not own the server, does
	// nothing.
	clock.Advance(20 * time.Hour)
	quiet(hB, "20 h, B as shard 0 of 2")
	hA.b.Remind(hA.ctx)
	require.NoError(t, hA.b.WaitPublished(hA.ctx))
	assert.Equal(t, 1, warnedIn(movedChanX), "A warned bob in X")
	assert.Zero(t, warnedIn(movedChanY), "not yet in Y")
	xLeft := regexp.MustCompile(`Commune to decide · (4 h|3 h 5\d min) left`)
	yLeft := regexp.MustCompile(`Commune to decide · (2 d 4 h|2 d 3 h) left`)
	assert.Regexp(t, xLeft, hA.statusOf(movedGuildID, movedChanX), "A's status")
	assert.Regexp(t, yLeft, hA.statusOf(movedGuildID, movedChanY))
	xClock, yClock := hA.clockOf(x.ID), hA.clockOf(y.ID)
	assert.Equal(t, [2]bool{false, true}, xClock.Warned, "X's clock records the warning")

	// The reshard: every process stops, and starts again with three
	// shards. B (shard 0 of 3) now owns the server; A (shard 1 of 3) no
	// longer does.
	hA.stop()
	hB.stop()
	connected(t, hB, 0) // no stale session of the old count receives the server's events
	hB.restartAs(bot.Shard{ID: 0, Count: 3})
	hA.restartAs(bot.Shard{ID: 1, Count: 3})
	connected(t, hB, 2)
	require.NoError(t, srv.WaitGuildReady(hB.ctx, movedGuildID))
	require.True(t, hB.b.Shard.Owns(movedGuildID) && !hA.b.Shard.Owns(movedGuildID), "B owns the server now")
	assert.Equal(t, xClock, hB.clockOf(x.ID), "the clock is stored as it was")
	assert.Equal(t, yClock, hB.clockOf(y.ID))
	assert.Regexp(t, xLeft, hB.statusOf(movedGuildID, movedChanX), "B's status: the same times left")
	assert.Regexp(t, yLeft, hB.statusOf(movedGuildID, movedChanY))
	quiet(hA, "20 h, A as shard 1 of 3")
	quiet(hB, "20 h, B: nothing is due")

	// 26 h: Bob's time in X ran out at 24 h, and both games' reminders
	// (24 h after Alice's moves) are due. A does nothing; B offers Alice
	// the claim in X without warning Bob again, and reminds Bob in both
	// games with a new board showing his time.
	clock.Advance(6 * time.Hour)
	quiet(hA, "26 h, A")
	assert.Nil(t, hB.offerFor(alice))
	assert.Zero(t, reminders(srv, movedChanX)+reminders(srv, movedChanY))
	hB.b.Remind(hB.ctx)
	require.NoError(t, hB.b.WaitPublished(hB.ctx))
	assert.Equal(t, 1, offersIn(movedChanX), "B offered alice the claim in X")
	assert.Equal(t, 1, warnedIn(movedChanX), "the warning A sent is not sent again")
	assert.Zero(t, warnedIn(movedChanY))
	assert.Equal(t, 1, reminders(srv, movedChanX), "B reminded bob in X")
	assert.Equal(t, 1, reminders(srv, movedChanY), "and in Y")
	assert.Equal(t, 1, hB.boardsWithClock(movedChanX, regexp.MustCompile(`Commune · out of time`)),
		"B's reminder board in X shows Bob out of time")
	assert.Equal(t, 1, hB.boardsWithClock(movedChanY, regexp.MustCompile(`Commune to decide · (1 d 22 h|1 d 21 h) left`)),
		"B's reminder board in Y shows Bob's time left")
	assert.Regexp(t, `Commune · out of time`, hB.statusOf(movedGuildID, movedChanX))
	quiet(hB, "26 h, B again: all sent once")

	// 60 h: Y's warning (57.6 h) is due: B sends it, once.
	clock.Advance(34 * time.Hour)
	quiet(hA, "60 h, A")
	hB.b.Remind(hB.ctx)
	hB.b.Remind(hB.ctx)
	require.NoError(t, hB.b.WaitPublished(hB.ctx))
	assert.Equal(t, 1, warnedIn(movedChanY), "B warned bob in Y, once")
	assert.Equal(t, 1, warnedIn(movedChanX))
	assert.Equal(t, 1, offersIn(movedChanX), "offered once")
	assert.Zero(t, offersIn(movedChanY))

	// Alice claims X from the offer's DM: Discord sends DMs to shard 0, B.
	offer := hB.offerFor(alice)
	require.NotNil(t, offer)
	text, private := hB.answer(srv.Click(alice, offer, hB.verbButton(offer, "claim").CustomID))
	assert.True(t, private)
	assert.Contains(t, text, "You claimed the win")
	require.NoError(t, hB.b.WaitPublished(hB.ctx))
	got := hB.gameByID(x.ID)
	require.Equal(t, storage.StatusFinished, got.Status)
	res := resultOf(t, got)
	assert.Equal(t, "timeout", res.Reason)
	assert.Equal(t, engine.Versailles, res.Winner)
	hist, err := hB.store.History(hB.ctx, movedGuildID, "", 10)
	require.NoError(t, err)
	require.Len(t, hist, 1)
	assert.Equal(t, "timeout", hist[0].Reason)
	assert.True(t, hist[0].Rated)
	assert.Equal(t, storage.StatusActive, hB.gameByID(y.ID).Status)
	quiet(hA, "after the claim, A")
}
