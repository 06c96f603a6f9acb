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
	ctx := context.Background()
	path := dbPath(t)
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
			name: "reminders off, empty language defaults, sub-second dropped",
			set:  storage.Settings{GuildID: "g2", ReminderInterval: 0},
			want: storage.Settings{GuildID: "g2", ReminderInterval: 0, Language: "en"},
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
		assert.Equal(t, storage.Settings{GuildID: "never-configured", ReminderInterval: 24 * time.Hour, Language: "en"}, got)
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
}

func TestMessages(t *testing.T) {
	ctx := context.Background()
	s, clock := openClocked(t)
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
}
