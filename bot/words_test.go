package bot

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
	"strings"
	"testing"

	"github.com/rfop/rfop/engine"
	"github.com/rfop/rfop/locale"
	"github.com/rfop/rfop/storage"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// enginePromptKinds reads every PromptKind constant from the engine's
// source, so a kind added there later fails TestEveryPromptKindHasWords.
func enginePromptKinds(t *testing.T) []engine.PromptKind {
	f, err := parser.ParseFile(token.NewFileSet(), "../engine/prompt.go", nil, 0)
	require.NoError(t, err)
	var kinds []engine.PromptKind
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.CONST {
			continue
		}
		for _, spec := range gd.Specs {
			vs := spec.(*ast.ValueSpec)
			if id, ok := vs.Type.(*ast.Ident); !ok || id.Name != "PromptKind" {
				continue
			}
			for _, v := range vs.Values {
				lit, ok := v.(*ast.BasicLit)
				require.True(t, ok)
				s, err := strconv.Unquote(lit.Value)
				require.NoError(t, err)
				kinds = append(kinds, engine.PromptKind(s))
			}
		}
	}
	require.Greater(t, len(kinds), 20, "the PromptKind constants were not found")
	return kinds
}

func TestEveryPromptKindHasWords(t *testing.T) {
	t.Parallel()
	en := locale.For(locale.English)
	for _, k := range enginePromptKinds(t) {
		_, ok := kindWords[k]
		w := decisionWords(en, k)
		if assert.True(t, ok, "no words for prompt kind %q", k) {
			assert.True(t, strings.HasPrefix(w, "to "), "%q: %q completes \"Waiting for X …\"", k, w)
			if strings.Contains(string(k), "-") {
				assert.NotContains(t, w, string(k), "%q: words, not the identifier", k)
			}
		}
	}
	assert.Equal(t, "to decide", decisionWords(en, "some-future-kind"))
	assert.Equal(t, "pour décider", decisionWords(locale.For(locale.French), "some-future-kind"))
}

func TestWaitingTextNamesTheDecisionInWords(t *testing.T) {
	t.Parallel()
	b := New(Deps{})
	rec := storage.Game{ID: 1, Players: []storage.Player{{Side: storage.SideVersailles, UserID: "1"}, {Side: storage.SideCommune, UserID: "2"}}}
	g, err := engine.New(engine.Options{Seed: 1, Variant: engine.Standard, BotSide: engine.NoSide})
	require.NoError(t, err)
	assert.Equal(t, "Waiting for <@1> (Versailles) and <@2> (Commune) to choose an objective.", b.waitingText(rec, g))
	r := newRand(1)
	for g.S.Result == nil {
		w := b.waitingText(rec, g)
		for _, p := range g.Prompts() {
			assert.NotContains(t, w, "("+string(p.Kind)+")")
			assert.Contains(t, w, decisionWords(locale.For(locale.English), p.Kind))
		}
		m, _ := g.RandomMove(r)
		require.NoError(t, g.ApplyMove(m))
	}
}

