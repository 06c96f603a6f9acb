package repocheck

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// deckCard is what docs/cards.md must agree with in engine/cards.json.
type deckCard struct {
	Num         int             `json:"num"`
	Name        string          `json:"name"`
	Side        string          `json:"side"`
	OP          int             `json:"op"`
	FinalCrisis bool            `json:"finalCrisis"`
	Space       string          `json:"space"`
	Status      string          `json:"status"`
	Effect      json.RawMessage `json:"effect"`
}

func readDeck(t *testing.T, root string) []deckCard {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, "engine", "cards.json"))
	require.NoError(t, err)
	var f struct {
		Cards []deckCard `json:"cards"`
	}
	require.NoError(t, json.Unmarshal(b, &f))
	require.Len(t, f.Cards, 53)
	return f.Cards
}

var spaceNames = map[string]string{
	"royalists": "Royalists", "national_assembly": "National Assembly", "republicans": "Republicans",
	"catholic_church": "Catholic Church", "press": "Press", "social_movements": "Social Movements",
	"mont_valerien": "Mont-Valérien", "fort_issy": "Fort d'Issy", "chateau_vincennes": "Château de Vincennes",
	"butte_montmartre": "Butte Montmartre", "butte_aux_cailles": "Butte-aux-Cailles", "pere_lachaise": "Père Lachaise",
}

// summaryRow is how the card appears in docs/cards.md's table.
func summaryRow(c deckCard) string {
	side, op := strings.ToUpper(c.Side[:1])+c.Side[1:], strconv.Itoa(c.OP)
	if c.FinalCrisis {
		side += ", Final Crisis"
	}
	if c.Side == "objective" {
		side, op = "Objective ("+spaceNames[c.Space]+")", "—"
	}
	return fmt.Sprintf("| %d | %s | %s | %s | %s |", c.Num, c.Name, side, op, c.Status)
}

// TestCardsDocMatchesTheDeck: docs/cards.md lists every card of
// engine/cards.json with its number, name, side, OP and status, in order,
// and each card's section shows its effect exactly as the deck file has it
// — so the page and the deck cannot drift apart. Change both together.
func TestCardsDocMatchesTheDeck(t *testing.T) {
	root := repoRoot(t)
	deck := readDeck(t, root)
	b, err := os.ReadFile(filepath.Join(root, "docs", "cards.md"))
	require.NoError(t, err)
	doc := string(b)

	var rows []string
	rowRe := regexp.MustCompile(`^\| \d+ \|`)
	for _, line := range strings.Split(doc, "\n") {
		if rowRe.MatchString(line) {
			rows = append(rows, line)
		}
	}
	require.Len(t, rows, len(deck), "docs/cards.md's table has one row per card")
	for i, c := range deck {
		assert.Equal(t, summaryRow(c), rows[i], "card #%d in the table of docs/cards.md", c.Num)
	}

	for _, c := range deck {
		heading := fmt.Sprintf("\n### #%d %s\n", c.Num, c.Name)
		i := strings.Index(doc, heading)
		if !assert.GreaterOrEqual(t, i, 0, "docs/cards.md has no section %q", strings.TrimSpace(heading)) {
			continue
		}
		section := doc[i+len(heading):]
		if j := strings.Index(section, "\n### "); j >= 0 {
			section = section[:j]
		}
		assert.Contains(t, section, "**"+c.Status+"**", "card #%d: status", c.Num)
		k := strings.Index(section, "```json\n")
		if !assert.GreaterOrEqual(t, k, 0, "card #%d: no deck-file block", c.Num) {
			continue
		}
		block := section[k+len("```json\n"):]
		block = block[:strings.Index(block, "```")]
		var got, want any
		if assert.NoError(t, json.Unmarshal([]byte(block), &got), "card #%d: the block is not JSON", c.Num) {
			require.NoError(t, json.Unmarshal(c.Effect, &want))
			assert.Equal(t, want, got, "card #%d: docs/cards.md shows another effect than engine/cards.json", c.Num)
		}
		if c.Status != "known" {
			assert.Contains(t, section, "**Why it is balanced this way.**", "card #%d: a designed card says why it is balanced", c.Num)
		}
	}
}

// goSources returns the repository's Go files (tests included).
func goSources(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, rel := range trackedFiles(t, root) {
		if !strings.HasSuffix(rel, ".go") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(root, rel))
		if err != nil {
			continue // deleted in the working tree
		}
		out[filepath.ToSlash(rel)] = string(b)
	}
	return out
}

