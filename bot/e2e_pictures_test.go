package bot_test

import (
	"encoding/json"
	"sync"
	"testing"

	"github.com/rfop/rfop/bot"
	"github.com/rfop/rfop/engine"
	"github.com/rfop/rfop/glossary"
	"github.com/rfop/rfop/replay"
	"github.com/stretchr/testify/require"
)

var (
	picsOnce sync.Once
	pics     *sharedPics
)

// sharedPictures is the real renderer, shared by every E2E test of the
// package and remembering each picture by its whole input. The renderer
// is deterministic (package render's golden tests pin it), so a picture
// drawn again for the same view, previous view, caption, language and
// deck is byte for byte the one drawn before: the bot gets exactly what it
// would get without the memory. Drawing is most of the E2E tests' CPU
// under -race, and about half the pictures they ask for are ones another
// test already asked for (tests share seeds and openings), so the suite
// draws each once (issue 25). Every distinct picture is still drawn by
// the real renderer, concurrently with the other tests.
func sharedPictures(t testing.TB) bot.Pictures {
	picsOnce.Do(func() {
		p, err := bot.DefaultPictures()
		require.NoError(t, err)
		pics = &sharedPics{real: p, drawn: map[string][]byte{}}
	})
	return pics
}

// realPictures is the shared renderer without the memory: for what
// measures the bot's own cost of drawing (the load benchmarks).
func realPictures(t testing.TB) bot.Pictures {
	sharedPictures(t)
	return pics.real
}

type sharedPics struct {
	real  bot.Pictures
	mu    sync.Mutex
	drawn map[string][]byte // encoded input → picture
}

func (p *sharedPics) remembered(draw func() ([]byte, error), input ...any) ([]byte, error) {
	k, err := json.Marshal(input)
	if err != nil { // not expected for these inputs: draw without the memory
		return draw()
	}
	p.mu.Lock()
	b, ok := p.drawn[string(k)]
	p.mu.Unlock()
	if ok {
		return b, nil
	}
	b, err = draw()
	if err != nil || b == nil {
		return b, err
	}
	p.mu.Lock()
	p.drawn[string(k)] = b
	p.mu.Unlock()
	return b, nil
}

func deckID(d *engine.Deck) string {
	if d == nil {
		return ""
	}
	return d.ID
}

func (p *sharedPics) Board(l glossary.Lang, d *engine.Deck, v engine.View, prev *engine.View, caption string) ([]byte, error) {
	return p.remembered(func() ([]byte, error) { return p.real.Board(l, d, v, prev, caption) }, "board", l, deckID(d), v, prev, caption)
}

func (p *sharedPics) Hand(l glossary.Lang, d *engine.Deck, v engine.View) ([]byte, error) {
	return p.remembered(func() ([]byte, error) { return p.real.Hand(l, d, v) }, "hand", l, deckID(d), v)
}

func (p *sharedPics) Card(l glossary.Lang, d *engine.Deck, num int) ([]byte, error) {
	return p.remembered(func() ([]byte, error) { return p.real.Card(l, d, num) }, "card", l, deckID(d), num)
}

// Replay is not remembered: few tests ask for one.
func (p *sharedPics) Replay(l glossary.Lang, o engine.Options, moves []engine.Move) ([]byte, replay.Summary, bool, error) {
	return p.real.(bot.ReplayPictures).Replay(l, o, moves)
}
