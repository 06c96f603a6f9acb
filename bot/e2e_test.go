package bot_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/rfop/rfop/storage"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestE2ETwoPlayerGame: two members play a complete game from /rfop new to
// the result, by clicking only, in a server channel. Every board message
// carries a PNG and the winner is announced.
func TestE2ETwoPlayerGame(t *testing.T) {
	h := newHarness(t)
	rec := h.startChallenge(chanID, "versailles")
	r := rand.New(rand.NewPCG(1, 2))
	rec = h.playUntil(rec.ID, chanID, []string{alice, bob}, r, func(storage.Game) bool { return false })
	require.Equal(t, storage.StatusFinished, rec.Status)
	res := resultOf(t, rec)

	boards := 0
	for _, m := range h.srv.Messages(chanID) {
		for _, v := range h.srv.MessageHistory(m.ID) {
			if strings.Contains(v.Content, "Red Flag Over Paris — game #") {
				boards++
				require.Len(t, v.Attachments, 1, "every board message version has exactly one PNG (replaced, not appended)")
				img, err := v.Attachments[0].Image()
				require.NoError(t, err)
				assert.Equal(t, 1600, img.Bounds().Dx())
			}
		}
	}
	assert.Greater(t, boards, 20, "the board is updated after the plays")
	last := h.srv.LastMessage(chanID)
	assert.Contains(t, last.Content, "is over")
	assert.Contains(t, last.Content, res.Winner.String())
	assert.Contains(t, last.Content, "<@"+alice+">")
	assert.Empty(t, h.srv.Unknown())
}
