package engine

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// defaultDeckFile is the embedded deck as the file structure, to mutate.
func defaultDeckFile(t *testing.T) deckFile {
	t.Helper()
	var d deckFile
	require.NoError(t, json.Unmarshal(defaultDeckJSON, &d))
	return d
}

func parseFile(t *testing.T, d deckFile) (*Deck, error) {
	t.Helper()
	b, err := json.Marshal(d)
	require.NoError(t, err)
	return ParseDeck(b)
}

// A deck's identity is its parsed, canonical form: reformatting the file
// (whitespace, key order, card order) keeps it, so saved games keep
// playing; any change to a card changes it (issue 18).
func TestDeckIDIgnoresFormatting(t *testing.T) {
	base := DefaultDeck()
	require.Len(t, base.ID, 16)

	var indented bytes.Buffer
	require.NoError(t, json.Indent(&indented, defaultDeckJSON, "", "\t\t"))
	var compact bytes.Buffer
	require.NoError(t, json.Compact(&compact, defaultDeckJSON))

	// Key order: decode into maps and re-encode (encoding/json sorts map
	// keys alphabetically, unlike the file's order).
	var generic map[string]any
	require.NoError(t, json.Unmarshal(defaultDeckJSON, &generic))
	sortedKeys, err := json.Marshal(generic)
	require.NoError(t, err)

	// Card order: reversed.
	rev := defaultDeckFile(t)
	for i, j := 0, len(rev.Cards)-1; i < j; i, j = i+1, j-1 {
		rev.Cards[i], rev.Cards[j] = rev.Cards[j], rev.Cards[i]
	}
	reversed, err := json.Marshal(rev)
	require.NoError(t, err)

	for name, b := range map[string][]byte{
		"added newline": append(append([]byte(nil), defaultDeckJSON...), '\n'),
		"indented":      indented.Bytes(),
		"compact":       compact.Bytes(),
		"key order":     sortedKeys,
		"card order":    reversed,
		"canonical":     base.Canonical(),
	} {
		t.Run(name, func(t *testing.T) {
			d, err := ParseDeck(b)
			require.NoError(t, err)
			assert.Equal(t, base.ID, d.ID)
			assert.Equal(t, base.Canonical(), d.Canonical())
		})
	}

	edited := defaultDeckFile(t)
	edited.Cards[4].Text += " Edited."
	d, err := parseFile(t, edited)
	require.NoError(t, err)
	assert.NotEqual(t, base.ID, d.ID, "a card's text is part of the identity")

	edited = defaultDeckFile(t)
	if edited.Cards[0].OP == 1 {
		edited.Cards[0].OP = 2
	} else {
		edited.Cards[0].OP = 1
	}
	d, err = parseFile(t, edited)
	require.NoError(t, err)
	assert.NotEqual(t, base.ID, d.ID, "a card's numbers are part of the identity")
}

// A game saved with a deck loads only with that deck; Relabel lets a
// caller give a game saved under an older identity the cards it decided
// on, and DeckIDOf reads the identity a state names.
func TestLoadChecksDeckIdentity(t *testing.T) {
	g, err := New(Options{Seed: 3})
	require.NoError(t, err)
	state, err := g.Save()
	require.NoError(t, err)
	id, err := DeckIDOf(state)
	require.NoError(t, err)
	assert.Equal(t, DefaultDeck().ID, id)

	var m map[string]any
	require.NoError(t, json.Unmarshal(state, &m))
	m["deckId"] = "0123456789abcdef" // a pre-canonical (file bytes) id
	old, err := json.Marshal(m)
	require.NoError(t, err)
	_, err = Load(old, nil)
	require.ErrorContains(t, err, "started with deck 0123456789abcdef")
	for _, bad := range []string{"", "[1]", `{"variant":`, `{"deckId": 3}`} {
		_, err := DeckIDOf([]byte(bad))
		assert.Error(t, err, bad)
	}
	none, err := DeckIDOf([]byte(`{"variant":"standard","seed":1}`))
	require.NoError(t, err)
	assert.Empty(t, none)
	relabelled := DefaultDeck().Relabel("0123456789abcdef")
	_, err = Load(old, relabelled)
	require.NoError(t, err)
	assert.Equal(t, id, DefaultDeck().ID, "Relabel leaves the original deck alone")
}

