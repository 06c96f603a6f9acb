package bot

import (
	"bytes"
	"sync"

	"github.com/rfop/rfop/engine"
)

// stateCache keeps the games last decoded from their stored state, so
// that a game loaded again unchanged (a click shows the panel, the next
// click moves, the publisher draws the board: three loads of one state
// within a second) is cloned instead of parsed: decoding a state's JSON
// was about a tenth of the bot's CPU outside the pictures in the 200-game
// benchmark, a clone is a small fraction of that.
//
// An entry is found by the game's id and used only when the stored bytes
// and the deck are exactly those it was decoded from (an undo followed by
// another move comes back to the same version with another state). A hit
// returns a clone: callers play moves on the game they get. The cache
// holds at most stateCacheSize games, the oldest decoded dropped first.
type stateCache struct {
	mu    sync.Mutex
	games map[int64]*cachedState
	order []int64 // ids, oldest decoded first
}

type cachedState struct {
	state []byte // as stored (the record's slice, not written to afterwards)
	deck  *engine.Deck
	game  *engine.Game // never handed out: clones are
	// A clone makes an empty discard pile or stack nil (engine.Clone:
	// what undo points have always saved); a decoded "[]" is empty but
	// not nil, and saves as such. These say which to give back, so that
	// a clone saves byte for byte as a fresh decoding would.
	emptyDiscard, emptyStack bool
}

// clone is a copy of the cached decoding, as a fresh decoding would be.
func (e *cachedState) clone() *engine.Game {
	g := e.game.Clone()
	if e.emptyDiscard && g.S.Discard == nil {
		g.S.Discard = []engine.DiscardEntry{}
	}
	if e.emptyStack && g.S.Stack == nil {
		g.S.Stack = []engine.Frame{}
	}
	return g
}

// stateCacheSize bounds the cache: a game's state is about 20 KB stored
// and a few times that decoded, so a few MiB in all, and the games
// played within a few seconds of each other fit.
const stateCacheSize = 128

// load returns the game decoded from state with deck: a clone of the
// cached decoding when the bytes and deck are the same, else a fresh
// decoding (remembered).
func (c *stateCache) load(id int64, state []byte, deck *engine.Deck) (*engine.Game, error) {
	c.mu.Lock()
	if e := c.games[id]; e != nil && e.deck == deck && bytes.Equal(e.state, state) {
		g := e.clone() // under the lock: Clone writes to its source
		c.mu.Unlock()
		return g, nil
	}
	c.mu.Unlock()
	g, err := engine.Load(state, deck)
	if err != nil {
		return nil, err
	}
	c.put(id, state, deck, g)
	return g, nil
}

// remember keeps g, a game just played and stored as state, as that
// state's decoding: the next load of the game (its publisher, the next
// click) clones it instead of parsing what was just written. A game's
// state holds nothing that its saved JSON does not (package engine), so
// it is what a decoding of state would be.
func (c *stateCache) remember(id int64, state []byte, g *engine.Game) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.putLocked(id, state, g.Deck(), g)
}

// put is remember for a game just decoded.
func (c *stateCache) put(id int64, state []byte, deck *engine.Deck, g *engine.Game) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.putLocked(id, state, deck, g)
}

func (c *stateCache) putLocked(id int64, state []byte, deck *engine.Deck, g *engine.Game) {
	master := g.Clone()
	if c.games == nil {
		c.games = map[int64]*cachedState{}
	}
	if _, ok := c.games[id]; !ok {
		c.order = append(c.order, id)
	}
	c.games[id] = &cachedState{state: state, deck: deck, game: master,
		emptyDiscard: g.S.Discard != nil && len(g.S.Discard) == 0, emptyStack: g.S.Stack != nil && len(g.S.Stack) == 0}
	for len(c.order) > stateCacheSize {
		delete(c.games, c.order[0])
		c.order = c.order[1:]
	}
}
