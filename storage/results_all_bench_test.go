package storage_test

import (
	"context"
	"testing"
)

// BenchmarkHistoryAll10000: every result of a guild with 10,000 finished
// games, which /rfop stats reads to count only the games the member can
// see (bot.statsOf counts them; BenchmarkStatsOf10000 in package bot).
func BenchmarkHistoryAll10000(b *testing.B) {
	eachBackendB(b, func(b *testing.B, bk backend) {
		s := generatedDB(b, bk, 10000)
		ctx := context.Background()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			h, err := s.History(ctx, "guild", "", 0)
			if err != nil || len(h) != 10000 {
				b.Fatal(err, len(h))
			}
		}
	})
}
