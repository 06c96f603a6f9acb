package bot

// After the game: /rfop replay (an animated GIF made from the stored
// action log), /rfop history and /rfop stats (from the results table), the
// per-server Glicko-2 ratings (package rating), and the Rematch button on
// a finished game's board.
//
// A result is recorded when a game finishes (persist), with its number of
// plays counted by package replay; games finished before results were kept
// get theirs at the start after the migration that asks for it
// (CheckGames). Ratings are updated one game at a time in the same
// transaction as each rated result (glicko.Step), and rebuilt from all
// the results only when a migration asks or their table is missing. Solo games (and any mode other than two-player, such as AI
// games) are listed but not rated; abandoned games have no result;
// resignations are results like any other.
//
// The answers to history and stats are private (ephemeral): a public
// message would push a running game's board off the bottom of the channel
// (the live board is always the newest message). A replay is posted in the
// game's own channel unless that channel has an open game; elsewhere, and
// there while a game runs, it is private. Every one of them lists or shows
// only the games the member can see (visibility.go): stats count them,
// history lists them, replay draws one; ratings are the server's.

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/rfop/rfop/analysis"
	"github.com/rfop/rfop/engine"
	"github.com/rfop/rfop/glossary"
	"github.com/rfop/rfop/locale"
	"github.com/rfop/rfop/rating"
	"github.com/rfop/rfop/replay"
	"github.com/rfop/rfop/storage"
)

const (
	maxReplays     = 2  // replays drawn at once (CPU-heavy)
	historyLines   = 15 // games listed by /rfop history
	leaderboardLen = 10
	minRatedGames  = 3 // games to appear on the leaderboard
	statsPlayers   = 10
)

// ReplayPictures draws animated replays; DefaultPictures implements it.
// A Pictures without it means no /rfop replay.
type ReplayPictures interface {
	// Replay draws the replay of a game (its options and action log) as an
	// animated GIF within Discord's attachment limit, its labels in the
	// game terms of lang. It reports whether it had to use half size.
	Replay(lang glossary.Lang, o engine.Options, moves []engine.Move) (gif []byte, sum replay.Summary, half bool, err error)
}

// ErrReplayTooLarge is what a ReplayPictures returns for a replay that
// does not fit the attachment limit even at half size.
var ErrReplayTooLarge = errors.New("replay too large")

// ---- results ----

// recordResult stores the result of a game that just finished.
func (b *Bot) recordResult(ctx context.Context, rec storage.Game) {
	actions, err := b.Store.Actions(ctx, rec.ID)
	if err != nil {
		b.Log.Error("record result: read actions", "game", rec.ID, "err", err)
		return
	}
	r, err := b.resultOf(ctx, rec, actions)
	if err != nil {
		b.Log.Error("record result", "game", rec.ID, "err", err)
		return
	}
	if err := b.Store.RecordResult(ctx, r, glicko{}); err != nil {
		b.Log.Error("record result", "game", rec.ID, "err", err)
	}
}

// resultOf builds a finished game's result from its record and log.
func (b *Bot) resultOf(ctx context.Context, rec storage.Game, actions []storage.Action) (storage.GameResult, error) {
	moves, err := decodeMoves(actions)
	if err != nil {
		return storage.GameResult{}, err
	}
	opts, err := b.options(ctx, rec)
	if err != nil {
		return storage.GameResult{}, err
	}
	sum, err := replay.Count(opts, moves)
	if err != nil {
		return storage.GameResult{}, err
	}
	if sum.Result == nil {
		return storage.GameResult{}, fmt.Errorf("game %d: its log does not end the game", rec.ID)
	}
	res := sum.Result
	r := storage.GameResult{GameID: rec.ID, GuildID: rec.GuildID, ChannelID: rec.ChannelID, Mode: rec.Mode, Variant: rec.Variant,
		Winner: sideKey(res.Winner), Reason: res.Reason, VP: [2]int{int(res.VP[0]), int(res.VP[1])},
		Tiebreak: [2]int{res.Tiebreak[0], res.Tiebreak[1]}, Plays: sum.Plays, Moves: len(actions),
		StartedAt: rec.CreatedAt, EndedAt: rec.EndedAt}
	if r.EndedAt.IsZero() {
		r.EndedAt = rec.UpdatedAt
	}
	for _, p := range rec.Players {
		if p.IsBot {
			continue
		}
		if p.Side == storage.SideVersailles {
			r.Versailles = p.UserID
		} else {
			r.Commune = p.UserID
		}
	}
	// Only games between two different members are rated: solo and AI
	// games (any other mode) are listed but not rated against humans.
	r.Rated = rec.Mode == storage.ModeTwoPlayer && r.Versailles != "" && r.Commune != "" && r.Versailles != r.Commune
	return r, nil
}

