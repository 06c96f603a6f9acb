package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// sqlStore is the Store on a database/sql database, shared by both
// backends: every method of the Store is written once, in SQL both
// SQLite and PostgreSQL accept, with ? placeholders. What differs between
// the two (placeholders, error codes, read isolation, row locks, the
// catalog) is the dialect's, and kept small.
type sqlStore struct {
	where  string  // what to name in errors: the file, or the URL without its password
	writer *sql.DB // writes (SQLite: exactly one connection)
	// writeTurn, if not nil, queues writers in arrival order (a buffered
	// channel of one: blocked senders are served first come, first
	// served): with one writer connection (SQLite), database/sql hands
	// the freed connection to a random waiter, so under a burst of writes
	// one could wait behind any number of later ones.
	writeTurn chan struct{}
	reader    *sql.DB // reads (SQLite: query_only connections; PostgreSQL: the writer's pool)
	now       func() time.Time
	d         *dialect
}

// dialect is what one backend does its own way.
type dialect struct {
	name string
	// dollar: placeholders are $1, $2, ... (PostgreSQL), not ?.
	dollar bool
	// readTx: the options of a read transaction, so that its statements
	// see one snapshot.
	readTx *sql.TxOptions
	// forUpdate is appended to a SELECT that reads a row the transaction
	// then changes: a row lock where writers run concurrently
	// (PostgreSQL), nothing where they are serialised (SQLite's single
	// writer).
	forUpdate string
	// forNoKeyUpdate is forUpdate's weaker lock (PostgreSQL's FOR NO KEY
	// UPDATE: what an UPDATE of non-key columns takes), for a row the
	// transaction then updates so: it does not wait for, nor make wait,
	// the inserts of rows that refer to it (their foreign key checks).
	forNoKeyUpdate string
	// byRowID follows a table's name where a query must walk its primary
	// key (SQLite: NOT INDEXED, so that a range of ids is not read through
	// another index and sorted).
	byRowID string
	// tableExists counts the tables named ? (0 or 1).
	tableExists string
	// textList is a subquery of the strings of one parameter holding a
	// JSON array of strings: a list of any length in one fixed query text
	// (an IN list of n placeholders would be a query per n).
	textList string
	// lockRatings, if set, serialises the transactions that rewrite the
	// ratings table (SQLite's single writer already does).
	lockRatings string
	// pipeline, if set, sends a pipelined transaction's statements
	// together (pipe.go; PostgreSQL). Without it they run one by one.
	pipeline pipelineFunc
	// migrations are the dialect's embedded schema files.
	migrations func() ([]migration, error)
	// Error classification.
	isUniqueChannel func(error) bool // the one-open-game-per-channel index
	isForeignKey    func(error) bool
	isLogViolation  func(error) bool // an action out of sequence
	// bound caches queries rewritten for dollar placeholders.
	bound sync.Map
}

// q rewrites a query for the dialect: ? placeholders become $1, $2, ...
// for PostgreSQL. The package's queries never hold a ? in a literal.
func (d *dialect) q(query string) string {
	if !d.dollar {
		return query
	}
	if v, ok := d.bound.Load(query); ok {
		return v.(string)
	}
	var b strings.Builder
	b.Grow(len(query) + 16)
	n := 0
	for i := 0; i < len(query); i++ {
		if query[i] == '?' {
			n++
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(n))
			continue
		}
		b.WriteByte(query[i])
	}
	out := b.String()
	d.bound.Store(query, out)
	return out
}

// runner is what *sql.DB and *sql.Tx have in common.
type runner interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// conn runs the package's queries (written with ?) on a transaction or
// pool, in the dialect's form.
type conn struct {
	r runner
	d *dialect
}

func (c conn) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	return c.r.ExecContext(ctx, c.d.q(query), args...)
}

func (c conn) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	return c.r.QueryContext(ctx, c.d.q(query), args...)
}

func (c conn) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	return c.r.QueryRowContext(ctx, c.d.q(query), args...)
}

