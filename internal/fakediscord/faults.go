package fakediscord

import (
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Request is a REST request as the fake saw it. Matchers get every field;
// the log returned by Requests omits Body and Payload.
type Request struct {
	Method string
	// Path is relative to the API root for API calls
	// ("/channels/123/messages"); other paths are kept whole.
	Path   string
	Query  url.Values
	Header http.Header
	// Body is the raw body; Payload its JSON document (the payload_json
	// part of a multipart body).
	Body    []byte
	Payload []byte
	// APIVersion is the version an API path names (10 for
	// "/api/v10/..."), 0 for other paths.
	APIVersion int
	// Files are the names of the uploaded files.
	Files []string
	At    time.Time

	// Route is the fake's route pattern that matched
	// ("POST /channels/{}/messages"), "" if none.
	Route string
	// Status is the status the fake answered (in the log).
	Status int
	// Injected is true if a Fail or RateLimit fault answered it.
	Injected bool
}

// Matcher selects requests for failure injection.
type Matcher func(*Request) bool

// Route returns a Matcher for "METHOD /path" patterns. The path is relative
// to the API root (a leading "/api/v9" is ignored); a "*" (or "{name}") segment matches any one segment and
// a final "**" matches the rest. The method may be "*" or left out:
//
//	Route("POST /channels/*/messages")
//	Route("PATCH /webhooks/*/*/messages/@original")
//	Route("/interactions/**")
func Route(pattern string) Matcher {
	method := "*"
	p := strings.TrimSpace(pattern)
	if i := strings.IndexByte(p, ' '); i >= 0 {
		method, p = strings.ToUpper(p[:i]), strings.TrimSpace(p[i+1:])
	}
	if loc := apiPrefix.FindStringIndex(p); loc != nil {
		p = "/" + p[loc[1]:] // "/api/v9/channels/..." -> "/channels/..."
	}
	segs := strings.Split(strings.Trim(p, "/"), "/")
	return func(r *Request) bool {
		if method != "*" && method != r.Method {
			return false
		}
		got := strings.Split(strings.Trim(r.Path, "/"), "/")
		for i, want := range segs {
			if want == "**" && i == len(segs)-1 {
				return len(got) >= i
			}
			if i >= len(got) {
				return false
			}
			if want == "*" || (strings.HasPrefix(want, "{") && strings.HasSuffix(want, "}")) {
				continue
			}
			if want != got[i] {
				return false
			}
		}
		return len(got) == len(segs)
	}
}

// Fault is an injected failure; see Fail and RateLimit.
type Fault struct {
	s          *Server
	match      Matcher
	remaining  int // < 0: forever
	status     int
	body       []byte
	rateLimit  bool
	retryAfter time.Duration
	hits       int
}

// Hits returns how many requests the fault answered.
func (f *Fault) Hits() int {
	f.s.mu.Lock()
	defer f.s.mu.Unlock()
	return f.hits
}

// Cancel removes the fault.
func (f *Fault) Cancel() {
	f.s.mu.Lock()
	defer f.s.mu.Unlock()
	f.remaining = 0
}

// FailNext answers the next request matching m with status and body
// (instead of processing it). An empty body becomes
// {"message":"fake discord: injected failure","code":0}.
func (s *Server) FailNext(m Matcher, status int, body string) *Fault {
	return s.Fail(m, 1, status, body)
}

// Fail answers the next times requests matching m (every one if times <=
// 0, until Cancel) with status and body, without processing them.
func (s *Server) Fail(m Matcher, times, status int, body string) *Fault {
	if times <= 0 {
		times = -1
	}
	b := []byte(body)
	if body == "" {
		b, _ = json.Marshal(map[string]any{"message": "fake discord: injected failure", "code": 0})
	}
	return s.addFault(&Fault{s: s, match: m, remaining: times, status: status, body: b})
}

// RateLimit answers the next n requests matching m with 429 Too Many
// Requests, like Discord: Retry-After and X-RateLimit-* headers (bucket
// scope, not global) and {"message":"You are being rate limited.",
// "retry_after":<seconds>,"global":false}. discordgo sleeps retryAfter and
// retries. RateLimited counts them all.
func (s *Server) RateLimit(m Matcher, n int, retryAfter time.Duration) *Fault {
	if n <= 0 {
		n = -1
	}
	return s.addFault(&Fault{s: s, match: m, remaining: n, status: http.StatusTooManyRequests, rateLimit: true, retryAfter: retryAfter})
}

func (s *Server) addFault(f *Fault) *Fault {
	s.mu.Lock()
	s.faults = append(s.faults, f)
	s.mu.Unlock()
	return f
}

// takeFaultLocked returns the first live fault matching r, consuming it.
func (s *Server) takeFaultLocked(r *Request) *Fault {
	live := s.faults[:0]
	var hit *Fault
	for _, f := range s.faults {
		if f.remaining == 0 {
			continue
		}
		if hit == nil && f.match(r) {
			hit = f
			f.hits++
			if f.remaining > 0 {
				f.remaining--
			}
			if f.rateLimit {
				s.rateLimited++
			}
		}
		if f.remaining != 0 {
			live = append(live, f)
		}
	}
	clear(s.faults[len(live):])
	s.faults = live
	return hit
}

func (f *Fault) write(w http.ResponseWriter) {
	if !f.rateLimit {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(f.status)
		_, _ = w.Write(f.body)
		return
	}
	secs := f.retryAfter.Seconds()
	reset := float64(time.Now().Add(f.retryAfter).UnixMilli()) / 1000
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Retry-After", strconv.Itoa(int(math.Ceil(secs))))
	h.Set("X-RateLimit-Limit", "5")
	h.Set("X-RateLimit-Remaining", "0")
	h.Set("X-RateLimit-Reset", strconv.FormatFloat(reset, 'f', 3, 64))
	h.Set("X-RateLimit-Reset-After", strconv.FormatFloat(secs, 'f', 3, 64))
	h.Set("X-RateLimit-Bucket", "fakediscord-bucket")
	h.Set("X-RateLimit-Scope", "user")
	w.WriteHeader(http.StatusTooManyRequests)
	_, _ = fmt.Fprintf(w, `{"message":"You are being rate limited.","retry_after":%s,"global":false}`,
		strconv.FormatFloat(secs, 'f', 3, 64))
}
