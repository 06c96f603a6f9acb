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

// TestE2ETestsRunInParallel: every test of this package, and every
// subtest, starts with t.Parallel(). Each end-to-end test has its own fake
// Discord, database and bot (e2e_harness_test.go), so they run at once; one
// that does not would make the package's run as long as the sum of its
// tests again.
func TestE2ETestsRunInParallel(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("*_test.go")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	fset := token.NewFileSet()
	for _, f := range files {
		file, err := parser.ParseFile(fset, f, nil, 0)
		require.NoError(t, err)
		for _, d := range file.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv != nil || !isTestFunc(fn.Name.Name, fn.Type) {
				continue
			}
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
	}
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
