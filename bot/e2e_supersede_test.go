package bot_test

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/rfop/rfop/bot"
	"github.com/rfop/rfop/engine"
	"github.com/rfop/rfop/internal/fakediscord"
	"github.com/rfop/rfop/storage"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// holdAt arms a crash hook that stops the publisher at the first step
// named step once armed: reached is closed there, and the hook returns
// crash once release is closed.
func holdAt(h *harness, step string, crash bool) (arm func(), reached, release chan struct{}) {
	var armed, held atomic.Bool
	reached, release = make(chan struct{}), make(chan struct{})
	bot.SetCrashHook(h.b, func(_ int64, s string) bool {
		if !armed.Load() || s != step || !held.CompareAndSwap(false, true) {
			return false
		}
		close(reached)
		select {
		case <-release:
		case <-h.ctx.Done():
		}
		return crash
	})
	h.t.Cleanup(func() {
		if !isClosed(release) {
			close(release)
		}
	})
	return func() { armed.Store(true) }, reached, release
}

// waitReached waits, within the test's bound, for the held step.
func (h *harness) waitReached(reached chan struct{}) {
	h.t.Helper()
	select {
	case <-reached:
	case <-h.ctx.Done():
		h.t.Fatalf("the publisher never reached the held step: %v", h.ctx.Err())
	}
}

// cardPlayGame starts a challenge in chanID (alice Versailles) and plays
// it with rand seed (30, seed) until a card play is to be decided; r goes
// on from there.
func cardPlayGame(t *testing.T, seed uint64) (h *harness, rec storage.Game, r *rand.Rand) {
	t.Helper()
	h = newHarness(t)
	r = rand.New(rand.NewPCG(30, seed))
	return h, h.untilCardPlay(h.startChallenge(chanID, "versailles"), r), r
}

// boardEntries are the game's board entries after version v, oldest first.
func (h *harness) boardEntries(gameID, v int64) []storage.OutboxEntry {
	h.t.Helper()
	var out []storage.OutboxEntry
	for ver := v + 1; ver <= h.gameByID(gameID).StateVersion; ver++ {
		batch, err := h.store.OutboxBatch(context.Background(), gameID, ver)
		require.NoError(h.t, err)
		for _, e := range batch {
			if e.Kind == "board" {
				out = append(out, e)
			}
		}
	}
	return out
}

type entryOutcome struct {
	Message    string `json:"message"`
	Superseded int64  `json:"superseded"`
}

func outcomeOf(t *testing.T, e storage.OutboxEntry) entryOutcome {
	var o entryOutcome
	if len(e.Outcome) > 0 {
		require.NoError(t, json.Unmarshal(e.Outcome, &o))
	}
	return o
}

// untilCardPlay plays until a player is to play a card (each chain then
// calls the other player with a new board).
func (h *harness) untilCardPlay(rec storage.Game, r *rand.Rand) storage.Game {
	return h.playUntil(rec.ID, chanID, []string{alice, bob}, r, func(g storage.Game) bool {
		ps := h.engineGame(g).Prompts()
		return g.StateVersion > 4 && len(ps) == 1 && ps[0].Kind == engine.PromptPlay
	})
}

// chainsWhileHeld plays n decision chains (or until the game ends) while
// the publisher is held: each player decides from the last board posted.
func (h *harness) chainsWhileHeld(gameID int64, n int, r *rand.Rand) {
	for k := 0; k < n && h.gameByID(gameID).Status == storage.StatusActive; k++ {
		deciders := h.decidersOf(gameID)
		require.NotEmpty(h.t, deciders)
		require.True(h.t, h.chainNoWait(deciders[0], chanID, r), "%s had a decision", deciders[0])
	}
}