// backfillResults records the results of the finished games that have
// none (a maintenance job: shard 0 records every shard's), and returns
// how many it recorded.
func (b *Bot) backfillResults(ctx context.Context) int {
	games, err := b.Store.FinishedWithoutResult(ctx)
	if err != nil {
		b.Log.Error("list finished games without a result", "err", err)
		return 0
	}
	recorded := 0
	for _, listed := range games {
		rec, err := b.Store.GameByID(ctx, listed.ID) // with its state (its deck)
		if err != nil {
			b.Log.Warn("backfill result: read the game", "game", listed.ID, "err", err)
			continue
		}
		actions, err := b.Store.Actions(ctx, rec.ID)
		if err != nil {
			b.Log.Warn("backfill result: read actions", "game", rec.ID, "err", err)
			continue
		}
		r, err := b.resultOf(ctx, rec, actions)
		if err != nil {
			b.Log.Warn("backfill result", "game", rec.ID, "err", err)
			continue
		}
		// The ratings are rebuilt once afterwards (CheckGames).
		if err := b.Store.RecordResult(ctx, r, nil); err != nil {
			b.Log.Warn("backfill result", "game", rec.ID, "err", err)
			continue
		}
		recorded++
	}
	if len(games) > 0 {
		b.Log.Info("recorded the results of games finished before results were kept", "games", recorded)
	}
	return recorded
}

// glicko is the bot's storage.StepRater: rateResults for a rebuild, and
// one rating.Table.Apply step from the stored ratings when a result is
// recorded (equal to a rebuild: Apply is the step Rate repeats).
type glicko struct{}

func (glicko) Rate(rated []storage.GameResult) ([]storage.PlayerRating, error) {
	return rateResults(rated)
}

// Step rates r from its players' ratings and the guild's side evidence
// before it.
func (glicko) Step(prior storage.RatingPrior, r storage.GameResult) ([]storage.PlayerRating, error) {
	t := rating.NewTable()
	t.Sides = rating.SideAdvantage{Games: prior.Games, CommuneWins: prior.CommuneWins}
	for _, p := range prior.Players {
		t.Add(rating.Player{ID: p.UserID, Rating: rating.Rating{Rating: p.Rating, Deviation: p.Deviation, Volatility: p.Volatility},
			Games: p.Games, Wins: p.Wins})
	}
	if err := t.Apply(ratedGame(r)); err != nil {
		return nil, err
	}
	out := make([]storage.PlayerRating, 0, 2)
	for _, id := range []string{r.Versailles, r.Commune} {
		p, _ := t.Player(id)
		out = append(out, storage.PlayerRating{GuildID: r.GuildID, UserID: p.ID, Rating: p.Rating.Rating,
			Deviation: p.Rating.Deviation, Volatility: p.Rating.Volatility, Games: p.Games, Wins: p.Wins})
	}
	return out, nil
}

// ratedGame is a result as package rating sees it.
func ratedGame(r storage.GameResult) rating.Game {
	loser, side := storage.SideCommune, rating.Versailles
	if r.Winner == storage.SideCommune {
		loser, side = storage.SideVersailles, rating.Commune
	}
	return rating.Game{Winner: r.Player(r.Winner), Loser: r.Player(loser), WinnerSide: side}
}

