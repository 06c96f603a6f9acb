package storage_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	_ "github.com/mattn/go-sqlite3"
	"github.com/stretchr/testify/require"

	"github.com/rfop/rfop/storage"
)

func TestMain(m *testing.M) {
	// The crash-safety test re-executes this binary as a child that writes
	// moves until it is killed; see crash_test.go.
	if path := os.Getenv(crashChildEnv); path != "" {
		os.Exit(crashChild(path))
	}
	if path := os.Getenv(midMoveChildEnv); path != "" {
		os.Exit(midMoveChild(path))
	}
	os.Exit(m.Run())
}

func dbPath(t testing.TB) string {
	t.Helper()
	return filepath.Join(t.TempDir(), "rfop.db")
}

func openStore(t testing.TB, path string, opts ...storage.Option) *storage.SQLiteStore {
	t.Helper()
	s, err := storage.Open(context.Background(), path, opts...)
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	return s
}

// rawDB opens the file with the plain driver, bypassing the store, to
// inspect or tamper with it.
func rawDB(t testing.TB, path string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite3", path+"?_busy_timeout=5000")
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	return db
}

// testState is a stand-in for the engine's state: a version and padding to
// make it the size of a real state.
type testState struct {
	Version int64  `json:"version"`
	Pad     string `json:"pad,omitempty"`
}

func stateJSON(version int64, size int) []byte {
	b, err := json.Marshal(testState{Version: version, Pad: strings.Repeat("x", size)})
	if err != nil {
		panic(err)
	}
	return b
}

func choiceJSON(seq int64) []byte { return []byte(fmt.Sprintf(`{"seq":%d,"card":%d}`, seq, seq%60)) }

func players(commune, versailles string) []storage.Player {
	return []storage.Player{
		{Side: storage.SideCommune, UserID: commune},
		{Side: storage.SideVersailles, UserID: versailles},
	}
}

func newActive(t testing.TB, s storage.Store, guild, channel string) storage.Game {
	t.Helper()
	g, err := s.CreateGame(context.Background(), storage.NewGame{
		GuildID: guild, ChannelID: channel, Status: storage.StatusActive,
		Variant: "standard", Mode: storage.ModeTwoPlayer, Seed: 42,
		State: stateJSON(0, 10), CreatedBy: "alice", Players: players("alice", "bob"),
	})
	require.NoError(t, err)
	return g
}

func sideFor(seq int64) storage.Side {
	if seq%2 == 1 {
		return storage.SideCommune
	}
	return storage.SideVersailles
}

func move(g storage.Game, size int) storage.Move {
	next := g.StateVersion + 1
	return storage.Move{
		GameID: g.ID, ExpectedVersion: g.StateVersion, Side: sideFor(next), UserID: "u" + fmt.Sprint(next%2),
		Choice: choiceJSON(next), NewState: stateJSON(next, size),
	}
}

// checkLog asserts the invariants of a game's log: seq 1..N without gap
// or duplicate, N == state_version, the state is the one of the last move.
func checkLog(t testing.TB, s storage.Store, id int64) storage.Game {
	t.Helper()
	ctx := context.Background()
	g, acts, err := s.LoadVerified(ctx, id, func(g storage.Game, acts []storage.Action) error {
		var st testState
		if err := json.Unmarshal(g.State, &st); err != nil {
			return err
		}
		if st.Version != int64(len(acts)) {
			return fmt.Errorf("state is of version %d, log has %d moves", st.Version, len(acts))
		}
		for i, a := range acts {
			var c struct{ Seq int64 }
			if err := json.Unmarshal(a.Choice, &c); err != nil {
				return err
			}
			if c.Seq != int64(i+1) || a.Seq != int64(i+1) {
				return fmt.Errorf("action %d: seq %d, choice for %d", i+1, a.Seq, c.Seq)
			}
		}
		return nil
	})
	require.NoError(t, err)
	require.Len(t, acts, int(g.StateVersion))
	return g
}
