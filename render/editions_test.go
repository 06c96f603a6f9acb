package render

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rfop/rfop/engine"
	"github.com/rfop/rfop/glossary"
	"github.com/rfop/rfop/locale"
)

var (
	editionMu        sync.Mutex
	editionRenderers = map[glossary.Lang]*Renderer{}
)

func editionRenderer(t testing.TB, l glossary.Lang) *Renderer {
	t.Helper()
	editionMu.Lock()
	defer editionMu.Unlock()
	if r, ok := editionRenderers[l]; ok {
		return r
	}
	r, err := NewFor(nil, l)
	require.NoError(t, err)
	editionRenderers[l] = r
	return r
}

// Golden boards and hands in the French and Russian editions: captions,
// labels, zone headers, card names and texts in the language (reviewed by
// eye: labels fit, nothing overlaps). The views are games whose log speaks
// in messages (testdata/msg_*.json; -update replays them).
func TestGoldenEditions(t *testing.T) {
	for _, l := range []glossary.Lang{glossary.French, glossary.Russian} {
		r := editionRenderer(t, l)
		for _, gc := range []goldenCase{{"midgame_seed1_60", 1, 60}, {"finished_seed3", 3, 10000}} {
			t.Run(string(l)+"_"+gc.name, func(t *testing.T) {
				jsonPath := filepath.Join("testdata", "msg_"+gc.name+".json")
				var gv goldenViews
				if *update {
					v, prev, _ := playTo(t, gc.seed, gc.after)
					trimLog(&v)
					trimLog(prev)
					gv = goldenViews{View: v, Prev: prev}
					b, err := json.MarshalIndent(gv, "", " ")
					require.NoError(t, err)
					require.NoError(t, os.WriteFile(jsonPath, b, 0o644))
				} else {
					b, err := os.ReadFile(jsonPath)
					require.NoError(t, err, "missing golden view; run go test ./render/ -update")
					require.NoError(t, json.Unmarshal(b, &gv))
				}
				got, err := r.RenderBoard(&gv.View, gv.Prev, r.Caption(&gv.View))
				require.NoError(t, err)
				checkGoldenPNG(t, filepath.Join("testdata", string(l)+"_"+gc.name+".png"), got)
			})
		}
		for _, tc := range []struct {
			name string
			v    *engine.View
		}{
			{"hand", handView(engine.Commune, 2, []int8{11, 18, 35}, []int8{9}, nil, 48, true)},
			{"hand_deal", handView(engine.Versailles, 1, []int8{2, 13, 29, 40}, nil, []int8{42, 51}, 0, true)},
			// The longest space and dimension names on an objective
			// ("Mouvements Sociaux", "Opinion Publique"; "Рабочее движение",
			// "Общественное мнение"): they once overlapped on one line.
			{"hand_offer", handView(engine.Commune, 1, []int8{5, 21, 24, 38}, nil, []int8{50, 46}, 0, true)},
		} {
			t.Run(string(l)+"_"+tc.name, func(t *testing.T) {
				got, err := r.RenderHand(tc.v)
				require.NoError(t, err)
				checkGoldenPNG(t, filepath.Join("testdata", string(l)+"_"+tc.name+".png"), got)
			})
		}
	}
}

// The caption speaks the renderer's language: the round, the last card
// played in the past tense and who decides.
func TestCaptionInEditions(t *testing.T) {
	v, _, g := playTo(t, 1, 60)
	en := DefaultCaption(&v)
	fr := editionRenderer(t, glossary.French).Caption(&v)
	ru := editionRenderer(t, glossary.Russian).Caption(&v)
	assert.NotEqual(t, en, fr)
	assert.NotEqual(t, en, ru)
	assert.Regexp(t, `^(Manche \d|Crise Finale)`, fr)
	assert.Regexp(t, `^(Раунд \d|Решительный бой)`, ru)
	assert.NotRegexp(t, `\p{Latin}+ \p{Latin}+`, ru, "no English left: %s", ru)
	assert.Equal(t, caption(locale.For(locale.English), g.Deck(), &v), en)
}
