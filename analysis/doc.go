// Package analysis explains a finished game (issue 29): for every decision
// of the game, each side's chance to win as the AI estimates it from that
// side's information at that moment, and the choice the AI would have
// made there; from those, the Commune's win chance across the game (a
// chart, chart.go) and the three turning points (text.go).
//
// # Never from what a player could not know
//
// Each estimate is made from an engine.InfoSet, the same view the AI
// opponent decides from: the side's own cards and the public board, with
// the opponent's hand, the deck order and the opponent's objective only a
// set of possibilities (package ai deals them at random). The searcher is
// seeded from a constant and the InfoSet's public version, never from the
// game's seed (which fixes the deck), so two games that differ only in
// cards a side could not see give that side the same estimate. The
// analysis reads the whole log only to know which moves were made.
//
// # What is computed
//
// A decision is a move of the log that had more than one legal choice
// (undone moves are left out, as in a replay). At each: the estimate of
// both sides (ai.Searcher.Estimate: playouts from random deals of what the
// side cannot see, played to the end of the game so that the estimate
// does not jump at a round's end), and the deciding side's search of its options
// (ai.Searcher.Rank: the AI's choice and the win chance it gives the
// played move and its own). The chart's line is the Commune's chance, the
// mean of the Commune's own estimate and one minus Versailles': both
// sides' views count, and the line does not jump with whose turn it is.
// A decision's swing is the change of that line from it to the next
// decision; the three largest swings are the turning points.
//
// Solo games have no analysis: the solo opponent follows its decision
// tables and has no InfoSet (engine.ErrNoInfoSet).
//
// The engine stays free of this package; the bot and cmd/rfop call it.
package analysis
