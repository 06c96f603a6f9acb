package storage_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rfop/rfop/storage"
)

// fakeClock is a settable clock for WithClock.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time          { return c.t }
func (c *fakeClock) advance(d time.Duration) { c.t = c.t.Add(d) }
func newClock() *fakeClock                   { return &fakeClock{t: time.Date(1871, 3, 18, 5, 0, 0, 0, time.UTC)} }
func openClocked(t *testing.T, b backend) (storage.Store, *fakeClock) {
	c := newClock()
	return openStore(t, b.newDB(t), storage.WithClock(c.now)), c
}

func TestChallengeLifecycle(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		s, clock := openClocked(t, b)

		g, err := s.CreateGame(ctx, storage.NewGame{
			GuildID: "guild", ChannelID: "chan", Status: storage.StatusWaiting,
			Variant: "standard", Mode: storage.ModeTwoPlayer, Seed: 1871,
			CreatedBy: "alice", InviteeID: "bob",
		})
		require.NoError(t, err)
		assert.Equal(t, storage.StatusWaiting, g.Status)
		assert.Nil(t, g.State)
		assert.Empty(t, g.Players)
		assert.Equal(t, "bob", g.InviteeID)
		assert.Equal(t, clock.t, g.CreatedAt)
		assert.Equal(t, int64(1871), g.Seed)

		got, err := s.GameByChannel(ctx, "chan")
		require.NoError(t, err)
		assert.Equal(t, g, got)

		// No move before the challenge is accepted.
		_, err = s.ApplyMove(ctx, storage.Move{GameID: g.ID, Side: storage.SideCommune,
			Choice: []byte(`{}`), NewState: []byte(`{}`)})
		require.ErrorIs(t, err, storage.ErrWrongStatus)

		// Activation needs both sides.
		_, err = s.Activate(ctx, g.ID, stateJSON(0, 10), nil, storage.Player{Side: storage.SideCommune, UserID: "alice"})
		require.ErrorIs(t, err, storage.ErrInvalid)

		clock.advance(time.Hour)
		g, err = s.Activate(ctx, g.ID, stateJSON(0, 10), nil, players("bob", "alice")...)
		require.NoError(t, err)
		assert.Equal(t, storage.StatusActive, g.Status)
		assert.Equal(t, int64(0), g.StateVersion)
		assert.Equal(t, clock.t, g.LastActionAt)
		p, ok := g.Player(storage.SideCommune)
		require.True(t, ok)
		assert.Equal(t, "bob", p.UserID)
		assert.Equal(t, []storage.Side{storage.SideVersailles}, g.SidesOf("alice"))

		// Accepting twice (two clicks racing) is refused.
		_, err = s.Activate(ctx, g.ID, stateJSON(0, 10), nil, players("carol", "alice")...)
		require.ErrorIs(t, err, storage.ErrWrongStatus)

		for range 3 {
			clock.advance(time.Minute)
			g, err = s.ApplyMove(ctx, move(g, 100))
			require.NoError(t, err)
			assert.Equal(t, clock.t, g.LastActionAt)
		}
		// The last move ends the game.
		m := move(g, 100)
		m.Status, m.Result = storage.StatusFinished, []byte(`{"winner":"versailles","vp":-3}`)
		g, err = s.ApplyMove(ctx, m)
		require.NoError(t, err)
		assert.Equal(t, storage.StatusFinished, g.Status)
		assert.Equal(t, int64(4), g.StateVersion)
		assert.JSONEq(t, `{"winner":"versailles","vp":-3}`, string(g.Result))
		assert.Equal(t, clock.t, g.EndedAt)
		checkLog(t, s, g.ID)

		_, err = s.GameByChannel(ctx, "chan")
		require.ErrorIs(t, err, storage.ErrNotFound)
		_, err = s.ApplyMove(ctx, move(g, 100))
		require.ErrorIs(t, err, storage.ErrWrongStatus)
		_, err = s.Finish(ctx, g.ID, []byte(`{}`))
		require.ErrorIs(t, err, storage.ErrWrongStatus)
		_, err = s.Abandon(ctx, g.ID)
		require.ErrorIs(t, err, storage.ErrWrongStatus)

		byID, err := s.GameByID(ctx, g.ID)
		require.NoError(t, err)
		assert.Equal(t, g, byID)
	})
}

