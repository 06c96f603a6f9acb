package bot_test

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"image/gif"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rfop/rfop/engine"
	"github.com/rfop/rfop/internal/fakediscord"
	"github.com/rfop/rfop/replay"
	"github.com/rfop/rfop/storage"
)

// resign: user resigns the channel's game and it finishes.
func (h *harness) resign(user, channel string, gameID int64) {
	h.t.Helper()
	_, resp := h.command(user, guildID, channel, fakediscord.SubCmd("resign"))
	i := h.srv.ClickLabel(user, resp.Message, "Yes, resign")
	_, err := i.WaitResponse(h.ctx)
	require.NoError(h.t, err)
	require.True(h.t, h.srv.WaitFor(h.ctx, func() bool { return h.gameByID(gameID).Status == storage.StatusFinished }))
	// The result is recorded just after the finishing move is stored
	// (moves.go, persist): wait for it too, so history and stats see it.
	rec := h.gameByID(gameID)
	require.True(h.t, h.srv.WaitFor(h.ctx, func() bool {
		results, err := h.store.History(context.Background(), rec.GuildID, "", 0)
		if err != nil {
			return false
		}
		for _, r := range results {
			if r.GameID == gameID {
				return true
			}
		}
		return false
	}), "the result of game %d is recorded", gameID)
}

// finalBoard waits for the game's board to show its end (the Rematch
// button, or no button at all for a solo game).
func (h *harness) finalBoard(channel string, gameID int64, rematch bool) *fakediscord.Message {
	h.t.Helper()
	m, err := h.srv.WaitMessage(h.ctx, func(m *fakediscord.Message) bool {
		if m.ChannelID != channel || !strings.Contains(m.Content, "game #"+fmtInt(gameID)+" ") || m.Button("Take my turn") != nil {
			return false
		}
		return !rematch || m.Button("Rematch") != nil
	})
	require.NoError(h.t, err, "the final board of game %d", gameID)
	return m
}

func fmtInt(n int64) string { return strconv.FormatInt(n, 10) }

// rawExec runs one statement on the database file behind the store's back.
func rawExec(path, stmt string) (sql.Result, error) {
	db, err := sql.Open("sqlite3", path)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	return db.Exec(stmt)
}

// rematch presses the Rematch button of a finished board as user and
// has the opponent accept; it returns the new game.
func (h *harness) rematch(board *fakediscord.Message, user, opponent, channel string) storage.Game {
	h.t.Helper()
	i := h.srv.ClickLabel(user, board, "Rematch")
	resp, err := i.WaitResponse(h.ctx)
	require.NoError(h.t, err)
	require.False(h.t, resp.Ephemeral(), "the rematch challenge is public: %s", resp.Content)
	require.Contains(h.t, resp.Content, "rematch")
	acc := h.srv.ClickLabel(opponent, resp.Message, "Accept")
	_, err = acc.WaitResponse(h.ctx)
	require.NoError(h.t, err)
	require.True(h.t, h.srv.WaitFor(h.ctx, func() bool {
		rec, err := h.store.GameByChannel(context.Background(), channel)
		return err == nil && rec.Status == storage.StatusActive
	}))
	rec := h.game(channel)
	_, err = h.srv.WaitMessage(h.ctx, func(m *fakediscord.Message) bool {
		return m.ChannelID == channel && m.Button("Take my turn") != nil && strings.Contains(m.Content, "game #"+fmtInt(rec.ID)+" ")
	})
	require.NoError(h.t, err, "the new game's board is posted")
	return rec
}

