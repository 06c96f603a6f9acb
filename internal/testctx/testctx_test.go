package testctx_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rfop/rfop/internal/testctx"
)

// The waits end before go test's -timeout, with time left to fail with
// the test's own message.
func TestDeadlineIsBeforeTheBinarysTimeout(t *testing.T) {
	end, ok := t.Deadline()
	dl, bounded := testctx.Deadline(t)
	require.Equal(t, ok, bounded, "bounded exactly when go test has a -timeout")
	if !ok {
		t.Skip("go test -timeout 0: no deadline to compare with")
	}
	assert.True(t, dl.Before(end), "the waits end before -timeout")
	assert.LessOrEqual(t, end.Sub(dl), time.Minute, "and not much earlier")
	ctxDl, has := testctx.Context(t).Deadline()
	require.True(t, has)
	assert.Equal(t, dl, ctxDl)
}

// Context ends with the test; Detached outlives it, for cleanups.
func TestContextEndsWithTheTestDetachedDoesNot(t *testing.T) {
	var ctx, detached context.Context
	t.Run("inner", func(t *testing.T) {
		ctx, detached = testctx.Context(t), testctx.Detached(t)
		require.NoError(t, ctx.Err(), "alive while the test runs")
		t.Cleanup(func() {
			assert.Error(t, ctx.Err(), "cancelled before the cleanups")
			assert.NoError(t, detached.Err(), "alive in the cleanups")
		})
	})
	assert.Error(t, ctx.Err(), "cancelled once the test is over")
}

// A benchmark has no deadline of its own: its waits end with it.
func BenchmarkContextHasNoDeadline(b *testing.B) {
	_, ok := testctx.Context(b).Deadline()
	if ok {
		b.Fatal("a benchmark's context has a deadline")
	}
	for b.Loop() {
	}
}
