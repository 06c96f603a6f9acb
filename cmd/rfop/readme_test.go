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

// The suite as the README gives it: a script, so that its two test runs
// can go side by side (scripts/test says why).
const testScript = "scripts/test"

// The go commands scripts/test runs: vet first, then both test runs.
var (
	suiteVet   = "go vet ./..."
	suitePlain = "go test -count=1 -timeout 30m ./..."
	suiteRace  = "go test -count=1 -timeout 30m -race ./storage/... ./bot/..."
)

// TestCIRunsTheREADMETestCommand: .ci/run executes exactly the command the
// README tells developers to run (it reads it from the README by the same
// marker), and that command is the suite's script.
func TestCIRunsTheREADMETestCommand(t *testing.T) {
	t.Parallel()
	root := filepath.Join("..", "..")
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	require.NoError(t, err)
	ci, err := os.ReadFile(filepath.Join(root, ".ci", "run"))
	require.NoError(t, err)
	cmd := readmeTestCommand(t, string(readme))
	assert.Equal(t, testScript, cmd, "the README's test command is the suite's script")
	assert.Contains(t, string(ci), ciMarker, ".ci/run reads the command from the README")
	assert.Contains(t, string(ci), `eval "$cmd"`, ".ci/run runs exactly that command")
	assert.Equal(t, 1, strings.Count(string(readme), ciMarker), "one test command in the README")
}

// stubGo is a fake go command for .ci/run and scripts/test: it logs its
// arguments, one invocation per line, and exits with $STUB_GO_VET_EXIT
// for go vet, $STUB_GO_RACE_EXIT for a go test with -race and
// $STUB_GO_TEST_EXIT for another go test.
const stubGo = `#!/bin/sh
echo "go $*" >>"$STUB_GO_LOG"
case "$1" in
vet) exit "${STUB_GO_VET_EXIT:-0}" ;;
test)
	case " $* " in
	*" -race "*) exit "${STUB_GO_RACE_EXIT:-0}" ;;
	*) exit "${STUB_GO_TEST_EXIT:-0}" ;;
	esac ;;
esac
exit 0
`

// ciCheckout copies README.md, .ci/run and scripts/test into a temporary
// checkout and returns its root and a PATH whose go is stubGo.
func ciCheckout(t *testing.T) (root, path string) {
	t.Helper()
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	src := filepath.Join("..", "..")
	root = t.TempDir()
	for _, d := range []string{".ci", "scripts"} {
		require.NoError(t, os.Mkdir(filepath.Join(root, d), 0o755))
	}
	for _, f := range []string{"README.md", filepath.Join(".ci", "run"), filepath.FromSlash(testScript)} {
		b, err := os.ReadFile(filepath.Join(src, f))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(root, f), b, 0o755))
	}
	bin := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(bin, "go"), []byte(stubGo), 0o755))
	return root, bin + string(os.PathListSeparator) + os.Getenv("PATH")
}

// TestCIRunsExactlyTheREADMECommand runs .ci/run (with a stub go that
// records its calls): after warming the caches it runs the README's
// command and nothing else, that is go vet and then both test runs, and
// it fails when any of them fails (a failed vet runs no test; a failed
// test run still lets the other finish).
func TestCIRunsExactlyTheREADMECommand(t *testing.T) {
	t.Parallel()
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	require.NoError(t, err)
	cmd := readmeTestCommand(t, string(readme))
	for _, tc := range []struct {
		name      string
		env       []string
		wantExit  int
		wantTests bool // both test runs happen after vet
	}{
		{"everything passes", nil, 0, true},
		{"vet fails", []string{"STUB_GO_VET_EXIT=4"}, 4, false},
		{"the plain run fails", []string{"STUB_GO_TEST_EXIT=3"}, 3, true},
		{"the race run fails", []string{"STUB_GO_RACE_EXIT=5"}, 5, true},
		{"both fail", []string{"STUB_GO_TEST_EXIT=3", "STUB_GO_RACE_EXIT=5"}, 3, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			root, path := ciCheckout(t)
			log := filepath.Join(t.TempDir(), "go.log")
			run := func(args ...string) (string, error) {
				c := exec.Command("bash", append([]string{filepath.Join(root, ".ci", "run")}, args...)...)
				c.Env = append(append(os.Environ(), "PATH="+path, "STUB_GO_LOG="+log), tc.env...)
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
			require.Contains(t, out, "+ "+cmd)
			b, err := os.ReadFile(log)
			require.NoError(t, err)
			calls := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
			i := 0
			for i < len(calls) && calls[i] != suiteVet {
				require.False(t, strings.HasPrefix(calls[i], "go test") || strings.HasPrefix(calls[i], "go vet"),
					"warming %q is a gate the README's command does not have", calls[i])
				i++
			}
			require.Less(t, i, len(calls), "go vet runs: %q", calls)
			suite := calls[i+1:]
			if !tc.wantTests {
				require.Empty(t, suite, "nothing runs after a failed vet")
				return
			}
			// The two runs start in either order.
			require.ElementsMatch(t, []string{suitePlain, suiteRace}, suite, "after vet, the two test runs and nothing else")
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
