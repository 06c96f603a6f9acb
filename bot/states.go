package bot

import (
	"crypto/sha256"
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
// (by their SHA-256) and the deck are exactly those it was decoded from (an undo followed by
// another move comes back to the same version with another state). A hit
// returns a clone: callers play moves on the game they get. The cache
// holds at most stateCacheSize games, the oldest decoded dropped first.
type stateCache struct {
	mu    sync.Mutex
	games fifoMap[int64, *cachedState]
}

type cachedState struct {
	sum  [sha256.Size]byte // of the state as stored (not the bytes: a quarter of an entry's memory)
	deck *engine.Deck
	game *engine.Game // never handed out: clones are
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

// stateCacheSize bounds the cache: a decoded game of a hundred moves
// holds about 70 KB, so about 9 MiB in all, and the games played within a
// few seconds of each other fit.
const stateCacheSize = 128

// load returns the game decoded from state with deck: a clone of the
// cached decoding when the bytes and deck are the same, else a fresh
// decoding (remembered).
func (c *stateCache) load(id int64, state []byte, deck *engine.Deck) (*engine.Game, error) {
	sum := sha256.Sum256(state)
	c.mu.Lock()
	if e, _ := c.games.get(id); e != nil && e.deck == deck && e.sum == sum {
		g := e.clone() // under the lock: Clone writes to its source
		c.mu.Unlock()
		return g, nil
	}
	c.mu.Unlock()
	g, err := engine.Load(state, deck)
	if err != nil {
		return nil, err
	}
	c.put(id, sum, deck, g)
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
	c.putLocked(id, sha256.Sum256(state), g.Deck(), g)
}

// put is remember for a game just decoded.
func (c *stateCache) put(id int64, sum [sha256.Size]byte, deck *engine.Deck, g *engine.Game) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.putLocked(id, sum, deck, g)
}

func (c *stateCache) putLocked(id int64, sum [sha256.Size]byte, deck *engine.Deck, g *engine.Game) {
	c.games.max = stateCacheSize
	c.games.put(id, &cachedState{sum: sum, deck: deck, game: g.Clone(),
		emptyDiscard: g.S.Discard != nil && len(g.S.Discard) == 0, emptyStack: g.S.Stack != nil && len(g.S.Stack) == 0})
}
