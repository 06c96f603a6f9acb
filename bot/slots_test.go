package bot

import (
	"fmt"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/rfop/rfop/internal/testctx"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Issue 30: under a burst the render slots serve the boards waiting
// before the hand pictures waiting (each in arrival order), and a waiter
// gives up when the bot stops without losing the slot.
func TestRenderSlotsServeBoardsFirst(t *testing.T) {
	s := newSlots(1)
	s.now = func() time.Time { return time.Unix(0, 0) } // no hand waits long (next test)
	never := make(chan struct{})
	require.True(t, s.acquire(false, never), "a free slot")

	order := make(chan string, 3)
	wait := func(name string, board bool) {
		go func() {
			if s.acquire(board, never) {
				order <- name
				s.release()
			}
		}()
	}
	waitQueued := func(first, rest int) { t.Helper(); waitSlotsQueued(t, s, first, rest) }
	wait("hand 1", false)
	waitQueued(0, 1)
	wait("board 1", true)
	waitQueued(1, 1)
	wait("board 2", true)
	waitQueued(2, 1)
	s.release()
	assert.Equal(t, []string{"board 1", "board 2", "hand 1"}, []string{<-order, <-order, <-order})

	// Stopping: a waiter gives up, and the slot stays usable.
	require.True(t, s.acquire(true, never))
	stop := make(chan struct{})
	gave := make(chan bool)
	go func() { gave <- s.acquire(false, stop) }()
	waitQueued(0, 1)
	close(stop)
	assert.False(t, <-gave)
	assert.True(t, s.queued(0, 0))
	s.release()
	require.True(t, s.acquire(false, never), "the slot is free again")
}

// Issue 30: a hand that has waited handPatience goes before the boards
// (a hand DM holds up its game's later boards: under a stream of other
// games' boards a strict priority starved it for half a minute).
func TestRenderSlotsServeAPatientHandFirst(t *testing.T) {
	now := time.Unix(0, 0)
	s := newSlots(1)
	s.now = func() time.Time { return now }
	never := make(chan struct{})
	require.True(t, s.acquire(true, never))
	waitQueued := func(first, rest int) { t.Helper(); waitSlotsQueued(t, s, first, rest) }
	granted := make(chan string, 3)
	wait := func(name string, board bool) {
		go func() {
			if s.acquire(board, never) {
				granted <- name
			}
		}()
	}
	wait("hand", false)
	waitQueued(0, 1)
	wait("board 1", true)
	waitQueued(1, 1)
	wait("board 2", true)
	waitQueued(2, 1)

	now = now.Add(handPatience / 2)
	s.release()
	assert.Equal(t, "board 1", <-granted, "a hand that has not waited long goes after the boards")
	now = now.Add(handPatience)
	s.release()
	assert.Equal(t, "hand", <-granted, "a hand that has waited handPatience goes first")
	s.release()
	assert.Equal(t, "board 2", <-granted)
}

// Issue 30: a board picture wanted by several games is drawn once; when
// its drawer's game no longer wants it (a newer board came while it
// waited for a slot), the others draw it themselves.
func TestBoardCacheRetriesWhenItsDrawerGaveUp(t *testing.T) {
	var c boardCache
	key := [32]byte{1}
	drawing := make(chan struct{})
	giveUp := make(chan struct{})
	first := make(chan error, 1)
	go func() {
		_, err := c.board(key, func() ([]byte, error) {
			close(drawing)
			<-giveUp
			return nil, errUnwanted
		}, nil, nil)
		first <- err
	}()
	<-drawing
	second := make(chan []byte, 1)
	go func() {
		png, err := c.board(key, func() ([]byte, error) { return []byte("png"), nil }, nil, nil)
		assert.NoError(t, err)
		second <- png
	}()
	waitWaiting(t, &c, 1) // the second caller waits for the first's drawing
	close(giveUp)
	assert.ErrorIs(t, <-first, errUnwanted)
	assert.Equal(t, []byte("png"), <-second, "the second caller drew it")
}

// waitUntil waits until cond holds, under the test's one bound
// (testctx): each condition is the state a goroutine reaches on its way
// to block.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	ctx := testctx.Context(t)
	for !cond() {
		require.NoError(t, ctx.Err(), "waiting until %s", what)
		runtime.Gosched()
	}
}

