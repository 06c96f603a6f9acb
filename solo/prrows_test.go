package solo

import (
	"testing"

	"github.com/rfop/rfop/engine"
	"github.com/stretchr/testify/require"
)

const (
	V   = engine.Versailles
	C   = engine.Commune
	Pol = engine.Political
	Mil = engine.Military
)

var (
	royalists = engine.Royalists
	na        = engine.NationalAssembly
	rep       = engine.Republicans
	cc        = engine.CatholicChurch
	press     = engine.Press
	sm        = engine.SocialMovements
	mv        = engine.MontValerien
	fdi       = engine.FortIssy
	cdv       = engine.ChateauVincennes
	bm        = engine.ButteMontmartre
	bac       = engine.ButteAuxCailles
	pl        = engine.PereLachaise
)

type prCase struct {
	name   string
	bot    engine.Side
	op     int
	sphere engine.Sphere
	board  string
	opts   []opt
	row    string         // first Place-or-Remove row that fires, with its variant
	cands  []engine.Space // REMOVE rows: the candidates sent to the Remove table
	pick   engine.Space   // where the bot acts first
	pickBy string         // the selection-table row that decided ("" when a single candidate)
}

// runPRCase checks the first row with the table evaluator, then runs the
// operation through the engine and checks the first space acted in.
func runPRCase(t *testing.T, tc prCase) {
	opts := []opt{withAvail(5)}
	if tc.bot == V {
		opts = append(opts, communePoolRoom())
	}
	opts = append(opts, tc.opts...)
	g := newGame(t, tc.bot, tc.board, opts...)
	hits := opRows(g, tc.op, tc.sphere, false)
	require.NotEmpty(t, hits, "no row fires")
	h := hits[0]
	require.Equal(t, tc.row, h.id+h.variant, "first row: %s", h.String())
	if tc.cands != nil {
		require.True(t, h.remove)
		require.Equal(t, tc.cands, h.cands())
	} else {
		require.False(t, h.remove)
	}

	resume(t, g, engine.ProcOperations(tc.bot, tc.op, tc.sphere))
	// Scripted military draws: a 1-OP card first (never reached in most cases).
	putOnDeck(g, 2)
	exs := runBot(t, g, &Policy{Roll: func(k int) int { t.Fatalf("unexpected die (1-%d)", k); return 1 }})
	require.NotEmpty(t, exs)
	var act Explanation
	for _, ex := range exs {
		if ex.Prompt == engine.PromptOpsRemove && ex.Choice.Kind == engine.ChooseRemove || ex.Prompt == engine.PromptOpsPlace {
			act = ex
			break
		}
	}
	require.Equal(t, tc.pick, act.Choice.Space, "first action: %s", act)
	if tc.pickBy != "" {
		require.Contains(t, act.Fired, tc.pickBy, "decided by: %s", act)
	}
	if tc.cands != nil {
		require.Equal(t, tc.row, act.Fired[0], "%s", act)
	}
}

// TestA1PlaceOrRemoveRows reproduces solo.md Appendix A.1 (Avail 5, no
// objective, Commune pool not full unless stated; default switches).
func TestA1PlaceOrRemoveRows(t *testing.T) {
	pr11 := "Royalists V2, NA V2, Press V2, Republicans C2, CC C3"
	tests := []prCase{
		// PR1 (V, 1 OP, Pol): PR1a REMOVE [CC, Press] → Remove table RM4 → Press.
		{"PR1", V, 1, Pol, "Royalists V1, NA V2, CC C1, Press C1, SM C1", nil, "PR1a", []engine.Space{cc, press}, press, "RM4"},
		// PR2 (V, 2 OP, Pol): PR2a REMOVE [Republicans].
		{"PR2", V, 2, Pol, "Royalists V1, NA V2, Press V2, Republicans C1", nil, "PR2a", []engine.Space{rep}, rep, ""},
		// PR2 → PR8 (same, 1 OP): PR2 out of reach; PR8 REMOVE [Republicans] (Isolated).
		{"PR2->PR8", V, 1, Pol, "Royalists V1, NA V2, Press V2, Republicans C1", nil, "PR8", []engine.Space{rep}, rep, ""},
		// PR3 (C, 1 OP, Mil, objective BaC): PR3a REMOVE [BaC].
		{"PR3", C, 1, Mil, "PL C1, BaC V1 C1, BM V1 C1, MV V3", []opt{withObj(bac)}, "PR3a", []engine.Space{bac}, bac, ""},
		// PR4 (V, 1 OP, Mil): PR4b PLACE → PL4 → Mont-Valérien.
		{"PR4", V, 1, Mil, "BM C2", nil, "PR4b", nil, mv, "PL4"},
		// PR5 (C, 2 OP, Mil): StrA(BM) 1, Swings⁺ 1 < gap 2 → PR5b PLACE → PL5 → BM.
		{"PR5", C, 2, Mil, "PL C1, BM V2, MV V1", nil, "PR5b", nil, bm, "PL5"},
		// PR6 (V, 1 OP, Mil): PR6 REMOVE [MV].
		{"PR6", V, 1, Mil, "MV V2 C1, BM C2, PL C1", nil, "PR6", []engine.Space{mv}, mv, ""},
		// PR7 (V, 1 OP, Pol): PR7a REMOVE [CC].
		{"PR7", V, 1, Pol, "Royalists V1, NA V2, Republicans C2, Press V1 C3, CC C1, SM V1", nil, "PR7a", []engine.Space{cc}, cc, ""},
		// PR8 (C, 1 OP, Pol): PR8 REMOVE [Republicans].
		{"PR8", C, 1, Pol, "SM C2, Press C3, CC C1, Royalists V1 C1, Republicans V1", nil, "PR8", []engine.Space{rep}, rep, ""},
		// PR9-V (V, 1 OP, Pol, Commune pool full): REMOVE [Republicans, CC] → RM2 → Republicans.
		{"PR9-V", V, 1, Pol, "Royalists V2, NA V2, Press V2, Republicans C2, CC C2", []opt{communePoolFull()}, "PR9-V", []engine.Space{rep, cc}, rep, "RM2"},
		// PR9-C (C, 2 OP, Mil): PR9 REMOVE [BaC].
		{"PR9-C", C, 2, Mil, "PL C1, BM C2, MV V3, BaC V2, FdI V1", nil, "PR9-Ca", []engine.Space{bac}, bac, ""},
		// PR10 (V, 1 OP, Pol): PR10 REMOVE [CC].
		{"PR10", V, 1, Pol, "Royalists V2, NA V2, Press V2, Republicans C2, CC V1 C2", nil, "PR10", []engine.Space{cc}, cc, ""},
		// PR11 (V, 1 OP, Pol, Avail 0): REMOVE [Republicans, CC] → RM2 → Republicans.
		{"PR11", V, 1, Pol, pr11, []opt{withAvail(0)}, "PR11", []engine.Space{rep, cc}, rep, "RM2"},
		// PR12 (V, 1 OP, Pol), the same with Avail 5: PLACE → PL6 → Social Movements.
		{"PR12", V, 1, Pol, pr11, nil, "PR12", nil, sm, "PL6"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { runPRCase(t, tc) })
	}
}

