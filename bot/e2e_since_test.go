package bot_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rfop/rfop/engine"
	"github.com/rfop/rfop/internal/fakediscord"
	"github.com/rfop/rfop/locale"
	"github.com/rfop/rfop/storage"
)

// The panel a player opens with Take my turn starts with the public lines
// written since their previous decision (the newest ten at most), in
// their own language; the rest of the panel is the decision.
func TestE2EPanelStartsWithWhatHappenedSinceYourLastTurn(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		lang    discordgo.Locale
		l       locale.Lang
		heading string
	}{
		{discordgo.EnglishUS, locale.English, "**Since your last turn:**"},
		{discordgo.French, locale.French, "**Depuis votre dernier tour :**"},
		{discordgo.Russian, locale.Russian, "**С вашего прошлого хода:**"},
	} {
		t.Run(string(tc.lang), func(t *testing.T) {
			t.Parallel()
			h := newHarnessWith(t, newStubPictures(),
				fakediscord.WithUser(fakediscord.User{ID: alice, Username: "alice", Locale: string(tc.lang)}), defaultGuild())
			rec := h.startChallenge(chanID, "versailles")
			r := rand.New(rand.NewPCG(21, 22))
			// Play until bob has played since alice's last decision and
			// alice must decide again.
			checked := 0
			for round := 0; round < 60 && checked < 3; round++ {
				h.takeTurn(bob, chanID, r)
				cur := h.gameByID(rec.ID)
				if cur.Status != storage.StatusActive || !h.hasDecision(cur, alice) {
					h.takeTurn(alice, chanID, r)
					continue
				}
				g := h.engineGame(cur)
				acts, err := h.store.Actions(h.ctx, rec.ID)
				require.NoError(t, err)
				last := -1
				for k, a := range acts {
					if a.Side == storage.SideVersailles {
						last = k
					}
				}
				var want []string
				p := locale.For(tc.l)
				for _, e := range g.S.Log {
					if _, note := e.Note(); e.Version > last && e.To == engine.NoSide && !note {
						want = append(want, "• "+p.LogLine(g.Deck(), e))
					}
				}
				if len(want) > 10 {
					want = want[len(want)-10:]
				}
				i := h.srv.ClickLabel(alice, h.turnMessage(chanID), "Take my turn")
				resp, err := i.WaitResponse(h.ctx)
				require.NoError(t, err)
				require.True(t, resp.Ephemeral())
				content := resp.Message.Content
				if len(want) == 0 {
					assert.NotContains(t, content, tc.heading)
				} else {
					require.True(t, strings.HasPrefix(content, tc.heading+"\n"), "the panel starts with the lines: %q", content)
					block, _, ok := strings.Cut(strings.TrimPrefix(content, tc.heading+"\n"), "\n\n")
					require.True(t, ok, "the decision follows: %q", content)
					assert.Equal(t, want, strings.Split(block, "\n"))
					assert.LessOrEqual(t, len(strings.Split(block, "\n")), 10)
					if tc.l == locale.Russian {
						assert.Empty(t, russianProblems([]string{content}))
					}
					checked++
				}
				buttons, selects := choiceComponents(resp.Message)
				assert.NotEmpty(t, append(buttons, selects...), "and the decision's choices")
				h.takeTurn(alice, chanID, r)
			}
			require.Equal(t, 3, checked, "alice came back to lines three times")
		})
	}
}
