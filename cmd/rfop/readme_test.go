package main

import (
	"errors"
	"os"
	"os/exec"
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
	t.Parallel()
	root := filepath.Join("..", "..")
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	require.NoError(t, err)
	ci, err := os.ReadFile(filepath.Join(root, ".ci", "run"))
	require.NoError(t, err)
	cmd := readmeTestCommand(t, string(readme))
	assert.Contains(t, cmd, "go test ", "the README's test command runs the Go tests: %q", cmd)
	assert.Contains(t, cmd, "./...", "it covers every package")
	assert.Contains(t, string(ci), ciMarker, ".ci/run reads the command from the README")
	assert.Contains(t, string(ci), `eval "$cmd"`, ".ci/run runs exactly that command")
	assert.Equal(t, 1, strings.Count(string(readme), ciMarker), "one test command in the README")
}

// stubGo is a fake go command for .ci/run: it logs its arguments, one
// invocation per line, and fails "go test" with $STUB_GO_TEST_EXIT.
const stubGo = `#!/bin/sh
echo "go $*" >>"$STUB_GO_LOG"
if [ "$1" = test ]; then exit "${STUB_GO_TEST_EXIT:-0}"; fi
exit 0
`

// ciCheckout copies README.md and .ci/run into a temporary checkout and
// returns its root and a PATH whose go is stubGo.
func ciCheckout(t *testing.T) (root, path string) {
	t.Helper()
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	src := filepath.Join("..", "..")
	root = t.TempDir()
	require.NoError(t, os.Mkdir(filepath.Join(root, ".ci"), 0o755))
	for _, f := range []string{"README.md", filepath.Join(".ci", "run")} {
		b, err := os.ReadFile(filepath.Join(src, f))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(root, f), b, 0o755))
	}
	bin := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(bin, "go"), []byte(stubGo), 0o755))
	return root, bin + string(os.PathListSeparator) + os.Getenv("PATH")
}

// TestCIRunsExactlyTheREADMECommand runs .ci/run (with a stub go that
// records its calls) and checks that what it runs after warming the caches
// is exactly the README's test command, in order, and that a failing test
// run makes .ci/run fail.
func TestCIRunsExactlyTheREADMECommand(t *testing.T) {
	t.Parallel()
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	require.NoError(t, err)
	cmd := readmeTestCommand(t, string(readme))
	// The command is go invocations joined by &&; the stub sees them with
	// the shell's quotes removed.
	var want []string
	for _, part := range strings.Split(cmd, "&&") {
		part = strings.Join(strings.Fields(strings.ReplaceAll(strings.TrimSpace(part), "'", "")), " ")
		require.True(t, strings.HasPrefix(part, "go "), "%q is not a go command", part)
		want = append(want, part)
	}

	// A failing go test stops the && chain: what runs is everything up to
	// and including the first go test.
	firstTest := 0
	for firstTest < len(want) && !strings.HasPrefix(want[firstTest], "go test") {
		firstTest++
	}
	require.Less(t, firstTest, len(want), "the README's command runs go test")
	for _, tc := range []struct {
		name     string
		testExit string
		wantExit int
		wantRun  []string // the README's commands that run
	}{
		{"tests pass", "0", 0, want},
		{"first go test fails", "3", 3, want[:firstTest+1]},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root, path := ciCheckout(t)
			log := filepath.Join(t.TempDir(), "go.log")
			run := func(args ...string) (string, error) {
				c := exec.Command("bash", append([]string{filepath.Join(root, ".ci", "run")}, args...)...)
				c.Env = append(os.Environ(), "PATH="+path, "STUB_GO_LOG="+log, "STUB_GO_TEST_EXIT="+tc.testExit)
				out, err := c.CombinedOutput()
				return string(out), err
			}

			out, err := run("--print-command")
			require.NoError(t, err, out)
			require.Equal(t, cmd+"\n", out, "--print-command prints the README's command")
			_, statErr := os.Stat(log)
			require.True(t, errors.Is(statErr, os.ErrNotExist), "--print-command runs nothing")

			out, err = run()
			if tc.wantExit == 0 {
				require.NoError(t, err, out)
			} else {
				var ee *exec.ExitError
				require.ErrorAs(t, err, &ee, out)
				require.Equal(t, tc.wantExit, ee.ExitCode(), out)
			}
			b, err := os.ReadFile(log)
			require.NoError(t, err)
			calls := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
			require.GreaterOrEqual(t, len(calls), len(tc.wantRun), "calls: %q", calls)
			warm, ran := calls[:len(calls)-len(tc.wantRun)], calls[len(calls)-len(tc.wantRun):]
			require.Equal(t, tc.wantRun, ran, "after warming, .ci/run runs the README's command and nothing else")
			for _, c := range warm {
				require.False(t, strings.HasPrefix(c, "go test") || strings.HasPrefix(c, "go vet"),
					"warming %q is a gate the README's command does not have", c)
			}
			require.Contains(t, out, "+ "+cmd)
		})
	}
}

// TestREADMEListsEveryFuzzTarget: the README's "Fuzzing" table names every
// fuzz target of the module with its package, so a new one is documented
// where contributors look for how to fuzz.
func TestREADMEListsEveryFuzzTarget(t *testing.T) {
	t.Parallel()
	root := filepath.Join("..", "..")
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	require.NoError(t, err)
	found := 0
	err = filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		pkg, err := filepath.Rel(root, filepath.Dir(path))
		if err != nil {
			return err
		}
		for _, line := range strings.Split(string(src), "\n") {
			name, ok := strings.CutPrefix(line, "func Fuzz")
			if !ok || !strings.Contains(name, "(f *testing.F)") {
				continue
			}
			name = "Fuzz" + name[:strings.Index(name, "(")]
			found++
			assert.Contains(t, string(readme), "| `"+name+"` | `"+filepath.ToSlash(pkg)+"` |", "README's Fuzzing table lacks %s (%s)", name, pkg)
		}
		return nil
	})
	require.NoError(t, err)
	assert.GreaterOrEqual(t, found, 9, "the fuzz targets were found")
}
