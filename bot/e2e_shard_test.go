package bot_test

import (
	"context"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rfop/rfop/bot"
	"github.com/rfop/rfop/internal/fakediscord"
	"github.com/rfop/rfop/storage"
)

// The second server of the sharding tests: on shard 1 of 2 by Discord's
// formula, while guildID ("100") is on shard 0.
var (
	shardGuildID = strconv.FormatInt(1<<22|100, 10)
	shardChanID  = "250"
)

func shardGuild() fakediscord.Option {
	return fakediscord.WithGuild(fakediscord.Guild{ID: shardGuildID, Name: "Versailles", OwnerID: owner,
		Channels: []fakediscord.Channel{{ID: shardChanID, Name: "games"}},
		Members:  []fakediscord.Member{{UserID: alice, Username: "alice"}, {UserID: bob, Username: "bob"}, {UserID: owner, Username: "owner"}}})
}

// shardBot starts another bot process (its own session and store) on the
// same fake Discord and database as h, as shard.
func shardBot(t *testing.T, h *harness, shard bot.Shard) *harness {
	t.Helper()
	o := &harness{t: t, srv: h.srv, dbPath: h.dbPath, seed: 1000 + int64(shard.ID)*1000, pictures: h.pictures, clock: h.clock, shard: shard}
	o.start()
	t.Cleanup(o.stop)
	return o
}

func TestShardOwnsByDiscordsFormula(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		shard bot.Shard
		guild string
		want  bool
	}{
		{"one process owns every guild", bot.Shard{}, shardGuildID, true},
		{"one process owns DMs", bot.Shard{ID: 0, Count: 1}, "", true},
		{"(id >> 22) % 2 == 1 is shard 1's", bot.Shard{ID: 1, Count: 2}, shardGuildID, true},
		{"(id >> 22) % 2 == 1 is not shard 0's", bot.Shard{ID: 0, Count: 2}, shardGuildID, false},
		{"(id >> 22) % 2 == 0 is shard 0's", bot.Shard{ID: 0, Count: 2}, guildID, true},
		{"DMs are shard 0's", bot.Shard{ID: 0, Count: 3}, "", true},
		{"DMs are not shard 2's", bot.Shard{ID: 2, Count: 3}, "", false},
		{"a real guild id", bot.Shard{ID: int((uint64(197038439483310086) >> 22) % 5), Count: 5}, "197038439483310086", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, tc.shard.Owns(tc.guild))
			assert.Equal(t, tc.want, fakediscord.ShardOf(tc.guild, max(tc.shard.Count, 1)) == tc.shard.ID, "the fake routes alike")
		})
	}
}

// reminders counts the reminders posted in a channel.
func reminders(srv *fakediscord.Server, channel string) int {
	n := 0
	for _, m := range srv.Messages(channel) {
		if strings.Contains(m.Content, "is waiting for you") {
			n++
		}
	}
	return n
}

// Two shards on one database: each sends the reminders of its own
// servers' games only, and two processes of the same shard (a rolling
// restart) send a due reminder once.
func TestE2EShardsRemindTheirOwnGamesOnce(t *testing.T) {
	t.Parallel()
	h0 := newHarnessWith(t, newStubPictures(), defaultGuild(), shardGuild())
	h0.restartAs(bot.Shard{ID: 0, Count: 2})
	h1 := shardBot(t, h0, bot.Shard{ID: 1, Count: 2})
	require.NoError(t, h0.srv.WaitGuildReady(h0.ctx, shardGuildID))

	h0.startChallenge(chanID, "versailles")
	h1.startChallengeIn(shardGuildID, shardChanID, "commune")
	h0.clock.Advance(25 * time.Hour)

	h0.b.Remind(t.Context())
	assert.Equal(t, 1, reminders(h0.srv, chanID), "shard 0 reminds its server's game")
	assert.Equal(t, 0, reminders(h0.srv, shardChanID), "not shard 1's")
	h1.b.Remind(t.Context())
	assert.Equal(t, 1, reminders(h0.srv, shardChanID))
	assert.Equal(t, 1, reminders(h0.srv, chanID))

	// A second shard-1 process, both reminding at once, many times.
	h1b := shardBot(t, h0, bot.Shard{ID: 1, Count: 2})
	h0.clock.Advance(25 * time.Hour)
	var wg sync.WaitGroup
	for range 4 {
		for _, b := range []*bot.Bot{h1.b, h1b.b} {
			wg.Add(1)
			go func() { defer wg.Done(); b.Remind(context.Background()) }()
		}
	}
	wg.Wait()
	assert.Equal(t, 2, reminders(h0.srv, shardChanID), "one more reminder, not one per process")
}

// A hand DM of shard 1's game is clicked in DMs, which Discord sends to
// shard 0: shard 0 plays the move and publishes it while shard 1 keeps
// retrying its publications; the move's board and DMs appear exactly
// once.
func TestE2EAnotherShardsGamePlayedFromADM(t *testing.T) {
	t.Parallel()
	h0 := newHarnessWith(t, newStubPictures(), defaultGuild(), shardGuild())
	h0.restartAs(bot.Shard{ID: 0, Count: 2})
	h1 := shardBot(t, h0, bot.Shard{ID: 1, Count: 2})
	require.NoError(t, h0.srv.WaitGuildReady(h0.ctx, shardGuildID))
	rec := h1.startChallengeIn(shardGuildID, shardChanID, "commune")

	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	b1 := h1.b
	t.Cleanup(func() {
		select {
		case <-stop:
		default:
			close(stop)
		}
		wg.Wait()
	})
	go func() { // shard 1's retries, at every change the fake records
		defer wg.Done()
		for {
			changed := h0.srv.Changed()
			b1.Redeliver(context.Background())
			select {
			case <-stop:
				return
			case <-changed:
			}
		}
	}()
	for _, user := range []string{alice, bob} {
		var dm *fakediscord.Message
		for _, m := range h0.srv.DMs(user) {
			if b, s := choiceComponents(m); len(b)+len(s) > 0 {
				dm = m
			}
		}
		require.NotNil(t, dm, "%s got the hand DM with the objective choice", user)
		v := h0.gameByID(rec.ID).StateVersion
		resp, err := h0.clickFirst(user, dm).WaitResponse(h0.ctx)
		require.NoError(t, err)
		require.Equal(t, discordgo.InteractionResponseDeferredMessageUpdate, resp.Type)
		require.True(t, h0.srv.WaitFor(h0.ctx, func() bool { return h0.gameByID(rec.ID).StateVersion == v+1 }), "the DM click was played")
	}
	require.True(t, h0.srv.WaitFor(h0.ctx, func() bool {
		p, err := h0.store.PendingOutbox(context.Background(), rec.ID)
		return err == nil && len(p) == 0
	}), "everything was published")
	close(stop)
	wg.Wait()
	require.NoError(t, h0.b.WaitPublished(context.Background()))
	require.NoError(t, h1.b.WaitPublished(context.Background()))

	h0.requireOneLiveBoard(shardChanID)
	seen := map[string]bool{}
	for _, m := range h0.srv.Messages(shardChanID) {
		assert.False(t, seen[m.Content], "posted twice: %q", m.Content)
		seen[m.Content] = true
	}
	for _, user := range []string{alice, bob} {
		dms := map[string]bool{}
		for _, m := range h0.srv.DMs(user) {
			assert.False(t, dms[m.Content], "DM to %s sent twice: %q", user, m.Content)
			dms[m.Content] = true
		}
	}
	assert.Equal(t, storage.StatusActive, h0.gameByID(rec.ID).Status)
}
