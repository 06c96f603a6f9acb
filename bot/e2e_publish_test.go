package bot_test

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/rfop/rfop/engine"
	"github.com/rfop/rfop/internal/fakediscord"
	"github.com/rfop/rfop/storage"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// decidersOf are the users who must decide now in a two-player game.
func (h *harness) decidersOf(gameID int64) []string {
	rec := h.gameByID(gameID)
	var out []string
	for _, p := range h.engineGame(rec).Prompts() {
		if pl, ok := rec.Player(sideKey(p.Side)); ok && !pl.IsBot {
			out = append(out, pl.UserID)
		}
	}
	return out
}

func sideKey(s engine.Side) storage.Side {
	if s == engine.Versailles {
		return storage.SideVersailles
	}
	return storage.SideCommune
}

// TestE2EBoardIsTheNewestMessage pins the publication model: each call of
// a player is a new board (picture, summary, buttons, and the mention that
// notifies exactly the deciders); the previous board keeps only its text;
// when nobody new must decide (the second half of the simultaneous
// objective choice) the live board is edited in place. No separate ping
// messages. It holds across a restart.
func TestE2EBoardIsTheNewestMessage(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	rec := h.startChallenge(chanID, "versailles")
	first := h.requireOneLiveBoard(chanID)
	assert.ElementsMatch(t, []string{alice, bob}, h.srv.MessageHistory(first.ID)[0].Notified, "both choose an objective: both are called")
	assert.Contains(t, first.Content, "to choose an objective")

	// Alice chooses her objective; Bob was already called: edited in place.
	r := rand.New(rand.NewPCG(12, 13))
	require.True(t, h.takeTurn(alice, chanID, r))
	live := h.requireOneLiveBoard(chanID)
	require.Equal(t, first.ID, live.ID, "no new board while Bob still chooses")
	assert.Greater(t, live.Version, first.Version)
	assert.Empty(t, live.Notified, "an edit notifies nobody")
	assert.Contains(t, live.Content, "Versailles has chosen its objective")
	assert.Contains(t, live.Content, "Game set up", "the in-place edit keeps the board's earlier lines")
	assert.Contains(t, live.Content, "Waiting for <@"+bob+"> (Commune) to choose an objective.")

	check := func() {
		t.Helper()
		live := h.requireOneLiveBoard(chanID)
		created := h.srv.MessageHistory(live.ID)[0]
		deciders := h.decidersOf(rec.ID)
		require.NotEmpty(t, deciders)
		if live.Version == 0 {
			// The mover is at the table: only the others are called.
			assert.ElementsMatch(t, calledAfter(deciders, h.lastMover(rec.ID)), created.Notified, "the new board notifies exactly the deciders")
		} else {
			// Edited in place since: a new round's board called both
			// players, and the mover has already chosen.
			assert.Subset(t, created.Notified, deciders, "the board called the deciders")
		}
		for _, u := range deciders {
			assert.Contains(t, live.Content, "<@"+u+">")
		}
		assert.Regexp(t, `Waiting for <@\d+> \((Versailles|Commune)\) .*to [a-z]`, live.Content)
		assert.NotRegexp(t, `\((play|objective|free-cube|fc-[a-z]+|ops-[a-z]+)\)`, live.Content, "no engine identifiers")
	}
	for chains := 0; chains < 6; chains++ {
		h.clock.Advance(10 * time.Minute) // the players take their time
		require.True(t, h.takeTurn(h.decidersOf(rec.ID)[0], chanID, r))
		check()
	}
	h.restart()
	for chains := 0; chains < 4; chains++ {
		h.clock.Advance(10 * time.Minute)
		require.True(t, h.takeTurn(h.decidersOf(rec.ID)[0], chanID, r))
		check()
	}
	boards := h.boardMessages(chanID)
	assert.GreaterOrEqual(t, len(boards), 10, "one board per call")
	for _, m := range h.srv.Messages(chanID) {
		assert.NotContains(t, m.Content, "your decision", "no separate ping messages")
	}
	stored, err := h.store.Messages(t.Context(), rec.ID, storage.KindBoard)
	require.NoError(t, err)
	require.Equal(t, boards[len(boards)-1].ID, stored[len(stored)-1].MessageID, "the live board is the latest recorded")
}

// A reminder is a new board calling the player; the previous board
// collapses, and the live buttons stay in the newest message.
func TestE2EReminderIsANewBoard(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	rec := h.startChallenge(chanID, "versailles")
	r := rand.New(rand.NewPCG(4, 4))
	h.playUntil(rec.ID, chanID, []string{alice, bob}, r, func(g storage.Game) bool {
		ps := h.engineGame(g).Prompts()
		return len(ps) == 1 && ps[0].Kind == engine.PromptPlay
	})
	before := h.requireOneLiveBoard(chanID)
	h.clock.Advance(25 * time.Hour)
	h.b.Remind(t.Context())
	live := h.requireOneLiveBoard(chanID)
	require.NotEqual(t, before.ID, live.ID)
	assert.Contains(t, live.Content, "is waiting for you")
	assert.Equal(t, h.decidersOf(rec.ID), live.Notified)
	assert.Contains(t, h.srv.Message(before.ID).Content, "Red Flag Over Paris", "the old board keeps its text")
}