// After the game (issue 15): the result board's Rematch button starts a
// game with sides swapped that only the two players can ask for; history
// lists the finished games newest first with how each was decided;
// stats counts them, rates the games between members with Glicko-2 and
// lists the solo game without rating it; the replay of the channel's last
// game is an animated GIF with one frame per play and scoring (+1 for the
// resignation).
func TestE2EHistoryStatsReplayRematch(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	r := rand.New(rand.NewPCG(15, 15))
	ctx := context.Background()

	// Game 1: alice (Versailles) against bob; a few turns, then bob resigns.
	g1 := h.startChallenge(chanID, "versailles")
	for k := 0; k < 3; k++ {
		h.takeTurn(alice, chanID, r)
		h.takeTurn(bob, chanID, r)
	}
	h.resign(bob, chanID, g1.ID)
	board := h.finalBoard(chanID, g1.ID, true)

	// Only the two players may ask for the rematch.
	i := h.srv.ClickLabel(carol, board, "Rematch")
	resp, err := i.WaitResponse(h.ctx)
	require.NoError(t, err)
	assert.True(t, resp.Ephemeral())
	assert.Contains(t, resp.Content, "Only")
	_, err = h.store.GameByChannel(ctx, chanID)
	require.ErrorIs(t, err, storage.ErrNotFound, "carol's click created nothing")

	// Game 2: bob asks, alice accepts: sides swapped, same variant.
	g2 := h.rematch(board, bob, alice, chanID)
	require.NotEqual(t, g1.ID, g2.ID)
	assert.Equal(t, []storage.Side{storage.SideCommune}, g2.SidesOf(alice), "alice played Versailles, now the Commune")
	assert.Equal(t, []storage.Side{storage.SideVersailles}, g2.SidesOf(bob))
	assert.Equal(t, g1.Variant, g2.Variant)
	h.takeTurn(alice, chanID, r)
	h.resign(alice, chanID, g2.ID)

	// Game 3: alice asks this time; bob resigns again.
	g3 := h.rematch(h.finalBoard(chanID, g2.ID, true), alice, bob, chanID)
	assert.Equal(t, []storage.Side{storage.SideVersailles}, g3.SidesOf(alice))
	h.resign(bob, chanID, g3.ID)
	h.finalBoard(chanID, g3.ID, true)

	// A solo game in the other channel: listed, not rated.
	_, sresp := h.command(alice, guildID, chan2ID, fakediscord.SubCmd("solo", fakediscord.StrArg("side", "commune")))
	require.Equal(t, discordgo.InteractionResponseDeferredChannelMessageWithSource, sresp.Type)
	require.True(t, h.srv.WaitFor(h.ctx, func() bool {
		rec, err := h.store.GameByChannel(ctx, chan2ID)
		return err == nil && rec.Status == storage.StatusActive
	}))
	solo := h.game(chan2ID)
	h.resign(alice, chan2ID, solo.ID)

	// /rfop history: newest first, with how each game was decided.
	_, hist := h.command(carol, guildID, chanID, fakediscord.SubCmd("history"))
	require.True(t, hist.Ephemeral(), "history is private: the live board stays the newest message")
	lines := strings.Split(hist.Content, "\n")
	require.Len(t, lines, 5, hist.Content)
	for k, id := range []int64{solo.ID, g3.ID, g2.ID, g1.ID} {
		assert.Contains(t, lines[k+1], "**#"+fmtInt(id)+"**", "line %d", k+1)
		assert.Contains(t, lines[k+1], "resigned")
		assert.Contains(t, lines[k+1], "standard")
		assert.Contains(t, lines[k+1], "under a day")
	}
	assert.Contains(t, lines[1], "the solo opponent (Versailles)")
	assert.Contains(t, lines[4], "<@"+alice+"> (Versailles) vs <@"+bob+"> (Commune)")
	assert.Contains(t, lines[4], "**Versailles** won: Commune resigned")
	_, bobs := h.command(carol, guildID, chanID, fakediscord.SubCmd("history", fakediscord.UserArg("member", bob)))
	assert.Len(t, strings.Split(bobs.Content, "\n"), 4, "bob played three of them: %s", bobs.Content)

	// /rfop stats: totals, the leaderboard (3 rated games each), records.
	_, st := h.command(carol, guildID, chanID, fakediscord.SubCmd("stats"))
	require.True(t, st.Ephemeral())
	assert.Contains(t, st.Content, "4 finished games (3 rated) · Versailles won 4, the Commune 0")
	// The ratings' side term (issue 29): (0 + 10) / (3 + 20) = 43%.
	assert.Contains(t, st.Content, "the Commune wins 43% of games between equal players here (estimated from 3 rated games")
	assert.Contains(t, st.Content, "1. <@"+alice+"> — **")
	assert.Contains(t, st.Content, "2. <@"+bob+"> — **")
	assert.Contains(t, st.Content, "<@"+alice+"> — 4 games, 2 won · as Versailles 2–0 · as the Commune 0–2 · 3 rated")
	aliceR, err := h.store.Rating(ctx, guildID, alice)
	require.NoError(t, err)
	bobR, err := h.store.Rating(ctx, guildID, bob)
	require.NoError(t, err)
	assert.Greater(t, aliceR.Rating, 1500.0)
	assert.Less(t, bobR.Rating, 1500.0)
	assert.Equal(t, 3, aliceR.Games, "the solo game is not rated")
	_, mine := h.command(bob, guildID, chanID, fakediscord.SubCmd("stats", fakediscord.UserArg("member", bob)))
	assert.Contains(t, mine.Content, "Rating **")
	assert.Contains(t, mine.Content, "rank 2 on the leaderboard")

	// /rfop replay: the channel's last game, posted publicly (no game runs here).
	ri, rresp := h.command(bob, guildID, chanID, fakediscord.SubCmd("replay"))
	require.False(t, rresp.Ephemeral())
	m := h.settled(ri)
	a := m.Attachment("replay-" + fmtInt(g3.ID) + ".gif")
	require.NotNil(t, a, "the replay is attached: %s", m)
	img, err := gif.DecodeAll(bytes.NewReader(a.Data))
	require.NoError(t, err)
	sum := countPlays(t, h, g3.ID)
	assert.Len(t, img.Image, sum.Plays+sum.Scorings+1, "a frame per play and scoring, and one for the resignation")
	assert.Contains(t, m.Content, "Replay of game #"+fmtInt(g3.ID))

	// A game number from this server works from any channel.
	ri, _ = h.command(alice, guildID, chan2ID, fakediscord.SubCmd("replay", fakediscord.IntArg("game", g1.ID)))
	m = h.settled(ri)
	assert.NotNil(t, m.Attachment("replay-"+fmtInt(g1.ID)+".gif"), "%s", m)

	// Dropping the ratings table loses nothing: a restart rebuilds it.
	_, err = rawExec(h.dbPath, `DROP TABLE ratings`)
	require.NoError(t, err)
	h.restart()
	again, err := h.store.Rating(ctx, guildID, alice)
	require.NoError(t, err)
	assert.InDelta(t, aliceR.Rating, again.Rating, 1e-9)
}

func countPlays(t *testing.T, h *harness, gameID int64) replay.Summary {
	t.Helper()
	rec := h.gameByID(gameID)
	acts, err := h.store.Actions(context.Background(), gameID)
	require.NoError(t, err)
	var moves []engine.Move
	for _, a := range acts {
		var m engine.Move
		require.NoError(t, json.Unmarshal(a.Choice, &m))
		moves = append(moves, m)
	}
	v, err := engine.ParseVariant(rec.Variant)
	require.NoError(t, err)
	sum, err := replay.Count(engine.Options{Variant: v, Seed: rec.Seed, BotSide: engine.NoSide}, moves)
	require.NoError(t, err)
	return sum
}
