package solo

// The switches of solo.md Appendix B. Only the defaults are implemented;
// these constants name them and say where each one acts.
const (
	// ExtraStrengthOP = "paid": at StrA 1 the bot pays one extra OP for the
	// +1 when it has one, otherwise attempts at strength 1 (opEval.xop,
	// attempts, swings; decision.opsRemove picks the Extra choice).
	ExtraStrengthOP = "paid"
	// StrengthTiming = "snapshot": snapshot A (taken by the engine before
	// the removals) fixes the strength of every attempt of the step
	// (decision.opFromFrame reads it from the frame).
	StrengthTiming = "snapshot"
	// OpsUseAvailableOnly: the bot places only Available cubes, in
	// operations too (engine/solo_rules.go, soloFilter).
	OpsUseAvailableOnly = true
	// RoomCounts = "cubes": Room counts cubes, not discs (board.room,
	// engine.State.HasRoom).
	RoomCounts = "cubes"
	// SoloTie = "bot": the bot wins when neither main condition holds
	// (engine decideVictory).
	SoloTie = "bot"
)
