package bot

// Games against the AI opponent (issue 14): a two-player engine game whose
// AI side is a bot player (storage user id "ai:LEVEL") and acts by itself.
//
// The AI thinks off the interaction path: a move that leaves the AI to
// decide queues the game, and one worker goroutine (at most one core in
// total, however many games) plays the AI's decisions one game at a time.
// It holds the game's lock only to read the position and to apply the
// choice, not while thinking; if the game moved meanwhile (an undo), it
// thinks again. When the AI's run ends, the board is published as one
// chain with the player's move before it, like the solo opponent's turns.
// /rfop hint runs on the same worker. The AI sees only an
// engine.InfoSet of its side, never the game.

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"

	"github.com/bwmarrin/discordgo"
	"github.com/rfop/rfop/engine"
	"github.com/rfop/rfop/locale"
	"github.com/rfop/rfop/storage"
)

// AIOpponent decides for the AI opponent (package ai implements it; see
// DefaultAI). game identifies the game so that an implementation may
// keep one search tree across the AI's consecutive decisions.
type AIOpponent interface {
	Choose(game int64, level string, seed uint64, is *engine.InfoSet) (engine.Choice, error)
	// Hint ranks the decision of is for its side: up to n choices, best
	// estimate first, each with the estimated win rate and its margin.
	Hint(level string, is *engine.InfoSet, n int) ([]AIHint, error)
	// Levels lists the level names, weakest first.
	Levels() []string
}

// AIHint is one ranked choice of /rfop hint.
type AIHint struct {
	Choice  engine.Choice
	WinRate float64 // NaN when not estimated (a forced choice, or one the search did not try)
	Margin  float64 // half-width of the estimate's 95% interval
	Close   bool    // within the search's noise of the first hint
	Thin    bool    // tried too little to rate
}

// aiPlayerOf returns the side and level of the game's AI player.
func aiPlayerOf(rec storage.Game) (engine.Side, string, bool) {
	for _, p := range rec.Players {
		if p.IsAI() {
			return engineSide(p.Side), strings.TrimPrefix(p.UserID, storage.AIUserPrefix), true
		}
	}
	return engine.NoSide, "", false
}

// autoSide is the side that acts by itself: the solo opponent's or the AI's.
func autoSide(rec storage.Game, g *engine.Game) engine.Side {
	if g.S.BotSide != engine.NoSide {
		return g.S.BotSide
	}
	if s, _, ok := aiPlayerOf(rec); ok {
		return s
	}
	return engine.NoSide
}

// aiJob is one piece of work for the AI worker: the AI's decisions in a
// game, a hint for the player of an interaction, or a post-game analysis
// (analysis.go).
type aiJob struct {
	game     int64
	hint     *discordgo.Interaction
	side     engine.Side // the hint's side
	analysis *analysisJob
}

// gameJob: the AI's decisions in a game (not a hint, not an analysis).
func (j aiJob) gameJob() bool { return j.hint == nil && j.analysis == nil }

// aiQueue is the AI worker's queue; running while a worker goroutine lives.
type aiQueue struct {
	mu       sync.Mutex
	jobs     []aiJob
	running  bool
	analyses int // analyses queued or running (at most maxAnalyses)
}

// kickAI queues the game if it is against the AI (the AI may have to decide).
func (b *Bot) kickAI(rec storage.Game) {
	if _, _, ok := aiPlayerOf(rec); ok && b.AI != nil {
		b.enqueueAI(aiJob{game: rec.ID})
	}
}

// enqueueAI adds a job (a game already queued for its moves is not queued
// twice) and starts the worker if none runs. Each queued job counts as
// in flight, so Shutdown waits for it; jobs left when shutting down are
// skipped and resumed at the next start (Resume: the game's resume item,
// due.go, stays until the AI has moved).
func (b *Bot) enqueueAI(j aiJob) bool {
	b.mu.Lock()
	closing := b.closing
	if !closing {
		b.inflight.Add(1)
	}
	b.mu.Unlock()
	if closing {
		return false
	}
	q := &b.aiq
	q.mu.Lock()
	if j.gameJob() {
		for _, o := range q.jobs {
			if o.gameJob() && o.game == j.game {
				q.mu.Unlock()
				b.inflight.Done()
				return true
			}
		}
	}
	q.jobs = append(q.jobs, j)
	start := !q.running
	q.running = true
	q.mu.Unlock()
	if start {
		go b.aiWorker()
	}
	return true
}

// runQueuedGameJobs runs, on the worker, the jobs queued that are not
// analyses (games against the AI, hints), in their order; an analysis
// calls it between two decisions so that it never holds them up.
func (b *Bot) runQueuedGameJobs() {
	q := &b.aiq
	for {
		q.mu.Lock()
		k := -1
		for n, j := range q.jobs {
			if j.analysis == nil {
				k = n
				break
			}
		}
		if k < 0 {
			q.mu.Unlock()
			return
		}
		j := q.jobs[k]
		q.jobs = append(q.jobs[:k], q.jobs[k+1:]...)
		q.mu.Unlock()
		b.runAIJob(j)
		b.inflight.Done()
	}
}

