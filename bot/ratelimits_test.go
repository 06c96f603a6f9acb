package bot

import (
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
