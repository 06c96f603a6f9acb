package storage_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rfop/rfop/storage"
	"github.com/rfop/rfop/storage/storagetest"
)

// Every SQLite migration has its PostgreSQL twin, with the same number and
// name, so that one schema version means the same schema on both.
func TestMigrationsHavePostgresTwins(t *testing.T) {
	t.Parallel()
	names := func(dir string) []string {
		entries, err := os.ReadDir(dir)
		require.NoError(t, err)
		var out []string
		for _, e := range entries {
			if !e.IsDir() && strings.HasSuffix(e.Name(), ".sql") {
				out = append(out, e.Name())
			}
		}
		sort.Strings(out)
		return out
	}
	sqlite := names("migrations")
	require.Len(t, sqlite, storage.SchemaVersion())
	assert.Equal(t, sqlite, names(filepath.Join("migrations", "postgres")),
		"a new migration in storage/migrations needs its twin in storage/migrations/postgres")
}

func schemaVersions(t *testing.T, url string) []int {
	t.Helper()
	rows, err := rawDB(t, url).Query(`SELECT version FROM schema_version ORDER BY version`)
	require.NoError(t, err)
	defer rows.Close()
	var vs []int
	for rows.Next() {
		var v int
		require.NoError(t, rows.Scan(&v))
		vs = append(vs, v)
	}
	require.NoError(t, rows.Err())
	return vs
}

// PostgreSQL migrations: applied in order and recorded in schema_version,
// once even when several processes open a new database at the same time,
// left alone when up to date; a database from a newer rfop is refused
// untouched.
func TestPostgresMigrations(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	all := make([]int, storage.SchemaVersion())
	for i := range all {
		all[i] = i + 1
	}

	t.Run("concurrent opens of a new database", func(t *testing.T) {
		t.Parallel()
		url := storagetest.PostgresURL(t)
		var wg sync.WaitGroup
		errs := make([]error, 5)
		for i := range errs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				s, err := storage.OpenPostgres(ctx, url)
				if err == nil {
					err = s.Close()
				}
				errs[i] = err
			}()
		}
		wg.Wait()
		for _, err := range errs {
			require.NoError(t, err)
		}
		assert.Equal(t, all, schemaVersions(t, url))

		raw := rawDB(t, url)
		var n int
		require.NoError(t, raw.QueryRow(`SELECT COUNT(*) FROM pg_indexes WHERE schemaname = current_schema()
			AND indexname IN ('games_one_open_per_channel', 'ratings_board', 'outbox_pending')`).Scan(&n))
		assert.Equal(t, 3, n)
		require.NoError(t, raw.QueryRow(`SELECT COUNT(*) FROM pg_trigger JOIN pg_class ON pg_class.oid = tgrelid
			WHERE relnamespace = current_schema()::regnamespace
			AND tgname IN ('actions_no_update', 'actions_no_delete', 'actions_seq_contiguous', 'games_version_step', 'games_status_transition')`).Scan(&n))
		assert.Equal(t, 5, n)
	})

	t.Run("up to date is left alone", func(t *testing.T) {
		t.Parallel()
		url := storagetest.PostgresURL(t)
		s := openStore(t, url)
		g := newActive(t, s, "g", "c")
		require.NoError(t, s.Close())
		s = openStore(t, url)
		assert.Equal(t, all, schemaVersions(t, url))
		got, err := s.GameByID(ctx, g.ID)
		require.NoError(t, err)
		assert.Equal(t, g.State, got.State)
	})

	t.Run("newer schema refused", func(t *testing.T) {
		t.Parallel()
		url := storagetest.PostgresURL(t)
		openStore(t, url).Close()
		next := storage.SchemaVersion() + 1
		_, err := rawDB(t, url).Exec(`INSERT INTO schema_version (version, name, applied_at) VALUES (?, 'future', '')`, next)
		require.NoError(t, err)
		_, err = storage.OpenPostgres(ctx, url)
		require.ErrorIs(t, err, storage.ErrSchemaTooNew)
		assert.Equal(t, append(all, next), schemaVersions(t, url), "nothing changed")
	})
}

