package render

import (
	"fmt"
	"image"
	"image/color"
	"strings"
	"sync"

	"github.com/rfop/rfop/engine"
)

// A hand picture without its cards, its frame (the background, the head,
// each section's panel and title), depends only on whose hand it is, the
// round and the sections' titles, notes and sizes, not on which cards are
// dealt: 200 games dealt at once want two frames, one a side. RenderHand
// keeps the last few frames in palette indices, so that a hand whose frame
// is kept is only its cards' indices written into a copy of its frame,
// then encoded: painting the frame and quantizing it were about half of a
// hand picture's time under a burst of new games (issue 30).

// handFrame is a hand picture's frame: the palette indices of what is not
// under a card, row by row, and where the cards go.
type handFrame struct {
	w, h   int
	places []framePlace // in the order the sections list their cards
	gaps   []uint8      // each row's indices outside the cards, rows in order
}

// framePlace is where a card goes in a frame: its top-left corner, and the
// flat colour of the panel under it (its rounded corners show it).
type framePlace struct {
	at    image.Point
	under color.RGBA
}

// handFramesKept bounds the frames kept (about 0.9 MB each for a
// round's hand with its objectives).
const handFramesKept = 6

// frameCache keeps the last handFramesKept frames by key, newest last.
type frameCache struct {
	mu     sync.Mutex
	keys   []string
	frames []*handFrame
}

func (c *frameCache) get(key string) *handFrame {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, k := range c.keys {
		if k == key {
			return c.frames[i]
		}
	}
	return nil
}

func (c *frameCache) put(key string, f *handFrame) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, k := range c.keys {
		if k == key {
			return // drawn at the same time by another render
		}
	}
	if len(c.keys) == handFramesKept {
		c.keys, c.frames = c.keys[1:], c.frames[1:]
	}
	c.keys, c.frames = append(c.keys, key), append(c.frames, f)
}

// frameKey names everything a hand's frame is drawn from: the viewer (the
// head's words and colour), the round and each section's texts, size and
// panel. secs are translated already.
func frameKey(v *engine.View, secs []handSection) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d|%d", v.Viewer, v.Round)
	for _, s := range secs {
		fmt.Fprintf(&b, "|%q|%q|%d|%t", s.title, s.note, len(s.cards), s.muted)
	}
	return b.String()
}

// rowGaps sets gaps to the [x0, x1) pairs of row y of a picture w wide
// that no card of places covers.
func rowGaps(gaps []int, y, w int, places []framePlace) []int {
	gaps = append(gaps[:0], 0, w)
	for _, c := range places {
		if y >= c.at.Y && y < c.at.Y+CardHeight {
			gaps = cutGap(gaps, c.at.X, c.at.X+CardWidth)
		}
	}
	return gaps
}
