package locale

import (
	"bytes"
	"encoding/json"
	"os"
	"sort"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rfop/rfop/engine"
)

// writeCatalogue writes a message file with sorted ids: plain strings, and
// {"one", "other"} objects for plurals.
func writeCatalogue(t *testing.T, path string, single map[string]string, plural map[string][2]string) {
	t.Helper()
	ids := make([]string, 0, len(single)+len(plural))
	for id := range single {
		ids = append(ids, id)
	}
	for id := range plural {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	var b bytes.Buffer
	b.WriteString("{\n")
	for i, id := range ids {
		k, _ := json.Marshal(id)
		var v []byte
		if f, ok := plural[id]; ok {
			one, _ := json.Marshal(f[0])
			other, _ := json.Marshal(f[1])
			v = []byte(`{"one": ` + string(one) + `, "other": ` + string(other) + `}`)
		} else {
			v = mustJSON(single[id])
		}
		b.WriteString("  " + string(k) + ": " + string(v))
		if i < len(ids)-1 {
			b.WriteString(",")
		}
		b.WriteString("\n")
	}
	b.WriteString("}\n")
	require.NoError(t, os.WriteFile(path, b.Bytes(), 0o644))
}

func mustJSON(s string) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return bytes.TrimSpace(b.Bytes())
}

// The engine's English (its own rendering, LogEntry.English and errors) is
// the catalogue's English for the engine area, word for word. With
// RFOP_WRITE_EN=1 the test writes messages/en/engine.json and
// messages/en/cards.json from the engine instead.
func TestEngineEnglishIsTheCatalogue(t *testing.T) {
	single, plural := engine.EnglishMessages()
	cardsSingle := map[string]string{}
	for _, c := range engine.DefaultDeck().Cards() {
		cardsSingle["cards."+strconv.Itoa(c.Num)+".name"] = c.Name
		cardsSingle["cards."+strconv.Itoa(c.Num)+".text"] = c.Text
	}
	if os.Getenv("RFOP_WRITE_EN") == "1" {
		writeCatalogue(t, "messages/en/engine.json", single, plural)
		writeCatalogue(t, "messages/en/cards.json", cardsSingle, nil)
		t.Skip("wrote the English engine and cards catalogues")
	}
	require.NoError(t, Err())
	en := catalog[English]
	for id, text := range single {
		m, ok := en[id]
		if assert.True(t, ok, "engine message %q is not in the catalogue", id) {
			assert.Equal(t, text, m.Other, id)
			assert.False(t, isPlural(m), "%s is plural in the catalogue, not in the engine", id)
		}
	}
	for id, f := range plural {
		m, ok := en[id]
		if assert.True(t, ok, "engine message %q is not in the catalogue", id) {
			assert.Equal(t, f[0], m.One, id)
			assert.Equal(t, f[1], m.Other, id)
		}
	}
	for id := range en {
		if len(id) > 7 && id[:7] == "engine." {
			_, a := single[id]
			_, b := plural[id]
			assert.True(t, a || b, "catalogue message %q is not one of the engine's", id)
		}
	}
	for id, text := range cardsSingle {
		m, ok := en[id]
		if assert.True(t, ok, id) {
			assert.Equal(t, text, m.Other, id)
		}
	}
}