// waitWaiting waits until n callers wait for another's drawing in c.
func waitWaiting(t *testing.T, c *boardCache, n int) {
	t.Helper()
	waitUntil(t, "callers wait for a drawing", func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		return c.waiting == n
	})
}

// Issue 30: a caller waiting for another's drawing of a picture it wants
// too leaves as soon as its own game moves on (its wait gives up), and
// does not take the drawing over when its drawer gives up if its game
// moved on too: dozens of publishers each taking it over in turn, each
// waiting seconds for a render slot before finding its game had moved
// on, stalled their games for up to a minute.
func TestBoardCacheWaitersLeaveWhenTheirGameMovesOn(t *testing.T) {
	tests := []struct {
		name      string
		drawerEnd error // how the first caller's drawing ends
		leave     bool  // the waiter's game commits a newer board while it waits
		moved     bool  // the waiter's game has a newer board when the drawer gives up
		want      error
		drew      bool // the waiter drew the picture itself
	}{
		{name: "drawn for both", want: nil},
		{name: "the waiter's game moves on while it waits", leave: true, want: errUnwanted},
		{name: "the drawer gives up, the waiter's game still wants it", drawerEnd: errUnwanted, want: nil, drew: true},
		{name: "the drawer gives up, the waiter's game moved on too", drawerEnd: errUnwanted, moved: true, want: errUnwanted},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var c boardCache
			key := [32]byte{7}
			drawing, finish := make(chan struct{}), make(chan struct{})
			first := make(chan error, 1)
			go func() {
				_, err := c.board(key, func() ([]byte, error) {
					close(drawing)
					<-finish
					if tt.drawerEnd != nil {
						return nil, tt.drawerEnd
					}
					return []byte("drawn by the first"), nil
				}, nil, nil)
				first <- err
			}()
			<-drawing
			leave := make(chan struct{})
			drew := false
			got := make(chan error, 1)
			go func() {
				_, err := c.board(key, func() ([]byte, error) { drew = true; return []byte("drawn by the second"), nil },
					func(done <-chan struct{}) error {
						select {
						case <-done:
							return nil
						case <-leave:
							return errUnwanted
						}
					},
					func() bool { return tt.moved })
				got <- err
			}()
			waitWaiting(t, &c, 1)
			if tt.leave {
				close(leave)
				assert.ErrorIs(t, <-got, errUnwanted, "left while the drawing goes on")
				close(finish)
				assert.NoError(t, <-first)
				return
			}
			close(finish)
			<-first
			err := <-got
			if tt.want == nil {
				assert.NoError(t, err)
			} else {
				assert.ErrorIs(t, err, tt.want)
			}
			assert.Equal(t, tt.drew, drew)
		})
	}
}

// awaitDrawing gives up when its game commits a newer board (a kick, and
// unwanted confirms it), and not for a kick unwanted denies.
func TestAwaitDrawingLeavesAtItsGamesNewerBoard(t *testing.T) {
	b := New(Deps{})
	const game = 9
	again := false
	b.mu.Lock()
	b.pubs[game] = &again // its publisher runs (it is the one waiting)
	b.mu.Unlock()
	var mu sync.Mutex
	newer := false
	unwanted := func() bool { mu.Lock(); defer mu.Unlock(); return newer }
	done := make(chan struct{})
	got := make(chan error, 1)
	go func() { got <- b.awaitDrawing(game, done, unwanted) }()
	registered := func() bool { b.mu.Lock(); defer b.mu.Unlock(); return b.renderWaits[game] != nil }
	waitUntil(t, "it waits for the drawing", registered)
	b.kick(game) // a commit that is not a newer board: it waits on
	mu.Lock()
	newer = true
	mu.Unlock()
	b.kick(game)
	assert.ErrorIs(t, <-got, errUnwanted)
	assert.False(t, registered(), "its wake-up is removed")

	go func() { got <- b.awaitDrawing(game, done, unwanted) }()
	close(done)
	assert.NoError(t, <-got, "drawn: no look at the outbox needed")
}

// queued: first boards and rest others wait for a slot.
func (s *slots) queued(first, rest int) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.first) == first && len(s.rest) == rest
}

// waitSlotsQueued waits until first boards and rest others wait for a
// slot of s (each waiter queues in its own goroutine).
func waitSlotsQueued(t *testing.T, s *slots, first, rest int) {
	t.Helper()
	waitUntil(t, fmt.Sprintf("%d boards and %d others are queued", first, rest), func() bool { return s.queued(first, rest) })
}