// Card plays describe the card (OP, colour, event); spaces their pieces.
func TestChoiceDescriptions(t *testing.T) {
	t.Parallel()
	b := New(Deps{})
	en := locale.For(locale.English)
	g, err := engine.New(engine.Options{Seed: 2, Variant: engine.Standard, BotSide: engine.NoSide})
	require.NoError(t, err)
	deck := g.Deck()
	c := deck.Card(31) // Blanquists
	assert.Equal(t, "2 OP · red · MOMENTUM you +1. THEN PLACE up to 1 cube in a Paris space where you are present.",
		b.choiceDescription(en, g, engine.Prompt{Kind: engine.PromptPlay}, engine.Choice{Kind: engine.ChoosePlay, Card: c.Num, Mode: engine.ModeOps}))
	assert.True(t, strings.HasPrefix(b.choiceDescription(en, g, engine.Prompt{Kind: engine.PromptPlay},
		engine.Choice{Kind: engine.ChoosePlay, Card: 31, Mode: engine.ModeDiscardedEvent, N: 16}), "#16's event: REMOVE up to 2"))
	assert.NotContains(t, b.eventText(en, b.Deck, 18), "Known:", "designers' notes are left out")
	assert.NotContains(t, b.eventText(en, b.Deck, 1), "2P ONLY")

	g.S.Cubes[engine.Versailles][engine.Republicans] = 2
	g.S.Cubes[engine.Commune][engine.Republicans] = 1
	g.S.Disc[engine.Republicans] = engine.Commune
	assert.Equal(t, "Versailles 2 · Commune 1 + disc · nobody controls it",
		b.choiceDescription(en, g, engine.Prompt{Side: engine.Commune, Kind: engine.PromptOpsPlace}, engine.Choice{Kind: engine.ChoosePlace, Space: engine.Republicans}))
	g.S.Cubes[engine.Versailles][engine.NationalAssembly] = 1
	assert.Equal(t, "Versailles 1 · Commune 0 · you control it · Pivotal",
		b.choiceDescription(en, g, engine.Prompt{Side: engine.Versailles, Kind: engine.PromptEventPlace}, engine.Choice{Kind: engine.ChoosePlace, Space: engine.NationalAssembly}))
	assert.Contains(t, b.choiceDescription(en, g, engine.Prompt{Side: engine.Commune, Kind: engine.PromptEventRemove}, engine.Choice{Kind: engine.ChooseRemove, Space: engine.NationalAssembly}),
		"Versailles controls it")
	for _, obj := range g.S.ObjOffer[engine.Versailles] {
		d := b.choiceDescription(en, g, engine.Prompt{Kind: engine.PromptObjective}, engine.Choice{Kind: engine.ChooseCard, Card: int(obj)})
		assert.Contains(t, d, deck.Card(int(obj)).Space.String()+": ")
		assert.Contains(t, d, "controls it")
	}
	assert.Empty(t, b.choiceDescription(en, g, engine.Prompt{Kind: engine.PromptSphere}, engine.Choice{Kind: engine.ChooseSphere}))
}

// The descriptions in French and Russian: the edition's words, declined.
func TestChoiceDescriptionsTranslated(t *testing.T) {
	t.Parallel()
	b := New(Deps{})
	g, err := engine.New(engine.Options{Seed: 2, Variant: engine.Standard, BotSide: engine.NoSide})
	require.NoError(t, err)
	g.S.Cubes[engine.Versailles][engine.Republicans] = 2
	g.S.Cubes[engine.Commune][engine.Republicans] = 1
	g.S.Disc[engine.Republicans] = engine.Commune
	g.S.Cubes[engine.Versailles][engine.NationalAssembly] = 1
	for _, tc := range []struct {
		lang                locale.Lang
		card, nobody, other string
	}{
		{locale.French, "2 PO · rouge · ", "Versailles 2 · La Commune 1 + disque · personne ne le contrôle", "Versailles le contrôle"},
		{locale.Russian, "2 ОД · красная · ", "Версаль 2 · Коммуна 1 + диск · никто не контролирует", "под контролем Версаля"},
	} {
		t.Run(string(tc.lang), func(t *testing.T) {
			t.Parallel()
			p := locale.For(tc.lang)
			assert.True(t, strings.HasPrefix(b.choiceDescription(p, g, engine.Prompt{Kind: engine.PromptPlay}, engine.Choice{Kind: engine.ChoosePlay, Card: 31, Mode: engine.ModeOps}), tc.card))
			assert.Equal(t, tc.nobody, b.choiceDescription(p, g, engine.Prompt{Side: engine.Commune, Kind: engine.PromptOpsPlace}, engine.Choice{Kind: engine.ChoosePlace, Space: engine.Republicans}))
			assert.Contains(t, b.choiceDescription(p, g, engine.Prompt{Side: engine.Commune, Kind: engine.PromptEventRemove}, engine.Choice{Kind: engine.ChooseRemove, Space: engine.NationalAssembly}), tc.other)
			assert.NotContains(t, b.eventText(p, b.Deck, 1), "UNIQUEMENT")
			assert.NotContains(t, b.eventText(p, b.Deck, 1), "ТОЛЬКО")
		})
	}
}
