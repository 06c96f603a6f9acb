package bot_test

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rfop/rfop/bot"
	"github.com/rfop/rfop/engine"
	"github.com/rfop/rfop/glossary"
	"github.com/rfop/rfop/internal/fakediscord"
	"github.com/rfop/rfop/internal/testctx"
	"github.com/rfop/rfop/render"
	"github.com/rfop/rfop/storage"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Issue 18: custom decks reach every picture, and a game keeps playing
// with the deck it started with after the deck file or a release changes.

// writeDeck writes the embedded deck with every card renamed
// prefix+number and its text replaced, indented or compact.
func writeDeck(t *testing.T, path, prefix string, indent bool) {
	t.Helper()
	var f map[string][]map[string]any
	require.NoError(t, json.Unmarshal(engine.DefaultDeck().Canonical(), &f))
	for _, c := range f["cards"] {
		n := strconv.Itoa(int(c["num"].(float64)))
		c["name"] = prefix + n
		c["text"] = prefix + n + "'s own text."
	}
	b, err := json.Marshal(f)
	require.NoError(t, err)
	if indent {
		var out bytes.Buffer
		require.NoError(t, json.Indent(&out, b, "", "    "))
		b = append(out.Bytes(), '\n', '\n')
	}
	require.NoError(t, os.WriteFile(path, b, 0o644))
}

func loadDeck(t *testing.T, path string) *engine.Deck {
	t.Helper()
	d, err := engine.LoadDeckFile(path)
	require.NoError(t, err)
	return d
}

// handPNG draws side's hand in a stored game with deck, as the bot should.
func handPNG(t *testing.T, rec storage.Game, deck *engine.Deck, side engine.Side) []byte {
	t.Helper()
	g, err := engine.Load(rec.State, deck)
	require.NoError(t, err)
	r, err := render.NewFor(deck, glossary.English)
	require.NoError(t, err)
	v := g.ViewFor(side)
	png, err := r.RenderHand(&v)
	require.NoError(t, err)
	return png
}

func newHarnessWithDeck(t *testing.T, deck *engine.Deck) *harness {
	t.Helper()
	h := &harness{t: t, srv: fakediscord.New(t, defaultGuild(), botAPIVersion(), discordSpec(t)), dbPath: filepath.Join(t.TempDir(), "rfop.db"), seed: 7,
		clock: &offsetClock{}, deck: deck}
	h.start()
	t.Cleanup(h.stop)
	return h
}

// lastDMPicture is the newest hand picture DMed to user.
func (h *harness) lastDMPicture(user string) (*fakediscord.Message, []byte) {
	h.t.Helper()
	dms := h.srv.DMs(user)
	for k := len(dms) - 1; k >= 0; k-- {
		if a := dms[k].Attachment("hand.png"); a != nil {
			return dms[k], a.Data
		}
	}
	h.t.Fatalf("no hand picture DMed to %s", user)
	return nil, nil
}

