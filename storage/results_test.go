package storage_test

import (
	"context"
	"fmt"
	"sort"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/rfop/rfop/storage"
)

// winsRate is a stand-in RateFunc: 1500 + 10 per win − 10 per loss, in
// the order given, so tests can see which results it was given.
func winsRate(rated []storage.GameResult) ([]storage.PlayerRating, error) {
	by := map[string]*storage.PlayerRating{}
	get := func(g, u string) *storage.PlayerRating {
		if p, ok := by[u]; ok {
			return p
		}
		p := &storage.PlayerRating{GuildID: g, UserID: u, Rating: 1500, Deviation: 350, Volatility: 0.06}
		by[u] = p
		return p
	}
	for _, r := range rated {
		w, l := get(r.GuildID, r.Player(r.Winner)), get(r.GuildID, r.Player(other(r.Winner)))
		w.Rating += 10
		l.Rating -= 10
		w.Games++
		l.Games++
		w.Wins++
	}
	out := []storage.PlayerRating{}
	for _, p := range by {
		out = append(out, *p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].UserID < out[j].UserID })
	return out, nil
}

func other(s storage.Side) storage.Side {
	if s == storage.SideCommune {
		return storage.SideVersailles
	}
	return storage.SideCommune
}

// finishGame creates and finishes a game between v and c in guild and
// records its result.
func finishGame(t testing.TB, s storage.Store, guild string, v, c string, winner storage.Side, reason string, end time.Time) storage.GameResult {
	t.Helper()
	ctx := context.Background()
	g := newActiveWith(t, s, guild, v, c)
	_, err := s.Finish(ctx, g.ID, []byte(`{"winner":0}`))
	require.NoError(t, err)
	r := storage.GameResult{GameID: g.ID, GuildID: guild, ChannelID: g.ChannelID, Mode: storage.ModeTwoPlayer, Variant: "standard",
		Versailles: v, Commune: c, Winner: winner, Reason: reason, VP: [2]int{1, -2}, Plays: 30, Moves: 100,
		Rated: v != "" && c != "" && v != c, StartedAt: end.Add(-72 * time.Hour), EndedAt: end}
	require.NoError(t, s.RecordResult(ctx, r, storage.RateFunc(winsRate)))
	return r
}

// channelSeq numbers the channels of newActiveWith's games; the storage
// tests run in parallel, so it is atomic.
var channelSeq atomic.Int64

func newActiveWith(t testing.TB, s storage.Store, guild, v, c string) storage.Game {
	t.Helper()
	ng := storage.NewGame{GuildID: guild, ChannelID: fmt.Sprintf("ch%d", channelSeq.Add(1)), Status: storage.StatusActive,
		Variant: "standard", Mode: storage.ModeTwoPlayer, Seed: 1, State: stateJSON(0, 10), CreatedBy: v,
		Players: []storage.Player{{Side: storage.SideVersailles, UserID: v}, {Side: storage.SideCommune, UserID: c}}}
	if v == "" {
		ng.Mode, ng.BotSide = storage.ModeSolo, storage.SideVersailles
		ng.Players = []storage.Player{{Side: storage.SideCommune, UserID: c}}
	}
	g, err := s.CreateGame(context.Background(), ng)
	require.NoError(t, err)
	return g
}