func TestSoloGame(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		s := openStore(t, b.newDB(t))
		// The bot's player is added when missing.
		g, err := s.CreateGame(ctx, storage.NewGame{ChannelID: "solo", Status: storage.StatusActive,
			Mode: storage.ModeSolo, BotSide: storage.SideVersailles, State: stateJSON(0, 1),
			Players: []storage.Player{{Side: storage.SideCommune, UserID: "alice"}}})
		require.NoError(t, err)
		bot, ok := g.Player(storage.SideVersailles)
		require.True(t, ok)
		assert.True(t, bot.IsBot)
		assert.Empty(t, bot.UserID)

		// The bot's moves are logged like any other.
		m := move(g, 10)
		m.Side, m.UserID = storage.SideVersailles, ""
		_, err = s.ApplyMove(ctx, m)
		require.NoError(t, err)
		acts, err := s.Actions(ctx, g.ID)
		require.NoError(t, err)
		require.Len(t, acts, 1)
		assert.Equal(t, storage.SideVersailles, acts[0].Side)
	})
}

// The AI opponent plays one side of a two-player game: a bot player whose
// user id names it (issue 14).
func TestAIGame(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		s := openStore(t, b.newDB(t))
		g, err := s.CreateGame(ctx, storage.NewGame{ChannelID: "ai", Status: storage.StatusActive,
			Mode: storage.ModeTwoPlayer, State: stateJSON(0, 1),
			Players: []storage.Player{{Side: storage.SideCommune, UserID: "alice"}, {Side: storage.SideVersailles, UserID: "ai:hard", IsBot: true}}})
		require.NoError(t, err)
		p, ok := g.Player(storage.SideVersailles)
		require.True(t, ok)
		assert.True(t, p.IsAI())
		assert.Equal(t, "ai:hard", p.UserID)
		assert.Equal(t, []storage.Side{storage.SideCommune}, g.SidesOf("alice"))
		assert.Empty(t, g.SidesOf("ai:hard"), "the AI is nobody's side")
		m := move(g, 10)
		m.Side, m.UserID = storage.SideVersailles, ""
		_, err = s.ApplyMove(ctx, m)
		require.NoError(t, err)
	})
}

func TestCreateGameInvalid(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		s := openStore(t, b.newDB(t))
		valid := storage.NewGame{ChannelID: "c", Status: storage.StatusActive, Mode: storage.ModeTwoPlayer,
			State: stateJSON(0, 1), Players: players("a", "b")}
		for _, tc := range []struct {
			name   string
			change func(*storage.NewGame)
		}{
			{"no channel", func(g *storage.NewGame) { g.ChannelID = "" }},
			{"finished", func(g *storage.NewGame) { g.Status = storage.StatusFinished }},
			{"no status", func(g *storage.NewGame) { g.Status = "" }},
			{"bad mode", func(g *storage.NewGame) { g.Mode = "three-player" }},
			{"solo without bot side", func(g *storage.NewGame) { g.Mode = storage.ModeSolo }},
			{"two-player with bot side", func(g *storage.NewGame) { g.BotSide = storage.SideCommune }},
			{"active without state", func(g *storage.NewGame) { g.State = nil }},
			{"state not JSON", func(g *storage.NewGame) { g.State = []byte(`{"x":`) }},
			{"active with one player", func(g *storage.NewGame) { g.Players = g.Players[:1] }},
			{"same side twice", func(g *storage.NewGame) { g.Players[1].Side = storage.SideCommune }},
			{"unknown side", func(g *storage.NewGame) { g.Players[1].Side = "prussia" }},
			{"human without user id", func(g *storage.NewGame) { g.Players[0].UserID = "" }},
			{"bot in a two-player game", func(g *storage.NewGame) { g.Players[0].IsBot = true }},
			{"human on the bot's side", func(g *storage.NewGame) {
				g.Mode, g.BotSide = storage.ModeSolo, storage.SideCommune
			}},
		} {
			t.Run(tc.name, func(t *testing.T) {
				ng := valid
				ng.Players = append([]storage.Player(nil), valid.Players...)
				tc.change(&ng)
				_, err := s.CreateGame(ctx, ng)
				require.ErrorIs(t, err, storage.ErrInvalid)
			})
		}
		_, err := s.CreateGame(ctx, valid)
		require.NoError(t, err, "nothing was left behind by the refused games")
	})
}

