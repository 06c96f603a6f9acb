package storage_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rfop/rfop/storage"
)

func TestMemberPrefsDefaultToMentionAndStoreWhole(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		s := openStore(t, b.newDB(t))
		got, err := s.MemberPrefs(ctx, "nobody")
		require.NoError(t, err)
		assert.Equal(t, storage.MemberPrefs{UserID: "nobody", Notify: storage.NotifyMention}, got)

		anchor := time.Date(2026, 3, 18, 20, 14, 5, 123456789, time.FixedZone("x", 3600))
		for _, tc := range []struct {
			name string
			set  storage.MemberPrefs
			want storage.MemberPrefs
		}{
			{"dm", storage.MemberPrefs{UserID: "u1", Notify: storage.NotifyDM},
				storage.MemberPrefs{UserID: "u1", Notify: storage.NotifyDM}},
			{"digest keeps its anchor and last digest, in UTC to the millisecond",
				storage.MemberPrefs{UserID: "u1", Notify: storage.NotifyDigest, DigestAnchor: anchor, DigestSentAt: anchor.Add(time.Hour)},
				storage.MemberPrefs{UserID: "u1", Notify: storage.NotifyDigest, DigestAnchor: anchor.UTC().Truncate(time.Millisecond),
					DigestSentAt: anchor.Add(time.Hour).UTC().Truncate(time.Millisecond)}},
			{"off replaces the row", storage.MemberPrefs{UserID: "u1", Notify: storage.NotifyOff},
				storage.MemberPrefs{UserID: "u1", Notify: storage.NotifyOff}},
		} {
			t.Run(tc.name, func(t *testing.T) {
				stored, err := s.SetMemberPrefs(ctx, tc.set)
				require.NoError(t, err)
				assert.Equal(t, tc.want, stored)
				got, err := s.MemberPrefs(ctx, tc.set.UserID)
				require.NoError(t, err)
				assert.Equal(t, tc.want, got)
			})
		}
		for _, bad := range []storage.MemberPrefs{{Notify: storage.NotifyDM}, {UserID: "u2", Notify: "loud"}} {
			_, err := s.SetMemberPrefs(ctx, bad)
			assert.ErrorIs(t, err, storage.ErrInvalid, "%+v", bad)
		}
	})
}

func TestActiveGamesOfListsOnlyTheMembersActiveGames(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		s := openStore(t, b.newDB(t))
		g1 := newActive(t, s, "g", "c1") // alice and bob
		g2 := newActive(t, s, "g", "c2")
		_, err := s.CreateGame(ctx, storage.NewGame{GuildID: "g", ChannelID: "c3", Status: storage.StatusActive,
			Variant: "standard", Mode: storage.ModeTwoPlayer, Seed: 1, State: stateJSON(0, 10), CreatedBy: "carol",
			Players: players("carol", "dave")})
		require.NoError(t, err)
		_, err = s.Abandon(ctx, g2.ID)
		require.NoError(t, err)

		games, err := s.ActiveGamesOf(ctx, "alice")
		require.NoError(t, err)
		require.Len(t, games, 1)
		assert.Equal(t, g1.ID, games[0].ID)
		assert.Len(t, games[0].Players, 2, "with its players")
		none, err := s.ActiveGamesOf(ctx, "erin")
		require.NoError(t, err)
		assert.Empty(t, none)
	})
}

func TestReminderClaimsAreCountedUntilTheNextMove(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		s := openStore(t, b.newDB(t))
		g := newActive(t, s, "g", "c1")
		assert.Zero(t, g.Reminders)
		seen := g.RemindedAt
		for k := 1; k <= 3; k++ {
			at := time.Now().Add(time.Duration(k) * time.Hour).UTC().Truncate(time.Millisecond)
			ok, err := s.ClaimReminder(ctx, g.ID, seen, at, storage.Due{})
			require.NoError(t, err)
			require.True(t, ok)
			got, err := s.GameByID(ctx, g.ID)
			require.NoError(t, err)
			assert.Equal(t, k, got.Reminders, "reminder %d counted", k)
			seen = got.RemindedAt
		}
		ok, err := s.ClaimReminder(ctx, g.ID, time.Time{}, time.Now(), storage.Due{})
		require.NoError(t, err)
		assert.False(t, ok, "a stale claim is not counted")
		moved, err := s.ApplyMove(ctx, move(g, 10))
		require.NoError(t, err)
		assert.Zero(t, moved.Reminders, "a move starts the count again")
	})
}
