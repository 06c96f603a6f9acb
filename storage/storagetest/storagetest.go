// Package storagetest gives tests of any package a PostgreSQL database of
// their own, so that tests against the PostgreSQL store can run in
// parallel (several packages, several machines' runs) without meeting.
//
// PostgresURL connects to the server named by RFOP_TEST_POSTGRES (default
// postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable: the
// development and CI machines' PostgreSQL with trust authentication),
// creates a database rfop_test_<random>, drops it when the test ends, and
// returns its URL. When no server answers, the test is skipped with a
// message saying how to run it — unless RFOP_REQUIRE_POSTGRES=1 (set by
// .ci/run), which makes it fail: CI must not pass by skipping.
package storagetest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// Environment variables read by PostgresURL.
const (
	// EnvURL names the server to create test databases on: a postgres://
	// URL of a database to connect to for CREATE DATABASE.
	EnvURL = "RFOP_TEST_POSTGRES"
	// EnvRequire, set to 1, turns "no PostgreSQL server" from a skip into
	// a failure.
	EnvRequire = "RFOP_REQUIRE_POSTGRES"
)

// DefaultURL is the server tests use when EnvURL is not set.
const DefaultURL = "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"

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

// PostgresURL creates an empty database for this test (dropped at its
// end, with any connection still open to it) and returns its URL. Without
// a server it skips the test, or fails it if Required.
func PostgresURL(t testing.TB) string {
	t.Helper()
	admin := ServerURL()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, admin)
	if err != nil {
		msg := fmt.Sprintf("no PostgreSQL server for this test (%s: %v). To run it, start PostgreSQL "+
			"(15 or later) on 127.0.0.1:5432 with trust authentication for user postgres, or set %s "+
			"to the URL of a database on a server where that user may CREATE DATABASE "+
			"(e.g. %s=postgres://me:secret@db.example:5432/postgres).", redact(admin), err, EnvURL, EnvURL)
		if Required() {
			t.Fatalf("%s %s=1 requires PostgreSQL tests to run.", msg, EnvRequire)
		}
		t.Skip(msg)
	}
	defer conn.Close(context.Background())

	var b [6]byte
	if _, err := rand.Read(b[:]); err != nil {
		t.Fatalf("storagetest: random database name: %v", err)
	}
	name := "rfop_test_" + hex.EncodeToString(b[:])
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		t.Fatalf("storagetest: creating database %s on %s: %v", name, redact(admin), err)
	}
	t.Cleanup(func() { drop(t, admin, name) })

	u, err := url.Parse(admin)
	if err != nil {
		t.Fatalf("storagetest: %s is not a URL: %v", EnvURL, err)
	}
	u.Path = "/" + name
	return u.String()
}

// drop removes a test database, closing any connection the test left
// open to it.
func drop(t testing.TB, admin, name string) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, admin)
	if err != nil {
		t.Errorf("storagetest: dropping database %s: %v", name, err)
		return
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
		t.Errorf("storagetest: dropping database %s: %v", name, err)
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