// Issue 30: a board waiting for a slot gives way when its game commits a
// newer board (woken, and unwanted confirms): it leaves the queue at
// once, and the slot goes to the next waiter; a wake that unwanted
// denies (nothing newer) keeps its place in the queue.
func TestRenderSlotsLetAWaitingBoardGiveWay(t *testing.T) {
	for _, newer := range []bool{false, true} {
		s := newSlots(1)
		s.now = func() time.Time { return time.Unix(0, 0) }
		never := make(chan struct{})
		require.True(t, s.acquire(false, never), "the slot is taken")

		type result struct {
			name       string
			ok, gaveUp bool
		}
		results := make(chan result, 2)
		wake := make(chan struct{})
		go func() {
			ok, gaveUp := s.acquireUnless(true, never, wake, func() bool { return newer })
			results <- result{"old board", ok, gaveUp}
			if ok {
				s.release()
			}
		}()
		waitSlotsQueued(t, s, 1, 0)
		go func() {
			ok := s.acquire(true, never)
			results <- result{"other board", ok, false}
			if ok {
				s.release()
			}
		}()
		waitSlotsQueued(t, s, 2, 0)
		wake <- struct{}{} // its game committed (or a kick with nothing newer)
		if newer {
			assert.Equal(t, result{"old board", false, true}, <-results, "it gives way")
			waitSlotsQueued(t, s, 1, 0)
			s.release()
			assert.Equal(t, result{"other board", true, false}, <-results, "the slot goes to the next waiter")
		} else {
			s.release()
			assert.Equal(t, result{"old board", true, false}, <-results, "it kept its place")
			assert.Equal(t, result{"other board", true, false}, <-results)
		}
		require.True(t, s.acquire(false, never), "the slot is free again")
	}
}

// Issue 30: a picture that stepped aside and came back (acquireSince with
// the time it first waited) queues behind those who came before it and
// ahead of those who came after, and keeps its patience.
func TestRenderSlotsKeepAReturningWaitersPlace(t *testing.T) {
	now := time.Unix(100, 0)
	s := newSlots(1)
	s.now = func() time.Time { return now }
	never := make(chan struct{})
	require.True(t, s.acquire(true, never), "the slot is taken")
	granted := make(chan string, 4)
	wait := func(name string, board bool, since time.Time) {
		go func() {
			if ok, _ := s.acquireSince(board, since, never, nil, nil); ok {
				granted <- name
			}
		}()
	}
	wait("hand at 100", false, time.Time{})
	waitSlotsQueued(t, s, 0, 1)
	now = now.Add(time.Second / 2)
	wait("hand at 100.5", false, time.Time{})
	waitSlotsQueued(t, s, 0, 2)
	wait("board", true, time.Time{})
	waitSlotsQueued(t, s, 1, 2)
	wait("hand back from 99.5", false, time.Unix(99, 5e8))
	waitSlotsQueued(t, s, 1, 3)

	// At 100.5 the returning hand has waited a second: it goes first.
	s.release()
	assert.Equal(t, "hand back from 99.5", <-granted, "it kept its place, and its patience")
	now = now.Add(time.Second / 4) // the hand at 100 has waited 0.75 s
	s.release()
	assert.Equal(t, "board", <-granted)
	s.release()
	assert.Equal(t, "hand at 100", <-granted)
	s.release()
	assert.Equal(t, "hand at 100.5", <-granted)
}

// Issue 30: a board may go ahead of a hand DM waiting for a render slot
// only with a picture drawn already; one that other games want too is
// drawn in the background (once for all): the first game to ask about a
// picture not drawn is told no; another game asking is told yes.
func TestBoardCacheTellsAPictureWantedByTwoGames(t *testing.T) {
	var c boardCache
	a, b := [32]byte{1}, [32]byte{2}
	assert.False(t, c.shared(a, 1), "the first game to ask")
	assert.False(t, c.shared(a, 1), "the same game again")
	assert.False(t, c.shared(b, 2), "another picture")
	assert.True(t, c.shared(a, 2), "another game wants it too")
	_, ok := c.drawn(a)
	assert.False(t, ok, "not drawn yet")
	png, err := c.board(a, func() ([]byte, error) { return []byte("png"), nil }, nil, nil)
	require.NoError(t, err)
	got, ok := c.drawn(a)
	assert.True(t, ok)
	assert.Equal(t, png, got, "drawn once, kept for every game")
}