// readDB runs single-statement reads on the reader pool.
func (s *sqlStore) readDB() conn { return conn{s.reader, s.d} }

// write runs fn in a write transaction and commits if it returns nil.
// (SQLite: BEGIN IMMEDIATE on the single writer connection; PostgreSQL:
// READ COMMITTED, with the conditional UPDATEs and row locks described in
// the package documentation.)
func (s *sqlStore) write(ctx context.Context, fn func(conn) error) error {
	if s.writeTurn != nil {
		select {
		case s.writeTurn <- struct{}{}:
		case <-ctx.Done():
			return fmt.Errorf("storage: begin: %w", ctx.Err())
		}
		defer func() { <-s.writeTurn }()
	}
	tx, err := s.writer.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("storage: begin: %w", err)
	}
	defer tx.Rollback()
	if err := fn(conn{tx, s.d}); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("storage: commit: %w", err)
	}
	return nil
}

// writeOne runs fn, which makes one statement, on the writer without a
// transaction around it (the statement is its own: atomic, and on
// PostgreSQL one round trip instead of three). SQLite's writes still take
// their turn.
func (s *sqlStore) writeOne(ctx context.Context, fn func(conn) error) error {
	if s.writeTurn != nil {
		select {
		case s.writeTurn <- struct{}{}:
		case <-ctx.Done():
			return fmt.Errorf("storage: begin: %w", ctx.Err())
		}
		defer func() { <-s.writeTurn }()
	}
	return fn(conn{s.writer, s.d})
}

// read runs fn in a read-only transaction: every statement in fn sees the
// same snapshot.
func (s *sqlStore) read(ctx context.Context, fn func(conn) error) error {
	tx, err := s.reader.BeginTx(ctx, s.d.readTx)
	if err != nil {
		return fmt.Errorf("storage: begin read: %w", err)
	}
	defer tx.Rollback()
	return fn(conn{tx, s.d})
}

// Close closes the database. The store must not be used afterwards.
func (s *sqlStore) Close() error {
	var rerr error
	if s.reader != s.writer {
		rerr = s.reader.Close()
	}
	werr := s.writer.Close()
	if err := errors.Join(rerr, werr); err != nil {
		return fmt.Errorf("storage: closing %s: %w", s.where, err)
	}
	return nil
}

func (s *sqlStore) stamp() string { return formatTime(s.now()) }

// Timestamps are stored as UTC text with millisecond precision, in both
// backends: they sort as text and compare the same way everywhere.
const timeLayout = "2006-01-02T15:04:05.000Z"

func formatTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(timeLayout)
}

func parseTime(v string) (time.Time, error) {
	if v == "" {
		return time.Time{}, nil
	}
	t, err := time.Parse(timeLayout, v)
	if err != nil {
		return time.Time{}, fmt.Errorf("storage: bad timestamp %q: %w", v, err)
	}
	return t, nil
}

type migration struct {
	version int
	name    string
	sql     string
}

// readMigrations parses the embedded migrations in dir: files named
// NNNN_description.sql, numbered 1, 2, 3, ... without gaps.
func readMigrations(fsys fs.FS, dir string) ([]migration, error) {
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil, fmt.Errorf("storage: reading embedded migrations: %w", err)
	}
	var ms []migration
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".sql") {
			continue
		}
		num, _, ok := strings.Cut(name, "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil || v < 1 {
			return nil, fmt.Errorf("storage: migration %s/%s: name must be NNNN_description.sql", dir, name)
		}
		b, err := fs.ReadFile(fsys, dir+"/"+name)
		if err != nil {
			return nil, fmt.Errorf("storage: reading migration %s/%s: %w", dir, name, err)
		}
		ms = append(ms, migration{version: v, name: name, sql: string(b)})
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].version < ms[j].version })
	for i, m := range ms {
		if m.version != i+1 {
			return nil, fmt.Errorf("storage: migration %s/%s: expected version %d (versions must be 1, 2, 3, ... without gaps)", dir, m.name, i+1)
		}
	}
	return ms, nil
}
