package bot

import (
	"testing"
	"time"

	"github.com/rfop/rfop/engine"
	"github.com/rfop/rfop/locale"
	"github.com/rfop/rfop/storage"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The clock's arithmetic, by rule: a Fischer increment at each hand-over
// up to the pace's maximum, time away not charged, an undo giving back
// the time of the move undone.
func TestClockArithmetic(t *testing.T) {
	t0 := time.Date(2026, 3, 18, 9, 0, 0, 0, time.UTC)
	rec := storage.Game{ID: 1, LastActionAt: t0, Players: []storage.Player{
		{Side: storage.SideVersailles, UserID: "v"}, {Side: storage.SideCommune, UserID: "c"}}}
	brisk, ok := paceNamed("brisk")
	require.True(t, ok)
	start := func() gameClock {
		c := gameClock{Pace: brisk.Name, Left: [2]int64{ms(brisk.Base), ms(brisk.Base)}}
		c.begin(rec, [2]bool{true, true})
		return c
	}
	both := [2]bool{true, true}
	onlyCommune := [2]bool{false, true}
	onlyVersailles := [2]bool{true, false}
	V, C := engine.Versailles, engine.Commune
	choice := func(s engine.Side) engine.Move {
		return engine.Move{Side: s, Choice: engine.Choice{Kind: engine.ChooseCard}}
	}

	t.Run("both sides run on a simultaneous decision", func(t *testing.T) {
		c := start()
		at := t0.Add(5 * time.Hour)
		assert.Equal(t, 19*time.Hour, c.remaining(rec, nil, V, at))
		assert.Equal(t, 19*time.Hour, c.remaining(rec, nil, C, at))
	})
	t.Run("a hand-over adds the increment, never above the maximum", func(t *testing.T) {
		c := start().advance(rec, nil, choice(V), onlyCommune, t0.Add(5*time.Hour))
		assert.Equal(t, 23*time.Hour, dur(c.Left[V]), "19 h + 4 h")
		assert.True(t, c.Since[V].IsZero())
		assert.Equal(t, 19*time.Hour, c.remaining(rec, nil, C, t0.Add(5*time.Hour)), "the Commune still runs")
		c.Left[V] = ms(71 * time.Hour)
		c.Since[V] = t0.Add(5 * time.Hour)
		c = c.advance(rec, nil, choice(V), onlyCommune, t0.Add(5*time.Hour))
		assert.Equal(t, brisk.Max, dur(c.Left[V]), "capped at 3 d")
	})
	t.Run("time away is not charged", func(t *testing.T) {
		c := start()
		away := []storage.Away{{UserID: "c", Start: t0.Add(2 * time.Hour), End: t0.Add(50 * time.Hour)}}
		assert.Equal(t, 22*time.Hour, c.remaining(rec, away, C, t0.Add(30*time.Hour)), "2 h before leaving")
		assert.Equal(t, 20*time.Hour, c.remaining(rec, away, C, t0.Add(52*time.Hour)), "and 2 h since coming back")
		assert.Equal(t, -6*time.Hour, c.remaining(rec, away, V, t0.Add(30*time.Hour)), "the other player was there")
	})
	t.Run("an undo gives back the time of the move undone", func(t *testing.T) {
		c := start().advance(rec, nil, choice(V), both, t0.Add(3*time.Hour)) // a step of a longer turn
		c = c.advance(rec, nil, choice(V), onlyCommune, t0.Add(8*time.Hour))
		assert.Equal(t, 20*time.Hour, dur(c.Left[V]), "16 h + 4 h")
		c = c.advance(rec, nil, engine.Move{Side: V, Undo: true}, onlyVersailles, t0.Add(9*time.Hour))
		assert.Equal(t, 21*time.Hour, c.remaining(rec, nil, V, t0.Add(9*time.Hour)),
			"back to its time before the move undone (21 h at 3 h), without its increment")
		assert.Equal(t, t0.Add(9*time.Hour), c.Since[V], "and it runs again")
	})
	t.Run("deadlines as if the clock ran from its start", func(t *testing.T) {
		c := start()
		due := c.clockDue()
		require.Len(t, due, 4)
		for _, d := range due {
			switch d.Kind {
			case dueClockWarn:
				assert.Equal(t, t0.Add(time.Duration(float64(24*time.Hour)*warnAt)), d.At)
			case dueClockOut:
				assert.Equal(t, t0.Add(24*time.Hour), d.At)
			}
		}
		c.Warned[V], c.Offered[C] = true, true
		assert.Len(t, c.clockDue(), 2, "a warning sent and an offer made are not scheduled again")
	})
	t.Run("durations in words", func(t *testing.T) {
		assert.Equal(t, "1 d 4 h", durationWords(locale.For(locale.English), 28*time.Hour))
		assert.Equal(t, "3 d", durationWords(locale.For(locale.English), 72*time.Hour))
		assert.Equal(t, "5 h 20 min", durationWords(locale.For(locale.English), 5*time.Hour+20*time.Minute))
		assert.Equal(t, "12 min", durationWords(locale.For(locale.English), 12*time.Minute))
	})
}
