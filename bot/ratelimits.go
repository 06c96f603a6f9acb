package bot

import (
	"reflect"
	"strings"
	"unsafe"

	"github.com/bwmarrin/discordgo"
)

// channelWritable reports whether a board could be posted to channel now,
// and the board before it collapsed, without waiting for the channel's
// rate limits as discordgo knows them: neither bucket is in use by a
// request, nor spent until a reset still ahead. (A bucket's state is read
// under its lock, as discordgo does.)
func channelWritable(rl *discordgo.RateLimiter, channelID string) bool {
	for _, key := range []string{discordgo.EndpointChannelMessages(channelID), discordgo.EndpointChannelMessage(channelID, "")} {
		bk := rl.GetBucket(key)
		if !bk.TryLock() {
			return false
		}
		wait := rl.GetWaitTime(bk, 1)
		bk.Unlock()
		if wait > 0 {
			return false
		}
	}
	return true
}

// pruneRateLimits forgets the rate-limit buckets discordgo keeps for
// interactions and their webhooks, and returns how many it forgot.
// discordgo keys a bucket by the request's URL, and an interaction's URL
// holds its own token: every click leaves a bucket (about 1 KiB with its
// key) that is never used again once the interaction is answered, and the
// map only grows — by tens of MiB under a burst of clicks (issue 30's heap
// profile). Such a bucket's state is worthless (each token is its own
// route), so an idle one is dropped; one in use is kept. Channel and
// other buckets, whose state paces the bot's posts, are never touched.
//
// The map is an unexported field of discordgo's RateLimiter (v0.29): a
// version that renames it makes this a no-op, and
// TestPruneRateLimitsForgetsInteractionBuckets fail.
func pruneRateLimits(rl *discordgo.RateLimiter) int {
	if rl == nil {
		return 0
	}
	f := reflect.ValueOf(rl).Elem().FieldByName("buckets")
	if !f.IsValid() || f.Type() != reflect.TypeFor[map[string]*discordgo.Bucket]() {
		return 0
	}
	rl.Lock()
	defer rl.Unlock()
	buckets := *(*map[string]*discordgo.Bucket)(unsafe.Pointer(f.UnsafeAddr()))
	n := 0
	for key, b := range buckets {
		if !strings.Contains(key, "/interactions/") && !strings.Contains(key, "/webhooks/") {
			continue
		}
		if !b.TryLock() {
			continue // a request is using it
		}
		delete(buckets, key)
		b.Unlock()
		n++
	}
	return n
}