// Issue 30 "Publish only what is still current": the publisher is held
// at a board while the players make two more decision chains. Released,
// it posts only the newest board; the older boards (and their collapses)
// are marked done without a call, and the newest carries the log lines
// of every chain since the last board the channel saw.
func TestE2EOnlyTheNewestBoardIsPosted(t *testing.T) {
	t.Parallel()
	h, rec, r := cardPlayGame(t, 1)
	seen := rec.StateVersion // the live board shows this version
	before := len(h.boardMessages(chanID))

	arm, reached, release := holdAt(h, "board", false)
	arm()
	h.chainsWhileHeld(rec.ID, 1, r)
	h.waitReached(reached)
	h.chainsWhileHeld(rec.ID, 2, r)
	boards := h.boardEntries(rec.ID, seen)
	require.GreaterOrEqual(t, len(boards), 3, "three boards wait")
	close(release)
	require.NoError(t, h.b.WaitPublished(h.ctx))

	pending, err := h.store.PendingOutbox(h.ctx, rec.ID)
	require.NoError(t, err)
	assert.Empty(t, pending)
	boards = h.boardEntries(rec.ID, seen)
	newest := boards[len(boards)-1]
	for _, e := range boards[:len(boards)-1] {
		o := outcomeOf(t, e)
		assert.Empty(t, o.Message, "the board of version %d was not posted", e.Version)
		assert.Equal(t, newest.ID, o.Superseded, "the board of version %d is superseded by the newest", e.Version)
	}
	require.NotEmpty(t, outcomeOf(t, newest).Message, "the newest board is posted")
	assert.Len(t, h.boardMessages(chanID), before+1, "one new board in the channel")
	live := h.requireOneLiveBoard(chanID)
	assert.Equal(t, outcomeOf(t, newest).Message, live.ID)
	h.requireNoDuplicateBoards(rec.ID)

	// Its lines: every public line since the board the channel saw (the
	// newest ones if they are more than a board shows).
	var lines []string
	g := h.engineGame(h.gameByID(rec.ID))
	for _, e := range g.S.Log {
		if e.Version >= int(seen) && e.To == engine.NoSide && e.Version < int(newest.Version) {
			if n, ok := e.Note(); ok || n != "" {
				continue
			}
			lines = append(lines, e.English(g.Deck()))
		}
	}
	require.NotEmpty(t, lines)
	if len(lines) > 8 {
		lines = lines[len(lines)-8:]
	}
	for _, l := range lines {
		assert.Contains(t, live.Content, l, "the newest board carries the lines of the chains it superseded")
	}
	// The game goes on.
	h.playUntil(rec.ID, chanID, []string{alice, bob}, r, func(g storage.Game) bool { return g.StateVersion >= newest.Version+4 })
	h.requireOneLiveBoard(chanID)
}

// Issue 30, crash safety: a skipped board is never one a crash recovery
// needs. The bot dies right after posting a board, before noting it,
// while two newer boards wait. The restarted bot must not supersede the
// posted board (it is in the channel): it finds and records it, collapses
// it, and then posts only the newest of the others.
func TestE2EABoardPostedBeforeACrashIsNeverSuperseded(t *testing.T) {
	t.Parallel()
	h, rec, r := cardPlayGame(t, 2)
	seen := rec.StateVersion
	before := len(h.boardMessages(chanID))

	arm, reached, release := holdAt(h, "board-posted", true)
	arm()
	h.chainsWhileHeld(rec.ID, 1, r)
	h.waitReached(reached)
	require.Len(t, h.boardMessages(chanID), before+1, "the board is in the channel, not yet noted")
	posted := h.boardMessages(chanID)[before]
	h.chainsWhileHeld(rec.ID, 2, r)
	require.GreaterOrEqual(t, len(h.boardEntries(rec.ID, seen)), 3, "two newer boards wait")
	close(release) // the crash
	require.NoError(t, h.b.WaitPublished(h.ctx))
	h.restart()
	require.NoError(t, h.b.WaitPublished(h.ctx))

	pending, err := h.store.PendingOutbox(h.ctx, rec.ID)
	require.NoError(t, err)
	assert.Empty(t, pending)
	boards := h.boardEntries(rec.ID, seen)
	assert.Equal(t, posted.ID, outcomeOf(t, boards[0]).Message, "the board posted before the crash is recorded, not superseded")
	newest := boards[len(boards)-1]
	for _, e := range boards[1 : len(boards)-1] {
		assert.Equal(t, newest.ID, outcomeOf(t, e).Superseded, "the board of version %d is superseded", e.Version)
	}
	assert.Len(t, h.boardMessages(chanID), before+2, "the crashed board and the newest")
	h.requireNoDuplicateBoards(rec.ID)
	live := h.requireOneLiveBoard(chanID)
	assert.Equal(t, outcomeOf(t, newest).Message, live.ID)
	assert.True(t, strings.HasPrefix(live.Content, "**"), "a board")
}