// TestPlaceOrRemoveRowsOtherFaction pins each symmetric row PR1-PR12 for
// the faction Appendix A.1 does not use (solo.md §3.1 / §3.2: the same
// table with the factions swapped, HQ/POT and permanent presence per side).
func TestPlaceOrRemoveRowsOtherFaction(t *testing.T) {
	tests := []prCase{
		// §3.2 PR1 (C): Forts wholly Versailles; Château de Vincennes is fed by Père Lachaise.
		{"PR1-C", C, 1, Mil, "MV V1, FdI V1, CdV V1, PL C1", nil, "PR1a", []engine.Space{cdv}, cdv, ""},
		// §3.2 PR2 (C): Social Movements and Press are the Commune's; Catholic Church completes Public Opinion.
		{"PR2-C", C, 2, Pol, "SM C1, Press C2 V1, CC V1", nil, "PR2a", []engine.Space{cc}, cc, ""},
		// §3.1 PR3 (V, objective Fort d'Issy, tied; HQ feeds it).
		{"PR3-V", V, 1, Mil, "FdI V1 C1, PL C1", []opt{withObj(fdi)}, "PR3a", []engine.Space{fdi}, fdi, ""},
		// §3.2 PR4 (C): the tied Press.
		{"PR4-C", C, 1, Pol, "Press V1 C1, SM C1", nil, "PR4a", []engine.Space{press}, press, ""},
		// §3.1 PR5 (V): Press held by the Commune by 2; permanent presence in Royalists does not feed NA.
		{"PR5-V", V, 2, Pol, "Press V1 C3", nil, "PR5a", []engine.Space{press}, press, ""},
		// §3.2 PR6 (C): Butte Montmartre held by one piece.
		{"PR6-C", C, 1, Mil, "BM C2 V1, MV V2", nil, "PR6", []engine.Space{bm}, bm, ""},
		// §3.2 PR7 (C): Versailles holds Royalists and Republicans; Republicans is fed by Social Movements.
		{"PR7-C", C, 1, Pol, "Royalists V1, NA C1, Republicans V1, Press V3 C1, SM C1", nil, "PR7a", []engine.Space{rep}, rep, ""},
		// §3.2 PR10 (C): the tied Catholic Church.
		{"PR10-C", C, 1, Pol, "Press V3 C1, SM C1, CC V1 C1", nil, "PR10", []engine.Space{cc}, cc, ""},
		// §3.2 PR11 (C, Avail 0): REMOVE among [CC, Press] → RM4 → Press.
		{"PR11-C", C, 1, Pol, "Press V3 C1, SM C1, CC V3 C1", []opt{withAvail(0)}, "PR11", []engine.Space{cc, press}, press, "RM4"},
		// §3.2 PR12 (C): PLACE → PL6 → Republicans (empty, fed by Social Movements).
		{"PR12-C", C, 1, Pol, "Press V3 C1, SM C1, CC V3 C1", nil, "PR12", nil, rep, "PL6"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { runPRCase(t, tc) })
	}
}

// TestNoRowFires: with nothing to remove or place in the sphere, no row
// fires and the OP are lost (§3, "No row fires: stop").
func TestNoRowFires(t *testing.T) {
	g := newGame(t, V, "Royalists V4, NA V4", withAvail(0), communePoolRoom())
	require.Empty(t, opRows(g, 2, Pol, true))
}

// TestPRRowsAllForSphereChoice pins the full row lists of solo.md §9
// Example 1 (bot Versailles, 3 OP, starting set-up).
func TestPRRowsAllForSphereChoice(t *testing.T) {
	g := newGame(t, V, "Royalists V1, Press V1 C1, SM C1, PL C1", withObj(rep))
	g.S.Track = [2][4]int8{{1, 2, 1, 2}, {3, 2, 2, 2}}
	require.Equal(t, []string{"PR4", "PR9-V", "PR10", "PR12"}, hitKeys(opRows(g, 3, Pol, true)))
	require.Equal(t, []string{"PR4", "PR12"}, hitKeys(opRows(g, 3, Mil, true)))
}
