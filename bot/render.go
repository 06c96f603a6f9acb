package bot

import (
	"crypto/sha256"
	"encoding/json"
	"errors"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/rfop/rfop/engine"
	"github.com/rfop/rfop/glossary"
)

// Bounded rendering. A picture costs tens of milliseconds of CPU (a hand
// picture of a new deal, encoded, is the costliest) and a canvas of
// several MiB; drawn for every game at once (200 games started together
// want 200 boards and 400 hand DMs) they starve the acknowledgements and
// hold hundreds of MiB. So:
//   - at most renderSlots pictures are drawn at once, one fewer than the
//     cores, so that one core is always free for acknowledgements and
//     panels; the others wait their turn, the boards first (a hand
//     picture that has waited a second goes before them: slots);
//   - nothing waits for a picture before acknowledging: clicks are
//     acknowledged first, and boards and hand DMs are drawn by the game's
//     publisher after the move is stored, holding neither the game's lock
//     nor the database;
//   - the clicks' work after their acknowledgement is admitted a few at a
//     time (admission.go), so that hundreds of handlers runnable at once
//     do not leave the render goroutine a sliver of a core;
//   - a game's publisher draws only the newest of several boards waiting
//     (outbox.go, deliverBoard), and identical boards are drawn once
//     (boardCache);
//   - the renderer reuses its canvases and buffers (package render), so
//     the slots bound the memory in pictures too.
// The binary (cmd/rfop) also sets a soft memory limit (GOMEMLIMIT,
// default 200 MiB), so the collector does not let a burst's garbage
// double the heap.

// renderSlots leaves one core to everything else: a picture is tens of
// milliseconds of CPU, and with a render on every core an acknowledgement
// (which must reach Discord within 3 s, and should within 100 ms) waits in
// the scheduler's queue behind them. On one core there is still one slot.
func renderSlots() int { return max(1, runtime.GOMAXPROCS(0)-1) }

// drawing runs draw while holding one of the render slots (a hand or
// card picture: after the boards waiting, see drawingBoard).
// It gives up when the bot shuts down.
func (b *Bot) drawing(draw func() error) error {
	return b.drawIn(false, draw)
}

// drawingBoard is drawing for a board picture: it takes the next free
// slot before any hand picture waiting. Under a burst (200 games dealt at
// once want 400 hand pictures) the boards, which call the players and
// which every move waits for, are not queued behind the hands, which the
// players also see in their panels.
func (b *Bot) drawingBoard(draw func() error) error {
	return b.drawIn(true, draw)
}

func (b *Bot) drawIn(board bool, draw func() error) error {
	if !b.renders.acquire(board, b.stopping) {
		return errShuttingDown
	}
	defer b.renders.release()
	return draw()
}

// drawingBoardUnless is drawingBoard for a board of game that gives way
// (errUnwanted) if, while it waits for a slot, a newer board of its game
// is committed (kick wakes it; unwanted confirms). Under a burst a board
// waits seconds for a slot while its players move on: the newer board
// is the one to draw, and the older one's publication is marked done at
// once instead of holding its place (issue 30).
func (b *Bot) drawingBoardUnless(game int64, unwanted func() bool, draw func() error) error {
	return b.drawingUnless(true, game, time.Time{}, unwanted, draw)
}

// drawingHandUnless is drawing for a hand DM of game that steps aside
// (errUnwanted) while it waits for a slot if unwanted says so when its
// game commits (handDrawing: boards pile up behind it, which its
// publisher then compacts). since is when the DM first waited: coming
// back, it keeps its place in the queue.
func (b *Bot) drawingHandUnless(game int64, since time.Time, unwanted func() bool, draw func() error) error {
	return b.drawingUnless(false, game, since, unwanted, draw)
}

func (b *Bot) drawingUnless(board bool, game int64, since time.Time, unwanted func() bool, draw func() error) error {
	// Primed for a hand: a board committed while the hand stepped aside
	// (its kick found nothing to wake) is seen at the first look. A board
	// looked just before it came here (deliverBoard).
	wake, forget := b.wakeOnCommit(game, !board)
	ok, gaveUp := b.renders.acquireSince(board, since, b.stopping, wake, unwanted)
	forget()
	switch {
	case gaveUp:
		return errUnwanted
	case !ok:
		return errShuttingDown
	}
	defer b.renders.release()
	return draw()
}

