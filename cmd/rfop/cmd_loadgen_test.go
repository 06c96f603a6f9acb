package main

import (
	"bytes"
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rfop/rfop/bot"
	"github.com/rfop/rfop/storage"
)

// rfop loadgen stores games the bot accepts: every one replays to its
// stored state (the bot's own check), the active ones wait for a player
// with their reminder scheduled (the due ones due now, the others not
// for hours), the finished ones have their result and rated players.
func TestLoadgenStoresGamesTheBotAccepts(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "load.db")
	var out, errb bytes.Buffer
	code := run([]string{"loadgen", "--db", path, "--games", "12", "--finished", "6", "--due", "3", "--templates", "3", "--batch", "5"}, nil, &out, &errb)
	require.Equal(t, 0, code, "%s", errb.String())
	assert.Contains(t, out.String(), "stored 12 active games (3 reminders due) and 6 finished games")

	ctx := context.Background()
	store, err := storage.OpenURL(ctx, path)
	require.NoError(t, err)
	defer store.Close()
	b := bot.New(bot.Deps{Store: store})
	active, err := store.ActiveGames(ctx)
	require.NoError(t, err)
	require.Len(t, active, 12)
	finished, err := store.GamesByStatus(ctx, storage.StatusFinished)
	require.NoError(t, err)
	require.Len(t, finished, 6)
	for _, g := range append(active, finished...) {
		require.NoError(t, store.VerifyGame(ctx, g.ID, b.Verify), "game %d", g.ID)
	}
	due, err := store.DueWork(ctx, storage.DueQuery{Kind: "remind", Now: time.Now()})
	require.NoError(t, err)
	assert.Len(t, due, 3)
	later, err := store.DueWork(ctx, storage.DueQuery{Kind: "remind", Now: time.Now().Add(4 * time.Hour)})
	require.NoError(t, err)
	assert.Len(t, later, 3, "the others are not due for hours")
	missing, err := store.FinishedWithoutResult(ctx)
	require.NoError(t, err)
	assert.Empty(t, missing)
	jobs, err := store.Maintenance(ctx)
	require.NoError(t, err)
	assert.Empty(t, jobs, "nothing left for the bot's first start")
	rated := 0
	for _, g := range finished {
		r, err := store.History(ctx, g.GuildID, "", 0)
		require.NoError(t, err)
		rated += len(r)
	}
	assert.GreaterOrEqual(t, rated, 6)
}
