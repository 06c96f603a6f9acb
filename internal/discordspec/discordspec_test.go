package discordspec

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestChecksBodiesAgainstDiscordsDescription(t *testing.T) {
	c, err := Load()
	require.NoError(t, err)
	assert.Equal(t, 10, c.Version())

	ok := func(method, path string, multipart bool, body string) {
		t.Helper()
		assert.NoError(t, c.Check(method, path, multipart, []byte(body)))
	}
	bad := func(method, path string, multipart bool, body, why string) {
		t.Helper()
		err := c.Check(method, path, multipart, []byte(body))
		require.Error(t, err)
		assert.Contains(t, err.Error(), why)
	}
	ok("GET", "/gateway", false, "")
	ok("GET", "/channels/1/messages", false, "")
	ok("POST", "/channels/1/messages", false, `{"content":"hello","components":[{"type":1,"components":[{"type":2,"style":1,"label":"Take my turn","custom_id":"rfop/turn/1"}]}]}`)
	ok("PATCH", "/channels/1/messages/2", true, `{"content":"x","attachments":[{"id":"0","filename":"board.png"}]}`)
	ok("PATCH", "/webhooks/1/tok/messages/@original", false, `{"content":"x","components":[]}`)
	ok("POST", "/interactions/1/tok/callback", false, `{"type":4,"data":{"content":"hi","flags":64}}`)
	ok("POST", "/interactions/1/tok/callback", false, `{"type":6}`)

	bad("PATCH", "/channels/1/messages/2", true, `{"attachments":[{"id":"x y"}]}`, "attachments")
	bad("POST", "/channels/1/messages", false, `{"content":`+`"`+strings.Repeat("x", 5000)+`"}`, "content")
	bad("POST", "/interactions/1/tok/callback", false, `{"type":"four"}`, "callback")
	bad("POST", "/channels/1/pins", false, "", "not a route the bot is known to call")
	bad("POST", "/interactions/1/tok/callback", false, "", "a body is required")
}

// BenchmarkCheckBoardEdit: one board edit (text, two buttons, a new
// picture), the bot's most frequent large request.
func BenchmarkCheckBoardEdit(b *testing.B) {
	c, err := Load()
	require.NoError(b, err)
	body := []byte(`{"content":"` + strings.Repeat("• a line of the board's log\\n", 20) + `","components":[{"type":1,"components":[` +
		`{"type":2,"style":1,"label":"Take my turn","custom_id":"rfop/turn/1"},{"type":2,"style":2,"label":"My hand","custom_id":"rfop/hand/1"}]}],` +
		`"attachments":[{"id":"0","filename":"board.png"}],"allowed_mentions":{"parse":[]}}`)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := c.Check("PATCH", "/channels/1/messages/2", true, body); err != nil {
			b.Fatal(err)
		}
	}
}
