package storage_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rfop/rfop/storage"
)

func TestGuildSettings(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		path := b.newDB(t)
		s := openStore(t, path)

		for _, tc := range []struct {
			name string
			set  storage.Settings
			want storage.Settings
		}{
			{
				name: "custom",
				set:  storage.Settings{GuildID: "g1", ReminderInterval: 6 * time.Hour, AdminRoleID: "role-1", Language: "fr"},
				want: storage.Settings{GuildID: "g1", ReminderInterval: 6 * time.Hour, AdminRoleID: "role-1", Language: "fr"},
			},
			{
				name: "update the same guild",
				set:  storage.Settings{GuildID: "g1", ReminderInterval: 90 * time.Minute, Language: "en"},
				want: storage.Settings{GuildID: "g1", ReminderInterval: 90 * time.Minute, Language: "en"},
			},
			{
				name: "reminders off, empty language stays unchosen",
				set:  storage.Settings{GuildID: "g2", ReminderInterval: 0},
				want: storage.Settings{GuildID: "g2", ReminderInterval: 0},
			},
			{
				name: "rounded down to seconds",
				set:  storage.Settings{GuildID: "g3", ReminderInterval: 1500 * time.Millisecond, Language: "de"},
				want: storage.Settings{GuildID: "g3", ReminderInterval: time.Second, Language: "de"},
			},
			{
				name: "DMs have settings too",
				set:  storage.Settings{GuildID: "", ReminderInterval: time.Hour, Language: "en"},
				want: storage.Settings{GuildID: "", ReminderInterval: time.Hour, Language: "en"},
			},
		} {
			t.Run(tc.name, func(t *testing.T) {
				stored, err := s.SetGuildSettings(ctx, tc.set)
				require.NoError(t, err)
				assert.Equal(t, tc.want, stored)
				got, err := s.GuildSettings(ctx, tc.set.GuildID)
				require.NoError(t, err)
				assert.Equal(t, tc.want, got)
			})
		}

		t.Run("defaults when unset", func(t *testing.T) {
			got, err := s.GuildSettings(ctx, "never-configured")
			require.NoError(t, err)
			assert.Equal(t, storage.Settings{GuildID: "never-configured", ReminderInterval: 24 * time.Hour}, got)
			assert.Equal(t, storage.DefaultSettings("never-configured"), got)
		})

		t.Run("negative interval refused", func(t *testing.T) {
			_, err := s.SetGuildSettings(ctx, storage.Settings{GuildID: "g1", ReminderInterval: -time.Second})
			require.ErrorIs(t, err, storage.ErrInvalid)
			got, err := s.GuildSettings(ctx, "g1")
			require.NoError(t, err)
			assert.Equal(t, 90*time.Minute, got.ReminderInterval)
		})

		t.Run("survives reopen", func(t *testing.T) {
			require.NoError(t, s.Close())
			s2 := openStore(t, path)
			got, err := s2.GuildSettings(ctx, "g3")
			require.NoError(t, err)
			assert.Equal(t, "de", got.Language)
		})
	})
}

func TestLocalesRemembered(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		path := b.newDB(t)
		s := openStore(t, path)
		for _, tc := range []struct {
			name      string
			set       func(id, l string) error
			get       func(id string) (string, error)
			id        string
			values    []string
			wantFinal string
		}{
			{"a user's locale, the last one seen", func(id, l string) error { return s.SetUserLocale(ctx, id, l) },
				func(id string) (string, error) { return s.UserLocale(ctx, id) }, "u1", []string{"en-US", "fr"}, "fr"},
			{"a guild's preferred locale", func(id, l string) error { return s.SetGuildLocale(ctx, id, l) },
				func(id string) (string, error) { return s.GuildLocale(ctx, id) }, "g1", []string{"ru"}, "ru"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				got, err := tc.get(tc.id)
				require.NoError(t, err)
				assert.Equal(t, "", got, "nothing seen yet")
				for _, v := range tc.values {
					require.NoError(t, tc.set(tc.id, v))
				}
				got, err = tc.get(tc.id)
				require.NoError(t, err)
				assert.Equal(t, tc.wantFinal, got)
				require.ErrorIs(t, tc.set("", "fr"), storage.ErrInvalid)
				require.ErrorIs(t, tc.set(tc.id, ""), storage.ErrInvalid)
			})
		}
		t.Run("survives reopen", func(t *testing.T) {
			require.NoError(t, s.Close())
			s2 := openStore(t, path)
			got, err := s2.UserLocale(ctx, "u1")
			require.NoError(t, err)
			assert.Equal(t, "fr", got)
			got, err = s2.GuildLocale(ctx, "g1")
			require.NoError(t, err)
			assert.Equal(t, "ru", got)
		})
	})
}

