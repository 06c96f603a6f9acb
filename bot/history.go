package bot

// After the game: /rfop replay (an animated GIF made from the stored
// action log), /rfop history and /rfop stats (from the results table), the
// per-server Glicko-2 ratings (package rating), and the Rematch button on
// a finished game's board.
//
// A result is recorded when a game finishes (persist), with its number of
// plays counted by package replay; games finished before results were kept
// get theirs at start-up (CheckGames). Ratings are recomputed from the
// results in the same transaction as each rated result, and rebuilt at
// start-up. Solo games (and any mode other than two-player, such as AI
// games) are listed but not rated; abandoned games have no result;
// resignations are results like any other.
//
// The answers to history and stats are private (ephemeral): a public
// message would push a running game's board off the bottom of the channel
// (the live board is always the newest message). A replay is posted in the
// channel unless the channel has an open game, where it is private too.

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/rfop/rfop/engine"
	"github.com/rfop/rfop/glossary"
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
	if err := b.Store.RecordResult(ctx, r, rateResults); err != nil {
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

// backfillResults records the results of finished games that have none.
func (b *Bot) backfillResults(ctx context.Context) {
	games, err := b.Store.FinishedWithoutResult(ctx)
	if err != nil {
		b.Log.Error("list finished games without a result", "err", err)
		return
	}
	for _, rec := range games {
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
		}
	}
	if len(games) > 0 {
		b.Log.Info("recorded the results of games finished before results were kept", "games", len(games))
	}
}

