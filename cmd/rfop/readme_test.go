package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const ciMarker = "<!-- ci:test-command -->"

// readmeTestCommand returns the command the README gives under the marker
// (the first line inside the fenced block that follows it).
func readmeTestCommand(t *testing.T, readme string) string {
	t.Helper()
	i := strings.Index(readme, ciMarker)
	require.GreaterOrEqual(t, i, 0, "README.md has no %s marker", ciMarker)
	lines := strings.Split(readme[i:], "\n")
	require.GreaterOrEqual(t, len(lines), 3)
	require.True(t, strings.HasPrefix(lines[1], "```"), "a fenced block follows the marker")
	return strings.TrimSpace(lines[2])
}

// TestCIRunsTheREADMETestCommand: .ci/run executes exactly the command the
// README tells developers to run (it reads it from the README by the same
// marker), and that command runs the Go tests.
func TestCIRunsTheREADMETestCommand(t *testing.T) {
	root := filepath.Join("..", "..")
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	require.NoError(t, err)
	ci, err := os.ReadFile(filepath.Join(root, ".ci", "run"))
	require.NoError(t, err)
	cmd := readmeTestCommand(t, string(readme))
	assert.True(t, strings.HasPrefix(cmd, "go test "), "the README's test command is a go test command: %q", cmd)
	assert.Contains(t, cmd, "./...", "it covers every package")
	assert.Contains(t, string(ci), ciMarker, ".ci/run reads the command from the README")
	assert.Contains(t, string(ci), `eval "$cmd"`, ".ci/run runs exactly that command")
	assert.Equal(t, 1, strings.Count(string(readme), ciMarker), "one test command in the README")
}