func TestE2ECustomDeckKeptByItsGames(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "deck.json")
	writeDeck(t, path, "Custom #", true)
	d1 := loadDeck(t, path)
	require.NotEqual(t, engine.DefaultDeck().ID, d1.ID)
	h := newHarnessWithDeck(t, d1)

	// The hand DM: its text and its picture name the custom cards.
	rec := h.startChallenge(chanID, "versailles") // alice plays Versailles
	require.True(t, h.srv.WaitFor(h.ctx, func() bool {
		for _, m := range h.srv.DMs(alice) {
			if m.Attachment("hand.png") != nil {
				return true
			}
		}
		return false
	}))
	dm, got := h.lastDMPicture(alice)
	assert.Contains(t, dm.Content, "Custom #")
	want := handPNG(t, h.gameByID(rec.ID), d1, engine.Versailles)
	assert.True(t, bytes.Equal(want, got), "the hand picture is drawn with the game's deck")
	assert.False(t, bytes.Equal(handPNG(t, h.gameByID(rec.ID), engine.DefaultDeck().Relabel(d1.ID), engine.Versailles), got),
		"and not with the built-in texts")

	// /rfop card: the picture of the custom card.
	i, _ := h.command(carol, guildID, chanID, fakediscord.SubCmd("card", fakediscord.StrArg("name", "5")))
	m := h.settled(i)
	assert.Contains(t, m.Content, "Custom #5")
	r1, err := render.NewFor(d1, glossary.English)
	require.NoError(t, err)
	card5, err := r1.RenderCard(5)
	require.NoError(t, err)
	require.NotNil(t, m.Attachment("card-5.png"))
	assert.True(t, bytes.Equal(card5, m.Attachment("card-5.png").Data))

	r := rand.New(rand.NewPCG(18, 1))
	users := []string{alice, bob}
	rec = h.playUntil(rec.ID, chanID, users, r, func(g storage.Game) bool { return g.StateVersion >= 4 })

	// The file is reformatted: same deck, the game plays on.
	writeDeck(t, path, "Custom #", false)
	same := loadDeck(t, path)
	require.Equal(t, d1.ID, same.ID, "formatting does not change a deck's identity")
	h.deck = same
	h.restart()
	require.NoError(t, h.store.VerifyGame(t.Context(), rec.ID, h.b.Verify))
	rec = h.playUntil(rec.ID, chanID, users, r, func(g storage.Game) bool { return g.StateVersion >= 8 })

	// A real edit (as a release improving cards would): the running game
	// keeps its own deck, new games get the new one.
	writeDeck(t, path, "Edited #", true)
	d2 := loadDeck(t, path)
	require.NotEqual(t, d1.ID, d2.ID)
	h.deck = d2
	h.restart()
	require.NoError(t, h.store.VerifyGame(t.Context(), rec.ID, h.b.Verify), "the game is not paused")
	rec = h.playUntil(rec.ID, chanID, users, r, func(g storage.Game) bool { return g.StateVersion >= 12 })
	id, err := engine.DeckIDOf(h.gameByID(rec.ID).State)
	require.NoError(t, err)
	assert.Equal(t, d1.ID, id)
	i, _ = h.command(alice, guildID, chanID, fakediscord.SubCmd("hand"))
	m = h.settled(i)
	assert.Contains(t, m.Content, "Custom #")
	assert.NotContains(t, m.Content, "Edited #")
	i, _ = h.command(carol, guildID, chanID, fakediscord.SubCmd("card", fakediscord.StrArg("name", "5")))
	assert.Contains(t, h.settled(i).Content, "Custom #5", "/rfop card describes the channel's game's cards")
	i, _ = h.command(carol, guildID, staffID, fakediscord.SubCmd("card", fakediscord.StrArg("name", "5")))
	assert.Contains(t, h.settled(i).Content, "Edited #5", "and the current deck elsewhere")
	if a := m.Attachment("hand.png"); a != nil {
		assert.True(t, bytes.Equal(handPNG(t, h.gameByID(rec.ID), d1, engine.Versailles), a.Data))
	}

	fresh := h.startChallenge(chan2ID, "versailles")
	id, err = engine.DeckIDOf(fresh.State)
	require.NoError(t, err)
	assert.Equal(t, d2.ID, id, "a new game starts with the new deck")
	require.True(t, h.srv.WaitFor(h.ctx, func() bool {
		dm, _ := h.lastDMPicture(alice)
		return strings.Contains(dm.Content, "<#"+chan2ID+">")
	}))
	dm, got = h.lastDMPicture(alice)
	assert.Contains(t, dm.Content, "Edited #")
	assert.True(t, bytes.Equal(handPNG(t, fresh, d2, engine.Versailles), got))

	// Both games play on.
	h.playUntil(rec.ID, chanID, users, r, func(g storage.Game) bool { return g.StateVersion >= 16 })
	h.playUntil(fresh.ID, chan2ID, users, r, func(g storage.Game) bool { return g.StateVersion >= 4 })
	require.NoError(t, h.store.VerifyGame(t.Context(), fresh.ID, h.b.Verify))
}

// A game saved before decks were kept names only a deck id (the hash of
// the file's bytes) that the database does not hold. At start-up it adopts
// the current deck if its log replays with it, and keeps that deck after
// later changes; if its log does not replay, it is paused with the reason.
func TestE2EGameSavedBeforeDecksWereKept(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	users := []string{alice, bob}
	r := rand.New(rand.NewPCG(5, 6))
	rec := h.startChallenge(chanID, "versailles")
	rec = h.playUntil(rec.ID, chanID, users, r, func(g storage.Game) bool { return g.StateVersion >= 6 })
	broken := h.startChallenge(chan2ID, "commune")
	broken = h.playUntil(broken.ID, chan2ID, users, r, func(g storage.Game) bool { return g.StateVersion >= 6 })
	h.stop()

	const oldID, oldID2 = "0123456789abcdef", "fedcba9876543210"
	db, err := sql.Open("sqlite3", h.dbPath)
	require.NoError(t, err)
	relabel := func(id int64, deckID string, tamper bool) {
		var state []byte
		require.NoError(t, db.QueryRow(`SELECT state FROM games WHERE id = ?`, id).Scan(&state))
		if tamper { // a log that does not replay to the state
			g, err := engine.Load(state, nil)
			require.NoError(t, err)
			from := engine.Royalists
			for g.S.Cubes[engine.Versailles][from] == 0 {
				from++
			}
			g.S.Cubes[engine.Versailles][from]--
			g.S.Cubes[engine.Versailles][engine.Republicans]++
			state, err = g.Save()
			require.NoError(t, err)
		}
		// Replace the id in place (a map round trip would lose the
		// precision of the random source's 64-bit state).
		was := `"deckId":"` + engine.DefaultDeck().ID + `"`
		require.Contains(t, string(state), was)
		state = bytes.ReplaceAll(state, []byte(was), []byte(`"deckId":"`+deckID+`"`)) // the undo point keeps a copy
		_, err = db.Exec(`UPDATE games SET state = ? WHERE id = ?`, string(state), id)
		require.NoError(t, err)
	}
	relabel(rec.ID, oldID, false)
	relabel(broken.ID, oldID2, true)
	require.NoError(t, db.Close())

	h.start()
	// Nothing is checked at start-up: the background sweep (Run starts it
	// once ready) checks both games, adopting the deck of the one whose
	// log replays with the current deck and pausing the other.
	swept, failed := h.b.Sweep(h.ctx, 1)
	assert.Equal(t, 2, swept)
	assert.Equal(t, 1, failed)
	content, err := h.store.Deck(t.Context(), oldID)
	require.NoError(t, err, "the adopted deck is kept under the id the game names")
	assert.Equal(t, engine.DefaultDeck().Canonical(), content)
	require.NoError(t, h.store.VerifyGame(t.Context(), rec.ID, h.b.Verify))
	rec = h.playUntil(rec.ID, chanID, users, r, func(g storage.Game) bool { return g.StateVersion >= 10 })

	_, resp := h.command(bob, guildID, chan2ID, fakediscord.SubCmd("turn"))
	assert.Contains(t, resp.Content, "is paused: it was saved before the bot kept each game's cards")
	_, err = h.store.Deck(t.Context(), oldID2)
	require.ErrorIs(t, err, storage.ErrNotFound, "nothing adopted for a game that does not replay")

	// A later deck change no longer reaches the adopted game.
	path := filepath.Join(t.TempDir(), "deck.json")
	writeDeck(t, path, "Later #", false)
	h.deck = loadDeck(t, path)
	h.restart()
	require.NoError(t, h.store.VerifyGame(t.Context(), rec.ID, h.b.Verify))
	i, _ := h.command(alice, guildID, chanID, fakediscord.SubCmd("hand"))
	assert.NotContains(t, h.settled(i).Content, "Later #")
	rec = h.playUntil(rec.ID, chanID, users, r, func(storage.Game) bool { return false })
	assert.Equal(t, storage.StatusFinished, rec.Status)
}

