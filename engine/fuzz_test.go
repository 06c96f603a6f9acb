package engine

// Fuzz targets for the engine's parsers of outside input: the deck file
// (with its effect language), a stored state, and a stored move log. Each
// seeds its corpus with real shapes (the embedded deck, states and logs of
// random games, the saves of older versions under testdata/) so the
// fuzzer mutates from valid input. How to run them: README, "Fuzzing".

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// deckCards is the embedded deck file's cards, each as its JSON text.
func deckCards(t testing.TB) []json.RawMessage {
	t.Helper()
	var f struct {
		Cards []json.RawMessage `json:"cards"`
	}
	require.NoError(t, json.Unmarshal(defaultDeckJSON, &f))
	return f.Cards
}

// withCard is the embedded deck file with card index i's JSON replaced.
func withCard(cards []json.RawMessage, i int, card []byte) []byte {
	var b bytes.Buffer
	b.WriteString(`{"cards":[`)
	for k, c := range cards {
		if k > 0 {
			b.WriteByte(',')
		}
		if k == i {
			b.Write(card)
		} else {
			b.Write(c)
		}
	}
	b.WriteString("]}")
	return b.Bytes()
}

// playSome plays up to n random legal moves; each must apply, and the
// state must stay consistent and round-trip through Save and Load.
func playSome(t *testing.T, g *Game, seed uint64, n int) {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 3))
	for i := 0; i < n; i++ {
		m, ok := g.RandomMove(r)
		if !ok {
			break
		}
		require.NoError(t, g.ApplyMove(m), "a legal move is refused after %d moves", i)
	}
	require.NoError(t, g.CheckInvariants())
	b, err := g.Save()
	require.NoError(t, err)
	_, err = Load(b, g.Deck())
	require.NoError(t, err, "a saved state does not load")
}

// FuzzDeckFile: a deck file (the -deck flag, a server's uploaded deck) is
// either refused with an error or gives a deck whose canonical form parses
// to the same deck, and with which a game starts and plays. The input is
// one card's JSON spliced into the embedded deck (index card of the file),
// so mutations land in the card format and its effect language; card 255
// takes the input as the whole file.
func FuzzDeckFile(f *testing.F) {
	cards := deckCards(f)
	for _, i := range []int{0, 6, 17, 30, 44, 52, len(cards) - 1} {
		f.Add(uint8(i), []byte(cards[i]))
	}
	f.Add(uint8(255), defaultDeckJSON)
	f.Add(uint8(255), []byte(`{"cards": [], "extra": 1}`))
	f.Add(uint8(3), []byte(`{"num":4,"name":"X","op":1,"side":"versailles","effect":{"op":"seq","steps":[]}}`))
	f.Fuzz(func(t *testing.T, card uint8, b []byte) {
		file := b
		if card != 255 {
			file = withCard(cards, int(card)%len(cards), b)
		}
		d, err := ParseDeck(file)
		if err != nil {
			require.NotEmpty(t, err.Error())
			return
		}
		again, err := ParseDeck(d.Canonical())
		require.NoError(t, err, "the canonical form of a valid deck is refused")
		require.Equal(t, d.ID, again.ID, "the canonical form names another deck")
		// One game a deck, so that an input takes milliseconds: two
		// players, either variant, or solo.
		o := []Options{{Variant: Standard, BotSide: NoSide}, {Variant: Censorship, BotSide: NoSide}, {Variant: Standard, BotSide: Commune}}[card%3]
		o.Seed, o.Deck = int64(card), d
		g, err := New(o)
		require.NoError(t, err)
		playSome(t, g, uint64(card), 80)
	})
}

// fixtureStates are the stored states and move logs of the saves of older
// versions under testdata (legacy_*, textmsg_*, pre-census/*).
type fixture struct {
	State   json.RawMessage `json:"state"`
	Moves   json.RawMessage `json:"moves"`
	Seed    int64           `json:"seed"`
	BotSide Side            `json:"botSide"`
	Variant Variant         `json:"variant"`
	Options *struct {
		Variant Variant `json:"variant"`
		Seed    int64   `json:"seed"`
		BotSide Side    `json:"botSide"`
	} `json:"options"`
}

