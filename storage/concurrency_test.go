package storage_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rfop/rfop/storage"
)

// TestApplyMoveRace: 50 goroutines submit a move at the same expected
// version, round after round. Exactly one wins each round; every other
// gets ErrConflict, never "database is locked" or any other error; the
// log ends up seq 1..rounds and holds exactly the winners' moves. With two
// stores on one file (two writer connections, as with a second process)
// the same holds through SQLite's own locking and the busy timeout.
func TestApplyMoveRace(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		const (
			goroutines = 50
			rounds     = 10
		)
		for _, tc := range []struct {
			name   string
			stores int
		}{
			{"one store", 1},
			{"two stores on one database", 2},
		} {
			t.Run(tc.name, func(t *testing.T) {
				ctx := context.Background()
				path := b.newDB(t)
				stores := make([]storage.Store, tc.stores)
				for i := range stores {
					stores[i] = openStore(t, path)
				}
				g := newActive(t, stores[0], "guild", "chan")
				var winners []string // the racer whose move won each round

				for round := int64(0); round < rounds; round++ {
					start := make(chan struct{})
					var wg sync.WaitGroup
					errs := make([]error, goroutines)
					wins := make([]storage.Game, goroutines)
					for i := 0; i < goroutines; i++ {
						wg.Add(1)
						go func() {
							defer wg.Done()
							m := move(g, 2<<10)
							m.UserID = fmt.Sprintf("racer-%d", i)
							<-start
							wins[i], errs[i] = stores[i%len(stores)].ApplyMove(ctx, m)
						}()
					}
					close(start)
					wg.Wait()

					won := 0
					for i, err := range errs {
						if err == nil {
							won++
							g = wins[i]
							winners = append(winners, fmt.Sprintf("racer-%d", i))
							continue
						}
						assert.NotContains(t, err.Error(), "locked")
						assert.NotContains(t, err.Error(), "busy")
						assert.ErrorIs(t, err, storage.ErrConflict, "goroutine %d", i)
					}
					require.Equal(t, 1, won, "round %d: exactly one move wins", round)
					require.Equal(t, round+1, g.StateVersion)
				}

				got := checkLog(t, stores[0], g.ID)
				assert.Equal(t, int64(rounds), got.StateVersion)
				acts, err := stores[len(stores)-1].Actions(ctx, g.ID)
				require.NoError(t, err)
				require.Len(t, acts, rounds)
				for i, a := range acts {
					assert.Equal(t, int64(i+1), a.Seq)
					// The logged move is the winner's: no loser's move was
					// stored in its place or beside it.
					assert.Equal(t, winners[i], a.UserID, "action %d", a.Seq)
				}
			})
		}
	})
}

// TestApplyMoveRaceManyGames: concurrent moves on different games all
// succeed (they only queue for the writer), each game's log stays intact.
func TestApplyMoveRaceManyGames(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		s := openStore(t, b.newDB(t))
		const games, moves = 8, 25
		var wg sync.WaitGroup
		ids := make([]int64, games)
		for i := range games {
			g := newActive(t, s, "guild", fmt.Sprintf("chan-%d", i))
			ids[i] = g.ID
			wg.Add(1)
			go func() {
				defer wg.Done()
				for range moves {
					var err error
					g, err = s.ApplyMove(ctx, move(g, 1<<10))
					if !assert.NoError(t, err) {
						return
					}
					// Readers run alongside the writer.
					_, err = s.GameByID(ctx, g.ID)
					assert.NoError(t, err)
				}
			}()
		}
		wg.Wait()
		for _, id := range ids {
			assert.Equal(t, int64(moves), checkLog(t, s, id).StateVersion)
		}
	})
}

