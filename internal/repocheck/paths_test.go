package repocheck

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The rule, precisely. A tracked file must not mention:
//
//   - the team folder next to the repository: "../shared" (any number of
//     "../" before it);
//   - an absolute path of a development machine: one under /work/,
//     /home/NAME/ or /Users/NAME/ (Linux and macOS home folders), or a
//     Windows drive path such as C:\Users or D:/src.
//
// Such a path counts only where a path can start: at the start of a line
// or after a space, quote, backtick, parenthesis, bracket, "=", "," or ":"
// — so URLs (https://example.org/home/…) and relative paths
// (docs/work/…) are not flagged. System paths that are the same on every
// machine are fine and not matched: /usr/local/go, /tmp, /data and /root
// in the Dockerfile's image, /etc, /dev. A Windows drive path is an
// uppercase drive letter and ":" followed by "\" and an uppercase letter
// (C:\Users), by "\\" (a Go string's C:\\src) or by "/" (D:/src) — so
// "Round A:\n" in a Go string is not one.
//
// Exceptions are listed in allowed with the reason; keep it short.
var outsidePath = regexp.MustCompile(
	`(?:^|[\s"'` + "`" + `(\[=,:])` +
		`(` +
		`(?:\.\./)+shared\b` +
		`|/work/` +
		`|/home/[A-Za-z0-9._-]+/` +
		`|/Users/[A-Za-z0-9._-]+/` +
		`|[A-Z]:(?:\\[A-Z]|\\\\[A-Za-z]|/[A-Za-z])` +
		`)`)

// allowed: file → the paths (prefixes) that may appear there, and why;
// "" allows every path in the file.
var allowed = map[string][]string{
	// This file: the rule's documentation above names what it forbids.
	"internal/repocheck/paths_test.go": {""},
	// Fixtures of the test that recognises a binary built by "go run":
	// the path of such a binary in a home folder's build cache.
	"cmd/rfop/cmd_bot_test.go": {"/home/me/.cache/go-build/"},
}

// TestNoPathOutsideTheRepository: no tracked file points outside the
// repository (issue 16: someone who clones it has no ../shared folder).
func TestNoPathOutsideTheRepository(t *testing.T) {
	root := repoRoot(t)
	files := trackedFiles(t, root)
	require.NotEmpty(t, files)
	checked := 0
	for _, rel := range files {
		b, err := os.ReadFile(filepath.Join(root, rel))
		if errors.Is(err, os.ErrNotExist) {
			continue // deleted in the working tree, not yet committed
		}
		require.NoError(t, err)
		if bytes.IndexByte(b, 0) >= 0 {
			continue // binary: pictures, fonts
		}
		checked++
		for _, hit := range outsidePaths(string(b), allowed[filepath.ToSlash(rel)]) {
			t.Errorf("%s:%d mentions %q, a path outside the repository: link to docs/ or describe it instead", rel, hit.line, hit.text)
		}
	}
	assert.Greater(t, checked, 50, "the check read the repository's text files")
}

type pathHit struct {
	line int
	text string
}

// outsidePaths finds the forbidden paths in text, skipping the allowed
// substrings.
func outsidePaths(text string, allow []string) []pathHit {
	var hits []pathHit
	for i, line := range strings.Split(text, "\n") {
		for _, m := range outsidePath.FindAllStringSubmatchIndex(line, -1) {
			rest := line[m[2]:]
			ok := false
			for _, a := range allow {
				if strings.HasPrefix(rest, a) {
					ok = true
				}
			}
			if !ok {
				hits = append(hits, pathHit{i + 1, line[m[2]:m[3]]})
			}
		}
	}
	return hits
}

func TestOutsidePathRule(t *testing.T) {
	// The fixtures are assembled so that this file does not match itself.
	up, w, h := ".."+"/", "/wo"+"rk/", "/ho"+"me/"
	flagged := []string{
		"see " + up + "shared/spec/cards.md",
		"(`" + up + up + "shared/seeds/001.txt`)",
		"the tables of " + w + "shared/spec/solo.md",
		`path := "` + w + `wt/x"`,
		"cd " + h + "alice/src/rfop",
		"open /Us" + "ers/bob/rfop/README.md",
		`C:` + `\Users\me\rfop`,
		`"C:` + `\\Users\\me"`,
		"D:" + "/src/rfop",
		"at=" + h + "ci/cache/",
	}
	for _, s := range flagged {
		assert.NotEmpty(t, outsidePaths(s, nil), "should be flagged: %s", s)
	}
	fine := []string{
		"https://example.org/home/alice/page",
		"https://discord.com/developers/applications",
		"docs/work/notes.md and a/../shared_thing",
		"the image installs Go in /usr/local/go",
		"-v rfop-data:/data rfop",
		"--mount=type=cache,target=/root/.cache/go-build",
		"RFOP_RENDER_SAMPLES=/tmp/rfop go test ./render/",
		`fmt.Sprintf("Round A:\n")`,
		"time 12:30/45",
		"docs/cards.md",
		"/homework/ and /workshop/",
	}
	for _, s := range fine {
		assert.Empty(t, outsidePaths(s, nil), "should not be flagged: %s", s)
	}
	assert.Empty(t, outsidePaths("x "+h+"me/.cache/go-build/b001", []string{h + "me/.cache/go-build/"}))
}