// aiWorker runs queued jobs one at a time and exits when the queue is empty.
func (b *Bot) aiWorker() {
	q := &b.aiq
	for {
		q.mu.Lock()
		if len(q.jobs) == 0 {
			q.running = false
			q.mu.Unlock()
			return
		}
		j := q.jobs[0]
		q.jobs = q.jobs[1:]
		q.mu.Unlock()
		b.runAIJob(j)
		b.inflight.Done()
	}
}

func (b *Bot) isClosing() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.closing
}

func (b *Bot) runAIJob(j aiJob) {
	defer func() {
		if r := recover(); r != nil {
			b.Log.Error("AI worker panicked", "game", j.game, "panic", r)
		}
	}()
	ctx := context.Background()
	if j.hint != nil {
		b.runHint(ctx, j)
		return
	}
	if j.analysis != nil {
		b.runAnalysis(ctx, j.analysis)
		return
	}
	if b.isClosing() {
		return
	}
	if err := b.playAI(ctx, j.game); err != nil {
		b.Log.Error("AI opponent", "game", j.game, "err", err)
	}
}

// playAI plays the AI's decisions in a game until it has none, then
// publishes the board.
func (b *Bot) playAI(ctx context.Context, id int64) error {
	for n := 0; n < 10000; n++ {
		if b.isClosing() {
			return nil
		}
		unlock := b.lockGame(id)
		rec, g, err := b.loadGame(ctx, id)
		if err != nil || g == nil || rec.Status != storage.StatusActive || g.S.Result != nil {
			unlock()
			if errors.Is(err, errPaused) {
				return nil
			}
			return err
		}
		side, level, ok := aiPlayerOf(rec)
		p, mine := g.PromptFor(side)
		if !ok || !mine {
			unlock()
			return nil
		}
		c := p.Choices[0]
		if len(p.Choices) > 1 {
			is, err := g.InfoSet(side)
			if err != nil {
				unlock()
				return err
			}
			ver := rec.StateVersion
			unlock() // think without the lock: the players' commands go on
			if c, err = b.AI.Choose(id, level, uint64(rec.Seed), is); err != nil {
				return err
			}
			unlock = b.lockGame(id)
			if rec, g, err = b.loadGame(ctx, id); err != nil || g == nil || rec.StateVersion != ver {
				unlock()
				continue // the game moved while the AI thought: look again
			}
		}
		// Published (through the outbox) when the AI's run ends, as the
		// solo opponent's replies are: one board with its steps.
		if rec, _, err = b.commitWith(ctx, rec, g, engine.Move{Side: side, Choice: c}, "", "", pubAuto, nil); err != nil {
			unlock()
			return err
		}
		if _, again := g.PromptFor(side); !again || g.S.Result != nil {
			unlock()
			return nil
		}
		unlock()
	}
	return fmt.Errorf("the AI made 10000 decisions in a row")
}

// ---- commands ----

func (b *Bot) cmdAI(ctx context.Context, i *discordgo.Interaction, o options) {
	pp := b.privatePrinterOf(i)
	if b.AI == nil {
		b.replyEphemeral(i, pp.T("bot.ai.not-available", nil))
		return
	}
	me := userID(i)
	mine := storage.Side(o.str("side"))
	if mine != storage.SideCommune && mine != storage.SideVersailles {
		b.replyEphemeral(i, pp.T("bot.ai.choose-side", nil))
		return
	}
	level := o.str("level")
	if level == "" {
		level = "normal"
	}
	levels := b.AI.Levels()
	if !contains(levels, level) {
		b.replyEphemeral(i, pp.T("bot.ai.bad-level", locale.Args{"Levels": strings.Join(levels, ", ")}))
		return
	}
	variant, err := engine.ParseVariant(o.str("variant"))
	if err != nil {
		// Never the option back: it is outside input (a crafted one may be
		// longer than a reply).
		b.replyEphemeral(i, pp.T("cmd.new.bad-variant", nil))
		return
	}
	aiSide := storage.SideCommune
	if mine == storage.SideCommune {
		aiSide = storage.SideVersailles
	}
	guild, channel, moved, err := b.personalChannel(i)
	if err != nil {
		b.replyEphemeral(i, dmRefusedText(pp, discordErrorCode(err), 0))
		return
	}
	if !moved && !b.deferPublic(i) || moved && !b.deferEphemeral(i) {
		return
	}
	rec, err := b.createGame(ctx, storage.NewGame{GuildID: guild, ChannelID: channel, Status: storage.StatusWaiting,
		Variant: string(variant), Mode: storage.ModeTwoPlayer, Seed: b.Seed(), CreatedBy: me,
		Players: []storage.Player{{Side: mine, UserID: me}, {Side: aiSide, UserID: storage.AIUserPrefix + level, IsBot: true}}})
	pub := b.publicPrinter(guild) // the reply is public
	if guild == "" {
		pub = pp
	}
	if errors.Is(err, storage.ErrChannelBusy) {
		b.editOriginal(i, msg{content: pub.T("bot.reply.channel-busy", nil)})
		return
	}
	if err != nil {
		b.Log.Error("create game against the AI", "err", err)
		b.editOriginal(i, msg{content: pub.T("bot.reply.create-failed", nil)})
		return
	}
	unlock := b.lockGame(rec.ID)
	defer unlock()
	rec, _, err = b.startGame(ctx, rec, nil) // publishes the first board
	if err != nil {
		b.editOriginal(i, msg{content: pub.T("bot.reply.start-failed", locale.Args{"Error": err.Error()})})
		return
	}
	if b.startedInDMs(ctx, i, pp, rec, moved) {
		b.kickAI(rec)
		return
	}
	b.editOriginal(i, msg{content: pub.T("bot.ai.started", locale.Args{"ID": rec.ID, "Side": pub.Side(engineSide(mine)), "Level": aiLevelName(pub, level)})})
	b.kickAI(rec)
}

