package bot

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/rfop/rfop/storage"
	"github.com/stretchr/testify/assert"
)

// statsOf counts as storage's Stats does (its SQL is pinned by the
// storage tests): totals over every result, each player's record, most
// games first, then by id; only the member's record when one is named.
func TestStatsOfCountsLikeTheStore(t *testing.T) {
	t.Parallel()
	rs := []storage.GameResult{
		{Versailles: "a", Commune: "b", Winner: storage.SideVersailles, Rated: true},
		{Versailles: "b", Commune: "a", Winner: storage.SideVersailles, Rated: true},
		{Versailles: "", Commune: "c", Winner: storage.SideCommune, Mode: storage.ModeSolo},
		{Versailles: "c", Commune: "a", Winner: storage.SideCommune, Rated: true},
	}
	st := statsOf(rs, "")
	assert.Equal(t, 4, st.Games)
	assert.Equal(t, 3, st.Rated)
	assert.Equal(t, [2]int{2, 2}, st.Wins)
	assert.Equal(t, []storage.PlayerRecord{
		{UserID: "a", Games: 3, Wins: 2, Played: [2]int{1, 2}, Won: [2]int{1, 1}, Rated: 3},
		{UserID: "b", Games: 2, Wins: 1, Played: [2]int{1, 1}, Won: [2]int{1, 0}, Rated: 2},
		{UserID: "c", Games: 2, Wins: 1, Played: [2]int{1, 1}, Won: [2]int{0, 1}, Rated: 1},
	}, st.Players)
	one := statsOf(rs, "c")
	assert.Equal(t, 4, one.Games, "the totals stay the server's")
	assert.Equal(t, []storage.PlayerRecord{st.Players[2]}, one.Players)
	assert.Empty(t, statsOf(rs, "z").Players)
	assert.Equal(t, storage.GuildStats{}, statsOf(nil, ""))
}

// BenchmarkStatsOf10000: counting 10,000 results between 40 players.
func BenchmarkStatsOf10000(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	rs := make([]storage.GameResult, 10000)
	for k := range rs {
		rs[k] = storage.GameResult{Versailles: fmt.Sprintf("u%d", r.IntN(40)), Commune: fmt.Sprintf("u%d", r.IntN(40)),
			Winner: storage.SideCommune, Rated: true}
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if st := statsOf(rs, ""); st.Games != 10000 {
			b.Fatal(st.Games)
		}
	}
}
