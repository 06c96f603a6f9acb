package bot

// Integrity: a game's saved state must be what a replay of its action log
// gives (storage.VerifyGame with Verify); a game that fails is paused, its
// players told why when they click, until /rfop abandon ends it.
//
// Nothing is replayed at start-up: a start costs the same with ten games
// stored or a hundred thousand. A game is checked the first time this
// process loads it (loadGame: before anyone plays on it, before a
// reminder shows it, before the solo opponent or the AI moves in it), once
// per process (a set of checked ids, one bit per game id); and a
// background sweep (sweep) checks this shard's active games one after the
// other within a CPU budget, so that a broken game is usually found before
// anyone clicks. Moves made afterwards are the engine's own: a game checked
// once in a process stays checked.

import (
	"context"
	"fmt"
	"time"

	"github.com/rfop/rfop/engine"
	"github.com/rfop/rfop/storage"
)

// idSet is a set of game ids, one bit each (ids are dense: 100,000
// games take 12.5 KB). Not safe for concurrent use (under Bot.mu).
type idSet struct{ words []uint64 }

// maxSetID bounds the ids kept as bits; a larger id is never marked
// (checked again at each load: correct, only slower).
const maxSetID = 1 << 30

func (s *idSet) has(id int64) bool {
	if id < 0 || id >= maxSetID {
		return false
	}
	w := int(id >> 6)
	return w < len(s.words) && s.words[w]&(1<<(uint64(id)&63)) != 0
}

func (s *idSet) add(id int64) {
	if id < 0 || id >= maxSetID {
		return
	}
	w := int(id >> 6)
	if w >= len(s.words) {
		s.words = append(s.words, make([]uint64, w+1-len(s.words))...)
	}
	s.words[w] |= 1 << (uint64(id) & 63)
}

// checkOnce verifies an active game against its action log the first
// time this process meets it, and pauses it if it fails (loadGame calls
// it before anything uses the state).
func (b *Bot) checkOnce(ctx context.Context, rec storage.Game) {
	if rec.Status != storage.StatusActive {
		return
	}
	b.mu.Lock()
	done := b.checked.has(rec.ID)
	b.mu.Unlock()
	if done {
		return
	}
	b.checkGame(ctx, rec)
}

// checkGame verifies a game (its deck first: a game saved before decks
// were kept adopts the bot's if its log replays with it), pauses it if
// it fails, and marks it checked.
func (b *Bot) checkGame(ctx context.Context, rec storage.Game) {
	b.checkGameLog(ctx, rec, nil, nil)
}

// checkGameLog is checkGame on the game's action log acts, read with rec
// from one snapshot (storage.LoadVerified); nil acts: read here. It
// returns the game its replay gave if it passed and that game saves to
// the stored state byte for byte (verifyReplay), else nil; notes (if not
// nil and acts given) get what that replay noted for the board.
func (b *Bot) checkGameLog(ctx context.Context, rec storage.Game, acts []storage.Action, notes *replayNotes) (replayed *engine.Game) {
	var err error
	if err = b.checkDeck(ctx, rec); err != nil {
		if ctx.Err() != nil {
			return // not checked: stopped
		}
		b.Log.Error("game's deck unavailable: paused until abandoned", "game", rec.ID, "err", err)
		b.pause(rec.ID, err)
		replayed = nil
	} else if replayed, err = b.verifyLog(ctx, rec, acts, notes); err != nil {
		if ctx.Err() != nil {
			return // not checked: stopped
		}
		b.Log.Error("game failed its integrity check: paused until abandoned", "game", rec.ID, "err", err)
		b.pause(rec.ID, err)
		replayed = nil
	}
	b.mu.Lock()
	b.checked.add(rec.ID)
	b.mu.Unlock()
	return replayed
}

// verifyLog is storage.VerifyGame with Verify, on acts if given (read
// with rec: the store's checks of the log were made when they were
// read), else reading the game and its log again.
func (b *Bot) verifyLog(ctx context.Context, rec storage.Game, acts []storage.Action, notes *replayNotes) (*engine.Game, error) {
	if acts == nil {
		return nil, b.Store.VerifyGame(ctx, rec.ID, b.Verify)
	}
	g, err := b.verifyReplay(rec, acts, notes)
	if err != nil {
		return nil, fmt.Errorf("%w: game %d (version %d): %w", storage.ErrIntegrity, rec.ID, rec.StateVersion, err)
	}
	return g, nil
}

// Checked reports whether this process has checked the game (tests,
// and the sweep).
func (b *Bot) Checked(id int64) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.checked.has(id)
}

// Paused reports why the game is paused (nil: it is not).
func (b *Bot) Paused(id int64) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.paused[id]
}

// DefaultSweepBudget is the share of one core the background integrity
// sweep uses by default.
const DefaultSweepBudget = 0.1

// sweepBatch is how many game ids the sweep reads at a time.
const sweepBatch = 128

// Sweep checks the integrity of this shard's active games not yet
// checked in this process, one at a time, using at most budget of one
// core (0 < budget <= 1; it rests budget/(1-budget) of the time each
// check took after it). It returns when every game was looked at, or
// when ctx ends or the bot shuts down; and how many games it checked and
// found broken. Run starts it in the background after ready.
func (b *Bot) Sweep(ctx context.Context, budget float64) (checked, broken int) {
	if budget <= 0 {
		return 0, 0
	}
	budget = min(budget, 1)
	start := time.Now()
	after := int64(0)
	for {
		ids, err := b.Store.ActiveGameIDs(ctx, b.shardFilter(), after, sweepBatch)
		if err != nil {
			if ctx.Err() == nil {
				b.Log.Warn("integrity sweep: list active games", "err", err)
			}
			return checked, broken
		}
		for _, id := range ids {
			after = id
			if b.Checked(id) {
				continue
			}
			t0 := time.Now()
			rec, err := b.Store.GameByID(ctx, id)
			if err != nil {
				continue // ended or deleted meanwhile
			}
			b.checkOnce(ctx, rec)
			if !b.Checked(id) {
				return checked, broken // stopped
			}
			checked++
			if b.Paused(id) != nil {
				broken++
			}
			if budget < 1 {
				rest := time.Duration(float64(time.Since(t0)) * (1 - budget) / budget)
				select {
				case <-time.After(rest):
				case <-ctx.Done():
					return checked, broken
				case <-b.stopping:
					return checked, broken
				}
			}
		}
		if len(ids) < sweepBatch {
			b.Log.Info("integrity sweep done", "checked", checked, "broken", broken, "took", time.Since(start).Round(time.Millisecond))
			return checked, broken
		}
	}
}
