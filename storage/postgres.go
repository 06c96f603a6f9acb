package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"
)

// PostgresConns is the size of a PostgresStore's connection pool: enough
// for the bot's concurrent moves and reads, few enough that several bot
// processes stay far below the server's max_connections (100 by default).
const PostgresConns = 8

// migrationLockKey is the advisory lock (pg_advisory_xact_lock) under
// which a process migrates the database, so that two bot processes
// starting at once apply each migration once.
const migrationLockKey = 0x7266_6f70 // "rfop"

// PostgresStore is the Store backed by a PostgreSQL database, for several
// bot processes sharing one database. It is safe for concurrent use. See
// the package documentation for how it keeps the SQLite store's rules.
type PostgresStore struct {
	sqlStore
}

var _ Store = (*PostgresStore)(nil)

// loadPostgresMigrations parses PostgreSQL's embedded migrations once.
var loadPostgresMigrations = sync.OnceValues(func() ([]migration, error) {
	return readMigrations(migrationFS, "migrations/postgres")
})

// postgresDialect is PostgreSQL's way: $n placeholders, READ COMMITTED
// writers made safe by conditional UPDATEs and row locks, REPEATABLE READ
// reads for one snapshot.
var postgresDialect = &dialect{
	name:           "postgres",
	dollar:         true,
	readTx:         &sql.TxOptions{ReadOnly: true, Isolation: sql.LevelRepeatableRead},
	forUpdate:      " FOR UPDATE",
	forNoKeyUpdate: " FOR NO KEY UPDATE",
	tableExists:    `SELECT COUNT(*) FROM pg_catalog.pg_tables WHERE schemaname = current_schema() AND tablename = ?`,
	textList:       `SELECT jsonb_array_elements_text(CAST(? AS jsonb))`,
	// SHARE ROW EXCLUSIVE conflicts with itself and not with readers.
	lockRatings:     `LOCK TABLE ratings IN SHARE ROW EXCLUSIVE MODE`,
	migrations:      loadPostgresMigrations,
	pipeline:        pgPipeline,
	isUniqueChannel: func(err error) bool { return pgConstraint(err, "23505", "games_one_open_per_channel") },
	isForeignKey:    func(err error) bool { return pgConstraint(err, "23503", "") },
	isLogViolation: func(err error) bool {
		// The seq trigger (23000) or a duplicate (game_id, seq).
		return pgConstraint(err, "23000", "") || pgConstraint(err, "23505", "actions_pkey")
	},
}

// pgPipeline is PostgreSQL's pipelined transaction (pipe.go): BEGIN, the
// steps and COMMIT go to the server in one batch, one round trip. It runs
// on the pgx connection under database/sql's, whose statement cache the
// batch shares. A read is a REPEATABLE READ READ ONLY transaction, as
// s.read's.
func pgPipeline(ctx context.Context, db *sql.DB, read bool, steps []step) error {
	c, err := db.Conn(ctx)
	if err != nil {
		return fmt.Errorf("storage: begin: %w", err)
	}
	defer c.Close()
	return c.Raw(func(dc any) error {
		sc, ok := dc.(*stdlib.Conn)
		if !ok {
			return fmt.Errorf("storage: begin: a %T is not a pgx connection", dc)
		}
		pc := sc.Conn()
		err := pgBatch(ctx, pc, read, steps)
		if pc.PgConn().TxStatus() != 'I' {
			// A step failed (the server skipped the rest of the batch,
			// COMMIT included): end the transaction before the connection
			// goes back to the pool (a closed one is dropped by the pool).
			if _, rerr := pc.Exec(ctx, "ROLLBACK"); rerr != nil && err == nil {
				err = fmt.Errorf("storage: rollback: %w", rerr)
			}
		}
		return err
	})
}