func contains(a []string, s string) bool {
	for _, x := range a {
		if x == s {
			return true
		}
	}
	return false
}

func (b *Bot) cmdHint(ctx context.Context, i *discordgo.Interaction) {
	b.withChannelGame(ctx, i, func(rec storage.Game) {
		pp := b.privatePrinterOf(i)
		aiSide, _, ok := aiPlayerOf(rec)
		if !ok || b.AI == nil {
			b.replyEphemeral(i, pp.T("bot.ai.hint-only", nil))
			return
		}
		if !plays(rec, userID(i), aiSide.Other()) {
			b.replyEphemeral(i, pp.T("bot.ai.hint-player-only", nil))
			return
		}
		if !b.deferEphemeral(i) {
			return
		}
		if !b.enqueueAI(aiJob{game: rec.ID, hint: i, side: aiSide.Other()}) {
			b.editOriginal(i, msg{content: pp.T("bot.reply.restarting", nil)})
		}
	})
}

// runHint answers /rfop hint: the player's current decision, its top
// three choices by the AI's search with the estimated win rates.
func (b *Bot) runHint(ctx context.Context, j aiJob) {
	unlock := b.lockGame(j.game)
	pp := b.privatePrinterOf(j.hint)
	rec, g, err := b.loadGame(ctx, j.game)
	if err != nil || g == nil || rec.Status != storage.StatusActive {
		unlock()
		b.editOriginal(j.hint, msg{content: gameNotRunningIn(pp, rec, err)})
		return
	}
	_, level, _ := aiPlayerOf(rec)
	p, ok := g.PromptFor(j.side)
	if !ok {
		unlock()
		b.editOriginal(j.hint, msg{content: pp.T("bot.ai.hint-no-turn", nil)})
		return
	}
	is, err := g.InfoSet(j.side)
	prompt := pp.Prompt(g, p)
	texts := map[engine.Choice]string{}
	for _, c := range p.Choices {
		texts[c] = pp.Choice(g, p, c)
	}
	unlock()
	if err != nil {
		b.editOriginal(j.hint, msg{content: pp.T("bot.ai.no-hint", locale.Args{"Error": err.Error()})})
		return
	}
	hs, err := b.AI.Hint(level, is, 3)
	if err != nil {
		b.editOriginal(j.hint, msg{content: pp.T("bot.ai.no-hint", locale.Args{"Error": err.Error()})})
		return
	}
	lines := []string{pp.T("bot.ai.hint-head", locale.Args{"Prompt": prompt})}
	for k, h := range hs {
		lines = append(lines, pp.T("bot.ai.hint-line", locale.Args{"N": k + 1, "Choice": texts[h.Choice], "Rate": hintRate(pp, h, len(p.Choices))}))
	}
	if len(hs) > 1 && hs[1].Close {
		lines = append(lines, pp.T("common.hint.close", nil))
	}
	b.editOriginal(j.hint, msg{content: truncate(strings.Join(lines, "\n"), maxBoardContent)})
}

// hintRate is a hint's estimate in words: the win rate with its margin,
// or why there is none.
func hintRate(p *locale.Printer, h AIHint, choices int) string {
	switch {
	case choices <= 1:
		return p.T("common.hint.forced", nil)
	case math.IsNaN(h.WinRate):
		return p.T("common.hint.not-tried", nil)
	case h.Thin:
		return p.T("common.hint.thin", nil)
	}
	return p.T("common.hint.rate", locale.Args{"Percent": fmt.Sprintf("%.0f", 100*h.WinRate), "Margin": fmt.Sprintf("%.0f", math.Max(1, 100*h.Margin))})
}
