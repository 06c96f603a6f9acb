// Package testctx gives a test one generous bound for everything it waits
// for, so that a slow or busy machine makes a test slower, never red.
//
// A test that waits for the bot (a response, a board, a stored move) waits
// for that event with Context(t): the wait ends when the event happens,
// when the test ends, or shortly before go test's -timeout would kill the
// whole test binary, whichever comes first. There is no per-step deadline
// to tune: nothing fails because one step took 10 s instead of 10 ms. The
// margin before -timeout leaves the test time to fail with its own message
// (what it was waiting for) and to run its cleanups, instead of the
// binary's panic that ends every other test with it.
//
// Detached(t) has the same deadline but is not cancelled when the test
// function returns: it is for cleanups (shutting a bot down, stopping a
// process), which run after testing.T.Context is cancelled.
package testctx

import (
	"context"
	"testing"
	"time"
)

// maxGrace is the most a test keeps between its waits' end and go test's
// -timeout; with a short -timeout it keeps a tenth of it.
const maxGrace = time.Minute

// started approximates when the test binary started (and -timeout began).
var started = time.Now()

// deadliner is what *testing.T and *testing.F have and *testing.B lacks.
type deadliner interface {
	Deadline() (time.Time, bool)
}

// Deadline is when the waits of t give up: shortly before go test's
// -timeout. ok is false without a -timeout (-timeout 0) and for
// benchmarks, whose waits are bounded only by the test's end.
func Deadline(t testing.TB) (deadline time.Time, ok bool) {
	d, isD := t.(deadliner)
	if !isD {
		return time.Time{}, false
	}
	end, ok := d.Deadline()
	if !ok {
		return time.Time{}, false
	}
	grace := min(maxGrace, end.Sub(started)/10)
	return end.Add(-grace), true
}

// Context is t.Context() bounded by Deadline(t).
func Context(t testing.TB) context.Context {
	return bound(t, t.Context())
}

// Detached is a context with Deadline(t) that the end of the test function
// does not cancel, for cleanups.
func Detached(t testing.TB) context.Context {
	return bound(t, context.Background())
}

func bound(t testing.TB, ctx context.Context) context.Context {
	if dl, ok := Deadline(t); ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, dl)
		t.Cleanup(cancel)
	}
	return ctx
}
