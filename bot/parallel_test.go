package bot_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestE2ETestsRunInParallel: every end-to-end test of this package (one
// that starts a fake Discord, a harness or the bot's Run, itself or through
// a helper), and every subtest of it, starts with t.Parallel(). Each has
// its own fake Discord, database and bot (e2e_harness_test.go), so they
// run at once; one that does not would make the package's run as long as
// the sum of its tests again.
func TestE2ETestsRunInParallel(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("*_test.go")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	fset := token.NewFileSet()
	var funcs []*ast.FuncDecl
	for _, f := range files {
		file, err := parser.ParseFile(fset, f, nil, 0)
		require.NoError(t, err)
		for _, d := range file.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv == nil && fn.Body != nil {
				funcs = append(funcs, fn)
			}
		}
	}
	// The functions that start an end-to-end world, directly or through
	// one another, to a fixed point.
	e2e := map[string]bool{}
	for changed := true; changed; {
		changed = false
		for _, fn := range funcs {
			if !e2e[fn.Name.Name] && startsWorld(fn.Body, e2e) {
				e2e[fn.Name.Name], changed = true, true
			}
		}
	}
	tests := 0
	for _, fn := range funcs {
		if !isTestFunc(fn.Name.Name, fn.Type) || !e2e[fn.Name.Name] {
			continue
		}
		tests++
		assert.True(t, startsParallel(fn.Body), "%s: %s does not start with t.Parallel()", fset.Position(fn.Pos()), fn.Name.Name)
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || !isSelector(call.Fun, "t", "Run") || len(call.Args) != 2 {
				return true
			}
			if lit, ok := call.Args[1].(*ast.FuncLit); ok {
				assert.True(t, startsParallel(lit.Body), "%s: a subtest of %s does not start with t.Parallel()",
					fset.Position(lit.Pos()), fn.Name.Name)
			}
			return true
		})
	}
	assert.Greater(t, tests, 50, "the end-to-end tests were found")
}

// startsWorld: body makes a harness (a harness literal), a fake Discord
// (fakediscord.New), runs the bot (bot.Run), or calls a function known
// to.
func startsWorld(body *ast.BlockStmt, known map[string]bool) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CompositeLit:
			if id, ok := n.Type.(*ast.Ident); ok && id.Name == "harness" {
				found = true
			}
		case *ast.CallExpr:
			if id, ok := n.Fun.(*ast.Ident); ok && known[id.Name] {
				found = true
			}
			if isSelector(n.Fun, "fakediscord", "New") || isSelector(n.Fun, "bot", "Run") {
				found = true
			}
		}
		return !found
	})
	return found
}

// isTestFunc: TestXxx(t *testing.T).
func isTestFunc(name string, typ *ast.FuncType) bool {
	if len(name) < 4 || name[:4] != "Test" || typ.Params == nil || len(typ.Params.List) != 1 {
		return false
	}
	star, ok := typ.Params.List[0].Type.(*ast.StarExpr)
	return ok && isSelector(star.X, "testing", "T")
}

func startsParallel(body *ast.BlockStmt) bool {
	if body == nil || len(body.List) == 0 {
		return false
	}
	st, ok := body.List[0].(*ast.ExprStmt)
	if !ok {
		return false
	}
	call, ok := st.X.(*ast.CallExpr)
	return ok && isSelector(call.Fun, "t", "Parallel")
}

func isSelector(e ast.Expr, x, sel string) bool {
	s, ok := e.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	id, ok := s.X.(*ast.Ident)
	return ok && id.Name == x && s.Sel.Name == sel
}
