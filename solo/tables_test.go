package solo

import (
	"testing"

	"github.com/rfop/rfop/engine"
	"github.com/stretchr/testify/require"
)

type tableCase struct {
	name  string
	bot   engine.Side
	board string
	opts  []opt
	cands []engine.Space
	ps    int // PlaceSwings for every candidate (Place table)
	rolls []int
	want  engine.Space
	by    string // the last row that narrowed the list ("die" for a roll)
}

func runTable(t *testing.T, tc tableCase, rows func(b *board) []selRow) {
	g := newGame(t, tc.bot, tc.board, tc.opts...)
	b := boardOf(g)
	tr := trace{roll: dice(t, tc.rolls...).Roll}
	got, ok := tr.selectSpace("test", tc.cands, rows(&b))
	require.True(t, ok, "%v", tr.lines)
	require.Equal(t, tc.want, got, "%v", tr.lines)
	if tc.by == "" {
		require.Empty(t, tr.keys, "%v", tr.lines)
	} else {
		require.NotEmpty(t, tr.keys)
		require.Equal(t, tc.by, tr.keys[len(tr.keys)-1], "%v", tr.lines)
	}
}

// TestPlaceTableRows pins each row of the Place-or-Replace table (solo.md
// §4.1): in each case the named row is the one that decides.
func TestPlaceTableRows(t *testing.T) {
	tests := []tableCase{
		// PL1: Public Opinion is wholly the Commune's; one placement ends its control of CC.
		{name: "PL1", bot: V, board: "CC C1, Press C1, SM C1", cands: []engine.Space{royalists, cc}, ps: 1, want: cc, by: "PL1"},
		// PL2: Versailles holds Royalists and NA: Republicans completes Institutional.
		{name: "PL2", bot: V, board: "Royalists V1, NA V1", cands: []engine.Space{rep, cc}, ps: 1, want: rep, by: "PL2"},
		// PL3: the bot's objective.
		{name: "PL3", bot: V, board: "", opts: []opt{withObj(cc)}, cands: []engine.Space{rep, cc}, ps: 1, want: cc, by: "PL3"},
		// PL4: an empty Pivotal space one cube takes.
		{name: "PL4", bot: V, board: "", cands: []engine.Space{na, rep}, ps: 1, want: na, by: "PL4"},
		// PL5: a Player Pivotal space whose control one cube ends.
		{name: "PL5", bot: V, board: "Press C1, Republicans C1", cands: []engine.Space{rep, press}, ps: 1, want: press, by: "PL5"},
		// PL6: any space the bot can take.
		{name: "PL6", bot: V, board: "CC C1", cands: []engine.Space{rep, cc}, ps: 1, want: rep, by: "PL6"},
		// PL7: any space where the bot can end Player control.
		{name: "PL7", bot: V, board: "Republicans C1, CC C2", cands: []engine.Space{rep, cc}, ps: 1, want: rep, by: "PL7"},
		// PL7 with a budget of 2: Republicans is taken by PL6 instead.
		{name: "PL6-budget", bot: V, board: "Republicans C1, CC C2", cands: []engine.Space{rep, cc}, ps: 2, want: rep, by: "PL6"},
		// PL8: Room (Royalists and Republicans are held by one cube: no Room).
		{name: "PL8", bot: V, board: "Royalists V1, Republicans V2 C1, CC C3", cands: []engine.Space{royalists, rep, cc}, ps: 1, want: cc, by: "PL8"},
		// PL9: a Pivotal space held by exactly one piece (Mont-Valérien leads by 2 with its disc).
		{name: "PL9", bot: V, board: "NA V2 C1, MV V1 Vd", cands: []engine.Space{na, mv}, ps: 1, want: na, by: "PL9"},
		// PL10: Pivotal or objective.
		{name: "PL10", bot: V, board: "NA C3, Republicans C3", cands: []engine.Space{na, rep}, ps: 1, want: na, by: "PL10"},
		// PL11: a Versailles cube in Republicans would be Isolated, in CC it would not (Royalists).
		{name: "PL11", bot: V, board: "Royalists V1, Republicans C3, CC C3", cands: []engine.Space{rep, cc}, ps: 1, want: cc, by: "PL11"},
		// PL12: the bot holds NA, another space of Republicans' dimension.
		{name: "PL12", bot: V, board: "NA V1, Republicans C3, SM C3", cands: []engine.Space{rep, sm}, ps: 1, want: rep, by: "PL12"},
		// PL13: not bot-controlled (MV leads by 2 with its disc, BM is the Commune's).
		{name: "PL13", bot: V, board: "MV V1 Vd, BM C3", cands: []engine.Space{mv, bm}, ps: 1, want: bm, by: "PL13"},
		// PL14: the closest contest.
		{name: "PL14", bot: V, board: "Republicans C3, CC C2", cands: []engine.Space{rep, cc}, ps: 1, want: cc, by: "PL14"},
		// PL15: the bot's home dimension (Versailles: Institutional).
		{name: "PL15-V", bot: V, board: "Republicans C2, CC C2", cands: []engine.Space{rep, cc}, ps: 1, want: rep, by: "PL15"},
		// PL15 for the Commune: Public Opinion.
		{name: "PL15-C", bot: C, board: "Republicans V2, CC V2", cands: []engine.Space{rep, cc}, ps: 1, want: cc, by: "PL15"},
		// A tie after PL15: a die numbers the candidates in canonical order (§6.9).
		{name: "die", bot: C, board: "FdI V2, CdV V2", cands: []engine.Space{cdv, fdi}, ps: 1, rolls: []int{2}, want: cdv, by: "die"},
		{name: "die-1", bot: C, board: "FdI V2, CdV V2", cands: []engine.Space{cdv, fdi}, ps: 1, rolls: []int{1}, want: fdi, by: "die"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			runTable(t, tc, func(b *board) []selRow {
				return placeRows(b, func(engine.Space) int { return tc.ps }, false)
			})
		})
	}
}

