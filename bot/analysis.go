package bot

// Post-game analysis (issue 29): /rfop analysis [game] and the result
// board's "What decided this game?" button answer with the chart of the
// Commune's win chance across the game and the three turning points
// (package analysis), in the reader's language.
//
// Who may ask: whoever may see the game (canSeeGame: its players, the
// members who can view its channel; a DM game, its player), for finished
// two-player games only, so that nothing still hidden shows; solo games
// have no analysis. The command's answer is public only in the game's
// own channel while no game runs there (as a replay's); the button's
// answer is private to whoever pressed it, so that a click by anyone
// posts nothing others see.
//
// The work runs off the interaction path, on the AI worker (ai.go): the
// interaction is acknowledged at once, the worker analyses the game and
// edits the answer in, with "analysing… n %" edits while it works (at
// most one every two seconds). The worker's queue takes at most
// maxAnalyses analyses at a time; more are refused with "busy". Between
// two decisions of an analysis the worker runs the AI games' and hints'
// jobs that queued meanwhile, so a long analysis never holds up a game
// against the AI. The analysis is stored (storage.Analyses) with its
// encoding version: asking again is answered from the database at once.

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/rfop/rfop/analysis"
	"github.com/rfop/rfop/engine"
	"github.com/rfop/rfop/locale"
	"github.com/rfop/rfop/storage"
)

const (
	// maxAnalyses: analyses queued or running on the AI worker at once.
	maxAnalyses = 3
	// defaultProgressEvery: the least time between two "analysing… n %"
	// edits (Discord's rate limit on a webhook is about five edits in
	// five seconds); Bot.progressEvery, which tests may lower.
	defaultProgressEvery = 2 * time.Second
)

// Analyst analyses finished games (package analysis implements it; see
// DefaultAnalyst). A nil Analyst means no /rfop analysis.
type Analyst interface {
	// Analyse analyses every decision of the game; progress is called
	// after each; a cancelled ctx stops it.
	Analyse(ctx context.Context, o engine.Options, moves []engine.Move, progress analysis.Progress) (*analysis.Analysis, error)
}

// analysisJob is an analysis for an interaction, on the AI worker.
type analysisJob struct {
	i      *discordgo.Interaction
	rec    storage.Game
	p      *locale.Printer // the answer's language
	public bool
}

// cmdAnalysis: /rfop analysis [game], this channel's last finished game
// by default.
func (b *Bot) cmdAnalysis(ctx context.Context, i *discordgo.Interaction, o options) {
	p := b.privatePrinterOf(i)
	var rec storage.Game
	var err error
	if n := o.int("game", 0); n > 0 {
		if rec, err = b.Store.GameByID(ctx, int64(n)); errors.Is(err, storage.ErrNotFound) {
			b.replyEphemeral(i, p.T("analysis.bot.not-here", locale.Args{"Game": n}))
			return
		}
	} else {
		var last storage.GameResult
		if last, err = b.Store.LatestResult(ctx, i.ChannelID); errors.Is(err, storage.ErrNotFound) {
			b.replyEphemeral(i, p.T("analysis.bot.no-game", nil))
			return
		} else if err == nil {
			rec, err = b.Store.GameByID(ctx, last.GameID)
		}
	}
	if err != nil {
		b.Log.Error("analysis: read game", "err", err)
		b.replyEphemeral(i, p.T("history.stats.failed", nil)) // the database could not be read
		return
	}
	b.answerAnalysis(ctx, i, rec, false)
}

// onAnalysisButton: the result board's "What decided this game?".
func (b *Bot) onAnalysisButton(ctx context.Context, i *discordgo.Interaction, id customID) {
	rec, err := b.Store.GameByID(ctx, id.Game)
	if err != nil {
		p := b.privatePrinterOf(i)
		if errors.Is(err, storage.ErrNotFound) {
			b.replyEphemeral(i, p.T("analysis.bot.not-here", locale.Args{"Game": id.Game}))
			return
		}
		b.Log.Error("analysis: read game", "game", id.Game, "err", err)
		b.replyEphemeral(i, p.T("analysis.bot.failed", locale.Args{"Game": id.Game}))
		return
	}
	b.answerAnalysis(ctx, i, rec, true)
}