// RFOP_DECK through Run: the deck is loaded before anything draws or
// describes cards, so the first hand DM's picture shows the custom cards;
// an oversized file stops the start at once with the reason: refused by
// its size, unread, before anything reaches Discord or the database.
func TestRunWithADeckFile(t *testing.T) {
	t.Parallel()
	wait := testctx.Context(t)
	huge := filepath.Join(t.TempDir(), "huge.json")
	f, err := os.Create(huge)
	require.NoError(t, err)
	require.NoError(t, f.Truncate(105<<20))
	require.NoError(t, f.Close())
	untouched := fakediscord.New(t, defaultGuild())
	hugeDB := filepath.Join(t.TempDir(), "rfop.db")
	err = bot.Run(wait, bot.Config{Token: "x", DBPath: hugeDB, DeckPath: huge, APIBase: untouched.URL()})
	require.ErrorContains(t, err, "a deck may have at most 1048576 bytes")
	require.ErrorContains(t, err, "the deck is 110100480 bytes", "refused by its size, before reading it")
	assert.Empty(t, untouched.Requests(), "nothing reached Discord")
	assert.Zero(t, untouched.GatewayStats().Identifies, "no gateway connection")
	assert.NoFileExists(t, hugeDB, "no database was opened")

	path := filepath.Join(t.TempDir(), "deck.json")
	writeDeck(t, path, "Custom #", true)
	deck := loadDeck(t, path)
	srv := fakediscord.New(t, defaultGuild(), botAPIVersion(), discordSpec(t))
	dbPath := filepath.Join(t.TempDir(), "rfop.db")
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		done <- bot.Run(ctx, bot.Config{Token: "x", DBPath: dbPath, DeckPath: path, APIBase: srv.URL(),
			Pictures: sharedPictures(t), Solo: bot.DefaultSolo(), Ready: func() { close(ready) }})
	}()
	defer func() {
		cancel()
		require.NoError(t, <-done)
	}()
	select {
	case <-ready:
	case err := <-done:
		t.Fatalf("Run stopped: %v", err)
	case <-wait.Done():
		t.Fatal("Run did not become ready")
	}
	i := srv.SlashCommand(alice, guildID, chanID, "rfop", fakediscord.SubCmd("new",
		fakediscord.UserArg("opponent", bob), fakediscord.StrArg("side", "versailles")))
	resp, err := i.WaitResponse(wait)
	require.NoError(t, err)
	_, err = srv.ClickLabel(bob, resp.Message, "Accept").WaitResponse(wait)
	require.NoError(t, err)
	dm, err := srv.WaitMessage(wait, func(m *fakediscord.Message) bool {
		return m.ChannelID == srv.DMChannelID(alice) && m.Attachment("hand.png") != nil
	})
	require.NoError(t, err)
	assert.Contains(t, dm.Content, "Custom #")

	store, err := storage.Open(t.Context(), dbPath)
	require.NoError(t, err)
	defer store.Close()
	rec, err := store.GameByChannel(t.Context(), chanID)
	require.NoError(t, err)
	assert.True(t, bytes.Equal(handPNG(t, rec, deck, engine.Versailles), dm.Attachment("hand.png").Data),
		"the hand picture is drawn with the deck file")
}