// TestDiscRowD0: a disc prefers a space with Room (solo.md §6.3), before
// PL1-PL15 (here PL... would keep BaC, which has no Room).
func TestDiscRowD0(t *testing.T) {
	tc := tableCase{bot: V, board: "BM C1, BaC V1", cands: []engine.Space{bm, bac}, want: bm, by: "D0"}
	runTable(t, tc, func(b *board) []selRow { return placeRows(b, func(engine.Space) int { return 1 }, true) })
}

// TestRemoveTableRows pins each row of the Remove table (solo.md §4.2).
func TestRemoveTableRows(t *testing.T) {
	tests := []tableCase{
		{name: "RM1", bot: V, board: "CC C1, Press C1, SM C1, Republicans C1", cands: []engine.Space{rep, cc}, want: cc, by: "RM1"},
		{name: "RM2", bot: V, board: "Royalists V1, NA V1, Republicans C1, CC C1", cands: []engine.Space{rep, cc}, want: rep, by: "RM2"},
		{name: "RM3", bot: V, board: "CC C2, Republicans C2", opts: []opt{withObj(cc)}, cands: []engine.Space{rep, cc}, want: cc, by: "RM3"},
		{name: "RM4", bot: V, board: "Press C2, Republicans C2", cands: []engine.Space{rep, press}, want: press, by: "RM4"},
		{name: "RM5", bot: V, board: "CC C1, Republicans C2", cands: []engine.Space{rep, cc}, want: cc, by: "RM5"},
		// RM6: the Commune cubes in CC are Isolated; Republicans is fed by Social Movements.
		{name: "RM6", bot: V, board: "CC C2, Republicans C2, SM C1", cands: []engine.Space{rep, cc}, want: cc, by: "RM6"},
		// RM8: exactly one Player piece.
		{name: "RM8", bot: V, board: "CC V2 C3, Republicans C1", cands: []engine.Space{rep, cc}, want: rep, by: "RM8"},
		// RM9: Player-controlled.
		{name: "RM9", bot: V, board: "CC C3, Republicans V3 C2", cands: []engine.Space{rep, cc}, want: cc, by: "RM9"},
		// RM10: the bot's home dimension (Versailles: Institutional).
		{name: "RM10", bot: V, board: "CC C3, Republicans C3", cands: []engine.Space{rep, cc}, want: rep, by: "RM10"},
		// RM11: the most Player pieces (Commune bot; Versailles cubes in FdI are never Isolated, CdV is fed by FdI).
		{name: "RM11", bot: C, board: "FdI V3, CdV V2", cands: []engine.Space{fdi, cdv}, want: fdi, by: "RM11"},
		{name: "die", bot: C, board: "FdI V2, CdV V2, PL C1", cands: []engine.Space{fdi, cdv}, rolls: []int{1}, want: fdi, by: "die"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			runTable(t, tc, func(b *board) []selRow { return removeRows(b, nil) })
		})
	}
	// RM7 (operations only): a sure removal (StrA ≥ 3) before an uncertain one.
	t.Run("RM7", func(t *testing.T) {
		tc := tableCase{bot: V, board: "BaC C2, CdV C2, PL C1", cands: []engine.Space{bac, cdv}, want: bac, by: "RM7"}
		var strA [engine.NumMapSpaces]int
		strA[bac], strA[cdv] = 3, 1
		runTable(t, tc, func(b *board) []selRow { return removeRows(b, &strA) })
		// Events skip RM7: the same candidates go on to RM10 (Forts is a
		// Versailles home dimension).
		tc.by, tc.want = "RM10", cdv
		runTable(t, tc, func(b *board) []selRow { return removeRows(b, nil) })
	})
}

// TestSourceTableRows pins each row of the Source table (solo.md §4.3).
func TestSourceTableRows(t *testing.T) {
	tests := []tableCase{
		{name: "SR1", bot: V, board: "Royalists V2, Republicans V1 C1", cands: []engine.Space{royalists, rep}, want: royalists, by: "SR1"},
		{name: "SR2", bot: V, board: "Republicans V1, CC V1 C3", cands: []engine.Space{rep, cc}, want: cc, by: "SR2"},
		{name: "SR3", bot: V, board: "Royalists V2, Republicans V2", opts: []opt{withObj(royalists)}, cands: []engine.Space{royalists, rep}, want: rep, by: "SR3"},
		{name: "SR4", bot: V, board: "NA V4, Royalists V2", cands: []engine.Space{na, royalists}, want: royalists, by: "SR4"},
		{name: "SR5", bot: V, board: "Royalists V2, NA V1, Republicans V1, CC V2", cands: []engine.Space{royalists, cc}, want: cc, by: "SR5"},
		{name: "SR6", bot: V, board: "Royalists V3, CC V2", cands: []engine.Space{royalists, cc}, want: royalists, by: "SR6"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			runTable(t, tc, func(b *board) []selRow { return sourceRows(b, false, false) })
		})
	}
	// SR2 is mandatory for moves: no safe source, no move.
	t.Run("SR2-mandatory", func(t *testing.T) {
		g := newGame(t, V, "Republicans V1, CC V1 C1")
		b := boardOf(g)
		tr := trace{roll: dice(t).Roll}
		_, ok := tr.selectSpace("Source", []engine.Space{rep, cc}, sourceRows(&b, true, false))
		require.False(t, ok)
	})
}