// answerAnalysis checks the request, answers from the database when the
// analysis is stored, else queues it on the AI worker; private: the
// answer is the asker's only.
func (b *Bot) answerAnalysis(ctx context.Context, i *discordgo.Interaction, rec storage.Game, private bool) {
	p := b.privatePrinterOf(i)
	if b.Analyst == nil {
		b.replyEphemeral(i, p.T("analysis.bot.unavailable", nil))
		return
	}
	if !b.canSeeGame(i, rec) { // the one visibility rule (visibility.go); unseen is answered as missing
		b.replyEphemeral(i, p.T("analysis.bot.not-here", locale.Args{"Game": rec.ID}))
		return
	}
	if rec.Status != storage.StatusFinished {
		b.replyEphemeral(i, p.T("analysis.bot.not-finished", locale.Args{"Game": rec.ID}))
		return
	}
	if rec.Mode != storage.ModeTwoPlayer || rec.BotSide != storage.NoSide {
		b.replyEphemeral(i, p.T("analysis.bot.solo", locale.Args{"Game": rec.ID}))
		return
	}
	job := &analysisJob{i: i, rec: rec, public: !private}
	if stored, ok := b.storedAnalysis(ctx, rec.ID); ok {
		if !b.deferAnalysis(ctx, job) {
			return
		}
		b.sendAnalysis(ctx, job, stored)
		return
	}
	if !b.reserveAnalysis() {
		b.replyEphemeral(i, p.T("analysis.bot.busy", nil))
		return
	}
	if !b.deferAnalysis(ctx, job) {
		b.releaseAnalysis()
		return
	}
	b.editOriginal(i, msg{content: job.p.T("analysis.bot.progress", locale.Args{"Game": rec.ID, "Percent": analysis.Percent(job.p, 0)})})
	if !b.enqueueAI(aiJob{game: rec.ID, analysis: job}) {
		b.releaseAnalysis()
		b.editOriginal(i, msg{content: job.p.T("bot.reply.restarting", nil)})
	}
}

// deferAnalysis acknowledges the interaction: publicly (in the game's
// public language) only when the job may be public, asked in the game's
// own channel (elsewhere its audience may not see the game) while no
// game runs there (its board stays the newest message); privately
// otherwise. It sets the job's printer and whether it is public.
func (b *Bot) deferAnalysis(ctx context.Context, job *analysisJob) bool {
	job.p = b.privatePrinterOf(job.i)
	if open, err := b.Store.GameByChannel(ctx, job.i.ChannelID); !job.public || job.rec.ChannelID != job.i.ChannelID || err == nil && open.Status.Open() {
		job.public = false
		return b.deferEphemeral(job.i)
	}
	job.p = b.gamePrinter(job.rec)
	return b.deferPublic(job.i)
}

// storedAnalysis is the game's stored analysis of this encoding version.
func (b *Bot) storedAnalysis(ctx context.Context, id int64) (*analysis.Analysis, bool) {
	v, data, err := b.Store.Analysis(ctx, id)
	if err != nil {
		if !errors.Is(err, storage.ErrNotFound) {
			b.Log.Warn("analysis: read the stored one", "game", id, "err", err)
		}
		return nil, false
	}
	if v != analysis.Version {
		return nil, false // made by another version: made again
	}
	a, err := analysis.Decode(data)
	if err != nil {
		b.Log.Warn("analysis: decode the stored one", "game", id, "err", err)
		return nil, false
	}
	return a, true
}

// reserveAnalysis takes one of the maxAnalyses places; releaseAnalysis
// gives it back when the job ends.
func (b *Bot) reserveAnalysis() bool {
	q := &b.aiq
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.analyses >= maxAnalyses {
		return false
	}
	q.analyses++
	return true
}

func (b *Bot) releaseAnalysis() {
	q := &b.aiq
	q.mu.Lock()
	q.analyses--
	q.mu.Unlock()
}