func fixtures(t testing.TB) []fixture {
	t.Helper()
	a, err := filepath.Glob("testdata/*.json")
	require.NoError(t, err)
	b, err := filepath.Glob("testdata/pre-census/*.json")
	require.NoError(t, err)
	var out []fixture
	for _, name := range append(a, b...) {
		raw, err := os.ReadFile(name)
		require.NoError(t, err)
		var fx fixture
		require.NoError(t, json.Unmarshal(raw, &fx), name)
		if fx.Options != nil {
			fx.Seed, fx.BotSide, fx.Variant = fx.Options.Seed, fx.Options.BotSide, fx.Options.Variant
		}
		out = append(out, fx)
	}
	require.NotEmpty(t, out)
	return out
}

// FuzzLoadState: a stored state (a database row, possibly written by an
// older version) either loads or is refused with an error; a loaded game
// saves, loads again to the same state, shows each side its view and
// prompts, and plays on.
func FuzzLoadState(f *testing.F) {
	for _, fx := range fixtures(f) {
		f.Add([]byte(fx.State))
	}
	for _, n := range []int{0, 25, 150} {
		g, _ := randomGame(f, int64(n+1), n)
		b, err := g.Save()
		require.NoError(f, err)
		f.Add(b)
	}
	f.Add([]byte(`{"deckId":"x"}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		d := DefaultDeck()
		if id, err := DeckIDOf(b); err == nil && id != d.ID {
			d = d.Relabel(id) // as the bot does for saves from before canonical deck IDs
		}
		g, err := Load(b, d)
		if err != nil {
			require.NotEmpty(t, err.Error())
			return
		}
		saved, err := g.Save()
		require.NoError(t, err)
		h, err := Load(saved, d)
		require.NoError(t, err, "a loaded state, saved again, does not load")
		again, err := h.Save()
		require.NoError(t, err)
		require.Equal(t, string(saved), string(again))
		for _, side := range []Side{Versailles, Commune, NoSide} {
			v := g.ViewFor(side)
			for _, e := range v.Log {
				_ = e.English(d)
			}
		}
		playSome(t, g, 1, 20)
	})
}

// FuzzMoveLog: a stored move log (each row one Move's JSON, a solo
// opponent's message included) replays or is refused with an error; a
// replayed game's log reads in English and its state round-trips.
func FuzzMoveLog(f *testing.F) {
	for _, fx := range fixtures(f) {
		f.Add(fx.Seed, uint8(fx.BotSide+1), fx.Variant == Censorship, []byte(fx.Moves))
	}
	for _, n := range []int{3, 40} {
		_, moves := randomGame(f, int64(n), n)
		b, err := json.Marshal(moves)
		require.NoError(f, err)
		f.Add(int64(n), uint8(0), false, b)
	}
	f.Add(int64(1), uint8(2), false, []byte(`[{"side":0,"undo":true},{"side":1,"resign":true}]`))
	f.Fuzz(func(t *testing.T, seed int64, bot uint8, censorship bool, b []byte) {
		var moves []Move
		if err := json.Unmarshal(b, &moves); err != nil {
			return
		}
		o := Options{Seed: seed, BotSide: Side(bot%3) - 1}
		if censorship {
			o.Variant = Censorship
		}
		g, err := Replay(o, moves)
		if err != nil {
			require.NotEmpty(t, err.Error())
			return
		}
		require.NoError(t, g.CheckInvariants())
		for _, side := range []Side{Versailles, Commune, NoSide} {
			for _, e := range g.ViewFor(side).Log {
				_ = e.English(g.Deck())
			}
		}
		if r := g.S.Result; r != nil {
			_ = r.English(g.Deck())
		}
		saved, err := g.Save()
		require.NoError(t, err)
		_, err = Load(saved, g.Deck())
		require.NoError(t, err, "a replayed game's state does not load")
	})
}