func TestResultsHistoryStatsAndRatings(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		s := openStore(t, b.newDB(t))
		t0 := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
		finishGame(t, s, "g1", "ann", "bob", storage.SideVersailles, "victory", t0)
		finishGame(t, s, "g1", "bob", "ann", storage.SideCommune, "tiebreaker", t0.Add(time.Hour))
		finishGame(t, s, "g1", "cat", "ann", storage.SideCommune, "resigned", t0.Add(2*time.Hour))
		finishGame(t, s, "g1", "", "bob", storage.SideVersailles, "solo-tie", t0.Add(3*time.Hour)) // solo: listed, not rated
		finishGame(t, s, "g2", "ann", "bob", storage.SideCommune, "victory", t0)                   // another server

		h, err := s.History(ctx, "g1", "", 0)
		require.NoError(t, err)
		require.Len(t, h, 4)
		require.Equal(t, "solo-tie", h[0].Reason, "newest first")
		require.Equal(t, "victory", h[3].Reason)
		require.Equal(t, [2]int{1, -2}, h[3].VP)
		require.Equal(t, 30, h[3].Plays)
		require.Equal(t, t0, h[3].EndedAt)

		last, err := s.LatestResult(ctx, h[1].ChannelID)
		require.NoError(t, err)
		require.Equal(t, h[1], last)
		_, err = s.LatestResult(ctx, "nowhere")
		require.ErrorIs(t, err, storage.ErrNotFound)

		h, err = s.History(ctx, "g1", "cat", 0)
		require.NoError(t, err)
		require.Len(t, h, 1)
		h, err = s.History(ctx, "g1", "", 2)
		require.NoError(t, err)
		require.Len(t, h, 2)

		st, err := s.Stats(ctx, "g1", "", nil)
		require.NoError(t, err)
		require.Equal(t, 4, st.Games)
		require.Equal(t, 3, st.Rated)
		require.Equal(t, [2]int{2, 2}, st.Wins)
		require.Equal(t, 2, st.RatedCommuneWins, "the Commune's wins among rated games (the solo game's win is Versailles')")
		byUser := map[string]storage.PlayerRecord{}
		for _, p := range st.Players {
			byUser[p.UserID] = p
		}
		require.Equal(t, storage.PlayerRecord{UserID: "ann", Games: 3, Wins: 3, Played: [2]int{1, 2}, Won: [2]int{1, 2}, Rated: 3}, byUser["ann"])
		require.Equal(t, storage.PlayerRecord{UserID: "bob", Games: 3, Wins: 0, Played: [2]int{1, 2}, Won: [2]int{0, 0}, Rated: 2}, byUser["bob"])
		require.NotContains(t, byUser, "", "the bot has no record")

		mine, err := s.Stats(ctx, "g1", "cat", nil)
		require.NoError(t, err)
		require.Len(t, mine.Players, 1)
		require.Equal(t, 4, mine.Games, "server totals stay")

		board, err := s.Leaderboard(ctx, "g1", 3, 10)
		require.NoError(t, err)
		require.Len(t, board, 1, "only ann has 3 rated games (bob's solo game is not rated)")
		require.Equal(t, "ann", board[0].UserID)
		require.Equal(t, 1530.0, board[0].Rating)
		all, err := s.Leaderboard(ctx, "g1", 0, 0)
		require.NoError(t, err)
		require.Len(t, all, 3)
		bob, err := s.Rating(ctx, "g1", "bob")
		require.NoError(t, err)
		require.Equal(t, 1480.0, bob.Rating)
		_, err = s.Rating(ctx, "g1", "nobody")
		require.ErrorIs(t, err, storage.ErrNotFound)
		g2, err := s.Rating(ctx, "g2", "bob")
		require.NoError(t, err)
		require.Equal(t, 1510.0, g2.Rating, "ratings are per server")
	})
}

// The ratings are derived data: drop the table and RebuildRatings makes
// it again, with the same ratings, from the results.
func TestRatingsRebuiltFromResultsAfterDrop(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		path := b.newDB(t)
		s := openStore(t, path)
		t0 := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
		for k := 0; k < 6; k++ {
			w := storage.SideVersailles
			if k%3 == 0 {
				w = storage.SideCommune
			}
			finishGame(t, s, "g", "ann", "bob", w, "victory", t0.Add(time.Duration(k)*time.Hour))
		}
		before, err := s.Leaderboard(ctx, "g", 0, 0)
		require.NoError(t, err)
		require.Len(t, before, 2)

		_, err = rawDB(t, path).Exec(`DROP TABLE ratings`)
		require.NoError(t, err)
		_, err = s.Leaderboard(ctx, "g", 0, 0)
		require.Error(t, err)

		require.NoError(t, s.RebuildRatings(ctx, winsRate))
		after, err := s.Leaderboard(ctx, "g", 0, 0)
		require.NoError(t, err)
		require.Equal(t, before, after)

		// Recreated as the migration made it: its primary key and index.
		raw := rawDB(t, path)
		if b.postgres() {
			var idx int
			require.NoError(t, raw.QueryRow(`SELECT COUNT(*) FROM pg_indexes WHERE schemaname = current_schema()
				AND tablename = 'ratings' AND indexname IN ('ratings_pkey', 'ratings_board')`).Scan(&idx))
			require.Equal(t, 2, idx)
			return
		}
		var sqlText string
		require.NoError(t, raw.QueryRow(`SELECT sql FROM sqlite_master WHERE name = 'ratings'`).Scan(&sqlText))
		require.Contains(t, sqlText, "WITHOUT ROWID", "recreated as the migration made it")
		var idx int
		require.NoError(t, raw.QueryRow(`SELECT COUNT(*) FROM sqlite_master WHERE name = 'ratings_board'`).Scan(&idx))
		require.Equal(t, 1, idx)
	})
}