// runAnalysis is the worker's part: analyse, store, answer.
func (b *Bot) runAnalysis(ctx context.Context, job *analysisJob) {
	defer b.releaseAnalysis()
	rec := job.rec
	if a, ok := b.storedAnalysis(ctx, rec.ID); ok { // made meanwhile for someone else
		b.sendAnalysis(ctx, job, a)
		return
	}
	fail := func(what string, err error) {
		b.Log.Error("analysis: "+what, "game", rec.ID, "err", err)
		b.editOriginal(job.i, msg{content: job.p.T("analysis.bot.failed", locale.Args{"Game": rec.ID})})
	}
	actions, err := b.Store.Actions(ctx, rec.ID)
	var moves []engine.Move
	if err == nil {
		moves, err = decodeMoves(actions)
	}
	var opts engine.Options
	if err == nil {
		opts, err = b.options(ctx, rec)
	}
	if err != nil {
		fail("read the log", err)
		return
	}
	actx, cancel := context.WithCancel(ctx)
	defer cancel()
	start := time.Now()
	last, lastPct := start, 0
	a, err := b.Analyst.Analyse(actx, opts, moves, func(done, total int) {
		// The games against the AI and the hints that queued meanwhile go
		// first: a long analysis never holds them up.
		b.runQueuedGameJobs()
		if b.isClosing() {
			cancel()
			return
		}
		pct := 100 * done / max(total, 1)
		if now := time.Now(); now.Sub(last) >= b.progressEvery && pct > lastPct && done < total {
			last, lastPct = now, pct
			b.editOriginal(job.i, msg{content: job.p.T("analysis.bot.progress", locale.Args{"Game": rec.ID,
				"Percent": analysis.Percent(job.p, float64(done)/float64(max(total, 1)))})})
		}
	})
	if errors.Is(err, context.Canceled) {
		b.editOriginal(job.i, msg{content: job.p.T("bot.reply.restarting", nil)})
		return
	}
	if err != nil {
		fail("analyse", err)
		return
	}
	b.Log.Info("game analysed", "game", rec.ID, "decisions", len(a.Points), "took", time.Since(start))
	if data, err := a.Encode(); err != nil {
		b.Log.Error("analysis: encode", "game", rec.ID, "err", err)
	} else if err := b.Store.SaveAnalysis(ctx, rec.ID, analysis.Version, data); err != nil {
		b.Log.Error("analysis: store", "game", rec.ID, "err", err)
	}
	b.sendAnalysis(ctx, job, a)
}

// sendAnalysis edits the answer in: the heading, the turning points and
// the chart, in the job's language.
func (b *Bot) sendAnalysis(ctx context.Context, job *analysisJob, a *analysis.Analysis) {
	p, rec := job.p, job.rec
	deck := (*engine.Deck)(nil)
	if opts, err := b.options(ctx, rec); err == nil {
		deck = opts.Deck
	}
	png, err := a.Chart(p, rec.ID)
	if err != nil {
		b.Log.Error("analysis: chart", "game", rec.ID, "err", err)
		b.editOriginal(job.i, msg{content: p.T("analysis.bot.failed", locale.Args{"Game": rec.ID})})
		return
	}
	var sb strings.Builder
	sb.WriteString(p.T("analysis.heading", locale.Args{"Game": rec.ID, "Level": aiLevelName(p, string(a.Level))}) + "\n")
	texts := a.TurningTexts(p, deck)
	if len(texts) == 0 {
		sb.WriteString(p.T("analysis.none", nil) + "\n")
	}
	for k, t := range texts {
		fmt.Fprintf(&sb, "**%d.** %s\n", k+1, t)
	}
	b.editOriginal(job.i, msg{content: truncate(strings.TrimRight(sb.String(), "\n"), 2000),
		files: []*discordgo.File{pngFile(fmt.Sprintf("analysis-%d.png", rec.ID), png)}})
}

// analysisButton is the result board's "What decided this game?" for a
// finished two-player game, when the bot can analyse.
func (b *Bot) analysisButton(p *locale.Printer, rec storage.Game) (discordgo.MessageComponent, bool) {
	if b.Analyst == nil || rec.Mode != storage.ModeTwoPlayer || rec.BotSide != storage.NoSide {
		return nil, false
	}
	return discordgo.Button{Label: p.T("analysis.bot.button", nil), Style: discordgo.SecondaryButton, Emoji: &discordgo.ComponentEmoji{Name: "📈"},
		CustomID: customID{Verb: verbAnalysis, Game: rec.ID}.String()}, true
}

// resultRow is the result board's buttons: Rematch (two members) and
// "What decided this game?".
func (b *Bot) resultRow(p *locale.Printer, rec storage.Game) []discordgo.MessageComponent {
	row := rematchRow(p, rec)
	btn, ok := b.analysisButton(p, rec)
	if !ok {
		return row
	}
	if len(row) == 0 {
		return []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{btn}}}
	}
	ar := row[0].(discordgo.ActionsRow)
	ar.Components = append(ar.Components, btn)
	return []discordgo.MessageComponent{ar}
}
