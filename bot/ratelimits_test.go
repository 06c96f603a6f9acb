package bot

import (
	"net/http"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Issue 30 item 2: discordgo's rate limiter keeps a bucket per
// interaction token (its URL) for ever; pruneRateLimits drops the idle
// ones of interactions and webhooks and keeps the rest. It also pins
// discordgo's internals: an upgrade that renames the buckets map fails
// here instead of letting the map grow again.
func TestPruneRateLimitsForgetsInteractionBuckets(t *testing.T) {
	rl := discordgo.NewRatelimiter()
	callback := discordgo.EndpointInteractionResponse("111", "token-a")
	webhook := discordgo.EndpointWebhookMessage("222", "token-b", "@original")
	busy := discordgo.EndpointInteractionResponse("333", "token-c")
	channel := discordgo.EndpointChannelMessages("444")
	kept := map[string]*discordgo.Bucket{}
	for _, k := range []string{callback, webhook, busy, channel} {
		kept[k] = rl.GetBucket(k)
	}
	inUse := rl.LockBucket(busy)
	require.Equal(t, 2, pruneRateLimits(rl), "the idle interaction and webhook buckets")
	assert.NotSame(t, kept[callback], rl.GetBucket(callback), "forgotten: a new bucket")
	assert.NotSame(t, kept[webhook], rl.GetBucket(webhook))
	assert.Same(t, kept[busy], rl.GetBucket(busy), "a bucket in use is kept")
	assert.Same(t, kept[channel], rl.GetBucket(channel), "a channel's bucket is kept")
	require.NoError(t, inUse.Release(nil))
	assert.Equal(t, 3, pruneRateLimits(rl), "once released, the busy one too (and the two made again above)")
	assert.Equal(t, 0, pruneRateLimits(nil))
}

// Issue 30: a board goes ahead of a hand DM waiting for its picture only
// if the channel takes it now: discordgo's buckets for posting to the
// channel and editing in it are neither in use (a request in flight, or
// one sleeping until the reset) nor spent.
func TestChannelWritableFollowsDiscordgosBuckets(t *testing.T) {
	rl := discordgo.NewRatelimiter()
	assert.True(t, channelWritable(rl, "1"), "nothing sent yet")
	b := rl.LockBucket(discordgo.EndpointChannelMessages("1"))
	assert.False(t, channelWritable(rl, "1"), "a post in flight")
	assert.True(t, channelWritable(rl, "2"), "another channel")
	h := http.Header{}
	h.Set("X-RateLimit-Remaining", "0")
	h.Set("X-RateLimit-Reset-After", "60")
	require.NoError(t, b.Release(h))
	assert.False(t, channelWritable(rl, "1"), "posts spent until the reset")
	e := rl.LockBucket(discordgo.EndpointChannelMessage("2", ""))
	assert.False(t, channelWritable(rl, "2"), "an edit in flight")
	require.NoError(t, e.Release(nil))
	assert.True(t, channelWritable(rl, "2"))
}
