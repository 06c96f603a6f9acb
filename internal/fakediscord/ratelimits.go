package fakediscord

import (
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Channel rate limits (WithChannelRateLimits): Discord limits what a bot
// writes in one channel (about 5 messages per 5 seconds, and as many
// edits), and says so in every response's X-RateLimit-* headers, which
// discordgo reads to wait before it is refused. The fake does the same for
// message creates and for message edits and deletes, each per channel: a
// fixed window of per, n writes in it, headers on every answer of those
// routes, and 429 (bucket scope) past the limit.

type rateWindow struct {
	start time.Time
	used  int
}

// channelBucket is the rate-limit bucket of a request, "" if none: one
// for a channel's message creates, one for its edits and deletes, keyed
// as discordgo keys them (so that its waits match the fake's windows).
func channelBucket(method, rel string) string {
	segs := strings.Split(strings.Trim(rel, "/"), "/")
	if len(segs) < 3 || segs[0] != "channels" || segs[2] != "messages" {
		return ""
	}
	switch {
	case len(segs) == 3 && method == http.MethodPost:
		return "create:" + segs[1]
	case len(segs) == 4 && (method == http.MethodPatch || method == http.MethodDelete):
		return "edit:" + segs[1]
	}
	return ""
}

// takeRate counts a request in its bucket's window; ok is false past the
// limit. It writes the bucket's headers.
func (s *Server) takeRate(w http.ResponseWriter, bucket string, now time.Time) (ok bool) {
	n, per := s.cfg.rateN, s.cfg.ratePer
	s.mu.Lock()
	if s.rates == nil {
		s.rates = map[string]*rateWindow{}
	}
	win := s.rates[bucket]
	if win == nil || now.Sub(win.start) >= per {
		win = &rateWindow{start: now}
		s.rates[bucket] = win
	}
	ok = win.used < n
	if ok {
		win.used++
	} else {
		s.rateLimited++
	}
	remaining, after := n-win.used, per-now.Sub(win.start)
	s.mu.Unlock()
	secs := after.Seconds()
	h := w.Header()
	h.Set("X-RateLimit-Limit", strconv.Itoa(n))
	h.Set("X-RateLimit-Remaining", strconv.Itoa(remaining))
	h.Set("X-RateLimit-Reset", strconv.FormatFloat(float64(now.Add(after).UnixMilli())/1000, 'f', 3, 64))
	h.Set("X-RateLimit-Reset-After", strconv.FormatFloat(secs, 'f', 3, 64))
	h.Set("X-RateLimit-Bucket", bucket)
	if !ok {
		h.Set("Content-Type", "application/json")
		h.Set("Retry-After", strconv.Itoa(int(math.Ceil(secs))))
		h.Set("X-RateLimit-Scope", "user")
		w.WriteHeader(http.StatusTooManyRequests)
		_, _ = fmt.Fprintf(w, `{"message":"You are being rate limited.","retry_after":%s,"global":false}`,
			strconv.FormatFloat(secs, 'f', 3, 64))
	}
	return ok
}
