// Package storagetest gives tests of any package a PostgreSQL database of
// their own, so that tests against the PostgreSQL store run in parallel
// (several tests, several packages, several machines' runs) without
// meeting, and without paying for a new database each.
//
// PostgresURL connects to the server named by RFOP_TEST_POSTGRES (default
// postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable: the
// development and CI machines' PostgreSQL with trust authentication). Each
// test package has one database there, rfop_test_<package>, made at its
// first run and kept (CREATE DATABASE costs about a second); each test gets
// a new, empty schema in it, dropped when the test ends, and a URL whose
// connections use only that schema (search_path), so that the store
// migrates and uses it as it would a database of its own. Schemas left by
// a run that was killed are dropped by a later run after a few hours.
//
// When no server answers, the test is skipped with a message saying how
// to run it — unless RFOP_REQUIRE_POSTGRES=1 (set by .ci/run), which makes
// it fail: CI must not pass by skipping.
package storagetest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" database/sql driver
)

// Environment variables read by PostgresURL.
const (
	// EnvURL names the server to make test databases on: a postgres://
	// URL of a database to connect to for CREATE DATABASE.
	EnvURL = "RFOP_TEST_POSTGRES"
	// EnvRequire, set to 1, turns "no PostgreSQL server" from a skip into
	// a failure.
	EnvRequire = "RFOP_REQUIRE_POSTGRES"
)

// DefaultURL is the server tests use when EnvURL is not set.
const DefaultURL = "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"

// staleAfter: a test schema this old belongs to a run that did not clean
// up (killed); no test runs that long (go test -timeout is 30 minutes in
// CI).
const staleAfter = 3 * time.Hour

// Required reports whether PostgreSQL tests must run (EnvRequire=1).
func Required() bool { return os.Getenv(EnvRequire) == "1" }

// ServerURL returns the URL of the server's administrative database
// (EnvURL, else DefaultURL).
func ServerURL() string {
	if u := os.Getenv(EnvURL); u != "" {
		return u
	}
	return DefaultURL
}

// PostgresURL makes an empty schema for this test in the package's test
// database (dropped at the test's end, with any connection still open to
// it) and returns a URL that uses it. Without a server it skips the test,
// or fails it if Required.
func PostgresURL(t testing.TB) string {
	t.Helper()
	db, dbURL, err := packageDatabase()
	if err != nil {
		var unreachable errUnreachable
		if errors.As(err, &unreachable) {
			msg := fmt.Sprintf("no PostgreSQL server for this test (%s: %v). To run it, start PostgreSQL "+
				"(15 or later) on 127.0.0.1:5432 with trust authentication for user postgres, or set %s "+
				"to the URL of a database on a server where that user may CREATE DATABASE "+
				"(e.g. %s=postgres://me:secret@db.example:5432/postgres).", redact(ServerURL()), unreachable.err, EnvURL, EnvURL)
			if Required() {
				t.Fatalf("%s %s=1 requires PostgreSQL tests to run.", msg, EnvRequire)
			}
			t.Skip(msg)
		}
		t.Fatalf("storagetest: %v", err)
	}

	var b [5]byte
	if _, err := rand.Read(b[:]); err != nil {
		t.Fatalf("storagetest: random schema name: %v", err)
	}
	schema := fmt.Sprintf("t_%d_%s", time.Now().Unix(), hex.EncodeToString(b[:]))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := db.ExecContext(ctx, "CREATE SCHEMA "+schema); err != nil {
		t.Fatalf("storagetest: creating schema %s in %s: %v", schema, redact(dbURL), err)
	}
	t.Cleanup(func() {
		if err := dropSchema(context.Background(), db, schema); err != nil {
			t.Errorf("storagetest: dropping schema %s: %v", schema, err)
		}
	})

	u, err := url.Parse(dbURL)
	if err != nil {
		t.Fatalf("storagetest: %s is not a URL: %v", EnvURL, err)
	}
	q := u.Query()
	// search_path: the store's tables, functions and triggers are made
	// and found in the test's schema; application_name: the schema's
	// connections, closed before it is dropped.
	q.Set("search_path", schema)
	q.Set("application_name", schema)
	u.RawQuery = q.Encode()
	return u.String()
}

