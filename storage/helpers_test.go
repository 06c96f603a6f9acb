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

	_ "github.com/jackc/pgx/v5/stdlib"
	_ "github.com/mattn/go-sqlite3"
	"github.com/stretchr/testify/require"

	"github.com/rfop/rfop/storage"
	"github.com/rfop/rfop/storage/storagetest"
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

// backend is one implementation of the Store contract: the contract
// tests run on each (eachBackend).
type backend struct {
	name string
	// newDB returns a new empty database: a SQLite file path or a
	// PostgreSQL URL (storagetest.PostgresURL: skipped without a server,
	// unless RFOP_REQUIRE_POSTGRES=1).
	newDB func(testing.TB) string
}

var backends = []backend{
	{"sqlite", dbPath},
	{"postgres", storagetest.PostgresURL},
}

// eachBackendB runs f as one sub-benchmark per backend.
func eachBackendB(b *testing.B, f func(b *testing.B, bk backend)) {
	for _, bk := range backends {
		b.Run(bk.name, func(b *testing.B) { f(b, bk) })
	}
}

func (b backend) postgres() bool { return b.name == "postgres" }

// eachBackend runs f as one subtest per backend.
func eachBackend(t *testing.T, f func(t *testing.T, b backend)) {
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			t.Parallel()
			f(t, b)
		})
	}
}

// openStore opens the store at where (a path or a postgres URL) through
// OpenURL, closed at the end of the test.
func openStore(t testing.TB, where string, opts ...storage.Option) storage.Store {
	t.Helper()
	s, err := storage.OpenURL(context.Background(), where, opts...)
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	return s
}

// openSQLite is openStore for SQLite-only tests.
func openSQLite(t testing.TB, path string, opts ...storage.Option) *storage.SQLiteStore {
	t.Helper()
	s, err := storage.Open(context.Background(), path, opts...)
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	return s
}

// rawSQL is a database opened with the plain driver, bypassing the
// store, to inspect or tamper with it; Exec and QueryRow take ?
// placeholders on both backends.
type rawSQL struct {
	*sql.DB
	dollar bool
}

func (r rawSQL) q(query string) string {
	if !r.dollar {
		return query
	}
	var b strings.Builder
	n := 0
	for _, c := range query {
		if c == '?' {
			n++
			fmt.Fprintf(&b, "$%d", n)
			continue
		}
		b.WriteRune(c)
	}
	return b.String()
}

func (r rawSQL) Exec(query string, args ...any) (sql.Result, error) {
	return r.DB.Exec(r.q(query), args...)
}

func (r rawSQL) QueryRow(query string, args ...any) *sql.Row {
	return r.DB.QueryRow(r.q(query), args...)
}

// rawDB opens where (a SQLite file or a postgres URL) with the plain
// driver.
func rawDB(t testing.TB, where string) rawSQL {
	t.Helper()
	var (
		db  *sql.DB
		err error
	)
	if storage.IsPostgresURL(where) {
		db, err = sql.Open("pgx", where)
	} else {
		db, err = sql.Open("sqlite3", where+"?_busy_timeout=5000")
	}
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	return rawSQL{DB: db, dollar: storage.IsPostgresURL(where)}
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
