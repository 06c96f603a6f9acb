package storage_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/rfop/rfop/storage"
)

// BenchmarkStatsWithin10000: /rfop stats for a member who sees 90 of a
// guild's 100 result channels, 10,000 finished games stored: the channel
// list, then the counts of the visible results in SQL.
func BenchmarkStatsWithin10000(b *testing.B) {
	eachBackendB(b, func(b *testing.B, bk backend) {
		s := generatedDB(b, bk, 10000)
		ctx := context.Background()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			chans, err := s.ResultChannels(ctx, "guild")
			if err != nil || len(chans) != 100 {
				b.Fatal(err, len(chans))
			}
			within := &storage.Within{Player: "u7"}
			for k, c := range chans {
				if k%10 != 0 {
					within.Channels = append(within.Channels, c)
				}
			}
			st, err := s.Stats(ctx, "guild", "", within)
			if err != nil || st.Games < 8000 || st.Games >= 10000 {
				b.Fatal(err, st.Games, fmt.Sprint(len(within.Channels)))
			}
		}
	})
}
