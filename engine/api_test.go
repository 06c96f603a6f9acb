package engine

import (
	"encoding/json"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func randomGame(t testing.TB, seed int64, moves int) (*Game, []Move) {
	g, err := New(Options{Seed: seed, BotSide: NoSide})
	require.NoError(t, err)
	r := rand.New(rand.NewPCG(uint64(seed), 1))
	var log []Move
	for i := 0; i < moves; i++ {
		m, ok := g.RandomMove(r)
		if !ok {
			break
		}
		require.NoError(t, g.ApplyMove(m))
		log = append(log, m)
	}
	return g, log
}

func TestSaveLoadRoundTrip(t *testing.T) {
	for _, n := range []int{0, 10, 60, 200} {
		g, _ := randomGame(t, 11, n)
		b, err := g.Save()
		require.NoError(t, err)
		h, err := Load(b, nil)
		require.NoError(t, err)
		b2, err := h.Save()
		require.NoError(t, err)
		assert.JSONEq(t, string(b), string(b2))
		assert.Equal(t, g.Prompts(), h.Prompts(), "the loaded game offers the same decisions")
		// Both continue identically.
		r1, r2 := rand.New(rand.NewPCG(5, 5)), rand.New(rand.NewPCG(5, 5))
		for i := 0; i < 40; i++ {
			m1, ok1 := g.RandomMove(r1)
			m2, ok2 := h.RandomMove(r2)
			require.Equal(t, ok1, ok2)
			if !ok1 {
				break
			}
			require.Equal(t, m1, m2)
			require.NoError(t, g.ApplyMove(m1))
			require.NoError(t, h.ApplyMove(m2))
		}
		assert.Equal(t, g.S.Version, h.S.Version)
	}
}

func TestReplayIsDeterministic(t *testing.T) {
	g, log := randomGame(t, 77, 500)
	h, err := Replay(g.Options(), log)
	require.NoError(t, err)
	a, _ := g.Save()
	b, _ := h.Save()
	assert.JSONEq(t, string(a), string(b))
}

func TestLoadRejectsCorruptState(t *testing.T) {
	g, _ := randomGame(t, 3, 30)
	good, _ := g.Save()
	tests := []struct {
		name   string
		mutate func(m map[string]any)
		want   string
	}{
		{"not JSON", nil, "not valid JSON"},
		{"too many cubes", func(m map[string]any) { m["pool"] = []any{30, 0} }, "cubes accounted for"},
		// Appended, not replacing the stack: a play's frame holds its card (census).
		{"unknown frame", func(m map[string]any) { m["stack"] = append(m["stack"].([]any), map[string]any{"k": 99}) }, "unknown kind"},
		{"other deck", func(m map[string]any) { m["deckId"] = "feedface" }, "started with deck"},
		{"bad card", func(m map[string]any) { m["deck"] = []any{77} }, "invalid card"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := []byte("{broken")
			if tc.mutate != nil {
				var m map[string]any
				require.NoError(t, json.Unmarshal(good, &m))
				tc.mutate(m)
				b, _ = json.Marshal(m)
			}
			_, err := Load(b, nil)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

func TestApplyErrors(t *testing.T) {
	g, _ := randomGame(t, 8, 5)
	p := g.Prompts()[0]
	other := p.Side.Other()
	if _, ok := g.PromptFor(other); !ok {
		err := g.Apply(other, p.Choices[0])
		assert.True(t, errors.Is(err, ErrNotYourDecision), "%v", err)
	}
	before, _ := g.Save()
	err := g.Apply(p.Side, Choice{Kind: ChooseMove, Space: Press, To: Royalists})
	assert.True(t, errors.Is(err, ErrIllegal), "%v", err)
	err = g.ApplyAt(p.Version-1, p.Side, p.Choices[0])
	assert.True(t, errors.Is(err, ErrStale), "%v", err)
	after, _ := g.Save()
	assert.Equal(t, string(before), string(after), "errors change nothing")
}

// Undo: the acting side may take back its own choices until hidden
// information is revealed or the opponent acts.
func TestUndo(t *testing.T) {
	g := position(t, cubes{Press: {1, 1}})
	g.S.Pool[Versailles] = 4
	start(g, opsFrame(Versailles, 3))
	assert.False(t, g.CanUndo(Versailles))
	before, _ := g.Save()
	pick(t, g, Versailles, func(c Choice) bool { return c.Kind == ChooseSphere && c.N == int(Political) })
	assert.True(t, prompt(t, g, Versailles).CanUndo)
	pick(t, g, Versailles, at(ChooseRemove, Press))
	require.NoError(t, g.Undo(Versailles))
	assert.Equal(t, int8(1), g.S.Cubes[Commune][Press], "removal taken back")
	assert.Equal(t, PromptOpsRemove, prompt(t, g, Versailles).Kind)
	require.NoError(t, g.Undo(Versailles))
	assert.Equal(t, PromptSphere, prompt(t, g, Versailles).Kind)
	var a, b map[string]any
	now, _ := g.Save()
	require.NoError(t, json.Unmarshal(before, &a))
	require.NoError(t, json.Unmarshal(now, &b))
	assert.Equal(t, a["cubes"], b["cubes"])
	assert.True(t, errors.Is(g.Undo(Versailles), ErrNoUndo))

	t.Run("a drawn card ends undo", func(t *testing.T) {
		g := position(t, cubes{MontValerien: {0, 1}})
		stackDeck(g, 2)
		start(g, opsFrame(Versailles, 3))
		pick(t, g, Versailles, func(c Choice) bool { return c.Kind == ChooseSphere && c.N == int(Military) })
		pick(t, g, Versailles, func(c Choice) bool { return c.Kind == ChooseRemove && !c.Extra })
		assert.False(t, g.CanUndo(Versailles))
	})
	t.Run("the opponent's choice ends undo", func(t *testing.T) {
		g, err := New(Options{Seed: 4, BotSide: NoSide})
		require.NoError(t, err)
		pick(t, g, Versailles, kind(ChooseCard))
		assert.True(t, g.CanUndo(Versailles))
		pick(t, g, Commune, kind(ChooseCard))
		assert.False(t, g.CanUndo(Versailles))
	})
}

// An undo point belongs to its game: the game reuses its memory for the
// next one, so a clone (which shares the point's base) and a game after
// an undo (whose new point keeps the old base) must see nothing of that.
// A clone saved at every decision saves the same after the original has
// played on, and its own undo chain stays its own.
func TestUndoPointsAreNotSharedWithClones(t *testing.T) {
	g, err := New(Options{Seed: 21, BotSide: NoSide})
	require.NoError(t, err)
	r := rand.New(rand.NewPCG(21, 3))
	type kept struct {
		c    *Game
		save string
	}
	var clones []kept
	undos := 0
	for i := 0; i < 400; i++ {
		m, ok := g.RandomMove(r)
		if !ok {
			break
		}
		if i%3 == 0 {
			c := g.Clone()
			b, err := c.Save()
			require.NoError(t, err)
			clones = append(clones, kept{c, string(b)})
		}
		require.NoError(t, g.ApplyMove(m))
		if i%7 == 0 && g.CanUndo(m.Side) {
			require.NoError(t, g.Undo(m.Side))
			undos++
		}
	}
	require.NotZero(t, undos)
	for i, k := range clones {
		b, err := k.c.Save()
		require.NoError(t, err)
		require.JSONEq(t, k.save, string(b), "clone %d changed by the original's later moves", i)
	}
	// A clone with an undo chain and its own clones each add a choice to
	// the chain; then the first adds a second and takes it back: it is
	// where the clone that made only the same first choice is (the replay
	// of its chain reads its own choices).
	chains := 0
	position := func(g *Game) string {
		s := g.S.clone(false)
		s.Version = 0
		b, err := json.Marshal(s)
		require.NoError(t, err)
		return string(b)
	}
	for i, k := range clones {
		c := k.c
		ps := c.Prompts()
		if len(ps) != 1 || !c.CanUndo(ps[0].Side) || len(ps[0].Choices) < 2 {
			continue
		}
		d, e := c.Clone(), c.Clone()
		p := ps[0] // c's prompts change when c moves
		side := p.Side
		require.NoError(t, c.Apply(side, p.Choices[0]))
		require.NoError(t, e.Apply(side, p.Choices[0]))
		require.NoError(t, d.Apply(side, p.Choices[len(p.Choices)-1]))
		p2, ok := c.PromptFor(side)
		if !ok || !c.CanUndo(side) {
			continue
		}
		require.NoError(t, c.Apply(side, p2.Choices[0]))
		if !c.CanUndo(side) {
			continue
		}
		require.NoError(t, c.Undo(side))
		require.Equal(t, position(e), position(c), "clone %d: took back its own last choice", i)
		chains++
	}
	require.NotZero(t, chains)
}

func TestResign(t *testing.T) {
	g, _ := randomGame(t, 2, 10)
	require.NoError(t, g.Resign(Commune))
	assert.Equal(t, Versailles, g.S.Result.Winner)
	assert.Empty(t, g.Prompts())
	assert.ErrorIs(t, g.Apply(Versailles, Choice{}), ErrGameOver)
}

// A loss on time is a logged move like a resignation: the opponent wins
// with reason "timeout", and the move replays to the same state.
func TestTimeOutIsAResultLikeAResignation(t *testing.T) {
	g, _ := randomGame(t, 2, 10)
	require.NoError(t, g.ApplyMove(Move{Side: Versailles, Timeout: true}))
	require.NotNil(t, g.S.Result)
	assert.Equal(t, Commune, g.S.Result.Winner)
	assert.Equal(t, "timeout", g.S.Result.Reason)
	assert.Equal(t, "engine.result.timeout", g.S.Result.Msg.ID)
	assert.Empty(t, g.Prompts())
	assert.ErrorIs(t, g.TimeOut(Commune), ErrGameOver)
	raw, err := json.Marshal(Move{Side: Versailles, Timeout: true})
	require.NoError(t, err)
	var back Move
	require.NoError(t, json.Unmarshal(raw, &back))
	assert.True(t, back.Timeout)
}

// Deck files: a file that does not validate is rejected naming the card
// and the field.
func TestDeckValidation(t *testing.T) {
	var base deckFile
	require.NoError(t, json.Unmarshal(defaultDeckJSON, &base))
	tests := []struct {
		name   string
		mutate func(d *deckFile)
		want   string
	}{
		{"unknown op", func(d *deckFile) { d.Cards[4].Effect.Op = "teleport" }, `card #5 "Le Figaro": field effect.op`},
		{"unknown space", func(d *deckFile) { d.Cards[6].Effect.In.Spaces[0] = "moon" }, `card #7 "Général Espivent": field effect.in: spaces: "moon"`},
		{"bad OP value", func(d *deckFile) { d.Cards[0].OP = 7 }, `card #1 "Jules Ducatel": field op`},
		{"missing card", func(d *deckFile) { d.Cards = d.Cards[:52] }, "missing: 53"},
		{"duplicate objective space", func(d *deckFile) { d.Cards[42].Space = "butte_montmartre" }, "already the objective"},
		{"field not allowed for op", func(d *deckFile) { d.Cards[1].Effect.Who = "you" }, "field effect.who: not allowed for op remove"},
		{"bad status", func(d *deckFile) { d.Cards[2].Status = "maybe" }, "field status"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var d deckFile
			require.NoError(t, json.Unmarshal(defaultDeckJSON, &d))
			tc.mutate(&d)
			b, err := json.Marshal(d)
			require.NoError(t, err)
			_, err = ParseDeck(b)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
	_, err := ParseDeck([]byte(`{"cards": [], "extra": 1}`))
	require.Error(t, err)
	assert.True(t, strings.Contains(err.Error(), "unknown field"), err.Error())
	require.NotEmpty(t, base.Cards)
}

// FuzzApply: arbitrary choices never panic; on error nothing changes.
func FuzzApply(f *testing.F) {
	f.Add(int64(1), uint8(3), int8(1), int8(2), int8(4), int16(0), uint8(0))
	f.Add(int64(9), uint8(40), int8(6), int8(1), int8(7), int16(21), uint8(1))
	f.Add(int64(5), uint8(90), int8(0), int8(0), int8(0), int16(3), uint8(0))
	f.Fuzz(func(t *testing.T, seed int64, pre uint8, kind, mode, space int8, card int16, side uint8) {
		g, _ := randomGame(t, seed, int(pre))
		before, err := g.Save()
		require.NoError(t, err)
		c := Choice{Kind: ChoiceKind(kind), Mode: PlayMode(mode), Space: Space(space), To: Space(space / 2), Card: int(card), N: int(card % 5)}
		who := Side(side%3) - 1
		if kind == 0 && len(g.Prompts()) > 0 { // a legal choice must always apply
			p := g.Prompts()[int(pre)%len(g.Prompts())]
			c, who = p.Choices[int(uint16(card))%len(p.Choices)], p.Side
			require.NoError(t, g.Apply(who, c))
			require.NoError(t, g.CheckInvariants())
			return
		}
		err = g.Apply(who, c)
		if err != nil {
			after, _ := g.Save()
			require.Equal(t, string(before), string(after), "a rejected choice changed the state")
			return
		}
		require.NoError(t, g.CheckInvariants())
	})
}

// A clone is a separate game: its card lists share one allocation, but
// writing into one list or appending to it changes neither the other lists
// nor the original, and the clone saves as the original does (nil card
// lists stay null, empty ones []; an empty stack or discard pile has
// always been copied as null).
func TestCloneIsIndependent(t *testing.T) {
	for _, n := range []int{0, 30, 90} {
		g, _ := randomGame(t, 21, n)
		want, err := g.Save()
		require.NoError(t, err)
		c := g.Clone()
		got, err := c.Save()
		require.NoError(t, err)
		emptyAsNull := strings.NewReplacer(`"stack":[]`, `"stack":null`, `"discard":[]`, `"discard":null`)
		require.JSONEq(t, emptyAsNull.Replace(string(want)), emptyAsNull.Replace(string(got)))
		s := &c.S
		lists := []*[]int8{&s.Deck, &s.Removed, &s.OutOfGame, &s.ObjDeck, &s.ObjOut,
			&s.Hand[0], &s.Hand[1], &s.SetAside[0], &s.SetAside[1],
			&s.ObjOffer[0], &s.ObjOffer[1], &s.Fulfilled[0], &s.Fulfilled[1]}
		for _, l := range lists {
			for i := range *l {
				(*l)[i] = 99
			}
			*l = append(*l, 98)
		}
		for k, l := range lists {
			for i, x := range *l {
				require.Equal(t, int8(99+boolInt(i == len(*l)-1)*-1), x, "after %d moves: list %d, card %d", n, k, i)
			}
		}
		after, err := g.Save()
		require.NoError(t, err)
		require.JSONEq(t, string(want), string(after), "after %d moves: the original is unchanged", n)
		require.NoError(t, g.CheckInvariants())
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