// wakeOnCommit is the wake-up of game's board or hand DM waiting for a
// picture (renderWaits), rung by kick when the game commits, primed with
// one ring if primed; forget removes it.
func (b *Bot) wakeOnCommit(game int64, primed bool) (wake chan struct{}, forget func()) {
	wake = make(chan struct{}, 1)
	if primed {
		wake <- struct{}{}
	}
	b.mu.Lock()
	b.renderWaits[game] = wake
	b.mu.Unlock()
	return wake, func() {
		b.mu.Lock()
		if b.renderWaits[game] == wake {
			delete(b.renderWaits, game)
		}
		b.mu.Unlock()
	}
}

// awaitDrawing waits for done, the end of another caller's drawing of the
// board picture that game wants too, giving up (errUnwanted) if game
// commits a newer board meanwhile (kick rings it; unwanted confirms), as
// a board waiting for a render slot does (drawingUnless).
func (b *Bot) awaitDrawing(game int64, done <-chan struct{}, unwanted func() bool) error {
	wake, forget := b.wakeOnCommit(game, false)
	defer forget()
	for {
		select {
		case <-done:
			return nil
		case <-wake:
			if unwanted() {
				return errUnwanted
			}
		}
	}
}

// slots is a counting semaphore whose waiters are served boards first,
// then hands, each in their order of arrival; but a hand that has waited
// handPatience goes before the boards. A hand DM holds up its game's
// publisher, so every later board of that game waits behind it: under a
// steady stream of other games' boards (a burst), a strict priority
// starved the hands, and with them their games' boards, for half a
// minute (issue 30).
type slots struct {
	mu          sync.Mutex
	free        int
	first, rest []waiter // boards, others
	turns       int      // slots taken so far (tests look)
	now         func() time.Time
}

type waiter struct {
	ch chan struct{}
	at time.Time
}

// handPatience is how long a hand picture waits behind boards at most
// (then it goes first): at a deal, a game's first board after it waits
// about that long behind its hand DMs.
const handPatience = time.Second

func newSlots(n int) *slots { return &slots{free: n, now: time.Now} }

// acquire takes a slot (first: a board's); false if stop closed first.
func (s *slots) acquire(first bool, stop <-chan struct{}) bool {
	ok, _ := s.acquireUnless(first, stop, nil, nil)
	return ok
}

// acquireUnless is acquire, giving up its place in the queue (gaveUp) if,
// woken by wake while it waits, unwanted says so; a wake unwanted denies
// keeps its place.
func (s *slots) acquireUnless(first bool, stop, wake <-chan struct{}, unwanted func() bool) (ok, gaveUp bool) {
	return s.acquireSince(first, time.Time{}, stop, wake, unwanted)
}

// acquireSince is acquireUnless for a waiter that first came at since
// (zero: now): it queues behind those who came before it, so a picture
// that gave way and came back keeps its place (and its patience).
func (s *slots) acquireSince(first bool, since time.Time, stop, wake <-chan struct{}, unwanted func() bool) (ok, gaveUp bool) {
	s.mu.Lock()
	if s.free > 0 && (first || len(s.first) == 0) {
		s.free--
		s.turns++
		s.mu.Unlock()
		return true, false
	}
	if since.IsZero() {
		since = s.now()
	}
	w := waiter{ch: make(chan struct{}), at: since}
	q := &s.rest
	if first {
		q = &s.first
	}
	k, _ := slices.BinarySearchFunc(*q, since, func(x waiter, at time.Time) int {
		if x.at.After(at) {
			return 1
		}
		return -1 // equal times: after those already waiting
	})
	*q = slices.Insert(*q, k, w)
	s.mu.Unlock()
	for waiting := true; waiting; {
		select {
		case <-w.ch:
			return true, false
		case <-stop:
			waiting = false
		case <-wake:
			if unwanted != nil && unwanted() {
				gaveUp, waiting = true, false
			}
		}
	}
	s.mu.Lock()
	queued := false
	for _, q := range []*[]waiter{&s.first, &s.rest} {
		if k := slices.IndexFunc(*q, func(x waiter) bool { return x.ch == w.ch }); k >= 0 {
			*q = slices.Delete(*q, k, k+1)
			queued = true
		}
	}
	s.mu.Unlock()
	if !queued {
		s.release() // granted as it left: hand it on
	}
	return false, gaveUp
}