// dropSchema drops a test schema, first closing the connections still
// using it (a bot process killed by the test, a store left open).
func dropSchema(ctx context.Context, db *sql.DB, schema string) error {
	if _, err := db.ExecContext(ctx, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
		WHERE application_name = $1 AND pid <> pg_backend_pid()`, schema); err != nil {
		return err
	}
	_, err := db.ExecContext(ctx, "DROP SCHEMA IF EXISTS "+schema+" CASCADE")
	return err
}

// errUnreachable: no server answers at ServerURL.
type errUnreachable struct{ err error }

func (e errUnreachable) Error() string { return e.err.Error() }

var (
	pkgOnce sync.Once
	pkgDB   *sql.DB
	pkgURL  string
	pkgErr  error
)

// packageDatabase connects (once per test binary) to the package's test
// database, making it if it does not exist yet, and drops the stale
// schemas of killed runs. The connection pool stays open until the
// process ends.
func packageDatabase() (*sql.DB, string, error) {
	pkgOnce.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		admin := ServerURL()
		u, err := url.Parse(admin)
		if err != nil {
			pkgErr = fmt.Errorf("%s is not a URL: %w", EnvURL, err)
			return
		}
		adminDB, err := sql.Open("pgx", admin)
		if err != nil {
			pkgErr = errUnreachable{err}
			return
		}
		defer adminDB.Close()
		if err := adminDB.PingContext(ctx); err != nil {
			pkgErr = errUnreachable{err}
			return
		}
		name := databaseName(os.Args[0])
		if _, err := adminDB.ExecContext(ctx, "CREATE DATABASE "+name); err != nil && !alreadyExists(err) {
			pkgErr = fmt.Errorf("creating database %s on %s: %w", name, redact(admin), err)
			return
		}
		u.Path = "/" + name
		pkgURL = u.String()
		if pkgDB, err = sql.Open("pgx", pkgURL); err != nil {
			pkgErr = fmt.Errorf("connecting to %s: %w", redact(pkgURL), err)
			return
		}
		dropStale(ctx, pkgDB)
	})
	return pkgDB, pkgURL, pkgErr
}

// databaseName is rfop_test_<package> for the test binary at path
// (".../storage.test" is the storage package's).
func databaseName(path string) string {
	base := strings.ToLower(strings.TrimSuffix(filepath.Base(path), ".test"))
	base = regexp.MustCompile(`[^a-z0-9_]+`).ReplaceAllString(base, "_")
	if base == "" {
		base = "pkg"
	}
	return "rfop_test_" + base[:min(len(base), 40)]
}

// alreadyExists: CREATE DATABASE of a database that exists, or that
// another test process is making at the same moment.
func alreadyExists(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && (pe.Code == "42P04" || pe.Code == "23505")
}

var testSchema = regexp.MustCompile(`^t_(\d+)_[0-9a-f]+$`)

// dropStale drops the test schemas older than staleAfter (a killed run's).
// A failure only leaves them for the next run.
func dropStale(ctx context.Context, db *sql.DB) {
	rows, err := db.QueryContext(ctx, `SELECT nspname FROM pg_namespace WHERE nspname LIKE 't\_%'`)
	if err != nil {
		return
	}
	var stale []string
	for rows.Next() {
		var name string
		if rows.Scan(&name) != nil {
			continue
		}
		if m := testSchema.FindStringSubmatch(name); m != nil {
			if sec, err := strconv.ParseInt(m[1], 10, 64); err == nil && time.Since(time.Unix(sec, 0)) > staleAfter {
				stale = append(stale, name)
			}
		}
	}
	rows.Close()
	for _, name := range stale {
		_ = dropSchema(ctx, db, name)
	}
}

// redact hides a URL's password.
func redact(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return "(unparsable URL)"
	}
	return u.Redacted()
}
