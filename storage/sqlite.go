package storage

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/mattn/go-sqlite3"
)

// DefaultPath is where the database lives unless the caller says otherwise
// (the bot takes a flag or the RFOP_DB environment variable).
const DefaultPath = "./rfop.db"

// readerConns is the size of the read-only connection pool.
const readerConns = 4

// stmtCacheSize is how many prepared statements each connection keeps
// (more than the package's distinct statements on the hot paths).
const stmtCacheSize = "128"

//go:embed migrations/*.sql migrations/postgres/*.sql
var migrationFS embed.FS

// loadMigrations parses SQLite's embedded migrations once.
var loadMigrations = sync.OnceValues(func() ([]migration, error) {
	return readMigrations(migrationFS, "migrations")
})

// SchemaVersion is the schema version this binary migrates databases to
// (the highest embedded migration; PRAGMA user_version of an up-to-date
// database).
func SchemaVersion() int {
	ms, err := loadMigrations()
	if err != nil {
		return 0
	}
	return len(ms)
}

// SQLiteStore is the Store backed by one SQLite file. It is safe for
// concurrent use. See the package documentation for its connection set-up.
type SQLiteStore struct {
	sqlStore
	path string
}

// sqliteDialect is SQLite's way: ? placeholders, one writer at a time.
var sqliteDialect = &dialect{
	name:            "sqlite",
	readTx:          &sql.TxOptions{ReadOnly: true},
	byRowID:         " NOT INDEXED",
	tableExists:     `SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = ?`,
	textList:        `SELECT value FROM json_each(?)`,
	migrations:      loadMigrations,
	isUniqueChannel: isUniqueChannel,
	isForeignKey:    isForeignKey,
	isLogViolation:  isLogViolation,
}

// Option tunes Open.
type Option func(*options)

type options struct {
	now      func() time.Time
	fullSync bool
}

// WithClock makes the store take timestamps from now instead of
// time.Now (tests, replays).
func WithClock(now func() time.Time) Option { return func(o *options) { o.now = now } }

// WithFullSync opens the database with synchronous=FULL instead of
// NORMAL: each commit is also fsynced, so it survives a power cut or
// kernel crash and not only a crash of the process, at the cost of one
// fsync per move.
func WithFullSync() Option { return func(o *options) { o.fullSync = true } }

// Open opens (creating it and its parent directory if needed) the database
// at path, DefaultPath if path is empty, and migrates it to the current
// schema. It fails with a clear error if the file or its directory cannot
// be written, and with ErrSchemaTooNew if a newer rfop wrote it.
func Open(ctx context.Context, path string, opts ...Option) (*SQLiteStore, error) {
	o := options{now: time.Now}
	for _, opt := range opts {
		opt(&o)
	}
	if path == "" {
		path = DefaultPath
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("storage: database path %q: %w", path, err)
	}
	if err := checkWritable(abs); err != nil {
		return nil, err
	}

	syncMode := "NORMAL"
	if o.fullSync {
		syncMode = "FULL"
	}
	writer, err := sql.Open("sqlite3", dsn(abs, url.Values{
		"_journal_mode": {"WAL"},
		"_busy_timeout": {"5000"},
		"_foreign_keys": {"on"},
		"_txlock":       {"immediate"},
		"_synchronous":  {syncMode},
		// Prepared statements are kept per connection (go-sqlite3's
		// cache): the bot runs a few dozen distinct statements over and
		// over, and preparing one cost more than running it (a fifth of
		// the database's CPU in the 200-game benchmark).
		"_stmt_cache_size": {stmtCacheSize},
	}))
	if err != nil {
		return nil, fmt.Errorf("storage: opening %s: %w", abs, err)
	}
	writer.SetMaxOpenConns(1)
	writer.SetMaxIdleConns(1)
	writer.SetConnMaxLifetime(0)
	writer.SetConnMaxIdleTime(0)

	s := &SQLiteStore{sqlStore: sqlStore{where: abs, writer: writer, writeTurn: make(chan struct{}, 1), reader: writer, now: o.now, d: sqliteDialect}, path: abs}
	fail := func(err error) (*SQLiteStore, error) {
		if s.reader != writer {
			s.reader.Close()
		}
		writer.Close()
		return nil, err
	}

	var mode string
	if err := writer.QueryRowContext(ctx, "PRAGMA journal_mode").Scan(&mode); err != nil {
		return fail(fmt.Errorf("storage: opening %s: %w", abs, err))
	}
	if !strings.EqualFold(mode, "wal") {
		return fail(fmt.Errorf("storage: opening %s: journal_mode is %q, not wal (is the file on a filesystem without shared memory, or opened by an old SQLite?)", abs, mode))
	}
	if err := s.migrate(ctx); err != nil {
		return fail(err)
	}

	reader, err := sql.Open("sqlite3", dsn(abs, url.Values{
		"_busy_timeout":    {"5000"},
		"_foreign_keys":    {"on"},
		"_txlock":          {"deferred"},
		"_query_only":      {"1"},
		"_stmt_cache_size": {stmtCacheSize},
	}))
	if err != nil {
		return fail(fmt.Errorf("storage: opening %s for reading: %w", abs, err))
	}
	reader.SetMaxOpenConns(readerConns)
	reader.SetMaxIdleConns(readerConns)
	reader.SetConnMaxLifetime(0)
	reader.SetConnMaxIdleTime(0)
	s.reader = reader
	if err := reader.PingContext(ctx); err != nil {
		return fail(fmt.Errorf("storage: opening %s for reading: %w", abs, err))
	}
	return s, nil
}