func TestApplyMoveErrors(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		s := openStore(t, b.newDB(t))
		g := newActive(t, s, "guild", "chan")
		for range 3 {
			var err error
			g, err = s.ApplyMove(ctx, move(g, 10))
			require.NoError(t, err)
		}
		for _, tc := range []struct {
			name   string
			change func(*storage.Move)
			want   error
		}{
			{"stale version", func(m *storage.Move) { m.ExpectedVersion = 1 }, storage.ErrConflict},
			{"future version", func(m *storage.Move) { m.ExpectedVersion = 9 }, storage.ErrConflict},
			{"negative version", func(m *storage.Move) { m.ExpectedVersion = -1 }, storage.ErrInvalid},
			{"unknown game", func(m *storage.Move) { m.GameID = 999 }, storage.ErrNotFound},
			{"no side", func(m *storage.Move) { m.Side = "" }, storage.ErrInvalid},
			{"choice not JSON", func(m *storage.Move) { m.Choice = []byte("play 12") }, storage.ErrInvalid},
			{"no choice", func(m *storage.Move) { m.Choice = nil }, storage.ErrInvalid},
			{"no state", func(m *storage.Move) { m.NewState = nil }, storage.ErrInvalid},
			{"result without finishing", func(m *storage.Move) { m.Result = []byte(`{}`) }, storage.ErrInvalid},
			{"to waiting", func(m *storage.Move) { m.Status = storage.StatusWaiting }, storage.ErrInvalid},
		} {
			t.Run(tc.name, func(t *testing.T) {
				m := move(g, 10)
				tc.change(&m)
				_, err := s.ApplyMove(ctx, m)
				require.ErrorIs(t, err, tc.want)
			})
		}
		// Nothing was written by the refused moves.
		got := checkLog(t, s, g.ID)
		assert.Equal(t, int64(3), got.StateVersion)
		assert.Equal(t, g.State, got.State)

		// The conflict message says where the game is.
		m := move(g, 10)
		m.ExpectedVersion = 2
		_, err := s.ApplyMove(ctx, m)
		assert.ErrorContains(t, err, "is at version 3")
	})
}

func TestAbandonAndLists(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		s, clock := openClocked(t, b)
		a := newActive(t, s, "g1", "a")
		clock.advance(time.Minute)
		bg := newActive(t, s, "g1", "b")
		clock.advance(time.Minute)
		c := newActive(t, s, "g2", "c")
		clock.advance(time.Minute)
		w, err := s.CreateGame(ctx, storage.NewGame{GuildID: "g1", ChannelID: "w", Status: storage.StatusWaiting, Mode: storage.ModeTwoPlayer})
		require.NoError(t, err)

		// a moves last, so it comes last among active games.
		clock.advance(time.Minute)
		_, err = s.ApplyMove(ctx, move(a, 10))
		require.NoError(t, err)

		ids := func(gs []storage.Game, err error) []int64 {
			require.NoError(t, err)
			var out []int64
			for _, g := range gs {
				out = append(out, g.ID)
			}
			return out
		}
		assert.Equal(t, []int64{bg.ID, c.ID, a.ID}, ids(s.ActiveGames(ctx)))
		assert.Equal(t, []int64{w.ID, bg.ID, a.ID}, ids(s.GamesInGuild(ctx, "g1")))
		assert.Equal(t, []int64{w.ID}, ids(s.GamesByStatus(ctx, storage.StatusWaiting)))

		all, err := s.ActiveGames(ctx)
		require.NoError(t, err)
		for _, g := range all {
			assert.Len(t, g.Players, 2, "lists carry the players")
			assert.Nil(t, g.State, "lists carry no state")
		}

		_, err = s.Abandon(ctx, w.ID)
		require.NoError(t, err)
		g, err := s.Abandon(ctx, bg.ID)
		require.NoError(t, err)
		assert.Equal(t, storage.StatusAbandoned, g.Status)
		assert.Equal(t, clock.t, g.EndedAt)
		assert.Equal(t, []int64{c.ID, a.ID}, ids(s.ActiveGames(ctx)))
		assert.Equal(t, []int64{bg.ID, w.ID}, ids(s.GamesByStatus(ctx, storage.StatusAbandoned)))

		_, err = s.Abandon(ctx, 12345)
		require.ErrorIs(t, err, storage.ErrNotFound)
		_, err = s.GameByID(ctx, 12345)
		require.ErrorIs(t, err, storage.ErrNotFound)
		_, err = s.Actions(ctx, 12345)
		require.ErrorIs(t, err, storage.ErrNotFound)
		_, err = s.GamesByStatus(ctx, "paused")
		require.ErrorIs(t, err, storage.ErrInvalid)
		_, err = s.Finish(ctx, c.ID, nil)
		require.ErrorIs(t, err, storage.ErrInvalid)
	})
}