func TestLanguageChosenOrNot(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		s := openStore(t, b.newDB(t))
		// Changing another setting keeps an unchosen language unchosen.
		set, err := s.GuildSettings(ctx, "g")
		require.NoError(t, err)
		set.ReminderInterval = time.Hour
		_, err = s.SetGuildSettings(ctx, set)
		require.NoError(t, err)
		got, err := s.GuildSettings(ctx, "g")
		require.NoError(t, err)
		assert.Equal(t, "", got.Language)
		// Choosing English is a choice.
		got.Language = "en"
		_, err = s.SetGuildSettings(ctx, got)
		require.NoError(t, err)
		got, err = s.GuildSettings(ctx, "g")
		require.NoError(t, err)
		assert.Equal(t, "en", got.Language)
	})
}

func TestMessages(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		s, clock := openClocked(t, b)
		g := newActive(t, s, "g", "chan")
		other := newActive(t, s, "g", "chan2")

		rec := func(gameID int64, kind storage.MessageKind, id string) storage.Message {
			t.Helper()
			clock.advance(time.Second)
			m, err := s.RecordMessage(ctx, storage.Message{GameID: gameID, Kind: kind, ChannelID: "chan", MessageID: id})
			require.NoError(t, err)
			assert.NotZero(t, m.ID)
			assert.Equal(t, clock.t, m.CreatedAt)
			return m
		}
		b1 := rec(g.ID, storage.KindBoard, "m1")
		p1 := rec(g.ID, storage.KindPrompt, "m2")
		p2 := rec(g.ID, storage.KindPrompt, "m3")
		b2 := rec(g.ID, storage.KindBoard, "m4")
		rec(other.ID, storage.KindBoard, "m5")

		for _, tc := range []struct {
			kind storage.MessageKind
			want []storage.Message
		}{
			{storage.KindBoard, []storage.Message{b1, b2}},
			{storage.KindPrompt, []storage.Message{p1, p2}},
			{storage.KindPing, []storage.Message{}},
			{"", []storage.Message{b1, p1, p2, b2}},
		} {
			got, err := s.Messages(ctx, g.ID, tc.kind)
			require.NoError(t, err)
			assert.Equal(t, tc.want, got, "kind %q", tc.kind)
		}

		latest, err := s.LatestMessage(ctx, g.ID, storage.KindBoard)
		require.NoError(t, err)
		assert.Equal(t, b2, latest)
		_, err = s.LatestMessage(ctx, g.ID, storage.KindPing)
		require.ErrorIs(t, err, storage.ErrNotFound)

		// Recording the same message again is idempotent.
		again, err := s.RecordMessage(ctx, storage.Message{GameID: g.ID, Kind: storage.KindBoard, ChannelID: "chan", MessageID: "m4"})
		require.NoError(t, err)
		assert.Equal(t, b2.ID, again.ID)
		assert.Equal(t, b2.CreatedAt, again.CreatedAt)

		// Stale prompts are forgotten once their buttons are disabled.
		require.NoError(t, s.DeleteMessage(ctx, "chan", "m2"))
		require.ErrorIs(t, s.DeleteMessage(ctx, "chan", "m2"), storage.ErrNotFound)
		got, err := s.Messages(ctx, g.ID, storage.KindPrompt)
		require.NoError(t, err)
		assert.Equal(t, []storage.Message{p2}, got)

		_, err = s.RecordMessage(ctx, storage.Message{GameID: 999, Kind: storage.KindBoard, ChannelID: "c", MessageID: "x"})
		require.ErrorIs(t, err, storage.ErrNotFound)
		_, err = s.RecordMessage(ctx, storage.Message{GameID: g.ID, ChannelID: "c", MessageID: "x"})
		require.ErrorIs(t, err, storage.ErrInvalid)
		_, err = s.RecordMessage(ctx, storage.Message{GameID: g.ID, Kind: storage.KindPing, ChannelID: "c"})
		require.ErrorIs(t, err, storage.ErrInvalid)
	})
}