// A publication committed while a reminder held the game's outbox lease
// (another process's move, whose delivery found the lease taken) is
// delivered once the reminder's board is recorded and the lease ended:
// the recording reports it pending.
func TestE2EReminderDeliversWhatWaitedForItsLease(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	rec := h.startChallenge(chanID, "versailles")
	r := rand.New(rand.NewPCG(4, 4))
	h.playUntil(rec.ID, chanID, []string{alice, bob}, r, func(g storage.Game) bool {
		ps := h.engineGame(g).Prompts()
		return len(ps) == 1 && ps[0].Kind == engine.PromptPlay
	})
	require.NoError(t, h.b.WaitPublished(h.ctx))
	rec = h.gameByID(rec.ID)
	ctx := t.Context()
	claimed := 0
	h.wrap = func(s storage.Store) storage.Store {
		return &claimHookStore{Store: s, claimed: func(id int64) {
			// Under the reminder's lease: the other process's entry.
			claimed++
			assert.NoError(t, s.Enqueue(ctx, storage.OutboxEntry{GameID: id, Version: rec.StateVersion, Kind: "board"}))
		}}
	}
	h.restart()
	require.NoError(t, h.b.WaitPublished(h.ctx))
	before := h.requireOneLiveBoard(chanID)
	h.clock.Advance(25 * time.Hour)
	h.b.Remind(ctx)
	require.Equal(t, 1, claimed, "one reminder")
	require.NoError(t, h.b.WaitPublished(ctx))
	pending, err := h.store.PendingOutbox(ctx, rec.ID)
	require.NoError(t, err)
	assert.Empty(t, pending, "delivered after the reminder")
	require.NotEqual(t, before.ID, h.requireOneLiveBoard(chanID).ID)
}

// /rfop board posts the board again as the newest message (answered
// privately), collapsing the previous one and calling nobody.
func TestE2EBoardCommandReposts(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.startChallenge(chanID, "versailles")
	before := h.requireOneLiveBoard(chanID)
	i, _ := h.command(carol, guildID, chanID, fakediscord.SubCmd("board"))
	answer := h.settled(i)
	assert.True(t, answer.Ephemeral())
	assert.Contains(t, answer.Content, "posted below")
	live := h.requireOneLiveBoard(chanID)
	require.NotEqual(t, before.ID, live.ID)
	assert.Empty(t, live.Notified, "a repost calls nobody")
	assert.True(t, strings.HasPrefix(live.Content, "**Red Flag Over Paris — game #"))
}

// A board deleted by a moderator is forgotten: an in-place edit that fails
// posts a new board, and a collapse that fails is not retried.
func TestE2EDeletedBoardIsReplaced(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	rec := h.startChallenge(chanID, "versailles")
	r := rand.New(rand.NewPCG(5, 5))
	// Open the panel, the board is deleted, then decide.
	decideAfterDeleting := func(user string, board *fakediscord.Message) {
		t.Helper()
		resp, err := h.srv.ClickLabel(user, board, "Take my turn").WaitResponse(h.ctx)
		require.NoError(t, err)
		require.NoError(t, h.dg.ChannelMessageDelete(chanID, board.ID))
		panel := resp.Message
		for {
			if b, s := choiceComponents(panel); len(b)+len(s) == 0 {
				return
			}
			panel = h.choose(user, panel, r)
		}
	}
	b1 := h.requireOneLiveBoard(chanID)
	// Alice's objective would edit the live board in place: it is gone.
	decideAfterDeleting(alice, b1)
	b2 := h.requireOneLiveBoard(chanID)
	require.NotEqual(t, b1.ID, b2.ID)
	assert.Contains(t, b2.Content, "Waiting for <@"+bob+"> (Commune) to choose an objective.")
	// Bob's choice calls the next player: a new board; the deleted one
	// cannot collapse and is forgotten.
	decideAfterDeleting(bob, b2)
	b3 := h.requireOneLiveBoard(chanID)
	require.NotEqual(t, b2.ID, b3.ID)
	stored, err := h.store.Messages(t.Context(), rec.ID, storage.KindBoard)
	require.NoError(t, err)
	require.NotEmpty(t, stored)
	for _, m := range stored {
		assert.NotContains(t, []string{b1.ID, b2.ID}, m.MessageID, "deleted boards are forgotten")
	}
	assert.Empty(t, h.srv.Unknown())
}

// claimHookStore calls claimed after each reminder it claims, while the
// reminder holds the game's outbox lease.
type claimHookStore struct {
	storage.Store
	claimed func(gameID int64)
}

func (s *claimHookStore) ClaimReminderOutbox(ctx context.Context, id int64, holder storage.LeaseHolder, now, until, seen, at time.Time, next storage.Due) (bool, storage.Message, error) {
	ok, live, err := s.Store.ClaimReminderOutbox(ctx, id, holder, now, until, seen, at, next)
	if ok && err == nil {
		s.claimed(id)
	}
	return ok, live, err
}
