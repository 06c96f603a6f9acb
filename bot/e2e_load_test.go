package bot_test

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/png"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/rfop/rfop/engine"
	"github.com/rfop/rfop/glossary"
	"github.com/rfop/rfop/internal/fakediscord"
	"github.com/stretchr/testify/require"
)

// stubPictures draws nothing: the load test measures the bot without
// rendering, as the performance goal asks.
type stubPictures struct{ png []byte }

func newStubPictures() stubPictures {
	var b bytes.Buffer
	_ = png.Encode(&b, image.NewRGBA(image.Rect(0, 0, 4, 4)))
	return stubPictures{b.Bytes()}
}
func (p stubPictures) Board(glossary.Lang, *engine.Deck, engine.View, *engine.View, string) ([]byte, error) {
	return p.png, nil
}
func (p stubPictures) Hand(glossary.Lang, *engine.Deck, engine.View) ([]byte, error) {
	return p.png, nil
}
func (p stubPictures) Card(glossary.Lang, *engine.Deck, int) ([]byte, error) { return p.png, nil }

// tryTurn is takeTurn for other goroutines: errors instead of t.Fatal.
// think is the pause before each click (a player reading the panel).
func (h *harness) tryTurn(user, channel string, r *rand.Rand, think func()) error {
	think()
	var board *fakediscord.Message
	msgs := h.srv.Messages(channel)
	for k := len(msgs) - 1; k >= 0 && board == nil; k-- {
		if msgs[k].Button("Take my turn") != nil {
			board = msgs[k]
		}
	}
	if board == nil {
		return errors.New("no board in " + channel)
	}
	resp, err := h.srv.ClickLabel(user, board, "Take my turn").WaitResponse(waitLong)
	if err != nil {
		return err
	}
	panel := resp.Message
	for steps := 0; steps < 200; steps++ {
		buttons, selects := choiceComponents(panel)
		if len(buttons)+len(selects) == 0 {
			return nil
		}
		think()
		var i *fakediscord.Interaction
		if len(buttons) > 0 {
			i = h.srv.Click(user, panel, buttons[r.IntN(len(buttons))].CustomID)
		} else {
			s := selects[r.IntN(len(selects))]
			i = h.srv.Select(user, panel, s.CustomID, s.Options[r.IntN(len(s.Options))].Value)
		}
		if _, err := i.WaitResponse(waitLong); err != nil {
			return err
		}
		prev := panel
		panel, err = h.srv.WaitMessage(func(m *fakediscord.Message) bool { return m.ID == prev.ID && m.Version > prev.Version }, waitLong)
		if err != nil {
			return fmt.Errorf("panel not updated: %w", err)
		}
	}
	return errors.New("decision chain did not end")
}

// runConcurrentGames starts n games in n channels at once and plays
// `turns` rounds of turns in each, concurrently. It returns the
// dispatch-to-first-response latencies of every interaction.
func runConcurrentGames(t testing.TB, n, turns int, thinkMin, thinkMax time.Duration) []time.Duration {
	chans := make([]fakediscord.Channel, n)
	for k := range chans {
		chans[k] = fakediscord.Channel{ID: fmt.Sprint(1000 + k), Name: fmt.Sprint("game-", k)}
	}
	h := newHarnessWith(t, stubPictures{newStubPictures().png}, fakediscord.WithGuild(fakediscord.Guild{ID: "500", Name: "load", OwnerID: admin,
		Channels: chans,
		Members: []fakediscord.Member{{UserID: alice}, {UserID: bob},
			{UserID: admin, Permissions: discordgo.PermissionManageChannels | discordgo.PermissionSendMessages | discordgo.PermissionViewChannel}}}))
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for k := 0; k < n; k++ {
		wg.Add(1)
		go func(k int) {
			defer wg.Done()
			ch := chans[k].ID
			i := h.srv.SlashCommand(admin, "500", ch, "rfop", fakediscord.SubCmd("new",
				fakediscord.UserArg("opponent", bob), fakediscord.UserArg("player", alice), fakediscord.StrArg("side", "versailles")))
			if _, err := i.WaitResponse(waitLong); err != nil {
				errs <- err
				return
			}
			if _, err := h.srv.WaitMessage(func(m *fakediscord.Message) bool { return m.ChannelID == ch && m.Button("Take my turn") != nil }, 3*waitLong); err != nil {
				errs <- fmt.Errorf("game %d: no board: %w", k, err)
				return
			}
			r := rand.New(rand.NewPCG(uint64(k), 1))
			think := func() {
				if thinkMax > 0 {
					time.Sleep(thinkMin + time.Duration(r.Int64N(int64(thinkMax-thinkMin))))
				}
			}
			for turn := 0; turn < turns; turn++ {
				for _, u := range []string{alice, bob} {
					if err := h.tryTurn(u, ch, r, think); err != nil {
						errs <- fmt.Errorf("game %d: %w", k, err)
						return
					}
				}
			}
		}(k)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	for _, ir := range h.srv.InteractionResponses() {
		require.Empty(t, ir.Interaction.Errors())
	}
	return h.srv.ResponseLatencies()
}

func percentile(d []time.Duration, p float64) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	if len(s) == 0 {
		return 0
	}
	return s[min(len(s)-1, int(float64(len(s))*p))]
}

// TestE2EConcurrentGames: 20 games played at once in 20 channels (run
// with -race in CI): no errors, no lost or duplicated moves.
func TestE2EConcurrentGames(t *testing.T) {
	lat := runConcurrentGames(t, 20, 3, 0, 0)
	require.NotEmpty(t, lat)
}

// BenchmarkE2E200Games: 200 concurrent games against the fake, players
// pausing 100-400 ms before each click; reports the median and p99 time
// from interaction dispatch to the bot's first response (goal p99 ≤ 100 ms
// excluding render). BenchmarkE2E200GamesNoThink is the same with no pause
// at all: a closed-loop stress of the 2-core machine.
func BenchmarkE2E200Games(b *testing.B) {
	benchGames(b, 100*time.Millisecond, 400*time.Millisecond)
}

func BenchmarkE2E200GamesNoThink(b *testing.B) { benchGames(b, 0, 0) }

func benchGames(b *testing.B, thinkMin, thinkMax time.Duration) {
	for i := 0; i < b.N; i++ {
		lat := runConcurrentGames(b, 200, 3, thinkMin, thinkMax)
		b.ReportMetric(float64(percentile(lat, 0.5).Microseconds())/1000, "p50_ms")
		b.ReportMetric(float64(percentile(lat, 0.99).Microseconds())/1000, "p99_ms")
		b.ReportMetric(float64(len(lat)), "interactions")
	}
}
