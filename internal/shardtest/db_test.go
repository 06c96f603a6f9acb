package shardtest_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rfop/rfop/storage"
	"github.com/rfop/rfop/storage/storagetest"
)

// openDatabase returns the database the processes share (their RFOP_DB):
// a PostgreSQL database of this test's own (storagetest: skipped without
// a server, failed under RFOP_REQUIRE_POSTGRES=1), and the test's own
// connection to it.
func openDatabase(t *testing.T) (string, storage.Store) {
	t.Helper()
	url := storagetest.PostgresURL(t)
	s, err := storage.OpenURL(context.Background(), url)
	require.NoError(t, err)
	t.Cleanup(func() { _ = s.Close() })
	return url, s
}