// rateResults is the storage.RateFunc: Glicko-2 with the side term over
// a guild's rated results in the order they ended (package rating,
// docs/ratings.md).
func rateResults(rated []storage.GameResult) ([]storage.PlayerRating, error) {
	games := make([]rating.Game, 0, len(rated))
	guild := ""
	for _, r := range rated {
		guild = r.GuildID
		games = append(games, ratedGame(r))
	}
	players, err := rating.Rate(games)
	if err != nil {
		return nil, err
	}
	out := make([]storage.PlayerRating, 0, len(players))
	for _, p := range players {
		out = append(out, storage.PlayerRating{GuildID: guild, UserID: p.ID, Rating: p.Rating.Rating,
			Deviation: p.Rating.Deviation, Volatility: p.Rating.Volatility, Games: p.Games, Wins: p.Wins})
	}
	return out, nil
}

// ---- /rfop replay ----

func (b *Bot) cmdReplay(ctx context.Context, i *discordgo.Interaction, o options) {
	p := b.privatePrinterOf(i)
	rp, ok := b.Pictures.(ReplayPictures)
	if !ok {
		b.replyEphemeral(i, p.T("history.replay.unavailable", nil))
		return
	}
	var rec storage.Game
	var err error
	if n := o.int("game", 0); n > 0 {
		rec, err = b.Store.GameByID(ctx, int64(n))
		if errors.Is(err, storage.ErrNotFound) || err == nil && !b.canSeeGame(i, rec) {
			b.replyEphemeral(i, p.T("history.replay.unseen", locale.Args{"Game": n}))
			return
		}
	} else {
		var last storage.GameResult
		if last, err = b.Store.LatestResult(ctx, i.ChannelID); errors.Is(err, storage.ErrNotFound) {
			b.replyEphemeral(i, p.T("history.replay.no-game", nil))
			return
		} else if err == nil {
			rec, err = b.Store.GameByID(ctx, last.GameID)
		}
	}
	if err != nil {
		b.Log.Error("replay: read game", "err", err)
		b.replyEphemeral(i, p.T("history.stats.failed", nil))
		return
	}
	if !b.canSeeGame(i, rec) { // the channel's last game, seen by its members: never refused in practice
		b.replyEphemeral(i, p.T("history.replay.unseen", locale.Args{"Game": rec.ID}))
		return
	}
	if rec.Status != storage.StatusFinished {
		b.replyEphemeral(i, p.T("history.replay.not-finished", locale.Args{"Game": rec.ID}))
		return
	}
	select {
	case b.replaySlots <- struct{}{}:
		defer func() { <-b.replaySlots }()
	default:
		b.replyEphemeral(i, p.T("history.replay.busy", nil))
		return
	}
	// Public only in the game's own channel, to those who saw it played
	// (elsewhere its audience may not see the game's channel), and not
	// while a game runs there, so that its board stays the newest message;
	// private otherwise. Public, it speaks the game's public language.
	if open, err := b.Store.GameByChannel(ctx, i.ChannelID); rec.ChannelID != i.ChannelID || err == nil && open.Status.Open() {
		if !b.deferEphemeral(i) {
			return
		}
	} else {
		if !b.deferPublic(i) {
			return
		}
		p = b.gamePrinter(rec)
	}
	b.leaveAdmission(i) // a replay takes seconds; replaySlots bound them
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
		b.Log.Error("replay: read the log", "game", rec.ID, "err", err)
		b.editOriginal(i, msg{content: p.T("history.replay.failed", locale.Args{"Game": rec.ID})})
		return
	}
	start := time.Now()
	gif, sum, half, err := rp.Replay(p.Lang(), opts, moves)
	if errors.Is(err, ErrReplayTooLarge) {
		b.editOriginal(i, msg{content: p.T("history.replay.too-large", locale.Args{"Game": rec.ID})})
		return
	}
	if err != nil {
		b.Log.Error("replay", "game", rec.ID, "err", err)
		b.editOriginal(i, msg{content: p.T("history.replay.failed", locale.Args{"Game": rec.ID})})
		return
	}
	b.Log.Info("replay drawn", "game", rec.ID, "frames", sum.Frames, "bytes", len(gif), "half", half, "took", time.Since(start))
	summary := ""
	if sum.Result != nil {
		summary = strings.TrimSuffix(p.Result(opts.Deck, sum.Result), ".")
	}
	note := ""
	if half {
		note = p.T("history.replay.half", nil)
	}
	text := p.T("history.replay.caption", locale.Args{"Game": rec.ID, "Result": summary,
		"Plays": p.N("history.plays", sum.Plays, nil), "Scorings": p.N("history.scorings", sum.Scorings, nil), "Half": note})
	b.editOriginal(i, msg{content: truncate(text, 2000),
		files: []*discordgo.File{{Name: fmt.Sprintf("replay-%d.gif", rec.ID), ContentType: "image/gif", Reader: strings.NewReader(string(gif))}}})
}

