package render

import (
	"testing"

	"github.com/rfop/rfop/engine"
	"github.com/rfop/rfop/glossary"
	"github.com/stretchr/testify/require"
)

// Issue 30: a hand drawn on a kept frame (another hand's, with the same
// sections) is exactly the hand drawn from scratch, quantized: the frame
// holds nothing of the first hand's cards.
func TestAHandOnAKeptFrameIsTheQuantizedDrawHand(t *testing.T) {
	r, err := NewFor(nil, glossary.English)
	require.NoError(t, err)
	other := func(v *engine.View) *engine.View {
		// The same sections, other cards: each card's number moved on by
		// 7 among the strategy cards (1-41), objectives by one (42-53).
		w := *v
		shift := func(cs []int8) []int8 {
			out := make([]int8, len(cs))
			for i, c := range cs {
				if c <= 41 {
					out[i] = (c+6)%41 + 1
				} else {
					out[i] = 42 + (c-42+1)%12
				}
			}
			return out
		}
		w.Hand, w.SetAside, w.ObjOffer = shift(v.Hand), shift(v.SetAside), shift(v.ObjOffer)
		if o := w.Objective[v.Viewer]; o > 0 {
			w.Objective[v.Viewer] = 42 + (o-42+1)%12
		}
		return &w
	}
	for _, first := range sampleHands() {
		secs, err := r.handSectionsOf(first)
		require.NoError(t, err)
		_, err = r.RenderHand(first)
		require.NoError(t, err)
		require.NotNil(t, r.frames.get(frameKey(first, secs)), "the first hand keeps its frame")

		second := other(first)
		secs2, err := r.handSectionsOf(second)
		require.NoError(t, err)
		require.Equal(t, frameKey(first, secs), frameKey(second, secs2), "the other hand has the same frame")
		require.NotEqual(t, first.Hand, second.Hand)
		b, err := r.RenderHand(second)
		require.NoError(t, err)
		requireQuantizedDrawHand(t, r, second, b, "%s round %d on the kept frame", second.Viewer, second.Round)
	}
}

// The frames kept are bounded: the oldest goes.
func TestHandFramesKeptAreBounded(t *testing.T) {
	var c frameCache
	for i := range handFramesKept + 2 {
		c.put(string(rune('a'+i)), &handFrame{w: i})
	}
	require.Len(t, c.keys, handFramesKept)
	require.Nil(t, c.get("a"))
	require.Nil(t, c.get("b"))
	require.NotNil(t, c.get(string(rune('a'+handFramesKept+1))))
}
