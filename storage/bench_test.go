package storage_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/rfop/rfop/storage"
	"github.com/rfop/rfop/storage/storagetest"
)

// BenchmarkApplyMove: one move per op, appending an action and writing a
// ~20 KB state: on a SQLite WAL file in a temporary directory (with
// synchronous NORMAL, the default, and FULL), and on PostgreSQL over
// loopback (a database of its own; skipped without a server, see
// storagetest). Besides ns/op (the mean) it reports the median and 99th
// percentile of single moves.
func BenchmarkApplyMove(b *testing.B) {
	for _, bc := range []struct {
		name  string
		newDB func(testing.TB) string
		opts  []storage.Option
	}{
		{"sqlite/synchronous=NORMAL", dbPath, nil},
		{"sqlite/synchronous=FULL", dbPath, []storage.Option{storage.WithFullSync()}},
		{"postgres", storagetest.PostgresURL, nil},
	} {
		b.Run(bc.name, func(b *testing.B) {
			ctx := context.Background()
			s := openStore(b, bc.newDB(b), bc.opts...)
			g := newActive(b, s, "guild", "bench")
			// Prebuild the states: the benchmark measures storage, not
			// JSON encoding.
			const size = 20 << 10
			states := make([][]byte, 64)
			for i := range states {
				states[i] = stateJSON(int64(i), size)
			}
			b.SetBytes(int64(len(states[0])))
			durs := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				m := storage.Move{GameID: g.ID, ExpectedVersion: g.StateVersion, Side: storage.SideCommune,
					UserID: "alice", Choice: []byte(`{"card":12,"op":"place","space":"montmartre"}`),
					NewState: states[i%len(states)]}
				t0 := time.Now()
				var err error
				g, err = s.ApplyMove(ctx, m)
				durs = append(durs, time.Since(t0))
				if err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			slices.Sort(durs)
			b.ReportMetric(float64(durs[len(durs)/2].Nanoseconds()), "p50-ns/op")
			b.ReportMetric(float64(durs[len(durs)*99/100].Nanoseconds()), "p99-ns/op")
		})
	}
}