// rateResults is the storage.RateFunc: Glicko-2 over a guild's rated
// results in the order they ended.
func rateResults(rated []storage.GameResult) ([]storage.PlayerRating, error) {
	games := make([]rating.Game, 0, len(rated))
	guild := ""
	for _, r := range rated {
		guild = r.GuildID
		loser := storage.SideCommune
		if r.Winner == storage.SideCommune {
			loser = storage.SideVersailles
		}
		games = append(games, rating.Game{Winner: r.Player(r.Winner), Loser: r.Player(loser)})
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
	rp, ok := b.Pictures.(ReplayPictures)
	if !ok {
		b.replyEphemeral(i, txtReplayUnavailable)
		return
	}
	var rec storage.Game
	var err error
	if n := o.int("game", 0); n > 0 {
		rec, err = b.Store.GameByID(ctx, int64(n))
		if errors.Is(err, storage.ErrNotFound) || err == nil && rec.GuildID != i.GuildID {
			b.replyEphemeral(i, fmt.Sprintf(txtReplayNotHere, n))
			return
		}
	} else {
		var last storage.GameResult
		if last, err = b.Store.LatestResult(ctx, i.ChannelID); errors.Is(err, storage.ErrNotFound) {
			b.replyEphemeral(i, txtReplayNoGame)
			return
		} else if err == nil {
			rec, err = b.Store.GameByID(ctx, last.GameID)
		}
	}
	if err != nil {
		b.Log.Error("replay: read game", "err", err)
		b.replyEphemeral(i, txtStatsFailed)
		return
	}
	if rec.GuildID == "" && len(rec.SidesOf(userID(i))) == 0 {
		b.replyEphemeral(i, fmt.Sprintf(txtReplayNotYours, rec.ID)) // a DM game is its player's only
		return
	}
	if rec.Status != storage.StatusFinished {
		b.replyEphemeral(i, fmt.Sprintf(txtReplayNotFinished, rec.ID))
		return
	}
	select {
	case b.replaySlots <- struct{}{}:
		defer func() { <-b.replaySlots }()
	default:
		b.replyEphemeral(i, txtReplayBusy)
		return
	}
	// Private where a game is running, so that its board stays the newest
	// message; public otherwise.
	if open, err := b.Store.GameByChannel(ctx, i.ChannelID); err == nil && open.Status.Open() {
		if !b.deferEphemeral(i) {
			return
		}
	} else if !b.deferPublic(i) {
		return
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
		b.Log.Error("replay: read the log", "game", rec.ID, "err", err)
		b.editOriginal(i, msg{content: fmt.Sprintf(txtReplayFailed, rec.ID)})
		return
	}
	start := time.Now()
	gif, sum, half, err := rp.Replay(b.langOf(rec.GuildID), opts, moves)
	if errors.Is(err, ErrReplayTooLarge) {
		b.editOriginal(i, msg{content: fmt.Sprintf(txtReplayTooLarge, rec.ID)})
		return
	}
	if err != nil {
		b.Log.Error("replay", "game", rec.ID, "err", err)
		b.editOriginal(i, msg{content: fmt.Sprintf(txtReplayFailed, rec.ID)})
		return
	}
	b.Log.Info("replay drawn", "game", rec.ID, "frames", sum.Frames, "bytes", len(gif), "half", half, "took", time.Since(start))
	summary := ""
	if sum.Result != nil {
		summary = sum.Result.Summary
	}
	note := ""
	if half {
		note = txtReplayHalf
	}
	text := fmt.Sprintf(txtReplayCaption, rec.ID, strings.TrimSuffix(summary, "."), sum.Plays, sum.Scorings, note)
	b.editOriginal(i, msg{content: truncate(b.termsFor(rec.GuildID).Text(text), 2000),
		files: []*discordgo.File{{Name: fmt.Sprintf("replay-%d.gif", rec.ID), ContentType: "image/gif", Reader: strings.NewReader(string(gif))}}})
}

// ---- /rfop history ----

func (b *Bot) cmdHistory(ctx context.Context, i *discordgo.Interaction, o options) {
	if i.GuildID == "" {
		b.replyEphemeral(i, txtHistoryDMs)
		return
	}
	member := o.user("member")
	rs, err := b.Store.History(ctx, i.GuildID, member, historyLines+1)
	if err != nil {
		b.Log.Error("history", "err", err)
		b.replyEphemeral(i, txtStatsFailed)
		return
	}
	if len(rs) == 0 {
		b.replyEphemeral(i, txtHistoryNone)
		return
	}
	var sb strings.Builder
	if member != "" {
		fmt.Fprintf(&sb, txtHistoryTitleMember+"\n", mention(member))
	} else {
		sb.WriteString(txtHistoryTitle + "\n")
	}
	more := len(rs) > historyLines
	if more {
		rs = rs[:historyLines]
	}
	for _, r := range rs {
		sb.WriteString(historyLine(r) + "\n")
	}
	if more {
		sb.WriteString("…\n")
	}
	b.replyEphemeral(i, truncate(b.termsFor(i.GuildID).Text(strings.TrimRight(sb.String(), "\n")), 2000))
}

// historyLine: number, date, players and sides, variant, result and how it
// was decided, length in days and plays.
func historyLine(r storage.GameResult) string {
	who := func(side storage.Side) string {
		name := txtSoloOpponent
		if id := r.Player(side); id != "" {
			name = mention(id)
		}
		return name + " (" + engineSide(side).String() + ")"
	}
	return fmt.Sprintf(txtHistoryLine, r.GameID, r.EndedAt.UTC().Format("2006-01-02"), who(storage.SideVersailles), who(storage.SideCommune),
		r.Variant, decided(r), length(r.EndedAt.Sub(r.StartedAt)), r.Plays)
}

// decided says who won and how: a VP condition, the tiebreakers, a
// resignation, or (solo) no condition met.
func decided(r storage.GameResult) string {
	w := engineSide(r.Winner).String()
	switch r.Reason {
	case "victory":
		return fmt.Sprintf(txtWonOnVP, w, max(r.VP[1], 0), max(-r.VP[0], 0))
	case "tiebreaker":
		return fmt.Sprintf(txtWonTiebreak, w, r.Tiebreak[0], r.Tiebreak[1])
	case "resigned":
		return fmt.Sprintf(txtWonResign, w, engineSide(r.Winner).Other().String())
	case "solo-tie":
		return fmt.Sprintf(txtWonSoloTie, w)
	}
	return fmt.Sprintf(txtWonOther, w)
}

func length(d time.Duration) string {
	days := int(d.Hours()/24 + 0.5)
	switch {
	case d < 24*time.Hour:
		return txtLengthUnderDay
	case days == 1:
		return txtLengthOneDay
	}
	return fmt.Sprintf(txtLengthDays, days)
}

// ---- /rfop stats ----

func (b *Bot) cmdStats(ctx context.Context, i *discordgo.Interaction, o options) {
	if i.GuildID == "" {
		b.replyEphemeral(i, txtHistoryDMs)
		return
	}
	member := o.user("member")
	st, err := b.Store.Stats(ctx, i.GuildID, member)
	var board []storage.PlayerRating
	if err == nil {
		board, err = b.Store.Leaderboard(ctx, i.GuildID, minRatedGames, 0)
	}
	if err != nil {
		b.Log.Error("stats", "err", err)
		b.replyEphemeral(i, txtStatsFailed)
		return
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, txtStatsTitle+"\n", st.Games, st.Rated, st.Wins[0], st.Wins[1])
	if member != "" {
		b.memberStats(ctx, &sb, i.GuildID, member, st, board)
	} else {
		fmt.Fprintf(&sb, "\n"+txtStatsBoard+"\n", minRatedGames)
		if len(board) == 0 {
			fmt.Fprintf(&sb, txtStatsBoardEmpty+"\n", minRatedGames)
		}
		for k, p := range board {
			if k == leaderboardLen {
				break
			}
			fmt.Fprintf(&sb, txtStatsBoardLine+"\n", k+1, mention(p.UserID), p.Rating, p.Deviation, p.Games, p.Wins)
		}
		if len(st.Players) > 0 {
			sb.WriteString("\n" + txtStatsPlayers + "\n")
		}
		for k, p := range st.Players {
			if k == statsPlayers {
				break
			}
			sb.WriteString(recordLine(p) + "\n")
		}
	}
	b.replyEphemeral(i, truncate(b.termsFor(i.GuildID).Text(strings.TrimRight(sb.String(), "\n")), 2000))
}

func (b *Bot) memberStats(ctx context.Context, sb *strings.Builder, guildID, member string, st storage.GuildStats, board []storage.PlayerRating) {
	fmt.Fprintf(sb, "\n"+txtStatsMember+"\n", mention(member))
	if len(st.Players) == 0 {
		fmt.Fprintf(sb, txtStatsMemberNone+"\n", mention(member))
		return
	}
	sb.WriteString(recordLine(st.Players[0]) + "\n")
	p, err := b.Store.Rating(ctx, guildID, member)
	if err != nil {
		sb.WriteString(txtStatsUnrated + "\n")
		return
	}
	rank := ""
	for k, q := range board {
		if q.UserID == member {
			rank = fmt.Sprintf(txtStatsRank, k+1)
		}
	}
	fmt.Fprintf(sb, txtStatsRating+"\n", p.Rating, p.Deviation, p.Games, rank)
}

func recordLine(p storage.PlayerRecord) string {
	return fmt.Sprintf(txtStatsPlayerLine, mention(p.UserID), p.Games, p.Wins,
		p.Won[0], p.Played[0]-p.Won[0], p.Won[1], p.Played[1]-p.Won[1], p.Rated)
}

// ---- rematch ----

// rematchRow is the finished board's Rematch button, for a game between
// two members.
func rematchRow(rec storage.Game) []discordgo.MessageComponent {
	v, okV := rec.Player(storage.SideVersailles)
	c, okC := rec.Player(storage.SideCommune)
	if rec.Mode != storage.ModeTwoPlayer || !okV || !okC || v.IsBot || c.IsBot || rec.GuildID == "" {
		return []discordgo.MessageComponent{}
	}
	return []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
		discordgo.Button{Label: txtRematchLabel, Style: discordgo.PrimaryButton, Emoji: &discordgo.ComponentEmoji{Name: "🔁"},
			CustomID: customID{Verb: verbRematch, Game: rec.ID}.String()},
	}}}
}

