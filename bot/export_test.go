package bot

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/rfop/rfop/engine"
)

// SetCrashHook installs f, called by the publisher before each step of a
// publication ("dm:versailles", "dm:commune", "reveal:…", "board",
// "collapse", "result", "panel:…") and after a board is posted but before
// it is recorded ("board-posted"): true simulates a crash there (the bot
// then delivers nothing more and releases nothing, as if its process had
// died).
func SetCrashHook(b *Bot, f func(gameID int64, step string) bool) {
	b.mu.Lock()
	b.hook = f
	b.mu.Unlock()
}

// EveryCustomID returns a custom_id of every kind the bot emits (idKinds)
// for game, at version and for side where the kind carries them (choice
// index and select page 0), in the order of their verbs.
func EveryCustomID(game, version int64, side string) []string {
	var out []string
	for verb := range idKinds {
		out = append(out, customID{Verb: verb, Game: game, Version: version, Side: side}.String())
	}
	slices.SortFunc(out, strings.Compare)
	return out
}

// CustomIDCarriesVersion reports whether a custom_id of this kind names a
// version and a side.
func CustomIDCarriesVersion(id string) bool {
	c, err := parseCustomID(id)
	return err == nil && idKinds[c.Verb] != idGame
}

// IsSelectID reports whether the custom_id is a select menu's.
func IsSelectID(id string) bool {
	c, err := parseCustomID(id)
	return err == nil && c.Verb == verbSelect
}

// SetAnalysisProgressEvery sets the least time between two "analysing…
// n %" edits (0: one edit per decision that moves the percentage).
func SetAnalysisProgressEvery(b *Bot, d time.Duration) { b.progressEvery = d }

// QueuedAIGameJobs is the number of jobs other than analyses (AI games,
// hints) waiting on the AI worker.
func QueuedAIGameJobs(b *Bot) int {
	b.aiq.mu.Lock()
	defer b.aiq.mu.Unlock()
	n := 0
	for _, j := range b.aiq.jobs {
		if j.analysis == nil {
			n++
		}
	}
	return n
}

// HoldRenderSlots takes every render slot, so that pictures wait for one,
// until release is called.
func HoldRenderSlots(b *Bot) (release func()) {
	never := make(chan struct{})
	n := renderSlots() // as New made them
	for k := 0; k < n; k++ {
		b.renders.acquire(true, never)
	}
	return func() {
		for k := 0; k < n; k++ {
			b.renders.release()
		}
	}
}

// RenderQueue is how many hand (and other non-board) pictures wait for a
// render slot, and how many turns of a slot were taken so far.
func RenderQueue(b *Bot) (hands, turns int) {
	b.renders.mu.Lock()
	defer b.renders.mu.Unlock()
	return len(b.renders.rest), b.renders.turns
}

// SharedBoardPicture asks for the picture of game gameID's board at its
// current version as a board going ahead of a waiting hand DM does
// (sharedBoardPicture): drawn reports it was there to take.
func SharedBoardPicture(ctx context.Context, b *Bot, gameID int64) (drawn bool, err error) {
	rec, err := b.Store.GameByID(ctx, gameID)
	if err != nil {
		return false, err
	}
	d := &delivery{rec: rec, games: map[int64]*engine.Game{}, infos: map[int64]chainInfo{}}
	if d.moves, err = b.movesOf(ctx, gameID); err != nil {
		return false, err
	}
	g, info, err := d.at(ctx, b, rec.StateVersion)
	if err != nil {
		return false, err
	}
	_, drawn = b.sharedBoardPicture(rec, g, info)
	return drawn, nil
}

// ForgetBoardPictures empties the board picture cache.
func ForgetBoardPictures(b *Bot) {
	b.boards.mu.Lock()
	defer b.boards.mu.Unlock()
	b.boards.calls, b.boards.order, b.boards.wants = nil, nil, nil
}

// HoldAdmission takes every admission turn, as interactions at work
// would, and sets how long an interaction waits for one; release gives
// them back.
func HoldAdmission(b *Bot, patience time.Duration) (release func()) {
	a := b.admit
	a.mu.Lock()
	a.patience = patience
	a.mu.Unlock()
	for range cap(a.turns) {
		a.turns <- struct{}{}
	}
	return func() {
		for range cap(a.turns) {
			<-a.turns
		}
	}
}
