package main

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// render --bench times, in one run on the same board, the bot's path and
// an RGBA png.BestSpeed encoding of the same picture, and gives both
// sizes; the same for a hand (issue 28). Only the presence and the sense
// of the figures are checked here: their values are for a quiet machine.
func TestRenderBenchPrintsBothPaths(t *testing.T) {
	code, out, errOut := runCmd(nil, "render", "--seed", "3", "--after", "60", "--bench", "--runs", "20")
	require.Equal(t, 0, code, errOut)
	var got map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &got), out)
	for _, k := range []string{"render_encode_ms_median", "rgba_bestspeed_encode_ms_median", "bytes", "rgba_bytes",
		"hand_render_encode_ms_median", "hand_rgba_bestspeed_encode_ms_median", "hand_bytes", "hand_rgba_bytes"} {
		require.Contains(t, got, k)
		assert.Greater(t, got[k].(float64), 0.0, k)
	}
	assert.Less(t, got["bytes"].(float64), got["rgba_bytes"].(float64), "the paletted board is smaller")
	assert.Less(t, got["hand_bytes"].(float64), got["hand_rgba_bytes"].(float64), "the paletted hand is smaller")
	assert.Equal(t, 1600.0, got["width"])
	assert.Equal(t, 1000.0, got["height"])
	assert.Equal(t, "Versailles", got["hand_side"], "the deciding side's hand")

	code, out, errOut = runCmd(nil, "render", "--seed", "3", "--after", "60", "--bench", "--runs", "20", "--hand", "commune")
	require.Equal(t, 0, code, errOut)
	require.NoError(t, json.Unmarshal([]byte(out), &got), out)
	assert.Equal(t, "Commune", got["hand_side"])
}
