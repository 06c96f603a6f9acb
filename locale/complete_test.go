package locale

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/nicksnyder/go-i18n/v2/i18n"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The plural categories each language's integers use (CLDR): a plural
// message must give every one of them.
var requiredForms = map[Lang][]string{
	English: {"one", "other"},
	French:  {"one", "other"},
	Russian: {"one", "few", "many"},
}

func forms(m *i18n.Message) map[string]string {
	out := map[string]string{}
	for k, v := range map[string]string{"zero": m.Zero, "one": m.One, "two": m.Two, "few": m.Few, "many": m.Many, "other": m.Other} {
		if v != "" {
			out[k] = v
		}
	}
	return out
}

var placeholderRE = regexp.MustCompile(`\{\{-?\s*\.([A-Za-z_][A-Za-z0-9_]*)`)

func placeholders(m *i18n.Message) []string {
	set := map[string]bool{}
	for _, f := range forms(m) {
		for _, sub := range placeholderRE.FindAllStringSubmatch(f, -1) {
			set[sub[1]] = true
		}
	}
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func isPlural(m *i18n.Message) bool {
	f := forms(m)
	delete(f, "other")
	return len(f) > 0
}

// Every message exists in all three languages with the same placeholders,
// and plural messages give each language's plural categories.
func TestCatalogueComplete(t *testing.T) {
	require.NoError(t, Err())
	en := catalog[English]
	for _, l := range Langs {
		for id := range catalog[l] {
			assert.Contains(t, en, id, "%s message %q has no English original", l, id)
		}
	}
	ids := make([]string, 0, len(en))
	for id := range en {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		want := placeholders(en[id])
		for _, l := range Langs {
			m, ok := catalog[l][id]
			if !assert.True(t, ok, "message %q missing in %s", id, l) {
				continue
			}
			assert.Equal(t, want, placeholders(m), "message %q: %s placeholders differ from English", id, l)
			if isPlural(en[id]) {
				f := forms(m)
				for _, need := range requiredForms[l] {
					assert.NotEmpty(t, f[need], "plural message %q in %s lacks the %q form", id, l, need)
				}
			}
		}
	}
}

// idRE is the shape of a message id: area.name, the area being a
// catalogue file's name.
var idRE = regexp.MustCompile(`^([a-z]+)\.[a-z0-9][a-z0-9.-]*[a-z0-9]$`)

var notIDSuffix = regexp.MustCompile(`\.(go|json|png|gif|md|sql|txt|db|toml|yaml)$`)

// Every message id written as a literal in the code (outside tests) exists
// in the catalogue. Ids built at run time (a prefix plus a kind) are
// pinned by their own packages' tests.
func TestEveryIDInCodeExists(t *testing.T) {
	require.NoError(t, Err())
	areas := map[string]bool{}
	entries, err := fs.ReadDir(files, "messages/en")
	require.NoError(t, err)
	for _, e := range entries {
		areas[strings.TrimSuffix(e.Name(), ".json")] = true
	}
	root := filepath.Join("..")
	fset := token.NewFileSet()
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); name != ".." && (strings.HasPrefix(name, ".") || name == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			s, err := strconv.Unquote(lit.Value)
			if err != nil || notIDSuffix.MatchString(s) {
				return true
			}
			if m := idRE.FindStringSubmatch(s); m != nil && areas[m[1]] {
				_, ok := catalog[English][s]
				assert.True(t, ok, "%s: message id %q is not in the catalogue", fset.Position(lit.Pos()), s)
			}
			return true
		})
		return nil
	})
	require.NoError(t, err)
}
