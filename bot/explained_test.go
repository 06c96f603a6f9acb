package bot

import (
	"testing"

	"github.com/rfop/rfop/engine"
	"github.com/stretchr/testify/assert"
)

// The board leaves the solo opponent's explanations of the chain to
// /rfop log: a note line whose text is one of them, or a line saved
// before messages with that text; never another line, even one that
// happens to read the same.
func TestBoardLeavesOutTheChainsExplanations(t *testing.T) {
	info := chainInfo{explained: map[string]bool{"Solo opponent: places a cube (PL3)": true}}
	note := func(s string) *engine.LogEntry {
		return &engine.LogEntry{Msg: &engine.Msg{ID: "engine.log.note", Args: []engine.Arg{{Name: "Note", Kind: engine.ArgText, S: s}}}}
	}
	assert.True(t, info.isExplained(note("Solo opponent: places a cube (PL3)")))
	assert.False(t, info.isExplained(note("Solo opponent: removes a cube (RM1)")), "another note")
	assert.True(t, info.isExplained(&engine.LogEntry{LegacyText: "Solo opponent: places a cube (PL3)"}), "a line saved before messages")
	assert.False(t, info.isExplained(&engine.LogEntry{LegacyText: "Versailles places a cube in Press."}))
	other := &engine.LogEntry{Msg: &engine.Msg{ID: "engine.log.places-cube", Args: []engine.Arg{
		{Name: "Side", Kind: engine.ArgSide, N: int(engine.Versailles)}, {Name: "Space", Kind: engine.ArgSpace, N: int(engine.Press)}}}}
	assert.False(t, info.isExplained(other))
	assert.False(t, chainInfo{}.isExplained(note("Solo opponent: places a cube (PL3)")), "no explanations in the chain")
	// An explanation as a message (Move.Why, issue 26) is one wherever it is.
	why := &engine.LogEntry{Msg: &engine.Msg{ID: "engine.log.note", Args: []engine.Arg{{Name: "Note", Kind: engine.ArgMsg,
		Msg: &engine.Msg{ID: "solo.note-plain", Args: []engine.Arg{{Name: "Ref", Kind: engine.ArgText, S: "PL3"}}}}}}}
	assert.True(t, chainInfo{}.isExplained(why))
	assert.True(t, info.isExplained(why))
}
