package replay

import (
	"math/rand/v2"
	"testing"

	"github.com/rfop/rfop/engine"
	"github.com/stretchr/testify/require"
)

// randomGame plays random legal moves from seed until the game ends, or
// for at most limit moves (0: no limit).
func randomGame(t testing.TB, o engine.Options, seed uint64, limit int) []engine.Move {
	t.Helper()
	g, err := engine.New(o)
	require.NoError(t, err)
	r := rand.New(rand.NewPCG(seed, 11))
	var moves []engine.Move
	for limit == 0 || len(moves) < limit {
		m, ok := g.RandomMove(r)
		if !ok {
			break
		}
		require.NoError(t, g.ApplyMove(m))
		moves = append(moves, m)
	}
	return moves
}

// cardPlays counts the moves answering a card-play prompt: every one
// begins a play (rulebook "Sequence of Play": players alternate playing
// one card each).
func cardPlays(t testing.TB, o engine.Options, moves []engine.Move) int {
	g, err := engine.New(o)
	require.NoError(t, err)
	n := 0
	for _, m := range moves {
		if p, ok := g.PromptFor(m.Side); ok && (p.Kind == engine.PromptPlay || p.Kind == engine.PromptFCPlay) {
			n++
		}
		require.NoError(t, g.ApplyMove(m))
	}
	return n
}

// One frame per play plus one per scoring: three rounds and the Final
// Crisis are each scored once (rulebook pp. 7-8), and the frames come in
// order, each with the board of its moment.
func TestFramesArePlaysPlusScorings(t *testing.T) {
	for seed := uint64(1); seed <= 30; seed++ {
		o := engine.Options{Seed: int64(seed), BotSide: engine.NoSide}
		moves := randomGame(t, o, seed, 0)
		var frames []Frame
		sum, err := Walk(o, moves, func(f Frame, prev *engine.View) error {
			require.NotNil(t, prev)
			frames = append(frames, f)
			return nil
		})
		require.NoError(t, err)
		require.NotNil(t, sum.Result, "seed %d: the random game ends", seed)
		require.Equal(t, sum.Plays+sum.Scorings, sum.Frames)
		require.Len(t, frames, sum.Frames)
		require.LessOrEqual(t, sum.Scorings, 4)
		require.GreaterOrEqual(t, sum.Scorings, 2, "at least one round and the Final Crisis")
		require.GreaterOrEqual(t, sum.Plays, cardPlays(t, o, moves), "every card played is a play")
		require.Less(t, sum.Plays, len(moves), "plays are fewer than clicks")
		plays := 0
		for k, f := range frames {
			require.Equal(t, k+1, f.N)
			require.Equal(t, k == len(frames)-1, f.Last)
			require.Nil(t, f.View.Log, "frames carry no log")
			if f.Kind == Play {
				plays++
				require.Equal(t, plays, f.Play)
				require.Contains(t, []engine.Side{engine.Versailles, engine.Commune}, f.Side)
				require.NotNil(t, f.Line, "a play's caption quotes its line")
			}
			if f.Kind == Scoring && f.View.Result == nil && f.Line != nil {
				require.True(t, vpLines()[f.Line.ID], "a scoring frame quotes a line that gives VP: %s", f.Line.ID)
			}
		}
		last := frames[len(frames)-1]
		require.Equal(t, Scoring, last.Kind, "the final scoring ends the game")
		require.NotNil(t, last.View.Result)
		require.Equal(t, sum.Result, last.View.Result, "the last frame shows the result, which its caption gives")
		require.Equal(t, EndDelay, last.Delay())

		counted, err := Count(o, moves)
		require.NoError(t, err)
		require.Equal(t, sum, counted)
	}
}

// A resignation (rulebook: a player may concede) ends the replay with a
// frame of its own.
func TestResignationFrame(t *testing.T) {
	o := engine.Options{Seed: 5, BotSide: engine.NoSide}
	moves := randomGame(t, o, 5, 40)
	moves = append(moves, engine.Move{Side: engine.Commune, Resign: true})
	var last Frame
	sum, err := Walk(o, moves, func(f Frame, _ *engine.View) error { last = f; return nil })
	require.NoError(t, err)
	require.Equal(t, sum.Plays+sum.Scorings+1, sum.Frames)
	require.Equal(t, Resign, last.Kind)
	require.True(t, last.Last)
	require.Equal(t, engine.Versailles, sum.Result.Winner)
}

// A loss on time ends the replay like a resignation.
func TestTimeoutFrame(t *testing.T) {
	o := engine.Options{Seed: 5, BotSide: engine.NoSide}
	moves := append(randomGame(t, o, 5, 40), engine.Move{Side: engine.Versailles, Timeout: true})
	var last Frame
	sum, err := Walk(o, moves, func(f Frame, _ *engine.View) error { last = f; return nil })
	require.NoError(t, err)
	require.Equal(t, Resign, last.Kind)
	require.Equal(t, engine.Commune, sum.Result.Winner)
	require.Equal(t, "timeout", sum.Result.Reason)
}

// Undone clicks are not plays: a card played then taken back and another
// played gives the frames of the log without the undo.
func TestUndoneClicksAreNotPlays(t *testing.T) {
	o := engine.Options{Seed: 9, BotSide: engine.NoSide}
	g, err := engine.New(o)
	require.NoError(t, err)
	r := rand.New(rand.NewPCG(9, 9))
	var clean, withUndo []engine.Move
	undone := false
	for len(clean) < 120 {
		ps := g.Prompts()
		if len(ps) == 0 {
			break
		}
		p := ps[0]
		c := p.Choices[r.IntN(len(p.Choices))]
		if !undone && p.Kind == engine.PromptPlay && len(p.Choices) > 1 {
			// Play one card, take it back, then play another.
			other := p.Choices[(r.IntN(len(p.Choices)-1)+1+indexOf(p.Choices, c))%len(p.Choices)]
			require.NoError(t, g.ApplyMove(engine.Move{Side: p.Side, Choice: other}))
			if g.CanUndo(p.Side) {
				require.NoError(t, g.ApplyMove(engine.Move{Side: p.Side, Undo: true}))
				withUndo = append(withUndo, engine.Move{Side: p.Side, Choice: other}, engine.Move{Side: p.Side, Undo: true})
				undone = true
			} else {
				clean = append(clean, engine.Move{Side: p.Side, Choice: other})
				withUndo = append(withUndo, engine.Move{Side: p.Side, Choice: other})
				continue
			}
		}
		m := engine.Move{Side: p.Side, Choice: c}
		require.NoError(t, g.ApplyMove(m))
		clean = append(clean, m)
		withUndo = append(withUndo, m)
	}
	require.True(t, undone, "the test game never offered an undo")
	a, err := Count(o, clean)
	require.NoError(t, err)
	b, err := Count(o, withUndo)
	require.NoError(t, err)
	require.Equal(t, a.Plays, b.Plays)
	require.Equal(t, a.Frames, b.Frames)
	require.Equal(t, len(withUndo), b.Moves)
}

func indexOf(cs []engine.Choice, c engine.Choice) int {
	for k, x := range cs {
		if x == c {
			return k
		}
	}
	return 0
}

// Solo games replay too (the solo opponent's turns are plays).
func TestSoloGameReplays(t *testing.T) {
	o := engine.Options{Seed: 3, BotSide: engine.Versailles}
	moves := randomGame(t, o, 3, 0)
	sum, err := Count(o, moves)
	require.NoError(t, err)
	require.NotNil(t, sum.Result)
	require.Equal(t, sum.Plays+sum.Scorings, sum.Frames)
}