// TestOneOpenGamePerChannel: concurrent CreateGame in one channel, exactly
// one wins, the others get ErrChannelBusy; once the game is over the
// channel takes a new one.
func TestOneOpenGamePerChannel(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		where := b.newDB(t)
		s := openStore(t, where)
		const n = 50

		race := func(status storage.Status) storage.Game {
			t.Helper()
			start := make(chan struct{})
			var wg sync.WaitGroup
			games := make([]storage.Game, n)
			errs := make([]error, n)
			for i := range n {
				wg.Add(1)
				go func() {
					defer wg.Done()
					ng := storage.NewGame{ChannelID: "busy", GuildID: "g", Status: status,
						Mode: storage.ModeTwoPlayer, CreatedBy: fmt.Sprint("user", i)}
					if status == storage.StatusActive {
						ng.State, ng.Players = stateJSON(0, 10), players("a", "b")
					}
					<-start
					games[i], errs[i] = s.CreateGame(ctx, ng)
				}()
			}
			close(start)
			wg.Wait()
			var won storage.Game
			wins := 0
			for i, err := range errs {
				if err == nil {
					wins++
					won = games[i]
					continue
				}
				require.ErrorIs(t, err, storage.ErrChannelBusy)
				assert.Contains(t, err.Error(), "busy")
			}
			require.Equal(t, 1, wins)
			got, err := s.GameByChannel(ctx, "busy")
			require.NoError(t, err)
			require.Equal(t, won.ID, got.ID)
			return won
		}

		// A waiting challenge holds the channel, abandoning frees it.
		g := race(storage.StatusWaiting)
		_, err := s.CreateGame(ctx, storage.NewGame{ChannelID: "busy", Status: storage.StatusActive,
			Mode: storage.ModeTwoPlayer, State: stateJSON(0, 1), Players: players("a", "b")})
		require.ErrorIs(t, err, storage.ErrChannelBusy)
		assert.Contains(t, err.Error(), fmt.Sprintf("game %d (waiting)", g.ID))
		_, err = s.Abandon(ctx, g.ID)
		require.NoError(t, err)
		_, err = s.GameByChannel(ctx, "busy")
		require.ErrorIs(t, err, storage.ErrNotFound)

		// An active game holds it, finishing frees it.
		g = race(storage.StatusActive)
		// Another channel is unaffected.
		newActive(t, s, "g", "other")
		_, err = s.Finish(ctx, g.ID, []byte(`{"winner":"commune"}`))
		require.NoError(t, err)

		g = race(storage.StatusActive)
		games, err := s.GamesInGuild(ctx, "g")
		require.NoError(t, err)
		assert.Len(t, games, 4)
		open, err := s.GamesInGuild(ctx, "g", storage.StatusWaiting, storage.StatusActive)
		require.NoError(t, err)
		assert.Len(t, open, 2)

		// The rule is the database's: even a raw insert cannot break it.
		raw := rawDB(t, where)
		_, err = raw.Exec(`INSERT INTO games (channel_id, status, mode, seed, state, created_at, updated_at, last_action_at)
		VALUES ('busy', 'waiting', 'two-player', 0, '', '', '', '')`)
		require.Error(t, err)
		assert.Contains(t, strings.ToLower(err.Error()), "unique")
	})
}

// TestActivateRace: many members press Accept on one challenge at once.
// Exactly one activation wins, the others get ErrWrongStatus, and the
// game has the winner's players (on PostgreSQL the row lock makes the
// racers queue; on SQLite the single writer does).
func TestActivateRace(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		s := openStore(t, b.newDB(t))
		g, err := s.CreateGame(ctx, storage.NewGame{GuildID: "g", ChannelID: "c", Status: storage.StatusWaiting,
			Mode: storage.ModeTwoPlayer, CreatedBy: "alice"})
		require.NoError(t, err)
		const n = 20
		start := make(chan struct{})
		var wg sync.WaitGroup
		errs := make([]error, n)
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				_, errs[i] = s.Activate(ctx, g.ID, stateJSON(0, 10), nil, players(fmt.Sprint("p", i), "alice")...)
			}()
		}
		close(start)
		wg.Wait()
		winner := -1
		for i, err := range errs {
			if err == nil {
				require.Equal(t, -1, winner, "a second activation succeeded")
				winner = i
				continue
			}
			require.ErrorIs(t, err, storage.ErrWrongStatus, "racer %d", i)
		}
		require.NotEqual(t, -1, winner, "one activation wins")
		got, err := s.GameByID(ctx, g.ID)
		require.NoError(t, err)
		assert.Equal(t, storage.StatusActive, got.Status)
		require.Len(t, got.Players, 2)
		p, _ := got.Player(storage.SideCommune)
		assert.Equal(t, fmt.Sprint("p", winner), p.UserID)
	})
}

// TestRecordResultRace: results of one guild recorded at once; each
// recording rates from every result committed before it, so the ratings
// at the end count every result, the same as a rebuild from scratch.
func TestRecordResultRace(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		s := openStore(t, b.newDB(t))
		const n = 12
		t0 := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
		results := make([]storage.GameResult, n)
		for i := range results {
			v, c := fmt.Sprint("v", i%3), fmt.Sprint("c", i%4)
			g := newActiveWith(t, s, "g", v, c)
			_, err := s.Finish(ctx, g.ID, []byte(`{}`))
			require.NoError(t, err)
			w := storage.SideVersailles
			if i%2 == 0 {
				w = storage.SideCommune
			}
			results[i] = storage.GameResult{GameID: g.ID, GuildID: "g", ChannelID: g.ChannelID, Mode: storage.ModeTwoPlayer,
				Versailles: v, Commune: c, Winner: w, Reason: "victory", Rated: true,
				StartedAt: t0, EndedAt: t0.Add(time.Duration(i) * time.Minute)}
		}
		start := make(chan struct{})
		var wg sync.WaitGroup
		for _, r := range results {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				assert.NoError(t, s.RecordResult(ctx, r, storage.RateFunc(winsRate)))
			}()
		}
		close(start)
		wg.Wait()
		raced, err := s.Leaderboard(ctx, "g", 0, 0)
		require.NoError(t, err)
		games := 0
		for _, p := range raced {
			games += p.Games
		}
		assert.Equal(t, 2*n, games, "every result is counted")
		require.NoError(t, s.RebuildRatings(ctx, winsRate))
		rebuilt, err := s.Leaderboard(ctx, "g", 0, 0)
		require.NoError(t, err)
		assert.Equal(t, rebuilt, raced)
	})
}