// release hands the slot to the first waiter: a board's before others,
// unless the oldest other has waited handPatience.
func (s *slots) release() {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case len(s.first) > 0 && (len(s.rest) == 0 || s.now().Sub(s.rest[0].at) < handPatience):
		close(s.first[0].ch)
		s.first = s.first[1:]
		s.turns++
	case len(s.rest) > 0:
		close(s.rest[0].ch)
		s.rest = s.rest[1:]
		s.turns++
	default:
		s.free++
	}
}

// boardCache keeps the last board pictures drawn, by a hash of what they
// were drawn from, and draws a picture wanted by several games at once
// only once: every game starts from the same position (200 games started
// together want the same first board), and a reminder or /rfop board
// redraws an unchanged board.
type boardCache struct {
	mu    sync.Mutex
	calls map[[32]byte]*boardCall
	order [][32]byte // oldest first; at most boardCacheSize finished calls
	// waiting: callers waiting for another's drawing (tests look).
	waiting int
	// wants: the game that first asked whether a picture not drawn is
	// shared, by key (shared).
	wants map[[32]byte]int64
}

const boardCacheSize = 16

// boardWantsSize bounds boardCache.wants: past it, the map starts again.
const boardWantsSize = 1024

type boardCall struct {
	done chan struct{}
	png  []byte
	err  error
}

// board returns the picture for key, drawing it with draw unless it is
// cached or being drawn. While another caller draws it, this one waits
// with wait (nil: until it is drawn), which may give up: its error is
// returned. If that drawer gives up (errUnwanted: its game moved on),
// this caller draws it, unless moved (nil: never) says that its own game
// moved on too. Under a burst, the boards of half the games after both
// objective choices are alike: dozens of publishers waited for one
// drawing, and each that took it over after its drawer gave up waited
// seconds for a render slot before finding that its own game had moved
// on as well, the next one then doing the same. Their games, whose
// players waited for a board, stalled for up to a minute (issue 30).
func (c *boardCache) board(key [32]byte, draw func() ([]byte, error), wait func(done <-chan struct{}) error, moved func() bool) ([]byte, error) {
	c.mu.Lock()
	if c.calls == nil {
		c.calls = map[[32]byte]*boardCall{}
	}
	if call, ok := c.calls[key]; ok {
		c.waiting++
		c.mu.Unlock()
		var err error
		if wait != nil {
			err = wait(call.done)
		} else {
			<-call.done
		}
		c.mu.Lock()
		c.waiting--
		c.mu.Unlock()
		if err != nil {
			return nil, err
		}
		if errors.Is(call.err, errUnwanted) {
			// Its drawer's game moved on; this caller's may not have.
			if moved != nil && moved() {
				return nil, errUnwanted
			}
			return c.board(key, draw, wait, moved)
		}
		return call.png, call.err
	}
	call := &boardCall{done: make(chan struct{})}
	c.calls[key] = call
	c.mu.Unlock()

	call.png, call.err = draw()
	close(call.done)

	c.mu.Lock()
	if call.err != nil {
		delete(c.calls, key) // draw it again next time
	} else {
		c.order = append(c.order, key)
		if len(c.order) > boardCacheSize {
			delete(c.calls, c.order[0])
			c.order = c.order[1:]
		}
	}
	c.mu.Unlock()
	return call.png, call.err
}

// drawn is the picture of key if one was drawn and is kept (not one
// being drawn: its caller would wait for a render slot's work).
func (c *boardCache) drawn(key [32]byte) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	call, ok := c.calls[key]
	if !ok {
		return nil, false
	}
	select {
	case <-call.done:
		return call.png, call.err == nil
	default:
		return nil, false
	}
}

// shared reports whether a game other than game asked for the picture of
// key before (shared), which is not drawn yet: the first asker is told no
// and remembered.
func (c *boardCache) shared(key [32]byte, game int64) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	first, ok := c.wants[key]
	if ok && first != game {
		delete(c.wants, key)
		return true
	}
	if c.wants == nil || len(c.wants) >= boardWantsSize {
		c.wants = map[[32]byte]int64{}
	}
	c.wants[key] = game
	return false
}

// boardKey hashes everything a board picture is drawn from.
func boardKey(lang glossary.Lang, v engine.View, prev *engine.View, caption string) ([32]byte, error) {
	h := sha256.New()
	enc := json.NewEncoder(h)
	for _, x := range []any{lang, v, prev, caption} {
		if err := enc.Encode(x); err != nil {
			return [32]byte{}, err
		}
	}
	var k [32]byte
	h.Sum(k[:0])
	return k, nil
}
