package glossary

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTermsDocListsEveryTerm: docs/terms.md shows players every term the
// bot replaces, with the French and Russian words of this table, so the
// page and the package cannot drift apart.
func TestTermsDocListsEveryTerm(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "docs", "terms.md"))
	require.NoError(t, err)
	rows := map[string]bool{}
	for _, line := range strings.Split(string(b), "\n") {
		cells := strings.Split(line, " | ")
		if len(cells) >= 3 && strings.HasPrefix(line, "| ") {
			rows[strings.TrimPrefix(cells[0], "| ")+"\x00"+cells[1]+"\x00"+cells[2]] = true
		}
	}
	for _, tm := range table {
		assert.True(t, rows[tm.en+"\x00"+tm.fr+"\x00"+tm.ru], "docs/terms.md has no row | %s | %s | %s |", tm.en, tm.fr, tm.ru)
	}
}
