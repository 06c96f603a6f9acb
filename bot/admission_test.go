package bot

import (
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func withID(id string) *discordgo.Interaction { return &discordgo.Interaction{ID: id} }

// state is where interaction id stands, under the admission's lock.
func (a *admission) state(id string) (admitted, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	st, ok := a.open[id]
	return st, ok
}

// TestAdmissionAdmitsAFewAtATime: with every turn taken, an acknowledged
// interaction waits for one; each turn given back admits one more.
func TestAdmissionAdmitsAFewAtATime(t *testing.T) {
	a := newAdmission(2, time.Hour)
	ids := []string{"1", "2", "3", "4"}
	for _, id := range ids {
		a.begin(withID(id))
	}
	a.enter(withID("1"))
	a.enter(withID("2"))
	require.Len(t, a.turns, 2)

	admitted := make(chan string, 2)
	for _, id := range []string{"3", "4"} {
		go func() {
			a.enter(withID(id))
			admitted <- id
		}()
	}
	waitUntil(t, "both wait for a turn", func() bool {
		s3, _ := a.state("3")
		s4, _ := a.state("4")
		return s3 == through && s4 == through
	})
	assert.Empty(t, admitted, "every turn is taken: nobody else is admitted")

	a.leave(withID("1"))
	first := <-admitted
	assert.Empty(t, admitted, "one turn given back admits one")
	st, _ := a.state(first)
	assert.Equal(t, holding, st)
	a.end(withID("2"))
	second := <-admitted
	assert.ElementsMatch(t, []string{"3", "4"}, []string{first, second})
	for _, id := range ids {
		a.end(withID(id))
	}
	assert.Empty(t, a.turns, "every turn given back")
	assert.Empty(t, a.open)
}

// TestAdmissionTakesATurnOnceAndOnlyWhileHandled: a turn is taken after
// the acknowledgement of an interaction being handled, given back when
// its handler returns or gives it up before a slow wait, and never taken
// again (a holder never waits for a turn).
func TestAdmissionTakesATurnOnceAndOnlyWhileHandled(t *testing.T) {
	tests := []struct {
		name  string
		steps func(a *admission, i *discordgo.Interaction)
		turns int // held after the steps
	}{
		{"acknowledged", func(a *admission, i *discordgo.Interaction) { a.begin(i); a.enter(i) }, 1},
		{"given up before a slow wait", func(a *admission, i *discordgo.Interaction) { a.begin(i); a.enter(i); a.leave(i) }, 0},
		{"acknowledged again after giving it up", func(a *admission, i *discordgo.Interaction) { a.begin(i); a.enter(i); a.leave(i); a.enter(i) }, 0},
		{"given up before its acknowledgement", func(a *admission, i *discordgo.Interaction) { a.begin(i); a.leave(i); a.enter(i) }, 0},
		{"handler returned", func(a *admission, i *discordgo.Interaction) { a.begin(i); a.enter(i); a.end(i) }, 0},
		{"not being handled (a publisher's stored token)", func(a *admission, i *discordgo.Interaction) { a.enter(i) }, 0},
		{"given back twice", func(a *admission, i *discordgo.Interaction) { a.begin(i); a.enter(i); a.leave(i); a.leave(i); a.end(i) }, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := newAdmission(1, time.Hour)
			tt.steps(a, withID("7"))
			assert.Len(t, a.turns, tt.turns)
		})
	}
}

// TestAdmissionGoesOnWithoutATurnAfterItsPatience: admission orders the
// work, it never stops it (a holder stuck on a stalled database).
func TestAdmissionGoesOnWithoutATurnAfterItsPatience(t *testing.T) {
	a := newAdmission(1, time.Millisecond)
	stuck, late := withID("1"), withID("2")
	a.begin(stuck)
	a.begin(late)
	a.enter(stuck)
	a.enter(late) // returns after its patience
	st, _ := a.state("2")
	assert.Equal(t, through, st)
	a.end(late)
	assert.Len(t, a.turns, 1, "the late one gave back nothing it did not take")
	a.end(stuck)
	assert.Empty(t, a.turns)
}

// answerSession answers every interaction call at once (what the
// admission tests need of Discord).
type answerSession struct{ Session }

func (answerSession) InteractionRespond(*discordgo.Interaction, *discordgo.InteractionResponse, ...discordgo.RequestOption) error {
	return nil
}

func (answerSession) RequestWithBucketID(string, string, interface{}, string, ...discordgo.RequestOption) ([]byte, error) {
	return []byte("{}"), nil
}

func (answerSession) FollowupMessageCreate(*discordgo.Interaction, bool, *discordgo.WebhookParams, ...discordgo.RequestOption) (*discordgo.Message, error) {
	return &discordgo.Message{}, nil
}

// TestAdmissionGivesTheTurnBackAtTheAnswer: an acknowledged interaction
// holds its turn until its first answer, after which it only waits for
// Discord (tens to hundreds of milliseconds a call).
func TestAdmissionGivesTheTurnBackAtTheAnswer(t *testing.T) {
	tests := []struct {
		name   string
		answer func(b *Bot, i *discordgo.Interaction)
	}{
		{"the panel edited in", func(b *Bot, i *discordgo.Interaction) { b.editOriginal(i, msg{content: "next"}) }},
		{"a follow-up", func(b *Bot, i *discordgo.Interaction) { b.followupEphemeral(i, msg{content: "not yours"}) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := New(Deps{Session: answerSession{}})
			i := withID("5")
			b.admit.begin(i)
			require.True(t, b.deferUpdate(i))
			require.Len(t, b.admit.turns, 1, "acknowledged: it works in its turn")
			tt.answer(b, i)
			assert.Empty(t, b.admit.turns, "answered: the turn is given back")
			b.admit.end(i)
		})
	}
	b := New(Deps{Session: answerSession{}})
	i := withID("6")
	b.admit.begin(i)
	b.replyEphemeral(i, "answered at once")
	assert.Empty(t, b.admit.turns, "answered without an acknowledgement: no turn taken")
	b.admit.end(i)
}