// ---- /rfop history ----

func (b *Bot) cmdHistory(ctx context.Context, i *discordgo.Interaction, o options) {
	p := b.privatePrinterOf(i)
	if i.GuildID == "" {
		b.replyEphemeral(i, p.T("history.dms", nil))
		return
	}
	member := o.user("member")
	rs, err := b.visibleHistory(ctx, i, member, historyLines+1)
	if err != nil {
		b.Log.Error("history", "err", err)
		b.replyEphemeral(i, p.T("history.stats.failed", nil))
		return
	}
	if len(rs) == 0 {
		b.replyEphemeral(i, p.T("history.none", nil))
		return
	}
	var sb strings.Builder
	if member != "" {
		sb.WriteString(p.T("history.title-member", locale.Args{"Member": mention(member)}) + "\n")
	} else {
		sb.WriteString(p.T("history.title", nil) + "\n")
	}
	more := len(rs) > historyLines
	if more {
		rs = rs[:historyLines]
	}
	for _, r := range rs {
		sb.WriteString(historyLine(p, r) + "\n")
	}
	if more {
		sb.WriteString("…\n")
	}
	b.replyEphemeral(i, truncate(strings.TrimRight(sb.String(), "\n"), 2000))
}

// ---- /rfop stats ----

func (b *Bot) cmdStats(ctx context.Context, i *discordgo.Interaction, o options) {
	p := b.privatePrinterOf(i)
	if i.GuildID == "" {
		b.replyEphemeral(i, p.T("history.dms", nil))
		return
	}
	member := o.user("member")
	// Counted from the games the member can see (visibility.go), in SQL;
	// the ratings are the server's.
	var st storage.GuildStats
	within, err := b.visibleResults(ctx, i)
	if err == nil {
		st, err = b.Store.Stats(ctx, i.GuildID, member, within)
	}
	var board []storage.PlayerRating
	if err == nil {
		board, err = b.Store.Leaderboard(ctx, i.GuildID, minRatedGames, 0)
	}
	if err != nil {
		b.Log.Error("stats", "err", err)
		b.replyEphemeral(i, p.T("history.stats.failed", nil))
		return
	}
	var sb strings.Builder
	sb.WriteString(p.N("history.stats.title", st.Games, locale.Args{"Rated": st.Rated, "WonV": st.Wins[0], "WonC": st.Wins[1]}) + "\n")
	sb.WriteString(sideLine(p, rating.SideAdvantage{Games: st.Rated, CommuneWins: st.RatedCommuneWins}) + "\n")
	if member != "" {
		b.memberStats(ctx, p, &sb, i.GuildID, member, st, board)
	} else {
		sb.WriteString("\n" + p.N("history.stats.board", minRatedGames, nil) + "\n")
		if len(board) == 0 {
			sb.WriteString(p.N("history.stats.board-empty", minRatedGames, nil) + "\n")
		}
		for k, r := range board {
			if k == leaderboardLen {
				break
			}
			sb.WriteString(p.N("history.stats.board-line", r.Games, locale.Args{"Rank": k + 1, "Member": mention(r.UserID),
				"Rating": fmt.Sprintf("%.0f", r.Rating), "Deviation": fmt.Sprintf("%.0f", r.Deviation), "Won": r.Wins}) + "\n")
		}
		if len(st.Players) > 0 {
			sb.WriteString("\n" + p.T("history.stats.players", nil) + "\n")
		}
		for k, r := range st.Players {
			if k == statsPlayers {
				break
			}
			sb.WriteString(recordLine(p, r) + "\n")
		}
	}
	b.replyEphemeral(i, truncate(strings.TrimRight(sb.String(), "\n"), 2000))
}

