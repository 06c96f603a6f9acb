package bot_test

import (
	"context"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rfop/rfop/ai"
	"github.com/rfop/rfop/analysis"
	"github.com/rfop/rfop/bot"
	"github.com/rfop/rfop/engine"
	"github.com/rfop/rfop/internal/fakediscord"
	"github.com/rfop/rfop/storage"
)

// analysed waits for an analysis answer to be edited in: the chart
// attached and the turning points written.
func (h *harness) analysed(i *fakediscord.Interaction, gameID int64) *fakediscord.Message {
	h.t.Helper()
	m, err := i.WaitOriginal(h.ctx, func(m *fakediscord.Message) bool {
		return !m.Loading() && len(m.Attachments) == 1 && !strings.Contains(m.Content, "Analysing")
	})
	require.NoError(h.t, err, "the analysis of game %d is edited in", gameID)
	return m
}

// What decided the game (issue 29): a finished game's result board has
// "What decided this game?"; anyone who can see the channel may press it
// and gets, edited into the answer once the AI worker is done (with
// "Analysing… n %" meanwhile), the chart of the Commune's win chance and
// the three turning points; /rfop analysis answers the same from the
// database at once; a running game, a solo game and a game in a channel
// the caller cannot see are refused.
func TestE2EAnalysis(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	bot.SetAnalysisProgressEvery(h.b, 0)
	ctx := h.ctx
	r := rand.New(rand.NewPCG(29, 29))

	g := h.startChallenge(chanID, "versailles")
	for k := 0; k < 4; k++ {
		h.takeTurn(alice, chanID, r)
		h.takeTurn(bob, chanID, r)
	}
	// A running game is not analysed: its hidden cards would show.
	_, resp := h.command(carol, guildID, chanID, fakediscord.SubCmd("analysis", fakediscord.IntArg("game", g.ID)))
	assert.True(t, resp.Ephemeral())
	assert.Contains(t, resp.Content, "is not finished")

	h.resign(bob, chanID, g.ID)
	board := h.finalBoard(chanID, g.ID, true)
	assert.Equal(t, "What decided this game?", h.verbButton(board, "analysis").Label)

	// carol, who did not play, presses it: an answer of her own (a click
	// posts nothing others see), progress first, then the chart and the
	// turning points.
	i := h.srv.Click(carol, board, h.verbButton(board, "analysis").CustomID)
	resp, err := i.WaitResponse(h.ctx)
	require.NoError(t, err)
	assert.True(t, resp.Ephemeral(), "the button's answer is the clicker's")
	m := h.analysed(i, g.ID)
	assert.Contains(t, m.Content, "What decided game #"+fmtInt(g.ID)+"?")
	for _, n := range []string{"**1.**", "**2.**", "**3.**"} {
		assert.Contains(t, m.Content, n)
	}
	assert.Contains(t, m.Content, "the Commune's chance went from")
	a := m.Attachments[0]
	assert.Equal(t, "analysis-"+fmtInt(g.ID)+".png", a.Filename)
	img, err := a.Image()
	require.NoError(t, err)
	assert.Equal(t, 1200, img.Bounds().Dx())
	progress := 0
	for _, v := range h.srv.MessageHistory(m.ID) {
		if strings.Contains(v.Content, "Analysing game #"+fmtInt(g.ID)+"…") {
			progress++
		}
	}
	assert.GreaterOrEqual(t, progress, 2, "an \"Analysing… 0%%\" edit and at least one later one")

	// Stored: the second request is answered from the database, the same
	// turning points, with no progress edit.
	v, _, err := h.store.Analysis(ctx, g.ID)
	require.NoError(t, err)
	assert.Equal(t, analysis.Version, v)
	i2, resp2 := h.command(alice, guildID, chanID, fakediscord.SubCmd("analysis"))
	assert.False(t, resp2.Ephemeral(), "the command in the game's channel, no game running there: public")
	m2 := h.analysed(i2, g.ID)
	assert.Equal(t, m.Content, m2.Content)
	for _, v := range h.srv.MessageHistory(m2.ID) {
		assert.NotContains(t, v.Content, "Analysing", "a stored analysis needs no progress")
	}

	// A solo game has no analysis.
	h.command(alice, guildID, chan2ID, fakediscord.SubCmd("solo", fakediscord.StrArg("side", "commune")))
	require.True(t, h.srv.WaitFor(h.ctx, func() bool {
		rec, err := h.store.GameByChannel(ctx, chan2ID)
		return err == nil && rec.Status == storage.StatusActive
	}))
	solo := h.game(chan2ID)
	h.resign(alice, chan2ID, solo.ID)
	_, resp = h.command(alice, guildID, chan2ID, fakediscord.SubCmd("analysis", fakediscord.IntArg("game", solo.ID)))
	assert.True(t, resp.Ephemeral())
	assert.Contains(t, resp.Content, "is a solo game")

	// A game in a channel carol cannot see: not even its existence shows.
	staff := h.startChallenge(staffID, "versailles")
	h.resign(bob, staffID, staff.ID)
	_, resp = h.command(carol, guildID, chanID, fakediscord.SubCmd("analysis", fakediscord.IntArg("game", staff.ID)))
	assert.True(t, resp.Ephemeral())
	assert.Contains(t, resp.Content, "is not a game you can see here")
	_, resp = h.command(carol, guildID, chanID, fakediscord.SubCmd("analysis", fakediscord.IntArg("game", 9999)))
	assert.Contains(t, resp.Content, "is not a game you can see here", "the same answer as for a game that does not exist")
	// A mod, who sees the staff channel, may ask.
	i3, _ := h.command(admin, guildID, chanID, fakediscord.SubCmd("analysis", fakediscord.IntArg("game", staff.ID)))
	assert.Contains(t, h.analysed(i3, staff.ID).Content, "What decided game #"+fmtInt(staff.ID)+"?")
}