// Issue 30: a board that waits behind a hand DM (whose picture may wait
// for a render slot under a burst) is posted first, with its collapse of
// the previous board; the DM follows.
func TestE2EABoardGoesBeforeTheDMItWaitsBehind(t *testing.T) {
	t.Parallel()
	h, rec, _ := cardPlayGame(t, 3)
	before := h.boardMessages(chanID)
	dms := len(h.srv.DMs(alice))

	// Queued in this order, as a deal's DM left waiting before a newer board.
	require.NoError(t, h.store.Enqueue(h.ctx, storage.OutboxEntry{GameID: rec.ID, Version: rec.StateVersion, Kind: "dm", Payload: []byte(`{"side":"versailles"}`)}))
	require.NoError(t, h.store.Enqueue(h.ctx,
		storage.OutboxEntry{GameID: rec.ID, Version: rec.StateVersion, Kind: "board", Payload: []byte(`{"fresh":true}`)},
		storage.OutboxEntry{GameID: rec.ID, Version: rec.StateVersion, Kind: "collapse"}))
	h.b.Redeliver(h.ctx)
	require.NoError(t, h.b.WaitPublished(h.ctx))

	pending, err := h.store.PendingOutbox(h.ctx, rec.ID)
	require.NoError(t, err)
	assert.Empty(t, pending)
	boards := h.boardMessages(chanID)
	require.Len(t, boards, len(before)+1, "the board is posted")
	require.Len(t, h.srv.DMs(alice), dms+1, "and the DM")
	board, dm := boards[len(boards)-1], h.srv.DMs(alice)[dms]
	boardAt, dmAt := h.firstEventOf(board.ID), h.firstEventOf(dm.ID)
	collapsedAt := h.lastEventOf(before[len(before)-1].ID)
	require.NotZero(t, boardAt)
	require.NotZero(t, dmAt)
	assert.Less(t, boardAt, dmAt, "the board before the DM queued ahead of it")
	assert.Less(t, collapsedAt, dmAt, "and the previous board's collapse")
	h.requireOneLiveBoard(chanID)
}

// firstEventOf is the place (from 1) of message id's first event (its
// creation) in the fake's message log, 0 if none.
func (h *harness) firstEventOf(id string) int {
	for k, ev := range h.srv.MessageEvents() {
		if ev.Message.ID == id {
			return k + 1
		}
	}
	return 0
}

// lastEventOf is the place (from 1) of message id's last event (its last
// edit) in the fake's message log, 0 if none.
func (h *harness) lastEventOf(id string) int {
	at := 0
	for k, ev := range h.srv.MessageEvents() {
		if ev.Message.ID == id {
			at = k + 1
		}
	}
	return at
}

// waitFor waits, within the test's bound, until cond holds (it polls:
// what it waits for is a publisher's progress, which sends no event).
func (h *harness) waitFor(what string, cond func() bool) {
	h.t.Helper()
	for !cond() {
		require.NoError(h.t, h.ctx.Err(), "waiting for %s", what)
		runtime.Gosched()
	}
}