// onRematch: one of the two players of a finished game challenges the
// other to a new game in the same channel, sides swapped, same variant;
// the other accepts as for any challenge.
func (b *Bot) onRematch(ctx context.Context, i *discordgo.Interaction, id customID) {
	rec, err := b.Store.GameByID(ctx, id.Game)
	if err != nil || rec.Status != storage.StatusFinished {
		b.replyEphemeral(i, gameNotRunning(rec, err))
		return
	}
	v, okV := rec.Player(storage.SideVersailles)
	c, okC := rec.Player(storage.SideCommune)
	if !okV || !okC || v.IsBot || c.IsBot {
		b.replyEphemeral(i, txtRematchGone)
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
		b.replyEphemeral(i, fmt.Sprintf(txtRematchOnlyPlayers, mention(v.UserID), mention(c.UserID)))
		return
	}
	newMine, newTheirs := storage.SideCommune, storage.SideVersailles
	if mySide == storage.SideCommune {
		newMine, newTheirs = storage.SideVersailles, storage.SideCommune
	}
	g, err := b.Store.CreateGame(ctx, storage.NewGame{GuildID: rec.GuildID, ChannelID: rec.ChannelID, Status: storage.StatusWaiting,
		Variant: rec.Variant, Mode: storage.ModeTwoPlayer, BotSide: storage.NoSide, Seed: b.Seed(), CreatedBy: me, InviteeID: opp,
		Players: []storage.Player{{Side: newMine, UserID: me}, {Side: newTheirs, UserID: opp}}})
	if err != nil {
		if !errors.Is(err, storage.ErrChannelBusy) {
			b.Log.Error("create rematch", "game", rec.ID, "err", err)
		}
		b.replyEphemeral(i, createError(err))
		return
	}
	text := fmt.Sprintf(txtRematchChallenge, mention(me), mention(opp), rec.ID, rec.Variant, newTheirs)
	b.respond(i, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource, Data: &discordgo.InteractionResponseData{
		Content:         text,
		Components:      challengeButtons(g.ID),
		AllowedMentions: &discordgo.MessageAllowedMentions{Users: []string{opp}},
	}})
}

// challengeButtons are a challenge's Accept and Decline buttons.
func challengeButtons(gameID int64) []discordgo.MessageComponent {
	return []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
		discordgo.Button{Label: "Accept", Style: discordgo.SuccessButton, CustomID: customID{Verb: verbAccept, Game: gameID}.String()},
		discordgo.Button{Label: "Decline", Style: discordgo.SecondaryButton, CustomID: customID{Verb: verbDecline, Game: gameID}.String()},
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