func TestFinishedWithoutResult(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		s := openStore(t, b.newDB(t))
		g := newActiveWith(t, s, "g", "ann", "bob")
		_, err := s.Finish(ctx, g.ID, []byte(`{}`))
		require.NoError(t, err)
		ab := newActiveWith(t, s, "g", "ann", "bob")
		_, err = s.Abandon(ctx, ab.ID)
		require.NoError(t, err)
		missing, err := s.FinishedWithoutResult(ctx)
		require.NoError(t, err)
		require.Len(t, missing, 1, "abandoned games have no result to record")
		require.Equal(t, g.ID, missing[0].ID)
		require.NoError(t, s.RecordResult(ctx, storage.GameResult{GameID: g.ID, GuildID: "g", Mode: storage.ModeTwoPlayer,
			Versailles: "ann", Commune: "bob", Winner: storage.SideCommune, Reason: "victory", Rated: true}, storage.RateFunc(winsRate)))
		missing, err = s.FinishedWithoutResult(ctx)
		require.NoError(t, err)
		require.Empty(t, missing)

		err = s.RecordResult(ctx, storage.GameResult{GameID: g.ID, Mode: storage.ModeTwoPlayer, Winner: "nobody", Reason: "x"}, nil)
		require.ErrorIs(t, err, storage.ErrInvalid)
		err = s.RecordResult(ctx, storage.GameResult{GameID: 999, Mode: storage.ModeTwoPlayer, Winner: storage.SideCommune, Reason: "x"}, nil)
		require.ErrorIs(t, err, storage.ErrNotFound)
	})
}

// /rfop stats counts only the games the member can see (README "Which games
// a member can see"): the bot names the visible channels and the member, and
// Stats counts in SQL the results in those channels and the member's own
// games wherever they were.
func TestStatsCountOnlyTheResultsWithin(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		s := openStore(t, b.newDB(t))
		t0 := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
		open := finishGame(t, s, "g1", "ann", "bob", storage.SideVersailles, "victory", t0)
		hidden := finishGame(t, s, "g1", "bob", "cat", storage.SideCommune, "victory", t0.Add(time.Hour))
		mine := finishGame(t, s, "g1", "dan", "bob", storage.SideCommune, "resigned", t0.Add(2*time.Hour))
		solo := finishGame(t, s, "g1", "", "eve", storage.SideVersailles, "solo-tie", t0.Add(3*time.Hour))
		finishGame(t, s, "g2", "ann", "bob", storage.SideCommune, "victory", t0) // another server

		chans, err := s.ResultChannels(ctx, "g1")
		require.NoError(t, err)
		require.ElementsMatch(t, []string{open.ChannelID, hidden.ChannelID, mine.ChannelID, solo.ChannelID}, chans)

		records := func(st storage.GuildStats) map[string]int {
			out := map[string]int{}
			for _, p := range st.Players {
				out[p.UserID] = p.Games
			}
			return out
		}
		for _, tc := range []struct {
			name    string
			within  *storage.Within
			games   int
			wins    [2]int
			players map[string]int
		}{
			{"nil counts every result of the server", nil, 4, [2]int{2, 2}, map[string]int{"ann": 1, "bob": 3, "cat": 1, "dan": 1, "eve": 1}},
			{"a visible channel, and the member's own game in a hidden one",
				&storage.Within{Channels: []string{open.ChannelID}, Player: "dan"}, 2, [2]int{1, 1}, map[string]int{"ann": 1, "bob": 2, "dan": 1}},
			{"no channel and no member sees nothing (a bot's '' is nobody)",
				&storage.Within{Player: ""}, 0, [2]int{}, map[string]int{}},
			{"the solo game's channel: its bot side is no record",
				&storage.Within{Channels: []string{solo.ChannelID}}, 1, [2]int{1, 0}, map[string]int{"eve": 1}},
		} {
			t.Run(tc.name, func(t *testing.T) {
				st, err := s.Stats(ctx, "g1", "", tc.within)
				require.NoError(t, err)
				require.Equal(t, tc.games, st.Games)
				require.Equal(t, tc.wins, st.Wins)
				require.Equal(t, tc.players, records(st))
			})
		}
		one, err := s.Stats(ctx, "g1", "bob", &storage.Within{Channels: []string{open.ChannelID, hidden.ChannelID}})
		require.NoError(t, err)
		require.Equal(t, 2, one.Games, "the totals are of what the member sees")
		nobody, err := s.Stats(ctx, "g1", "zed", nil)
		require.NoError(t, err)
		require.Empty(t, nobody.Players, "a member with no games has no record")
		require.Equal(t, 4, nobody.Games)
		require.Equal(t, []storage.PlayerRecord{{UserID: "bob", Games: 2, Wins: 0, Played: [2]int{1, 1}, Won: [2]int{0, 0}, Rated: 2}}, one.Players)
	})
}