// gatedAnalyst is the real analysis, held before its first and its
// second progress report until the test lets it go on.
type gatedAnalyst struct {
	bot.Analyst
	first, second      chan struct{} // closed when it reaches each gate
	release1, release2 chan struct{}
}

func (a *gatedAnalyst) Analyse(ctx context.Context, o engine.Options, moves []engine.Move, progress analysis.Progress) (*analysis.Analysis, error) {
	return a.Analyst.Analyse(ctx, o, moves, func(done, total int) {
		switch done {
		case 1:
			close(a.first)
			<-a.release1
		case 2:
			close(a.second)
			<-a.release2
		}
		progress(done, total)
	})
}

// An analysis never holds up the games against the AI: while one runs on
// the AI worker, the bot answers commands, and an AI game that needs the
// AI's decision gets it between two decisions of the analysis, before
// the analysis is done.
func TestE2EAnalysisLetsTheAIPlay(t *testing.T) {
	t.Parallel()
	gated := &gatedAnalyst{Analyst: bot.NewAnalyst(analysis.Config{Level: ai.Easy, Samples: 20}),
		first: make(chan struct{}), second: make(chan struct{}), release1: make(chan struct{}), release2: make(chan struct{})}
	h := &harness{t: t, srv: fakediscord.New(t, defaultGuild(), botAPIVersion()), dbPath: filepath.Join(t.TempDir(), "rfop.db"), seed: 7, clock: &offsetClock{}, analyst: gated}
	h.start()
	bot.SetAnalysisProgressEvery(h.b, 0)
	var once1, once2 sync.Once
	go1 := func() { once1.Do(func() { close(gated.release1) }) }
	go2 := func() { once2.Do(func() { close(gated.release2) }) }
	t.Cleanup(h.stop)
	t.Cleanup(func() { go1(); go2() }) // before stop: a held analysis would keep Shutdown waiting
	r := rand.New(rand.NewPCG(3, 4))

	g := h.startChallenge(chan2ID, "versailles")
	for k := 0; k < 3; k++ {
		h.takeTurn(alice, chan2ID, r)
		h.takeTurn(bob, chan2ID, r)
	}
	h.resign(alice, chan2ID, g.ID)
	board := h.finalBoard(chan2ID, g.ID, true)
	i := h.srv.Click(carol, board, h.verbButton(board, "analysis").CustomID)
	_, err := i.WaitResponse(h.ctx)
	require.NoError(t, err, "the button is acknowledged at once")
	select {
	case <-gated.first:
	case <-h.ctx.Done():
		t.Fatal("the analysis did not start")
	}

	// Commands are answered while the analysis runs...
	_, resp := h.command(bob, guildID, chanID, fakediscord.SubCmd("status"))
	require.True(t, resp.Ephemeral())
	// ... the worker takes three analyses at a time: two more queue, the
	// next is refused; the queued ones find the first one's result stored
	// and answer at once when their turn comes.
	var queued []*fakediscord.Interaction
	for k := 0; k < 2; k++ {
		qi, qr := h.command(bob, guildID, chan2ID, fakediscord.SubCmd("analysis", fakediscord.IntArg("game", g.ID)))
		require.False(t, qr.Ephemeral(), "in the game's channel, no game running: public")
		queued = append(queued, qi)
	}
	_, resp = h.command(carol, guildID, chan2ID, fakediscord.SubCmd("analysis", fakediscord.IntArg("game", g.ID)))
	assert.True(t, resp.Ephemeral())
	assert.Contains(t, resp.Content, "already analysing several games")
	// ... and a game against the AI starts: the AI's first decision
	// queues behind the analysis on the AI worker.
	ai, _ := h.command(alice, guildID, chanID, fakediscord.SubCmd("ai", fakediscord.StrArg("side", "commune"), fakediscord.StrArg("level", "easy")))
	h.settled(ai)
	require.True(t, h.srv.WaitFor(h.ctx, func() bool { return bot.QueuedAIGameJobs(h.b) > 0 }), "the AI's decision is queued")
	go1()
	select {
	case <-gated.second:
	case <-h.ctx.Done():
		t.Fatal("the analysis did not go on")
	}
	// Held at its second decision, the analysis let the AI decide first.
	rec := h.waitHuman(h.game(chanID).ID, engine.Commune)
	require.Equal(t, storage.StatusActive, rec.Status)
	assert.Contains(t, i.Original().Content, "Analysing", "the analysis is not done yet")
	go2()
	first := h.analysed(i, g.ID)
	assert.Contains(t, first.Content, "What decided game #"+fmtInt(g.ID)+"?")
	for _, qi := range queued {
		assert.Equal(t, first.Content, h.analysed(qi, g.ID).Content, "answered from the stored analysis")
	}
}