// TestCitedDecisionsExist: every rules decision the code cites ("decision
// 14", "decisions 4, 6, 25", "decisions 7-12", "rules-decisions 10") is a
// numbered entry of docs/rules-decisions.md, the entries are numbered
// 1, 2, 3… without gaps, and every card convention cited (D1…D16) is
// defined in docs/cards.md.
func TestCitedDecisionsExist(t *testing.T) {
	root := repoRoot(t)
	b, err := os.ReadFile(filepath.Join(root, "docs", "rules-decisions.md"))
	require.NoError(t, err)
	defined := map[int]bool{}
	entry := regexp.MustCompile(`(?m)^(\d+)\. \*\*`)
	var nums []int
	for _, m := range entry.FindAllStringSubmatch(string(b), -1) {
		n, _ := strconv.Atoi(m[1])
		defined[n] = true
		nums = append(nums, n)
	}
	require.NotEmpty(t, nums)
	for i, n := range nums {
		require.Equal(t, i+1, n, "docs/rules-decisions.md numbers its decisions 1, 2, 3… in order")
	}

	cardsDoc, err := os.ReadFile(filepath.Join(root, "docs", "cards.md"))
	require.NoError(t, err)

	cite := regexp.MustCompile(`(?i)\b(?:rules-decisions(?:\.md)?|decisions?)\s+#?(\d+(?:\s*(?:,|and|-|–)\s*\d+)*)`)
	num := regexp.MustCompile(`\d+`)
	rangeRe := regexp.MustCompile(`(\d+)\s*[-–]\s*(\d+)`)
	conv := regexp.MustCompile(`\bD(\d{1,2})\b`)
	cited := map[int][]string{}
	for rel, src := range goSources(t, root) {
		if strings.HasPrefix(rel, "internal/repocheck/") {
			continue
		}
		for _, m := range cite.FindAllStringSubmatch(src, -1) {
			for _, r := range rangeRe.FindAllStringSubmatch(m[1], -1) {
				a, _ := strconv.Atoi(r[1])
				z, _ := strconv.Atoi(r[2])
				for n := a; n <= z; n++ {
					cited[n] = append(cited[n], rel)
				}
			}
			for _, s := range num.FindAllString(m[1], -1) {
				n, _ := strconv.Atoi(s)
				cited[n] = append(cited[n], rel)
			}
		}
		if strings.HasPrefix(rel, "engine/") || strings.HasPrefix(rel, "solo/") {
			for _, m := range conv.FindAllStringSubmatch(src, -1) {
				if m[1] == "0" {
					continue // D0 is a row of the solo opponent's Place table (docs/solo.md)
				}
				assert.Contains(t, string(cardsDoc), "**D"+m[1]+" ", "%s cites convention D%s, which docs/cards.md does not define", rel, m[1])
			}
		}
	}
	require.NotEmpty(t, cited, "the code cites decisions")
	var missing []string
	for n, where := range cited {
		if !defined[n] {
			sort.Strings(where)
			missing = append(missing, fmt.Sprintf("decision %d (cited in %s)", n, strings.Join(where, ", ")))
		}
	}
	sort.Strings(missing)
	assert.Empty(t, missing, "decisions the code cites but docs/rules-decisions.md does not number")
}

// TestSoloDocCoversTheCode: every section of the solo rules the code cites
// ("solo.md §6.6") is a section of docs/solo.md, and every decision-table
// row package solo can name in its explanations (PR1…PR12, PL1…PL15, D0,
// RM1…RM11, SR1…SR6, BA1…BA6) is a row of its tables, so a player reading
// the bot's log finds each row.
func TestSoloDocCoversTheCode(t *testing.T) {
	root := repoRoot(t)
	b, err := os.ReadFile(filepath.Join(root, "docs", "solo.md"))
	require.NoError(t, err)
	doc := string(b)
	section := regexp.MustCompile(`§(\d+)(?:\.(\d+))?`)
	row := regexp.MustCompile(`"((?:PR|PL|RM|SR|BA)\d+(?:-[VC])?|D0)"`)
	rows := 0
	for rel, src := range goSources(t, root) {
		if strings.HasPrefix(rel, "internal/repocheck/") {
			continue
		}
		for _, m := range section.FindAllStringSubmatch(src, -1) {
			var heads []string
			if m[2] == "" {
				heads = []string{"\n## " + m[1] + ". "}
			} else {
				n := m[1] + "." + m[2]
				heads = []string{"\n### " + n + " ", "**" + n + " "}
			}
			found := false
			for _, h := range heads {
				found = found || strings.Contains(doc, h)
			}
			assert.True(t, found, "%s cites %s, which docs/solo.md has no section for", rel, m[0])
		}
		if strings.HasPrefix(rel, "solo/") && !strings.HasSuffix(rel, "_test.go") {
			for _, m := range row.FindAllStringSubmatch(src, -1) {
				rows++
				defined := strings.Contains(doc, "**"+m[1]) || strings.Contains(doc, "| "+m[1]+" ")
				assert.True(t, defined, "%s names row %s, which no table row of docs/solo.md defines", rel, m[1])
			}
		}
	}
	assert.Greater(t, rows, 40, "the rows of package solo were found")
}