// OpenURL: a postgres URL opens PostgreSQL, anything else a SQLite file.
func TestOpenURL(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := dbPath(t)
	s, err := storage.OpenURL(ctx, path)
	require.NoError(t, err)
	_, isSQLite := s.(*storage.SQLiteStore)
	assert.True(t, isSQLite, "a path opens SQLite")
	require.NoError(t, s.Close())

	for _, tc := range []struct {
		dsn      string
		postgres bool
	}{
		{"postgres://u@h/db", true},
		{"postgresql://u@h/db", true},
		{"POSTGRES://u@h/db", true},
		{"./rfop.db", false},
		{"/data/rfop.db", false},
		{"postgres.db", false},
		{"", false},
	} {
		assert.Equal(t, tc.postgres, storage.IsPostgresURL(tc.dsn), tc.dsn)
	}

	t.Run("postgres", func(t *testing.T) {
		url := storagetest.PostgresURL(t)
		s, err := storage.OpenURL(ctx, url)
		require.NoError(t, err)
		defer s.Close()
		_, isPG := s.(*storage.PostgresStore)
		assert.True(t, isPG, "a postgres URL opens PostgreSQL")
	})
}

// A postgres URL's password never reaches a log line or an error.
func TestRedact(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{"postgres://rfop:s3cret@db:5432/rfop?sslmode=require", "postgres://rfop:xxxxx@db:5432/rfop?sslmode=require"},
		{"postgresql://rfop@db/rfop", "postgresql://rfop@db/rfop"},
		{"postgres://db/rfop?user=rfop&password=s3cret", "postgres://db/rfop?password=xxxxx&user=rfop"},
		{"postgres://rfop:s3cret@db:bad port/x", "postgres://(unparsable URL)"},
		{"./rfop.db", "./rfop.db"},
	} {
		assert.Equal(t, tc.want, storage.Redact(tc.in), tc.in)
	}
	// A server that does not answer: the error names the URL without the
	// password.
	_, err := storage.OpenPostgres(context.Background(), "postgres://rfop:s3cret@127.0.0.1:1/rfop?connect_timeout=2")
	require.Error(t, err)
	assert.NotContains(t, err.Error(), "s3cret")
	assert.Contains(t, err.Error(), "xxxxx")
}

// storagetest.PostgresURL without a server: skipped with how to run it,
// or failed under RFOP_REQUIRE_POSTGRES=1 (what .ci/run sets). Run in a
// child process pointed at a port where nothing listens.
func TestPostgresURLWithoutServer(t *testing.T) {
	t.Parallel()
	if os.Getenv("RFOP_TEST_NO_SERVER_CHILD") == "1" {
		storagetest.PostgresURL(t)
		t.Log("unreachable: PostgresURL returned without a server")
		return
	}
	for _, tc := range []struct {
		name    string
		require string
		failed  bool
		says    string
	}{
		{"skipped by default", "", false, "To run it, start PostgreSQL"},
		{"failed when required", "1", true, "RFOP_REQUIRE_POSTGRES=1 requires PostgreSQL tests to run"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run", "^TestPostgresURLWithoutServer$", "-test.v", "-test.count=1")
			cmd.Env = append(os.Environ(), "RFOP_TEST_NO_SERVER_CHILD=1",
				storagetest.EnvURL+"=postgres://postgres:hidden@127.0.0.1:1/postgres?connect_timeout=2",
				storagetest.EnvRequire+"="+tc.require)
			out, err := cmd.CombinedOutput()
			assert.Equal(t, tc.failed, err != nil, "%s", out)
			assert.Contains(t, string(out), tc.says)
			assert.NotContains(t, string(out), "hidden", "the password is not shown")
			if !tc.failed {
				assert.Contains(t, string(out), "--- SKIP")
			}
		})
	}
}
