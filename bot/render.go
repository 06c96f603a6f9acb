package bot

import (
	"crypto/sha256"
	"encoding/json"
	"runtime"
	"sync"

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
//     panels; the others wait their turn;
//   - nothing waits for a picture before acknowledging: clicks are
//     acknowledged first, and boards and hand DMs are drawn by the game's
//     publisher after the move is stored, holding neither the game's lock
//     nor the database;
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

// drawing runs draw while holding one of the render slots.
// It gives up when the bot shuts down.
func (b *Bot) drawing(draw func() error) error {
	select {
	case b.renders <- struct{}{}:
	case <-b.stopping:
		return errShuttingDown
	}
	defer func() { <-b.renders }()
	return draw()
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
}

const boardCacheSize = 16

type boardCall struct {
	done chan struct{}
	png  []byte
	err  error
}

// board returns the picture for key, drawing it with draw unless it is
// cached or being drawn.
func (c *boardCache) board(key [32]byte, draw func() ([]byte, error)) ([]byte, error) {
	c.mu.Lock()
	if c.calls == nil {
		c.calls = map[[32]byte]*boardCall{}
	}
	if call, ok := c.calls[key]; ok {
		c.mu.Unlock()
		<-call.done
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