// sideLine is the ratings' current side estimate: "the Commune wins 58%
// of games between equal players here".
func sideLine(p *locale.Printer, a rating.SideAdvantage) string {
	return p.N("history.stats.sides", a.Games, locale.Args{"Percent": analysis.Percent(p, a.CommuneShare())})
}

func (b *Bot) memberStats(ctx context.Context, p *locale.Printer, sb *strings.Builder, guildID, member string, st storage.GuildStats, board []storage.PlayerRating) {
	sb.WriteString("\n" + p.T("history.stats.member", locale.Args{"Member": mention(member)}) + "\n")
	if len(st.Players) == 0 {
		sb.WriteString(p.T("history.stats.member-none", locale.Args{"Member": mention(member)}) + "\n")
		return
	}
	sb.WriteString(recordLine(p, st.Players[0]) + "\n")
	r, err := b.Store.Rating(ctx, guildID, member)
	if err != nil {
		sb.WriteString(p.T("history.stats.unrated", nil) + "\n")
		return
	}
	rank := ""
	for k, q := range board {
		if q.UserID == member {
			rank = p.T("history.stats.rank", locale.Args{"Rank": k + 1})
		}
	}
	sb.WriteString(p.T("history.stats.rating", locale.Args{"Rating": fmt.Sprintf("%.0f", r.Rating),
		"Deviation": fmt.Sprintf("%.0f", r.Deviation), "Games": r.Games, "Rank": rank}) + "\n")
}

// visibleHistory is the guild's results that the member behind i can see
// (visibility.go), newest first, only member's if member is not "", at
// most n. Hidden games are skipped, so it reads further when it must.
func (b *Bot) visibleHistory(ctx context.Context, i *discordgo.Interaction, member string, n int) ([]storage.GameResult, error) {
	v := b.viewerOf(i)
	for limit := n; ; limit *= 4 {
		rs, err := b.Store.History(ctx, i.GuildID, member, limit)
		if err != nil {
			return nil, err
		}
		seen := make([]storage.GameResult, 0, n)
		for _, r := range rs {
			if v.seesResult(r) {
				seen = append(seen, r)
			}
		}
		if len(seen) >= n || len(rs) < limit {
			return seen[:min(n, len(seen))], nil
		}
	}
}

// visibleResults is what /rfop stats counts for the member behind i: the
// results in the server's channels they can view, and their own games
// wherever they were (the rule of visibility.go, applied per channel: a
// server has a few hundred channels at most, its results any number).
func (b *Bot) visibleResults(ctx context.Context, i *discordgo.Interaction) (*storage.Within, error) {
	channels, err := b.Store.ResultChannels(ctx, i.GuildID)
	if err != nil {
		return nil, err
	}
	v := b.viewerOf(i)
	within := &storage.Within{Player: v.user}
	for _, c := range channels {
		if v.sees(i.GuildID, c) {
			within.Channels = append(within.Channels, c)
		}
	}
	return within, nil
}

// ---- rematch ----

// rematchRow is the finished board's Rematch button, for a game between
// two members, labelled in the board's language.
func rematchRow(p *locale.Printer, rec storage.Game) []discordgo.MessageComponent {
	v, okV := rec.Player(storage.SideVersailles)
	c, okC := rec.Player(storage.SideCommune)
	if rec.Mode != storage.ModeTwoPlayer || !okV || !okC || v.IsBot || c.IsBot || rec.GuildID == "" {
		return []discordgo.MessageComponent{}
	}
	return []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
		discordgo.Button{Label: p.T("history.rematch.label", nil), Style: discordgo.PrimaryButton, Emoji: &discordgo.ComponentEmoji{Name: "🔁"},
			CustomID: customID{Verb: verbRematch, Game: rec.ID}.String()},
	}}}
}

