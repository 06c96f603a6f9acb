package bot_test

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/png"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/rfop/rfop/bot"
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
// think is the pause before each click (a player reading the panel);
// panelShown is told each click's time from its dispatch to the panel's
// update.
func (h *harness) tryTurn(user, channel string, r *rand.Rand, think func(), panelShown func(time.Duration)) error {
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
	resp, err := h.srv.ClickLabel(user, board, "Take my turn").WaitResponse(h.ctx)
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
		if _, err := i.WaitResponse(h.ctx); err != nil {
			return err
		}
		prev := panel
		panel, err = h.srv.WaitMessage(h.ctx, func(m *fakediscord.Message) bool { return m.ID == prev.ID && m.Version > prev.Version })
		panelShown(time.Since(i.DispatchedAt()))
		if err != nil {
			cur := h.srv.Message(prev.ID)
			return fmt.Errorf("panel not updated from version %d (now %d: %q): %w", prev.Version, cur.Version, cur.Content, err)
		}
	}
	return errors.New("decision chain did not end")
}

// loadRun is what runConcurrentGames measured.
type loadRun struct {
	// acks: every interaction's time from dispatch to the bot's first
	// response (the acknowledgement).
	acks []time.Duration
	// firstBoards: per game, from the dispatch of /rfop new to the
	// creation of its first board.
	firstBoards []time.Duration
	// panels: every choice's time from its dispatch to the update of the
	// player's panel (the move stored, the next question shown).
	panels []time.Duration
}

// loadOpts shapes a load run.
type loadOpts struct {
	games, turns       int
	thinkMin, thinkMax time.Duration
	// pictures: nil for the real renderer (not the tests' shared one,
	// which remembers pictures: e2e_pictures_test.go).
	pictures bot.Pictures
	// together: every game's /rfop new is dispatched at the same moment
	// (the goroutines wait at a gate first).
	together bool
	// unchecked: the fake does not check the bot's requests against
	// Discord's description of its API. The benchmarks measure the bot's
	// latency on two cores shared with the fake, and that check (a JSON
	// schema validation of every request, about 1.3 s of CPU and 0.6 GB
	// allocated in a 200-game run) is work the real Discord does on its
	// own machines. TestE2EConcurrentGames and every other test keep it.
	unchecked bool
}

