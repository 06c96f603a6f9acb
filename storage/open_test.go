package storage_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rfop/rfop/storage"
)

func userVersion(t *testing.T, path string) int {
	t.Helper()
	raw := rawDB(t, path)
	defer raw.Close()
	var v int
	require.NoError(t, raw.QueryRow("PRAGMA user_version").Scan(&v))
	return v
}

func TestMigrations(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	require.GreaterOrEqual(t, storage.SchemaVersion(), 1)

	t.Run("from empty", func(t *testing.T) {
		// A parent directory that does not exist yet is created.
		path := filepath.Join(t.TempDir(), "data", "nested", "rfop.db")
		s := openSQLite(t, path)
		require.NoError(t, s.Close())
		assert.Equal(t, storage.SchemaVersion(), userVersion(t, path))

		raw := rawDB(t, path)
		rows, err := raw.Query(`SELECT name FROM sqlite_schema WHERE type IN ('table', 'index', 'trigger') AND name NOT LIKE 'sqlite_%' ORDER BY name`)
		require.NoError(t, err)
		var names []string
		for rows.Next() {
			var n string
			require.NoError(t, rows.Scan(&n))
			names = append(names, n)
		}
		require.NoError(t, rows.Err())
		for _, want := range []string{"games", "players", "actions", "messages", "guild_settings",
			"games_one_open_per_channel", "actions_no_update", "actions_no_delete"} {
			assert.Contains(t, names, want)
		}
		var mode string
		require.NoError(t, raw.QueryRow("PRAGMA journal_mode").Scan(&mode))
		assert.Equal(t, "wal", mode)
	})

	t.Run("existing empty file", func(t *testing.T) {
		path := dbPath(t)
		require.NoError(t, os.WriteFile(path, nil, 0o644))
		openSQLite(t, path).Close()
		assert.Equal(t, storage.SchemaVersion(), userVersion(t, path))
	})

	t.Run("reopen is a no-op", func(t *testing.T) {
		path := dbPath(t)
		s := openSQLite(t, path)
		g := newActive(t, s, "guild", "chan")
		_, err := s.ApplyMove(ctx, move(g, 100))
		require.NoError(t, err)
		require.NoError(t, s.Close())

		// schema_version counts every schema change SQLite ever made
		// to the file: it must not move on reopen.
		schemaVersion := func() (v int) {
			raw := rawDB(t, path)
			defer raw.Close()
			require.NoError(t, raw.QueryRow("PRAGMA schema_version").Scan(&v))
			return v
		}
		before := schemaVersion()
		for range 3 {
			s = openSQLite(t, path)
			got, err := s.GameByID(ctx, g.ID)
			require.NoError(t, err)
			assert.Equal(t, int64(1), got.StateVersion)
			require.NoError(t, s.Close())
		}
		assert.Equal(t, before, schemaVersion())
		assert.Equal(t, storage.SchemaVersion(), userVersion(t, path))
	})

	t.Run("newer schema is refused", func(t *testing.T) {
		path := dbPath(t)
		openSQLite(t, path).Close()
		future := storage.SchemaVersion() + 3
		raw := rawDB(t, path)
		_, err := raw.Exec(fmt.Sprintf("PRAGMA user_version = %d", future))
		require.NoError(t, err)
		require.NoError(t, raw.Close())

		s, err := storage.Open(ctx, path)
		require.ErrorIs(t, err, storage.ErrSchemaTooNew)
		assert.Nil(t, s)
		assert.Contains(t, err.Error(), fmt.Sprintf("schema version %d", future))
		assert.Contains(t, err.Error(), fmt.Sprintf("up to %d", storage.SchemaVersion()))
		assert.Equal(t, future, userVersion(t, path), "a refused database is left alone")
	})
}

func TestOpenNotWritable(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	root := os.Geteuid() == 0
	for _, tc := range []struct {
		name      string
		setup     func(t *testing.T) string // returns the path to open
		wantErr   string
		needsUser bool // root ignores permission bits
	}{
		{
			name: "parent is a regular file",
			setup: func(t *testing.T) string {
				f := filepath.Join(t.TempDir(), "file")
				require.NoError(t, os.WriteFile(f, []byte("x"), 0o644))
				return filepath.Join(f, "sub", "rfop.db")
			},
			wantErr: "cannot create the database directory",
		},
		{
			name: "path is a directory",
			setup: func(t *testing.T) string {
				return t.TempDir()
			},
			wantErr: "is a directory",
		},
		{
			name: "read-only directory",
			setup: func(t *testing.T) string {
				dir := filepath.Join(t.TempDir(), "ro")
				require.NoError(t, os.Mkdir(dir, 0o555))
				t.Cleanup(func() { os.Chmod(dir, 0o755) })
				return filepath.Join(dir, "rfop.db")
			},
			wantErr:   "is not writable",
			needsUser: true,
		},
		{
			name: "read-only file",
			setup: func(t *testing.T) string {
				path := dbPath(t)
				openSQLite(t, path).Close()
				require.NoError(t, os.Chmod(path, 0o444))
				return path
			},
			wantErr:   "is not writable",
			needsUser: true,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.needsUser && root {
				t.Skip("running as root: permission bits are not enforced")
			}
			path := tc.setup(t)
			s, err := storage.Open(ctx, path)
			require.Error(t, err)
			assert.Nil(t, s)
			assert.Contains(t, err.Error(), tc.wantErr)
		})
	}
}

func TestOpenDefaultPathAndOddNames(t *testing.T) {
	t.Parallel()
	assert.Equal(t, "./rfop.db", storage.DefaultPath)
	// Characters that mean something in a URI are escaped.
	path := filepath.Join(t.TempDir(), "a dir?x=1#frag", "my %db.db")
	s := openSQLite(t, path)
	newActive(t, s, "", "dm")
	require.NoError(t, s.Close())
	_, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, path, s.Path())
}

func TestOpenNotADatabase(t *testing.T) {
	t.Parallel()
	path := dbPath(t)
	require.NoError(t, os.WriteFile(path, []byte("this is a text file, not SQLite, and long enough to have a header"), 0o644))
	s, err := storage.Open(context.Background(), path)
	require.Error(t, err)
	assert.Nil(t, s)
	assert.Contains(t, err.Error(), path)
	t.Log(err)
}