// handDMWaitingForASlot holds every render slot and publishes a hand DM
// of Alice's at rec's version, whose picture then waits for a slot;
// release lets the pictures be drawn.
func (h *harness) handDMWaitingForASlot(rec storage.Game) (release func()) {
	release = bot.HoldRenderSlots(h.b)
	require.NoError(h.t, h.store.Enqueue(h.ctx, storage.OutboxEntry{GameID: rec.ID, Version: rec.StateVersion, Kind: "dm", Payload: []byte(`{"side":"versailles"}`)}))
	h.b.Redeliver(h.ctx)
	h.waitFor("the DM's picture to wait for a slot", func() bool { hands, _ := bot.RenderQueue(h.b); return hands == 1 })
	return release
}

// Issue 30: under a burst a deal's hand DM waits seconds for a render
// slot while its players move on, and their boards pile up behind it.
// They are compacted as they come (the older ones marked superseded,
// never posted) while the DM keeps its place in the render queue; once
// drawn, the DM goes out, then the newest board only.
func TestE2EBoardsBehindAHandDMWaitingToBeDrawnAreCompacted(t *testing.T) {
	t.Parallel()
	h, rec, r := cardPlayGame(t, 4)
	require.NoError(t, h.b.WaitPublished(h.ctx))
	before := h.boardMessages(chanID)
	dms := len(h.srv.DMs(alice))
	v := rec.StateVersion

	release := h.handDMWaitingForASlot(rec)

	h.chainsWhileHeld(rec.ID, 3, r)
	boards := h.boardEntries(rec.ID, v)
	require.GreaterOrEqual(t, len(boards), 2, "decision chains behind the DM")
	newest := boards[len(boards)-1]
	h.waitFor("the older boards compacted", func() bool {
		older := h.boardEntries(rec.ID, v)[:len(boards)-1]
		return !slices.ContainsFunc(older, func(e storage.OutboxEntry) bool { return e.DoneAt.IsZero() })
	})
	for _, e := range h.boardEntries(rec.ID, v)[:len(boards)-1] {
		o := outcomeOf(t, e)
		assert.True(t, o.Superseded > e.ID && o.Superseded <= newest.ID && o.Message == "",
			"board of version %d marked superseded by a newer one, never posted: %+v", e.Version, o)
	}
	h.waitFor("the DM back in its place", func() bool { hands, _ := bot.RenderQueue(h.b); return hands == 1 })
	assert.Len(t, h.srv.DMs(alice), dms, "the DM is not sent before its picture")
	assert.Len(t, h.boardMessages(chanID), len(before), "no board is posted past the DM")

	release()
	require.NoError(t, h.b.WaitPublished(h.ctx))
	require.Greater(t, len(h.srv.DMs(alice)), dms, "the DM is sent (and any of a deal the chains reached)")
	dm := h.srv.DMs(alice)[dms]
	assert.NotEmpty(t, dm.Attachments, "with its picture")
	after := h.boardMessages(chanID)
	require.Len(t, after, len(before)+1, "only the newest board is posted")
	board := after[len(after)-1]
	assert.Less(t, h.firstEventOf(dm.ID), h.firstEventOf(board.ID), "the DM first: it kept its place")
	assert.Equal(t, outcomeOf(t, h.boardEntries(rec.ID, v)[len(boards)-1]).Message, board.ID)
	h.requireOneLiveBoard(chanID)
}

