package render

import (
	"encoding/json"
	"testing"

	"github.com/rfop/rfop/engine"
	"github.com/rfop/rfop/glossary"
	"github.com/rfop/rfop/replay"
	"github.com/stretchr/testify/require"
)

// FuzzReplayInput: a replay's input is a stored game, its options and its
// move log (one Move's JSON a row, undos and resignations included). Any
// such log is refused with an error or walks into frames numbered 1, 2,
// 3..., the last one marked, as many as the summary counts, each with a
// caption in every language; a log that replays always has a replay. The
// pictures are not drawn (the frames' views come from the engine, not
// from the input). How to run it: README, "Fuzzing".
func FuzzReplayInput(f *testing.F) {
	for _, tc := range []struct {
		seed int64
		bot  engine.Side
		cut  int
	}{{3, engine.NoSide, 0}, {5, engine.Commune, 0}, {8, engine.NoSide, 40}} {
		o := engine.Options{Seed: tc.seed, BotSide: tc.bot}
		moves := randomMoves(f, o, uint64(tc.seed))
		if tc.cut > 0 {
			moves = append(moves[:tc.cut:tc.cut], engine.Move{Side: moves[tc.cut-1].Side, Undo: true}, engine.Move{Side: engine.Commune, Resign: true})
		}
		b, err := json.Marshal(moves)
		require.NoError(f, err)
		f.Add(tc.seed, uint8(tc.bot+1), false, b)
	}
	f.Add(int64(1), uint8(0), true, []byte(`[{"side":1,"resign":true}]`))
	f.Add(int64(1), uint8(0), false, []byte(`[{"side":0,"undo":true},{"side":1,"choice":{"kind":2,"card":43}}]`))
	renderers := []*Renderer{testRenderer(f), editionRenderer(f, glossary.French), editionRenderer(f, glossary.Russian)}
	f.Fuzz(func(t *testing.T, seed int64, bot uint8, censorship bool, b []byte) {
		var moves []engine.Move
		if json.Unmarshal(b, &moves) != nil {
			return
		}
		o := engine.Options{Seed: seed, BotSide: engine.Side(bot%3) - 1}
		if censorship {
			o.Variant = engine.Censorship
		}
		_, replayErr := engine.Replay(o, moves)
		var frames []replay.Frame
		sum, err := replay.Walk(o, moves, func(fr replay.Frame, prev *engine.View) error {
			require.NotNil(t, prev)
			frames = append(frames, fr)
			return nil
		})
		if err != nil {
			require.Error(t, replayErr, "the log replays but its replay fails: %v", err)
			return
		}
		require.Equal(t, len(moves), sum.Moves)
		require.Len(t, frames, sum.Frames)
		for k, fr := range frames {
			require.Equal(t, k+1, fr.N)
			require.Equal(t, k == len(frames)-1, fr.Last, "frame %d of %d", k+1, len(frames))
			require.Positive(t, fr.Delay())
		}
		for _, r := range renderers {
			caps, err := r.ReplayCaptions(o, moves)
			require.NoError(t, err)
			require.Len(t, caps, len(frames))
			for _, c := range caps {
				require.NotEmpty(t, c)
			}
		}
	})
}
