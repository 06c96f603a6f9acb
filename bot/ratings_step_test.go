package bot_test

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rfop/rfop/bot"
	"github.com/rfop/rfop/storage"
)

// Issue 23: a recorded result updates the ratings by one step
// (rating.Table.Apply from the stored ratings and the server's side
// evidence), and the table kept that way equals the one rebuilt from all
// the results; a result recorded out of order (ending before the
// server's newest) rebuilds the server's ratings instead, and still
// agrees.
func TestRatingsKeptOneResultAtATimeEqualARebuild(t *testing.T) {
	t.Parallel()
	rater := &countingRater{StepRater: bot.Rater()}
	ctx := t.Context()
	store, err := storage.OpenURL(ctx, filepath.Join(t.TempDir(), "rfop.db"))
	require.NoError(t, err)
	defer store.Close()
	r := rand.New(rand.NewPCG(23, 1))
	users := []string{"u1", "u2", "u3", "u4", "u5"}
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for k := range 40 {
		a := r.IntN(len(users))
		b := (a + 1 + r.IntN(len(users)-1)) % len(users)
		rec, err := store.CreateGame(ctx, storage.NewGame{GuildID: "g", ChannelID: fmt.Sprint("c", k), Status: storage.StatusActive,
			Mode: storage.ModeTwoPlayer, Variant: "standard", State: []byte(`{}`), CreatedBy: users[a],
			Players: []storage.Player{{Side: storage.SideVersailles, UserID: users[a]}, {Side: storage.SideCommune, UserID: users[b]}}})
		require.NoError(t, err)
		_, err = store.Finish(ctx, rec.ID, []byte(`{}`))
		require.NoError(t, err)
		winner := storage.SideVersailles
		if r.IntN(3) == 0 {
			winner = storage.SideCommune
		}
		ended := base.Add(time.Duration(k) * time.Hour)
		if k == 30 {
			ended = base.Add(90 * time.Minute) // out of order: between the second and third games
		}
		require.NoError(t, store.RecordResult(ctx, storage.GameResult{GameID: rec.ID, GuildID: "g", ChannelID: rec.ChannelID,
			Mode: storage.ModeTwoPlayer, Variant: "standard", Versailles: users[a], Commune: users[b], Winner: winner,
			Reason: "victory", Rated: true, StartedAt: ended.Add(-time.Hour), EndedAt: ended}, rater))
	}
	assert.Equal(t, 39, rater.steps, "every result but the one out of order was one step")
	kept, err := store.Leaderboard(ctx, "g", 0, 0)
	require.NoError(t, err)
	require.Len(t, kept, len(users))
	require.NoError(t, store.RebuildRatings(ctx, bot.Rater().Rate))
	rebuilt, err := store.Leaderboard(ctx, "g", 0, 0)
	require.NoError(t, err)
	assert.Equal(t, rebuilt, kept)
}

// countingRater counts the one-game steps the store asks for.
type countingRater struct {
	storage.StepRater
	steps int
}

func (c *countingRater) Step(prior storage.RatingPrior, r storage.GameResult) ([]storage.PlayerRating, error) {
	c.steps++
	return c.StepRater.Step(prior, r)
}