// Issue 30: a deal's hand DMs are drawn in one turn of the render slot: a
// deal's publication is done once all its DMs are sent, and under a burst
// the second DM of each game, queued only after the first was sent,
// waited behind every other game's first.
func TestE2EADealsHandDMsAreDrawnInOneTurn(t *testing.T) {
	t.Parallel()
	h, rec, _ := cardPlayGame(t, 5)
	require.NoError(t, h.b.WaitPublished(h.ctx))
	aliceDMs, bobDMs := len(h.srv.DMs(alice)), len(h.srv.DMs(bob))

	release := bot.HoldRenderSlots(h.b)
	require.NoError(t, h.store.Enqueue(h.ctx,
		storage.OutboxEntry{GameID: rec.ID, Version: rec.StateVersion, Kind: "dm", Payload: []byte(`{"side":"versailles"}`)},
		storage.OutboxEntry{GameID: rec.ID, Version: rec.StateVersion, Kind: "dm", Payload: []byte(`{"side":"commune"}`)}))
	h.b.Redeliver(h.ctx)
	h.waitFor("the first DM's picture to wait for a slot", func() bool { hands, _ := bot.RenderQueue(h.b); return hands == 1 })
	_, turns := bot.RenderQueue(h.b)
	release()
	require.NoError(t, h.b.WaitPublished(h.ctx))

	_, after := bot.RenderQueue(h.b)
	assert.Equal(t, turns+1, after, "both pictures in one turn")
	for _, dms := range [][]*fakediscord.Message{h.srv.DMs(alice)[aliceDMs:], h.srv.DMs(bob)[bobDMs:]} {
		require.Len(t, dms, 1)
		assert.NotEmpty(t, dms[0].Attachments, "each with its hand")
	}
	assert.NotEqual(t, h.srv.DMs(alice)[aliceDMs].Content, h.srv.DMs(bob)[bobDMs].Content, "each player's own hand")
}

// Issue 30: a board behind a hand DM waiting for its picture goes ahead
// of it when the board's picture needs no render slot (drawn already for
// an identical board: 200 games started at once have alike first boards),
// so the channel is not held up by the hand pictures; the DM keeps its
// place in the render queue and goes out once drawn.
func TestE2EABoardAlreadyDrawnGoesAheadOfAWaitingHandDM(t *testing.T) {
	t.Parallel()
	h, rec, _ := cardPlayGame(t, 6)
	require.NoError(t, h.b.WaitPublished(h.ctx))
	live := h.requireOneLiveBoard(chanID)
	edited := h.lastEventOf(live.ID)
	dms := len(h.srv.DMs(alice))
	v := rec.StateVersion

	release := h.handDMWaitingForASlot(rec)
	// Behind it, the same board again: its picture was drawn when it was
	// posted.
	require.NoError(t, h.store.Enqueue(h.ctx, storage.OutboxEntry{GameID: rec.ID, Version: v, Kind: "board", Payload: []byte(`{}`)}))
	h.b.Redeliver(h.ctx)
	h.waitFor("the board edited ahead of the DM", func() bool { return h.lastEventOf(live.ID) > edited })
	h.waitFor("the DM back in its place", func() bool { hands, _ := bot.RenderQueue(h.b); return hands == 1 })
	assert.Len(t, h.srv.DMs(alice), dms, "the DM waits for its picture")

	release()
	require.NoError(t, h.b.WaitPublished(h.ctx))
	require.Len(t, h.srv.DMs(alice), dms+1)
	dm := h.srv.DMs(alice)[dms]
	assert.NotEmpty(t, dm.Attachments, "with its picture")
	assert.Less(t, h.lastEventOf(live.ID), h.firstEventOf(dm.ID), "the board went first")
	assert.Equal(t, live.ID, h.requireOneLiveBoard(chanID).ID, "edited in place")
}

// Issue 30: a board picture not drawn yet that two games want (games
// started together have alike first boards) is drawn in the background,
// for the boards to come: neither asker waits for it (a publisher waiting
// would hold its game's hand DM out of the render queue).
func TestE2EABoardPictureTwoGamesWantIsDrawnInTheBackground(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	a := h.startChallenge(chanID, "versailles")
	b := h.startChallenge(chan2ID, "versailles")
	require.NoError(t, h.b.WaitPublished(h.ctx))
	bot.ForgetBoardPictures(h.b)

	drawn, err := bot.SharedBoardPicture(h.ctx, h.b, a.ID)
	require.NoError(t, err)
	assert.False(t, drawn, "not drawn, and only one game wants it")
	drawn, err = bot.SharedBoardPicture(h.ctx, h.b, b.ID)
	require.NoError(t, err)
	assert.False(t, drawn, "the second game does not wait for it either")
	h.waitFor("the picture drawn in the background", func() bool {
		drawn, err := bot.SharedBoardPicture(h.ctx, h.b, a.ID)
		require.NoError(t, err)
		return drawn
	})
}
