package bot_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rfop/rfop/bot"
)

// Issue 30: the bot keeps its connections to the API open between calls,
// also behind a rate-limit proxy or a fake Discord (DISCORD_API_BASE,
// plain HTTP/1.1: one connection per call in flight). net/http's default
// keeps 2 idle connections per host: under a burst, with a call in
// flight per game, nearly every call dialled a new connection. (Counted
// from outside, the dials race the pool: a connection goes back to it
// just after its call returns. So this reads the transport's setting.)
func TestNewSessionKeepsConnectionsToTheAPIOpen(t *testing.T) {
	for name, base := range map[string]string{"Discord": "", "a proxy": "http://127.0.0.1:8080"} {
		t.Run(name, func(t *testing.T) {
			s, err := bot.NewSession(bot.Config{Token: "token", APIBase: base})
			require.NoError(t, err)
			tr := s.Client.Transport
			if rw, ok := tr.(*bot.RewriteTransport); ok {
				tr = rw.Next
			}
			h, ok := tr.(*http.Transport)
			require.True(t, ok, "an *http.Transport, not %T", tr)
			assert.GreaterOrEqual(t, h.MaxIdleConnsPerHost, 200, "idle connections kept per host: one per game's call in flight under a burst of 200 games")
			assert.GreaterOrEqual(t, h.MaxIdleConns, h.MaxIdleConnsPerHost)
			assert.True(t, h.ForceAttemptHTTP2, "HTTP/2 to Discord, as net/http's default")
		})
	}
}
