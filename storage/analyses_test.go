package storage_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rfop/rfop/storage"
)

// A game's analysis is stored once and read back (after a restart too);
// storing again replaces it (a newer encoding version); a game without
// one is ErrNotFound.
func TestAnalysesAreKeptByGame(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		path := b.newDB(t)
		s := openStore(t, path)
		g := newActiveWith(t, s, "g1", "ann", "bob")
		_, _, err := s.Analysis(ctx, g.ID)
		require.ErrorIs(t, err, storage.ErrNotFound)

		require.NoError(t, s.SaveAnalysis(ctx, g.ID, 1, []byte(`{"decisions":[{"commune_chance":0.5,"played_chance":null}]}`)))
		v, data, err := s.Analysis(ctx, g.ID)
		require.NoError(t, err)
		assert.Equal(t, 1, v)
		assert.JSONEq(t, `{"decisions":[{"commune_chance":0.5,"played_chance":null}]}`, string(data))

		require.NoError(t, s.SaveAnalysis(ctx, g.ID, 2, []byte(`{"decisions":[]}`)))
		require.ErrorIs(t, s.SaveAnalysis(ctx, g.ID, 2, []byte(`not json`)), storage.ErrInvalid)

		require.NoError(t, s.Close())
		s = openStore(t, path)
		v, data, err = s.Analysis(ctx, g.ID)
		require.NoError(t, err)
		assert.Equal(t, 2, v, "the newer analysis replaced the first")
		assert.JSONEq(t, `{"decisions":[]}`, string(data))
	})
}