// pgBatch sends pgPipeline's batch on pc and reads its results; it
// leaves a failed transaction open for pgPipeline to roll back.
func pgBatch(ctx context.Context, pc *pgx.Conn, read bool, steps []step) error {
	var b pgx.Batch
	if read {
		b.Queue("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
	} else {
		b.Queue("BEGIN")
	}
	for _, st := range steps {
		b.Queue(st.query, st.args...)
	}
	b.Queue("COMMIT")
	br := pc.SendBatch(ctx, &b)
	err := pgResults(br, steps)
	if cerr := br.Close(); cerr != nil && err == nil {
		err = fmt.Errorf("storage: %w", cerr)
	}
	return err
}

// pgResults reads a batch's results in order until the first failure.
func pgResults(br pgx.BatchResults, steps []step) error {
	if _, err := br.Exec(); err != nil {
		return fmt.Errorf("storage: begin: %w", err)
	}
	for _, st := range steps {
		if st.rows == nil {
			tag, err := br.Exec()
			if err != nil {
				return st.failed(err)
			}
			if st.affected != nil {
				*st.affected = tag.RowsAffected()
			}
			continue
		}
		rows, err := br.Query()
		if err != nil {
			return st.failed(err)
		}
		err = st.read(rows)
		rows.Close()
		if err != nil {
			return err
		}
		if err := rows.Err(); err != nil { // met while closing
			return st.failed(err)
		}
	}
	// A COMMIT of a transaction that failed says ROLLBACK (no error).
	if tag, err := br.Exec(); err != nil {
		return fmt.Errorf("storage: commit: %w", err)
	} else if tag.String() != "COMMIT" {
		return fmt.Errorf("storage: commit: the transaction was rolled back (%s)", tag)
	}
	return nil
}

// pgConstraint reports whether err is a PostgreSQL error with SQLSTATE
// code (and, if constraint is not "", on that constraint).
func pgConstraint(err error, code, constraint string) bool {
	var pe *pgconn.PgError
	if !errors.As(err, &pe) {
		return false
	}
	return pe.Code == code && (constraint == "" || pe.ConstraintName == constraint)
}

// IsPostgresURL reports whether dsn names a PostgreSQL database (a
// postgres:// or postgresql:// URL) rather than a SQLite file.
func IsPostgresURL(dsn string) bool {
	l := strings.ToLower(dsn)
	return strings.HasPrefix(l, "postgres://") || strings.HasPrefix(l, "postgresql://")
}

// Redact returns dsn fit for logs and messages: a URL's password (in its
// user part or a password parameter) is replaced by "xxxxx"; a file path
// is returned as it is.
func Redact(dsn string) string {
	if !IsPostgresURL(dsn) {
		return dsn
	}
	u, err := url.Parse(dsn)
	if err != nil {
		// Unparsable: show only the scheme, never what might be a secret.
		scheme, _, _ := strings.Cut(dsn, "://")
		return scheme + "://(unparsable URL)"
	}
	q := u.Query()
	if q.Has("password") {
		q.Set("password", "xxxxx")
		u.RawQuery = q.Encode()
	}
	return u.Redacted()
}

// OpenURL opens the store dsn names: a postgres:// or postgresql:// URL
// opens PostgreSQL (OpenPostgres), anything else is a SQLite file path
// (Open; "" is DefaultPath).
func OpenURL(ctx context.Context, dsn string, opts ...Option) (Store, error) {
	if IsPostgresURL(dsn) {
		return OpenPostgres(ctx, dsn, opts...)
	}
	return Open(ctx, dsn, opts...)
}

// OpenPostgres connects to the PostgreSQL database at url (a postgres://
// URL; the database must exist) and migrates it to the current schema. It
// fails with ErrSchemaTooNew if a newer rfop migrated it. WithFullSync has
// no effect: a PostgreSQL commit is as durable as the server's
// synchronous_commit makes it (on by default: flushed to the WAL). Errors
// name the URL without its password.
func OpenPostgres(ctx context.Context, dsn string, opts ...Option) (*PostgresStore, error) {
	o := options{now: time.Now}
	for _, opt := range opts {
		opt(&o)
	}
	where := Redact(dsn)
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		// pgx's parse errors can quote the URL: keep only the redacted one.
		return nil, fmt.Errorf("storage: %s is not a valid PostgreSQL URL", where)
	}
	db := stdlib.OpenDB(*cfg)
	db.SetMaxOpenConns(PostgresConns)
	db.SetMaxIdleConns(PostgresConns)
	db.SetConnMaxIdleTime(5 * time.Minute)
	s := &PostgresStore{sqlStore{where: where, writer: db, reader: db, now: o.now, d: postgresDialect}}
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("storage: connecting to %s: %w", where, err)
	}
	if err := s.migrate(ctx); err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

// URL returns the database's URL without its password.
func (s *PostgresStore) URL() string { return s.where }

// migrate brings the schema up to date, one migration per transaction.
func (s *PostgresStore) migrate(ctx context.Context) error {
	ms, err := loadPostgresMigrations()
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

// migrateStep applies the next pending migration, if any, and records it
// in schema_version, in one transaction (PostgreSQL's DDL is
// transactional: a failed migration leaves the previous version intact).
// The transaction holds an advisory lock from the read of the version to
// the commit, so two processes starting at once apply it once.
func (s *PostgresStore) migrateStep(ctx context.Context, ms []migration) (applied bool, err error) {
	tx, err := s.writer.BeginTx(ctx, nil)
	if err != nil {
		return false, fmt.Errorf("storage: migrating %s: %w", s.where, err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock($1)`, int64(migrationLockKey)); err != nil {
		return false, fmt.Errorf("storage: migrating %s: taking the migration lock: %w", s.where, err)
	}
	if _, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_version (
		version    integer PRIMARY KEY CHECK (version >= 1),
		name       text NOT NULL,
		applied_at text NOT NULL)`); err != nil {
		return false, fmt.Errorf("storage: migrating %s: creating schema_version: %w", s.where, err)
	}
	var v int
	if err := tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(version), 0) FROM schema_version`).Scan(&v); err != nil {
		return false, fmt.Errorf("storage: migrating %s: reading the schema version: %w", s.where, err)
	}
	switch {
	case v > len(ms):
		return false, fmt.Errorf("%w: %s is at schema version %d, this rfop knows versions up to %d; run a newer rfop (or restore a backup)",
			ErrSchemaTooNew, s.where, v, len(ms))
	case v == len(ms):
		return false, nil
	}
	m := ms[v]
	// No arguments: pgx sends it with the simple protocol, which runs a
	// file of several statements.
	if _, err := tx.ExecContext(ctx, m.sql); err != nil {
		return false, fmt.Errorf("storage: migrating %s to version %d (%s): %w", s.where, m.version, m.name, err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO schema_version (version, name, applied_at) VALUES ($1, $2, $3)`,
		m.version, m.name, s.stamp()); err != nil {
		return false, fmt.Errorf("storage: migrating %s to version %d: recording it: %w", s.where, m.version, err)
	}
	if err := tx.Commit(); err != nil {
		return false, fmt.Errorf("storage: migrating %s to version %d: commit: %w", s.where, m.version, err)
	}
	return true, nil
}
