package bot

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/rfop/rfop/engine"
	"github.com/rfop/rfop/storage"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCustomIDRoundTrip(t *testing.T) {
	t.Parallel()
	ids := []customID{
		{Verb: verbTurn, Game: 7},
		{Verb: verbHand, Game: 7},
		{Verb: verbChoose, Game: 12, Version: 34, Side: "commune", Arg: 3},
		{Verb: verbSelect, Game: 12, Version: 0, Side: "versailles", Arg: 1},
		{Verb: verbUndo, Game: 5, Version: 9, Side: "versailles"},
		{Verb: verbAccept, Game: 99},
		{Verb: verbResign, Game: 3, Version: 2, Side: "commune"},
	}
	for _, id := range ids {
		s := id.String()
		assert.LessOrEqual(t, len(s), 100)
		got, err := parseCustomID(s)
		require.NoError(t, err, s)
		assert.Equal(t, id, got)
	}
}

// Forged or malformed custom_ids are rejected before any handler runs.
func TestCustomIDRejectsForgeries(t *testing.T) {
	t.Parallel()
	for _, s := range []string{
		"", "rfop", "rfop/turn", "other/turn/1", "rfop/turn/-1", "rfop/turn/abc",
		"rfop/c/1/2/commune", "rfop/c/1/2/prussia/0", "rfop/c/1/x/commune/0", "rfop/c/1/2/commune/-3",
		"rfop/drop-table/1", "rfop/c/1/2/commune/0/extra", "rfop/turn/1/2", strings.Repeat("9", 120),
	} {
		_, err := parseCustomID(s)
		assert.Error(t, err, "%q should be rejected", s)
	}
}

func TestChainStart(t *testing.T) {
	t.Parallel()
	V, C := engine.Versailles, engine.Commune
	mv := func(sides ...engine.Side) []engine.Move {
		var out []engine.Move
		for _, s := range sides {
			out = append(out, engine.Move{Side: s})
		}
		return out
	}
	assert.Equal(t, 2, chainStart(mv(V, C, V, V, V), engine.NoSide), "the trailing run of Versailles moves")
	assert.Equal(t, 0, chainStart(mv(C), engine.NoSide))
	assert.Equal(t, 1, chainStart(mv(V, C, C, V, V), V), "solo: the player's run and the bot's replies")
}

// Every prompt of random games maps to a panel within Discord's limits.
func TestPanelsRespectDiscordLimits(t *testing.T) {
	t.Parallel()
	b := New(Deps{})
	rec := storage.Game{ID: 1, Players: []storage.Player{{Side: storage.SideVersailles, UserID: "1"}, {Side: storage.SideCommune, UserID: "2"}}}
	seen := map[engine.PromptKind]bool{}
	for seed := int64(1); seed <= 15; seed++ {
		for _, variant := range []engine.Variant{engine.Standard, engine.Censorship} {
			g, err := engine.New(engine.Options{Seed: seed, Variant: variant, BotSide: engine.NoSide})
			require.NoError(t, err)
			r := newRand(seed)
			for g.S.Result == nil {
				for _, p := range g.Prompts() {
					m := b.panel(rec, g, p.Side, "")
					assert.LessOrEqual(t, len([]rune(m.content)), 2000)
					assert.LessOrEqual(t, len(m.comps), maxRows)
					count := 0
					for _, row := range m.comps {
						ar := row.(discordgo.ActionsRow)
						assert.LessOrEqual(t, len(ar.Components), maxButtonsPerRow)
						for _, c := range ar.Components {
							switch c := c.(type) {
							case discordgo.Button:
								assert.LessOrEqual(t, len([]rune(c.Label)), maxButtonLabel)
								assert.LessOrEqual(t, len(c.CustomID), 100)
								if strings.HasPrefix(c.CustomID, "rfop/c/") {
									count++
								}
							case discordgo.SelectMenu:
								assert.LessOrEqual(t, len(c.Options), maxSelectOptions)
								count += len(c.Options)
								for _, o := range c.Options {
									assert.LessOrEqual(t, len([]rune(o.Label)), maxOptionLabel)
									assert.LessOrEqual(t, len([]rune(o.Description)), maxOptionLabel)
									if p.Kind == engine.PromptPlay || p.Kind == engine.PromptObjective || p.Kind == engine.PromptFCDiscard {
										assert.NotEmpty(t, o.Description, "%s: %q has a description", p.Kind, o.Label)
									}
								}
							}
						}
					}
					assert.Equal(t, len(p.Choices), count, "every choice of %s is reachable", p.Kind)
					seen[p.Kind] = true
				}
				m, _ := g.RandomMove(r)
				require.NoError(t, g.ApplyMove(m))
			}
		}
	}
	for _, k := range []engine.PromptKind{engine.PromptObjective, engine.PromptFCDiscard, engine.PromptFCPlay, engine.PromptFCDecide, engine.PromptFreeCube} {
		assert.True(t, seen[k], "%s was exercised", k)
	}
	t.Logf("prompt kinds exercised: %d", len(seen))
}

// Every custom_id the code builds is of a kind in idKinds, so that the
// end-to-end walk of every kind (EveryCustomID) cannot miss one: the
// composite literals customID{Verb: …} of the package's code are checked.
func TestEveryEmittedIDKindIsKnown(t *testing.T) {
	t.Parallel()
	fset := token.NewFileSet()
	names, err := filepath.Glob("*.go")
	require.NoError(t, err)
	var files []*ast.File
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		require.NoError(t, err)
		files = append(files, f)
	}
	verbs := map[string]string{} // constant name → value
	for _, f := range files {
		for _, d := range f.Decls {
			if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.CONST {
				for _, spec := range g.Specs {
					vs := spec.(*ast.ValueSpec)
					for k, name := range vs.Names {
						if k < len(vs.Values) && strings.HasPrefix(name.Name, "verb") {
							if lit, ok := vs.Values[k].(*ast.BasicLit); ok {
								verbs[name.Name], _ = strconv.Unquote(lit.Value)
							}
						}
					}
				}
			}
		}
	}
	require.NotEmpty(t, verbs)
	for name, v := range verbs {
		_, ok := idKinds[v]
		assert.True(t, ok, "%s (%q) is not in idKinds", name, v)
	}
	built := 0
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			cl, ok := n.(*ast.CompositeLit)
			if !ok {
				return true
			}
			if id, ok := cl.Type.(*ast.Ident); !ok || id.Name != "customID" {
				return true
			}
			for _, e := range cl.Elts {
				kv, ok := e.(*ast.KeyValueExpr)
				if !ok || kv.Key.(*ast.Ident).Name != "Verb" {
					continue
				}
				id, ok := kv.Value.(*ast.Ident)
				if !ok && filepath.Base(fset.Position(kv.Pos()).Filename) == "ids.go" {
					continue // parseCustomID reads one
				}
				built++
				if !assert.True(t, ok, "%s: a custom_id's verb is a verb constant", fset.Position(kv.Pos())) {
					continue
				}
				_, known := verbs[id.Name]
				assert.True(t, known, "%s: %s is not a verb constant", fset.Position(kv.Pos()), id.Name)
			}
			return true
		})
	}
	assert.Greater(t, built, 10, "the code's id builders were found")
	assert.Len(t, EveryCustomID(1, 2, "commune"), len(idKinds))
}
