package main

import (
	"context"
	"encoding/json"
	"image/png"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rfop/rfop/engine"
	"github.com/rfop/rfop/storage"
)

// rfop analyse --seed S --random-game --json: the win chance of every
// decision, the three turning points with their sentence, and the chart.
func TestAnalyseRandomGameJSON(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "chart.png")
	code, stdout, errOut := runCmd(nil, "analyse", "--seed", "7", "--random-game", "--level", "easy", "--samples", "30", "--out", out, "--json")
	require.Equal(t, 0, code, errOut)
	var j struct {
		Winner    string `json:"winner"`
		Decisions []struct {
			Chance   float64 `json:"commune_chance"`
			Played   string  `json:"played"`
			AIChoice string  `json:"ai_choice"`
			Round    int     `json:"round"`
		} `json:"decisions"`
		Turning []struct {
			Decision int     `json:"decision"`
			Swing    float64 `json:"swing"`
			Text     string  `json:"text"`
		} `json:"turning_points"`
	}
	require.NoError(t, json.Unmarshal([]byte(stdout), &j), stdout)
	require.NotEmpty(t, j.Decisions)
	for _, d := range j.Decisions {
		assert.True(t, d.Chance >= 0 && d.Chance <= 1)
		assert.NotEmpty(t, d.Played)
		assert.NotEmpty(t, d.AIChoice)
	}
	require.Len(t, j.Turning, 3)
	for _, tp := range j.Turning {
		assert.Contains(t, tp.Text, "the Commune's chance went from")
		assert.Less(t, tp.Decision, len(j.Decisions))
	}
	f, err := os.Open(out)
	require.NoError(t, err)
	defer f.Close()
	img, err := png.Decode(f)
	require.NoError(t, err)
	assert.Equal(t, 1200, img.Bounds().Dx())
}

// rfop analyse --db FILE --game N prints the turning points in the
// language asked, numbered, and writes the chart.
func TestAnalyseStoredGame(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	db := filepath.Join(dir, "rfop.db")
	st, err := storage.Open(ctx, db)
	require.NoError(t, err)
	o := engine.Options{Seed: 17, BotSide: engine.NoSide}
	g, err := engine.New(o)
	require.NoError(t, err)
	state, err := g.Save()
	require.NoError(t, err)
	rec, err := st.CreateGame(ctx, storage.NewGame{ChannelID: "c", Status: storage.StatusActive, Variant: "standard",
		Mode: storage.ModeTwoPlayer, Seed: 17, State: state,
		Players: []storage.Player{{Side: storage.SideVersailles, UserID: "a"}, {Side: storage.SideCommune, UserID: "b"}}})
	require.NoError(t, err)
	r := rand.New(rand.NewPCG(17, 1))
	for g.S.Result == nil {
		m, ok := g.RandomMove(r)
		require.True(t, ok)
		require.NoError(t, g.ApplyMove(m))
		choice, _ := json.Marshal(m)
		state, _ := g.Save()
		side := storage.SideVersailles
		if m.Side == engine.Commune {
			side = storage.SideCommune
		}
		rec, err = st.ApplyMove(ctx, storage.Move{GameID: rec.ID, ExpectedVersion: rec.StateVersion, Side: side, Choice: choice, NewState: state})
		require.NoError(t, err)
	}
	require.NoError(t, st.Close())

	out := filepath.Join(dir, "chart.png")
	code, stdout, errOut := runCmd(nil, "analyse", "--db", db, "--game", "1", "--level", "easy", "--samples", "30", "--out", out, "--lang", "fr")
	require.Equal(t, 0, code, errOut)
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	require.Len(t, lines, 3, stdout)
	for k, l := range lines {
		assert.True(t, strings.HasPrefix(l, string(rune('1'+k))+". "), l)
		assert.Contains(t, l, "la chance de la Commune est passée de", l)
	}
	_, err = os.Stat(out)
	require.NoError(t, err)

	code, _, _ = runCmd(nil, "analyse", "--out", out)
	assert.Equal(t, 2, code, "a game or --random-game is required")
	code, _, _ = runCmd(nil, "analyse", "--random-game", "--level", "expert")
	assert.Equal(t, 2, code, "an unknown level")
}
