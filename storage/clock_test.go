package storage_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rfop/rfop/storage"
)

// A game's clock is stored at creation, replaced by a move that carries
// one and kept by a move that does not.
func TestClockIsWrittenWithTheGameAndItsMoves(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		s, _ := openClocked(t, b)
		g, err := s.CreateGame(ctx, storage.NewGame{GuildID: "g", ChannelID: "c", Status: storage.StatusActive,
			Variant: "standard", Mode: storage.ModeTwoPlayer, Seed: 1, State: stateJSON(0, 10), CreatedBy: "alice",
			Players: players("alice", "bob"), Clock: []byte(`{"pace":"daily"}`)})
		require.NoError(t, err)
		assert.JSONEq(t, `{"pace":"daily"}`, string(g.Clock))

		g, err = s.ApplyMove(ctx, storage.Move{GameID: g.ID, ExpectedVersion: 0, Side: storage.SideCommune, UserID: "alice",
			Choice: choiceJSON(1), NewState: stateJSON(1, 10), Clock: []byte(`{"pace":"daily","left":[1,2]}`)})
		require.NoError(t, err)
		assert.JSONEq(t, `{"pace":"daily","left":[1,2]}`, string(g.Clock))
		_, err = s.ApplyMove(ctx, storage.Move{GameID: g.ID, ExpectedVersion: 1, Side: storage.SideVersailles, UserID: "bob",
			Choice: choiceJSON(2), NewState: stateJSON(2, 10)})
		require.NoError(t, err)
		got, err := s.GameByID(ctx, g.ID)
		require.NoError(t, err)
		assert.JSONEq(t, `{"pace":"daily","left":[1,2]}`, string(got.Clock), "a move without a clock keeps it")

		plain := newActive(t, s, "g", "c2")
		assert.Nil(t, plain.Clock, "no clock: nil")
	})
}

// SetClock is a compare-and-swap on the game's version and clock, and
// replaces only the schedule rows of the kinds it names.
func TestSetClockSwapsOnlyWhatWasRead(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		s, clock := openClocked(t, b)
		g, err := s.CreateGame(ctx, storage.NewGame{GuildID: guildOfShard(2), ChannelID: "c", Status: storage.StatusActive,
			Variant: "standard", Mode: storage.ModeTwoPlayer, Seed: 1, State: stateJSON(0, 10), CreatedBy: "alice",
			Players: players("alice", "bob"), Clock: []byte(`{"n":1}`),
			Due: []storage.Due{{Kind: "remind", In: time.Hour}, {Kind: "clock-out", Subject: "commune", In: 2 * time.Hour}}})
		require.NoError(t, err)
		at := clock.t.Add(5 * time.Hour)

		ok, err := s.SetClock(ctx, storage.ClockWrite{GameID: g.ID, Version: 0, Old: []byte(`{"n":1}`), New: []byte(`{"n":2}`),
			Kinds: []string{"clock-out", "clock-warn"}, Due: []storage.Due{{Kind: "clock-out", Subject: "commune", At: at}}})
		require.NoError(t, err)
		require.True(t, ok)
		got, err := s.GameByID(ctx, g.ID)
		require.NoError(t, err)
		assert.JSONEq(t, `{"n":2}`, string(got.Clock))
		assert.Equal(t, []storage.Due{
			{Kind: "clock-out", GameID: g.ID, Subject: "commune", ShardKey: 2, At: at},
			{Kind: "remind", GameID: g.ID, ShardKey: 2, At: g.CreatedAt.Add(time.Hour)},
		}, schedule(t, s, g.ID), "the reminder is left alone")

		ok, err = s.SetClock(ctx, storage.ClockWrite{GameID: g.ID, Version: 0, Old: []byte(`{"n":1}`), New: []byte(`{"n":3}`)})
		require.NoError(t, err)
		assert.False(t, ok, "the clock changed since it was read")
		ok, err = s.SetClock(ctx, storage.ClockWrite{GameID: g.ID, Version: 1, Old: []byte(`{"n":2}`), New: []byte(`{"n":3}`)})
		require.NoError(t, err)
		assert.False(t, ok, "the game is not at that version")
	})
}

// A member's active games are found through the players; spells of time
// away do not overlap, end early, and are listed by end.
func TestAwaySpellsAndAMembersGames(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		s, _ := openClocked(t, b)
		g1 := newActive(t, s, "g", "c1")
		g2 := newActive(t, s, "g", "c2")
		_, err := s.Abandon(ctx, g2.ID)
		require.NoError(t, err)
		games, err := s.ActiveGamesOf(ctx, "bob")
		require.NoError(t, err)
		require.Len(t, games, 1)
		assert.Equal(t, g1.ID, games[0].ID)

		t0 := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
		day := 24 * time.Hour
		require.NoError(t, s.AddAway(ctx, storage.Away{UserID: "bob", Start: t0, End: t0.Add(3 * day)}))
		assert.ErrorIs(t, s.AddAway(ctx, storage.Away{UserID: "bob", Start: t0.Add(day), End: t0.Add(5 * day)}), storage.ErrConflict)
		require.NoError(t, s.AddAway(ctx, storage.Away{UserID: "alice", Start: t0.Add(day), End: t0.Add(2 * day)}))

		ended, err := s.EndAway(ctx, "bob", t0.Add(day))
		require.NoError(t, err)
		assert.True(t, ended)
		ended, err = s.EndAway(ctx, "bob", t0.Add(2*day))
		require.NoError(t, err)
		assert.False(t, ended, "no spell runs then")

		spells, err := s.AwaySpells(ctx, t0, "bob", "alice")
		require.NoError(t, err)
		assert.Equal(t, []storage.Away{{UserID: "bob", Start: t0, End: t0.Add(day)}, {UserID: "alice", Start: t0.Add(day), End: t0.Add(2 * day)}}, spells)
		spells, err = s.AwaySpells(ctx, t0.Add(day), "bob", "alice")
		require.NoError(t, err)
		assert.Len(t, spells, 1, "bob's spell ended at that time")
	})
}

// A server's default pace is a setting like the others.
func TestSettingsKeepThePace(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		s, _ := openClocked(t, b)
		set, err := s.GuildSettings(ctx, "g")
		require.NoError(t, err)
		assert.Empty(t, set.Pace)
		set.Pace = "weekly"
		_, err = s.SetGuildSettings(ctx, set)
		require.NoError(t, err)
		set, err = s.GuildSettings(ctx, "g")
		require.NoError(t, err)
		assert.Equal(t, "weekly", set.Pace)
	})
}