// runConcurrentGames starts n games in n channels at once and plays
// `turns` rounds of turns in each, concurrently. Every step waits as long
// as the test may (a benchmark: until it is stopped), so a busy machine
// still measures.
func runConcurrentGames(t testing.TB, o loadOpts) loadRun {
	n := o.games
	chans := make([]fakediscord.Channel, n)
	for k := range chans {
		chans[k] = fakediscord.Channel{ID: fmt.Sprint(1000 + k), Name: fmt.Sprint("game-", k)}
	}
	var panelsMu sync.Mutex
	var panels []time.Duration
	panelShown := func(d time.Duration) {
		panelsMu.Lock()
		panels = append(panels, d)
		panelsMu.Unlock()
	}
	if o.pictures == nil {
		o.pictures = realPictures(t) // every picture drawn, as the bot would
	}
	opts := []fakediscord.Option{fakediscord.WithoutFileData()}
	if o.unchecked {
		opts = append(opts, fakediscord.WithRequestCheck(nil))
	}
	h := newHarnessWith(t, o.pictures, append(opts, fakediscord.WithGuild(fakediscord.Guild{ID: "500", Name: "load", OwnerID: admin,
		Channels: chans,
		Members: []fakediscord.Member{{UserID: alice}, {UserID: bob},
			{UserID: admin, Permissions: discordgo.PermissionManageChannels | discordgo.PermissionSendMessages | discordgo.PermissionViewChannel}}}))...)
	var wg, atGate sync.WaitGroup
	errs := make(chan error, n)
	gate := make(chan struct{})
	firstBoards := make([]time.Duration, n)
	for k := 0; k < n; k++ {
		wg.Add(1)
		atGate.Add(1)
		go func(k int) {
			defer wg.Done()
			ch := chans[k].ID
			atGate.Done()
			if o.together {
				<-gate
			}
			i := h.srv.SlashCommand(admin, "500", ch, "rfop", fakediscord.SubCmd("new",
				fakediscord.UserArg("opponent", bob), fakediscord.UserArg("player", alice), fakediscord.StrArg("side", "versailles")))
			if _, err := i.WaitResponse(h.ctx); err != nil {
				errs <- err
				return
			}
			board, err := h.srv.WaitMessage(h.ctx, func(m *fakediscord.Message) bool { return m.ChannelID == ch && m.Button("Take my turn") != nil })
			if err != nil {
				errs <- fmt.Errorf("game %d: no board: %w", k, err)
				return
			}
			firstBoards[k] = h.srv.MessageHistory(board.ID)[0].CreatedAt.Sub(i.DispatchedAt())
			r := rand.New(rand.NewPCG(uint64(k), 1))
			think := func() {
				if o.thinkMax > 0 {
					time.Sleep(o.thinkMin + time.Duration(r.Int64N(int64(o.thinkMax-o.thinkMin))))
				}
			}
			for turn := 0; turn < o.turns; turn++ {
				for _, u := range []string{alice, bob} {
					if err := h.tryTurn(u, ch, r, think, panelShown); err != nil {
						errs <- fmt.Errorf("game %d: %w", k, err)
						return
					}
				}
			}
		}(k)
	}
	if o.together {
		atGate.Wait() // every goroutine is at the gate
		close(gate)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	for _, ir := range h.srv.InteractionResponses() {
		require.Empty(t, ir.Interaction.Errors())
	}
	return loadRun{acks: h.srv.ResponseLatencies(), firstBoards: firstBoards, panels: panels}
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
	t.Parallel()
	run := runConcurrentGames(t, loadOpts{games: 20, turns: 3, pictures: newStubPictures()})
	require.NotEmpty(t, run.acks)
}

// BenchmarkE2E200Games: 200 games against the fake, all started at the
// same moment, with the real renderer, players pausing 100-400 ms before
// each click. It reports the acknowledgement latency (dispatch to the
// bot's first response: p50, p99; goal p99 ≤ 100 ms), each game's first
// board after its /rfop new (p50, max; goal max ≤ 10 s), the process's
// peak resident memory (VmHWM, bot and fake together; the fake keeps no
// file bytes; goal ≤ 250 MiB) and the time from a choice to its panel's
// update (p99; no goal: the move is stored first, in turn with the other
// games' writes). On a very busy machine the run still measures: no step
// has a deadline of its own. Run it alone (-run '^$' -bench
// 'E2E200Games$' -benchtime 1x): VmHWM is the whole process's peak.
// BenchmarkE2E200GamesNoThink is the closed-loop stress without pauses
// and without rendering.
func BenchmarkE2E200Games(b *testing.B) {
	benchGames(b, loadOpts{games: 200, turns: 3, thinkMin: 100 * time.Millisecond, thinkMax: 400 * time.Millisecond,
		together: true})
}

// BenchmarkE2E200GamesStart is BenchmarkE2E200Games' start alone: 200
// games started at the same moment, with the real renderer, each waited
// for until its first board and no further (about a second): the first
// board p50 and max and the acknowledgements of /rfop new, without the
// turns that follow. Quick to repeat, so that a before/after comparison
// of the start can alternate many runs on a shared machine.
func BenchmarkE2E200GamesStart(b *testing.B) {
	benchGames(b, loadOpts{games: 200, turns: 0, together: true})
}

func BenchmarkE2E200GamesNoThink(b *testing.B) {
	benchGames(b, loadOpts{games: 200, turns: 3, pictures: newStubPictures(), together: true})
}

func benchGames(b *testing.B, o loadOpts) {
	o.unchecked = true // the bot's cost, not the check's (loadOpts)
	for i := 0; i < b.N; i++ {
		run := runConcurrentGames(b, o)
		b.ReportMetric(float64(percentile(run.acks, 0.5).Microseconds())/1000, "p50_ms")
		b.ReportMetric(float64(percentile(run.acks, 0.99).Microseconds())/1000, "p99_ms")
		b.ReportMetric(float64(len(run.acks)), "interactions")
		b.ReportMetric(percentile(run.firstBoards, 0.5).Seconds(), "board_p50_s")
		b.ReportMetric(slices.Max(run.firstBoards).Seconds(), "board_max_s")
		b.ReportMetric(float64(percentile(run.panels, 0.99).Microseconds())/1000, "panel_p99_ms")
	}
	if hwm, err := vmHWM(); err == nil {
		b.ReportMetric(float64(hwm)/(1<<20), "VmHWM_MiB")
	}
}

// vmHWM reads the process's peak resident set size (Linux).
func vmHWM() (int64, error) {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, err
	}
	for _, l := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb << 10, err
		}
	}
	return 0, errors.New("no VmHWM in /proc/self/status")
}