func TestReminders(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		s, clock := openClocked(t, b)
		g := newActive(t, s, "g", "c")
		day := 24 * time.Hour

		assert.False(t, g.ReminderDue(day, clock.t))
		clock.advance(day)
		assert.True(t, g.ReminderDue(day, clock.t))
		assert.False(t, g.ReminderDue(0, clock.t), "interval 0: reminders off")

		require.NoError(t, s.MarkReminded(ctx, g.ID, clock.t))
		g, err := s.GameByID(ctx, g.ID)
		require.NoError(t, err)
		assert.Equal(t, clock.t, g.RemindedAt)
		clock.advance(day)
		assert.False(t, g.ReminderDue(day, clock.t), "one reminder per turn")

		// A move starts a new turn.
		g, err = s.ApplyMove(ctx, move(g, 10))
		require.NoError(t, err)
		assert.False(t, g.ReminderDue(day, clock.t))
		clock.advance(day)
		assert.True(t, g.ReminderDue(day, clock.t))

		require.ErrorIs(t, s.MarkReminded(ctx, 999, clock.t), storage.ErrNotFound)
		_, err = s.Finish(ctx, g.ID, []byte(`{"winner":"commune"}`))
		require.NoError(t, err)
		require.ErrorIs(t, s.MarkReminded(ctx, g.ID, clock.t), storage.ErrWrongStatus)
	})
}

func TestVerifyGame(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		where := b.newDB(t)
		s := openStore(t, where)
		g := newActive(t, s, "g", "c")
		for range 5 {
			var err error
			g, err = s.ApplyMove(ctx, move(g, 10))
			require.NoError(t, err)
		}

		var seen []int64
		require.NoError(t, s.VerifyGame(ctx, g.ID, func(got storage.Game, acts []storage.Action) error {
			assert.Equal(t, g.State, got.State)
			for _, a := range acts {
				seen = append(seen, a.Seq)
			}
			return nil
		}))
		assert.Equal(t, []int64{1, 2, 3, 4, 5}, seen)

		// The replay disagrees: reported, never swallowed.
		mismatch := errors.New("replay gives a different board")
		err := s.VerifyGame(ctx, g.ID, func(storage.Game, []storage.Action) error { return mismatch })
		require.ErrorIs(t, err, storage.ErrIntegrity)
		require.ErrorIs(t, err, mismatch)
		assert.Contains(t, err.Error(), "version 5")

		_, _, err = s.LoadVerified(ctx, g.ID, func(storage.Game, []storage.Action) error { return mismatch })
		require.ErrorIs(t, err, storage.ErrIntegrity)

		require.ErrorIs(t, s.VerifyGame(ctx, 999, nil), storage.ErrNotFound)

		// A tampered file: a version bumped without its action.
		raw := rawDB(t, where)
		_, err = raw.Exec(`UPDATE games SET state_version = state_version + 1 WHERE id = ?`, g.ID)
		require.NoError(t, err)
		err = s.VerifyGame(ctx, g.ID, nil)
		require.ErrorIs(t, err, storage.ErrIntegrity)
		assert.Contains(t, err.Error(), "state_version 6 but 5 actions")
		// A move on top of it is refused as an integrity failure, not stored.
		g.StateVersion = 6
		_, err = s.ApplyMove(ctx, move(g, 10))
		require.ErrorIs(t, err, storage.ErrIntegrity)
		acts, err := s.Actions(ctx, g.ID)
		require.NoError(t, err)
		assert.Len(t, acts, 5)
	})
}

func TestActionsAppendOnly(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		where := b.newDB(t)
		s := openStore(t, where)
		g := newActive(t, s, "g", "c")
		g, err := s.ApplyMove(ctx, move(g, 10))
		require.NoError(t, err)

		raw := rawDB(t, where)
		for _, q := range []string{
			`UPDATE actions SET choice = '{"cheat":1}' WHERE game_id = 1`,
			`DELETE FROM actions WHERE game_id = 1`,
			`INSERT INTO actions (game_id, seq, side, user_id, choice, created_at) VALUES (1, 3, 'commune', 'x', '{}', '')`,
			`INSERT INTO actions (game_id, seq, side, user_id, choice, created_at) VALUES (1, 1, 'commune', 'x', '{}', '')`,
			`UPDATE games SET state_version = 5 WHERE id = 1`,
			`UPDATE games SET status = 'waiting' WHERE id = 1`,
		} {
			_, err := raw.Exec(q)
			assert.Error(t, err, q)
		}
		checkLog(t, s, g.ID)
	})
}