// Deck limits (issue 18): file size, name and text lengths, effect depth
// and size, each refused with the card and field at fault.
func TestDeckLimits(t *testing.T) {
	nest := func(levels int) *EffectJSON {
		e := &EffectJSON{Op: "draw", N: 1}
		for k := 1; k < levels; k++ {
			e = &EffectJSON{Op: "then", Steps: []*EffectJSON{e, {Op: "draw", N: 1}}}
		}
		return e
	}
	wide := func(steps int) *EffectJSON {
		e := &EffectJSON{Op: "then"}
		for k := 0; k < steps; k++ {
			e.Steps = append(e.Steps, &EffectJSON{Op: "draw", N: 1})
		}
		return e
	}
	tests := []struct {
		name   string
		mutate func(d *deckFile)
		want   string
	}{
		{"name too long", func(d *deckFile) { d.Cards[0].Name = strings.Repeat("n", MaxCardNameRunes+1) }, `card #1 "` + strings.Repeat("n", MaxCardNameRunes+1) + `": field name: 61 characters; at most 60`},
		{"text too long", func(d *deckFile) { d.Cards[1].Text = strings.Repeat("é", MaxCardTextRunes+1) }, "field text: 1001 characters; at most 1000"},
		{"effect too deep", func(d *deckFile) { d.Cards[2].Effect = nest(MaxEffectDepth + 1) }, "nest deeper than 6 levels"},
		{"effect too large", func(d *deckFile) { d.Cards[3].Effect = wide(MaxEffectNodes) }, "at most 64 steps"},
		{"null step", func(d *deckFile) {
			d.Cards[3].Effect = &EffectJSON{Op: "then", Steps: []*EffectJSON{nil, {Op: "draw", N: 1}}}
		}, "field effect.steps[0]: null"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := defaultDeckFile(t)
			tc.mutate(&d)
			_, err := parseFile(t, d)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
	t.Run("limits allow the deepest and largest effects", func(t *testing.T) {
		d := defaultDeckFile(t)
		d.Cards[2].Effect = nest(MaxEffectDepth)
		d.Cards[0].Name = strings.Repeat("n", MaxCardNameRunes)
		_, err := parseFile(t, d)
		require.NoError(t, err)
	})
	t.Run("bytes", func(t *testing.T) {
		_, err := ParseDeck(make([]byte, MaxDeckBytes+1))
		require.ErrorContains(t, err, "at most 1048576 bytes (1 MiB)")
	})
}

// An oversized deck file is refused before it is read: less than 1 MiB of
// it read and 100 MB allocated (issue 18: a 105 MB file took 2.3 GB and
// 12 s, reading and parsing it). The bytes read stand for the 12 s, which
// a busy machine could stretch to any time (issue 25): they are what
// took the time. Not parallel, so that the process's counters are this
// test's.
func TestOversizedDeckFileRefusedEarly(t *testing.T) {
	path := filepath.Join(t.TempDir(), "huge.json")
	f, err := os.Create(path)
	require.NoError(t, err)
	// 105 MB of a plausible start; sparse where the file system allows.
	_, err = f.WriteString(`{"cards": [{"num": 1, "name": "`)
	require.NoError(t, err)
	require.NoError(t, f.Truncate(105<<20))
	require.NoError(t, f.Close())

	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	readBefore, counted := bytesRead(t)
	_, err = LoadDeckFile(path)
	readAfter, _ := bytesRead(t)
	runtime.ReadMemStats(&after)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "a deck may have at most 1048576 bytes")
	if counted {
		assert.Less(t, readAfter-readBefore, uint64(MaxDeckBytes), "bytes read before the refusal")
	}
	assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(100<<20))

	// A file that is small at Stat time but is read through a limit
	// anyway: one just over the limit is refused by ParseDeck's check.
	require.NoError(t, os.WriteFile(path, bytes.Repeat([]byte(" "), MaxDeckBytes+1), 0o644))
	_, err = LoadDeckFile(path)
	require.ErrorContains(t, err, "at most 1048576")
}

// bytesRead is the bytes this process has read (Linux's /proc/self/io
// rchar); counted is false where there is no such file.
func bytesRead(t *testing.T) (n uint64, counted bool) {
	t.Helper()
	b, err := os.ReadFile("/proc/self/io")
	if err != nil {
		return 0, false
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "rchar: "); ok {
			n, err := strconv.ParseUint(strings.TrimSpace(v), 10, 64)
			require.NoError(t, err)
			return n, true
		}
	}
	return 0, false
}
