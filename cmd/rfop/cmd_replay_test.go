package main

import (
	"bytes"
	"context"
	"encoding/json"
	"image/gif"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rfop/rfop/engine"
	"github.com/rfop/rfop/storage"
)

func replayJSON(t *testing.T, args ...string) map[string]any {
	t.Helper()
	code, out, errOut := runCmd(nil, append([]string{"replay"}, args...)...)
	require.Equal(t, 0, code, errOut)
	var m map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &m), out)
	return m
}

func decodeGIF(t *testing.T, path string) *gif.GIF {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	g, err := gif.DecodeAll(bytes.NewReader(b))
	require.NoError(t, err)
	return g
}

// rfop replay --seed S --random-game: a GIF of one frame per play and scoring.
func TestReplayRandomGame(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "r.gif")
	m := replayJSON(t, "--seed", "3", "--random-game", "--out", out, "--half")
	g := decodeGIF(t, out)
	require.EqualValues(t, len(g.Image), m["frames"])
	require.EqualValues(t, m["plays"].(float64)+m["scorings"].(float64), m["frames"])
	require.Equal(t, 800, g.Config.Width)
	require.Equal(t, true, m["half"])
}

// rfop replay --db FILE --game N replays a stored game from its action log.
func TestReplayStoredGame(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	db := filepath.Join(dir, "rfop.db")
	st, err := storage.Open(ctx, db)
	require.NoError(t, err)
	o := engine.Options{Seed: 11, BotSide: engine.NoSide}
	g, err := engine.New(o)
	require.NoError(t, err)
	state, err := g.Save()
	require.NoError(t, err)
	rec, err := st.CreateGame(ctx, storage.NewGame{ChannelID: "c", Status: storage.StatusActive, Variant: "standard",
		Mode: storage.ModeTwoPlayer, Seed: 11, State: state,
		Players: []storage.Player{{Side: storage.SideVersailles, UserID: "a"}, {Side: storage.SideCommune, UserID: "b"}}})
	require.NoError(t, err)
	r := rand.New(rand.NewPCG(11, 1))
	for n := 0; n < 30; n++ {
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

	out := filepath.Join(dir, "stored.gif")
	m := replayJSON(t, "--db", db, "--game", "1", "--out", out)
	require.EqualValues(t, 30, m["moves"])
	require.EqualValues(t, len(decodeGIF(t, out).Image), m["frames"])

	code, _, errOut := runCmd(nil, "replay", "--db", db, "--game", "9", "--out", out)
	require.Equal(t, 1, code)
	require.True(t, strings.Contains(errOut, "not found"), errOut)
	code, _, _ = runCmd(nil, "replay", "--out", out)
	require.Equal(t, 2, code, "a game or --random-game is required")
}