// Path returns the absolute path of the database file.
func (s *SQLiteStore) Path() string { return s.path }

// dsn builds a go-sqlite3 data source name: a file: URI (so that any
// character in the path is escaped) followed by the driver's parameters.
func dsn(abs string, params url.Values) string {
	return "file:" + (&url.URL{Path: filepath.ToSlash(abs)}).EscapedPath() + "?" + params.Encode()
}

// checkWritable creates the parent directory if needed and makes sure the
// database file and its directory (where SQLite puts the -wal and -shm
// files) can be written, so that a misconfigured path fails at start-up
// with a clear message rather than at the first move with "attempt to
// write a readonly database".
func checkWritable(abs string) error {
	dir := filepath.Dir(abs)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("storage: cannot create the database directory %s: %w", dir, err)
	}
	if fi, err := os.Stat(abs); err == nil {
		if fi.IsDir() {
			return fmt.Errorf("storage: database path %s is a directory", abs)
		}
		f, err := os.OpenFile(abs, os.O_RDWR, 0)
		if err != nil {
			return fmt.Errorf("storage: database file %s is not writable: %w", abs, err)
		}
		f.Close()
	} else if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("storage: database file %s: %w", abs, err)
	}
	f, err := os.CreateTemp(dir, ".rfop-write-test-*")
	if err != nil {
		return fmt.Errorf("storage: database directory %s is not writable (SQLite keeps its -wal and -shm files there): %w", dir, err)
	}
	name := f.Name()
	f.Close()
	os.Remove(name)
	return nil
}

// migrate brings the schema up to date, one migration per transaction.
func (s *SQLiteStore) migrate(ctx context.Context) error {
	ms, err := loadMigrations()
	if err != nil {
		return err
	}
	for {
		applied, err := s.migrateStep(ctx, ms)
		if err != nil || !applied {
			return err
		}
	}
}

// migrateStep applies the next pending migration, if any, and sets
// user_version in the same transaction: BEGIN IMMEDIATE holds the write
// lock from the read of user_version to the commit, so two processes
// opening the same file at once cannot both apply a migration, and a
// crash leaves the schema either before or after it, never half-way.
func (s *SQLiteStore) migrateStep(ctx context.Context, ms []migration) (applied bool, err error) {
	tx, err := s.writer.BeginTx(ctx, nil)
	if err != nil {
		return false, fmt.Errorf("storage: migrating %s: %w", s.path, err)
	}
	defer tx.Rollback()
	var v int
	if err := tx.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil {
		return false, fmt.Errorf("storage: migrating %s: reading user_version: %w", s.path, err)
	}
	switch {
	case v > len(ms):
		return false, fmt.Errorf("%w: %s is at schema version %d, this rfop knows versions up to %d; run a newer rfop (or restore a backup)",
			ErrSchemaTooNew, s.path, v, len(ms))
	case v < 0:
		return false, fmt.Errorf("storage: migrating %s: negative user_version %d", s.path, v)
	case v == len(ms):
		return false, nil
	}
	m := ms[v]
	if _, err := tx.ExecContext(ctx, m.sql); err != nil {
		return false, fmt.Errorf("storage: migrating %s to version %d (%s): %w", s.path, m.version, m.name, err)
	}
	if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", m.version)); err != nil {
		return false, fmt.Errorf("storage: migrating %s to version %d: setting user_version: %w", s.path, m.version, err)
	}
	rows, err := tx.QueryContext(ctx, "PRAGMA foreign_key_check")
	if err != nil {
		return false, fmt.Errorf("storage: migrating %s to version %d: foreign_key_check: %w", s.path, m.version, err)
	}
	bad := rows.Next()
	rows.Close()
	if bad {
		return false, fmt.Errorf("storage: migrating %s to version %d (%s): leaves foreign key violations", s.path, m.version, m.name)
	}
	if err := tx.Commit(); err != nil {
		return false, fmt.Errorf("storage: migrating %s to version %d: commit: %w", s.path, m.version, err)
	}
	return true, nil
}

func sqliteCode(err error) (sqlite3.ErrNoExtended, bool) {
	var se sqlite3.Error
	if errors.As(err, &se) {
		return se.ExtendedCode, true
	}
	return 0, false
}

func isUniqueChannel(err error) bool {
	code, ok := sqliteCode(err)
	return ok && code == sqlite3.ErrConstraintUnique && strings.Contains(err.Error(), "games.channel_id")
}

func isForeignKey(err error) bool {
	code, ok := sqliteCode(err)
	return ok && code == sqlite3.ErrConstraintForeignKey
}

// isLogViolation: an action insert refused by the primary key or the
// seq-contiguity trigger, i.e. the log and state_version disagree.
func isLogViolation(err error) bool {
	code, ok := sqliteCode(err)
	return ok && (code == sqlite3.ErrConstraintTrigger || code == sqlite3.ErrConstraintPrimaryKey)
}