// onRematch: one of the two players of a finished game challenges the
// other to a new game in the same channel, sides swapped, same variant;
// the other accepts as for any challenge.
func (b *Bot) onRematch(ctx context.Context, i *discordgo.Interaction, id customID) {
	p := b.privatePrinterOf(i)
	rec, err := b.Store.GameByID(ctx, id.Game)
	if why := b.unseenGame(i, id.Game, rec, err); why != "" {
		b.replyEphemeral(i, why)
		return
	}
	if err != nil || rec.Status != storage.StatusFinished {
		b.replyEphemeral(i, gameNotRunningIn(p, rec, err))
		return
	}
	v, okV := rec.Player(storage.SideVersailles)
	c, okC := rec.Player(storage.SideCommune)
	if !okV || !okC || v.IsBot || c.IsBot {
		b.replyEphemeral(i, p.T("history.rematch.gone", nil))
		return
	}
	me := userID(i)
	var opp string
	var mySide storage.Side // this game's side of the one asking: they take the other
	switch me {
	case v.UserID:
		opp, mySide = c.UserID, storage.SideVersailles
	case c.UserID:
		opp, mySide = v.UserID, storage.SideCommune
	default:
		b.replyEphemeral(i, p.T("history.rematch.only-players", locale.Args{"Versailles": mention(v.UserID), "Commune": mention(c.UserID)}))
		return
	}
	if !clickedItsMessage(i) {
		// The challenge is posted where the click came from: only from the
		// finished board.
		b.replyEphemeral(i, p.T("bot.reply.not-on-message", nil))
		return
	}
	newMine, newTheirs := storage.SideCommune, storage.SideVersailles
	if mySide == storage.SideCommune {
		newMine, newTheirs = storage.SideVersailles, storage.SideCommune
	}
	g, err := b.createGame(ctx, storage.NewGame{GuildID: rec.GuildID, ChannelID: rec.ChannelID, Status: storage.StatusWaiting,
		Variant: rec.Variant, Mode: storage.ModeTwoPlayer, BotSide: storage.NoSide, Seed: b.Seed(), CreatedBy: me, InviteeID: opp,
		Players: []storage.Player{{Side: newMine, UserID: me}, {Side: newTheirs, UserID: opp}}, Clock: rematchClock(rec)})
	if err != nil {
		if !errors.Is(err, storage.ErrChannelBusy) {
			b.Log.Error("create rematch", "game", rec.ID, "err", err)
		}
		b.replyEphemeral(i, createError(p, err))
		return
	}
	pub := b.gamePrinter(rec)
	text := say(pub, "history.rematch.challenge", argText("Challenger", mention(me)), argText("Opponent", mention(opp)),
		argNum("Game", rec.ID), argText("Variant", variantPhrase(pub, rec.Variant)), argSide("Side", engineSide(newTheirs)))
	b.respond(i, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource, Data: &discordgo.InteractionResponseData{
		Content:         text,
		Components:      challengeButtons(pub, g.ID),
		AllowedMentions: &discordgo.MessageAllowedMentions{Users: []string{opp}},
	}})
}

// challengeButtons are a challenge's Accept and Decline buttons.
func challengeButtons(p *locale.Printer, gameID int64) []discordgo.MessageComponent {
	return []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
		discordgo.Button{Label: p.T("cmd.challenge.accept", nil), Style: discordgo.SuccessButton, CustomID: customID{Verb: verbAccept, Game: gameID}.String()},
		discordgo.Button{Label: p.T("cmd.challenge.decline", nil), Style: discordgo.SecondaryButton, CustomID: customID{Verb: verbDecline, Game: gameID}.String()},
	}}}
}

// options are the engine options a stored game replays with, its own deck
// included. A game finished before decks were kept names a deck id that
// was never stored: it replays with the bot's deck (what it was played
// with, unless the deck file changed since; a replay that then fails says
// so).
func (b *Bot) options(ctx context.Context, rec storage.Game) (engine.Options, error) {
	deck, err := b.deckOf(ctx, rec)
	if errors.Is(err, errNoDeck) {
		deck, err = b.Deck, nil
	}
	if err != nil {
		return engine.Options{}, err
	}
	return gameOptions(rec, deck)
}

// Rater is the bot's storage.StepRater (Glicko-2 with the side term), for
// tools that record results or rebuild ratings outside the bot (rfop
// loadgen).
func Rater() storage.StepRater { return glicko{} }
