package bot

import (
	"context"
	"errors"
	"fmt"

	"github.com/rfop/rfop/engine"
	"github.com/rfop/rfop/storage"
)

// Decks. A game plays with the deck it started with: its state names the
// deck's id (the hash of the deck's canonical form, engine.Deck.ID), and
// the deck itself is kept in the database under that id (saveDeck, when a
// game starts). So changing the deck file, or a release that improves a
// provisional card, changes the cards of new games only.
//
// Games saved before decks were kept name an id that is not in the
// database (the hash of the deck file's bytes at the time). At start-up
// (checkDeck) such a game adopts the bot's current deck if its action log
// replays to its saved state with it: everything played so far is the
// same with those cards. The adopted deck is then stored under the id the
// game names, so later changes no longer affect it. A game whose log does
// not replay with the current deck is paused, with the reason.

// errNoDeck: the deck a game names is neither the bot's nor in the
// database.
var errNoDeck = errors.New("its deck is not stored")

// deckOf returns the deck a game plays with.
func (b *Bot) deckOf(ctx context.Context, rec storage.Game) (*engine.Deck, error) {
	id, err := engine.DeckIDOf(rec.State)
	if err != nil {
		return nil, fmt.Errorf("game %d: %w", rec.ID, err)
	}
	if id == b.Deck.ID {
		return b.Deck, nil
	}
	b.mu.Lock()
	d, ok := b.decks[id]
	b.mu.Unlock()
	if ok {
		return d, nil
	}
	content, err := b.Store.Deck(ctx, id)
	if errors.Is(err, storage.ErrNotFound) {
		return nil, fmt.Errorf("game %d: deck %s: %w", rec.ID, id, errNoDeck)
	}
	if err != nil {
		return nil, fmt.Errorf("game %d: %w", rec.ID, err)
	}
	d, err = engine.ParseDeck(content)
	if err != nil {
		return nil, fmt.Errorf("game %d: stored deck %s: %w", rec.ID, id, err)
	}
	if d.ID != id {
		d = d.Relabel(id) // a deck adopted by a game saved before decks were kept
	}
	b.mu.Lock()
	b.decks[id] = d
	b.mu.Unlock()
	return d, nil
}

// channelDeck is the deck of the channel's running game (/rfop card
// describes the cards that game plays with), else the bot's deck.
func (b *Bot) channelDeck(ctx context.Context, channelID string) *engine.Deck {
	rec, err := b.Store.GameByChannel(ctx, channelID)
	if err != nil || rec.State == nil {
		return b.Deck
	}
	if d, err := b.deckOf(ctx, rec); err == nil {
		return d
	}
	return b.Deck
}

// saveDeck stores the bot's current deck (once per process).
func (b *Bot) saveDeck(ctx context.Context) error {
	b.mu.Lock()
	done := b.saved
	b.mu.Unlock()
	if done {
		return nil
	}
	if err := b.Store.SaveDeck(ctx, b.Deck.ID, b.Deck.Canonical()); err != nil {
		return fmt.Errorf("store the deck: %w", err)
	}
	b.mu.Lock()
	b.saved = true
	b.mu.Unlock()
	return nil
}

// checkDeck makes sure an active game's deck is available, adopting the
// current deck for a game saved before decks were kept (see above).
func (b *Bot) checkDeck(ctx context.Context, rec storage.Game) error {
	_, err := b.deckOf(ctx, rec)
	if !errors.Is(err, errNoDeck) {
		return err
	}
	id, _ := engine.DeckIDOf(rec.State)
	candidate := b.Deck.Relabel(id)
	_, _, verr := b.Store.LoadVerified(ctx, rec.ID, func(g storage.Game, actions []storage.Action) error {
		return verifyWith(g, actions, candidate)
	})
	if verr != nil {
		return fmt.Errorf("%w: the game was saved before decks were kept, and its moves do not replay with the current deck %s: %w",
			errDeckChanged, b.Deck.ID, verr)
	}
	if err := b.Store.SaveDeck(ctx, id, b.Deck.Canonical()); err != nil {
		return fmt.Errorf("game %d: keep its deck: %w", rec.ID, err)
	}
	b.mu.Lock()
	b.decks[id] = candidate
	b.mu.Unlock()
	b.Log.Info("game saved before decks were kept: adopted the current deck", "game", rec.ID, "deck", b.Deck.ID, "as", id)
	return nil
}

// errDeckChanged: a game's cards cannot be recovered (see above).
var errDeckChanged = errors.New("paused: the deck it started with is no longer available")
