package bot

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/rfop/rfop/engine"
	"github.com/rfop/rfop/glossary"
	"github.com/rfop/rfop/locale"
	"github.com/rfop/rfop/storage"
)

type options map[string]*discordgo.ApplicationCommandInteractionDataOption

func subcommand(i *discordgo.Interaction) (string, options) {
	d := i.ApplicationCommandData()
	opts := options{}
	if len(d.Options) == 0 {
		return "", opts
	}
	s := d.Options[0]
	for _, o := range s.Options {
		opts[o.Name] = o
	}
	return s.Name, opts
}

func (o options) str(name string) string {
	if v, ok := o[name]; ok {
		return v.StringValue()
	}
	return ""
}

func (o options) user(name string) string {
	if v, ok := o[name]; ok {
		if s, ok := v.Value.(string); ok {
			return s
		}
	}
	return ""
}

func (o options) int(name string, def int) int {
	if v, ok := o[name]; ok {
		return int(v.IntValue())
	}
	return def
}

func (b *Bot) onCommand(ctx context.Context, i *discordgo.Interaction) {
	name, opts := subcommand(i)
	switch name {
	case "new":
		b.cmdNew(ctx, i, opts)
	case "solo":
		b.cmdSolo(ctx, i, opts)
	case "ai":
		b.cmdAI(ctx, i, opts)
	case "hint":
		b.cmdHint(ctx, i)
	case "board":
		b.cmdBoard(ctx, i)
	case "hand":
		b.withChannelGame(ctx, i, func(rec storage.Game) { b.showHand(ctx, i, rec.ID) })
	case "turn":
		b.withChannelGame(ctx, i, func(rec storage.Game) { b.showTurn(ctx, i, rec.ID, "") })
	case "log":
		b.cmdLog(ctx, i, opts)
	case "card":
		b.cmdCard(ctx, i, opts)
	case "rules":
		b.cmdRules(i, opts)
	case "status":
		b.cmdStatus(ctx, i)
	case "resign":
		b.cmdResign(ctx, i)
	case "undo":
		b.cmdUndo(ctx, i)
	case "abandon":
		b.cmdAbandon(ctx, i)
	case "settings":
		b.cmdSettings(ctx, i, opts)
	case "replay":
		b.cmdReplay(ctx, i, opts)
	case "history":
		b.cmdHistory(ctx, i, opts)
	case "stats":
		b.cmdStats(ctx, i, opts)
	default:
		b.replyEphemeral(i, helpText)
	}
}

func (b *Bot) withChannelGame(ctx context.Context, i *discordgo.Interaction, fn func(storage.Game)) {
	rec, err := b.Store.GameByChannel(ctx, i.ChannelID)
	if err != nil || rec.Status != storage.StatusActive {
		b.replyEphemeral(i, "There is no game running in this channel. Start one with `/rfop new` or `/rfop solo`.")
		return
	}
	fn(rec)
}

func (b *Bot) cmdNew(ctx context.Context, i *discordgo.Interaction, o options) {
	if i.GuildID == "" {
		b.replyEphemeral(i, "Two-player games are played in a server channel. In DMs you can play `/rfop solo`.")
		return
	}
	me := userID(i)
	opp := o.user("opponent")
	first := o.user("player")
	admin := first != ""
	if admin {
		if ok, why := b.may(ctx, i, actNameBothPlayers, nil); !ok {
			b.replyEphemeral(i, why)
			return
		}
	}
	if !admin {
		first = me
	}
	if opp == "" || opp == first {
		b.replyEphemeral(i, "Choose another member as the opponent.")
		return
	}
	if r := i.ApplicationCommandData().Resolved; r != nil {
		for _, id := range []string{opp, first} {
			if u, found := r.Users[id]; found && u.Bot {
				b.replyEphemeral(i, "Bots cannot play; use `/rfop solo` to play against the solo opponent.")
				return
			}
		}
	}
	variant := o.str("variant")
	if _, err := engine.ParseVariant(variant); err != nil {
		b.replyEphemeral(i, err.Error())
		return
	}
	if variant == "" {
		variant = string(engine.Standard)
	}
	side := o.str("side")
	if side == "" || side == "random" {
		side = "versailles"
		if b.Seed()%2 == 0 {
			side = "commune"
		}
	}
	firstSide := storage.Side(side)
	secondSide := storage.SideCommune
	if firstSide == storage.SideCommune {
		secondSide = storage.SideVersailles
	}
	players := []storage.Player{{Side: firstSide, UserID: first}, {Side: secondSide, UserID: opp}}
	ng := storage.NewGame{GuildID: i.GuildID, ChannelID: i.ChannelID, Status: storage.StatusWaiting, Variant: variant,
		Mode: storage.ModeTwoPlayer, BotSide: storage.NoSide, Seed: b.Seed(), CreatedBy: me, InviteeID: opp, Players: players}
	if admin {
		// Acknowledge first: creating and starting the game writes to the
		// database and draws the board.
		ng.InviteeID = ""
		if !b.deferPublic(i) {
			return
		}
		rec, err := b.Store.CreateGame(ctx, ng)
		if err != nil {
			b.editOriginal(i, msg{content: createError(err)})
			if !errors.Is(err, storage.ErrChannelBusy) {
				b.Log.Error("create game", "err", err)
			}
			return
		}
		unlock := b.lockGame(rec.ID)
		defer unlock()
		rec, _, err = b.startGame(ctx, rec, nil)
		if err != nil {
			b.editOriginal(i, msg{content: "I could not start the game: " + err.Error()})
			return
		}
		b.editOriginal(i, msg{content: fmt.Sprintf("Game #%d begins: %s against %s (%s variant).", rec.ID,
			playerName(rec, engine.Versailles), playerName(rec, engine.Commune), variant)})
		return
	}
	rec, err := b.Store.CreateGame(ctx, ng)
	if err != nil {
		if !errors.Is(err, storage.ErrChannelBusy) {
			b.Log.Error("create game", "err", err)
		}
		b.replyEphemeral(i, createError(err))
		return
	}
	text := fmt.Sprintf("%s, %s challenges you to **Red Flag Over Paris** (%s variant): you would play **%s**. The challenge lasts 24 hours.",
		mention(opp), mention(me), variant, secondSide)
	b.respond(i, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource, Data: &discordgo.InteractionResponseData{
		Content:         text,
		Components:      challengeButtons(rec.ID),
		AllowedMentions: &discordgo.MessageAllowedMentions{Users: []string{opp}},
	}})
}

func (b *Bot) cmdSolo(ctx context.Context, i *discordgo.Interaction, o options) {
	if b.Solo == nil {
		b.replyEphemeral(i, "Solo games are not available here: this bot was started without the solo opponent.")
		return
	}
	me := userID(i)
	mine := storage.Side(o.str("side"))
	if mine != storage.SideCommune && mine != storage.SideVersailles {
		b.replyEphemeral(i, "Choose the side you play: commune or versailles.")
		return
	}
	botSide := storage.SideCommune
	if mine == storage.SideCommune {
		botSide = storage.SideVersailles
	}
	if !b.deferPublic(i) {
		return
	}
	rec, err := b.Store.CreateGame(ctx, storage.NewGame{GuildID: i.GuildID, ChannelID: i.ChannelID, Status: storage.StatusWaiting,
		Variant: string(engine.Standard), Mode: storage.ModeSolo, BotSide: botSide, Seed: b.Seed(), CreatedBy: me,
		Players: []storage.Player{{Side: mine, UserID: me}, {Side: botSide, IsBot: true}}})
	if errors.Is(err, storage.ErrChannelBusy) {
		b.editOriginal(i, msg{content: "This channel already has a game. Finish it, or `/rfop abandon` it, first."})
		return
	}
	if err != nil {
		b.Log.Error("create solo game", "err", err)
		b.editOriginal(i, msg{content: "I could not create the game; please try again."})
		return
	}
	unlock := b.lockGame(rec.ID)
	defer unlock()
	rec, _, err = b.startGame(ctx, rec, nil)
	if err != nil {
		b.editOriginal(i, msg{content: "I could not start the game: " + err.Error()})
		return
	}
	b.editOriginal(i, msg{content: fmt.Sprintf("Solo game #%d begins: you play **%s** against the solo opponent. Each of its decisions is explained in `/rfop log`.", rec.ID, mine)})
}

// cmdBoard posts the board again as the newest message (the previous one
// collapses), so it is back in sight; the command itself is answered
// privately.
func (b *Bot) cmdBoard(ctx context.Context, i *discordgo.Interaction) {
	rec, err := b.Store.GameByChannel(ctx, i.ChannelID)
	if err != nil || rec.State == nil {
		b.replyEphemeral(i, "There is no game running in this channel.")
		return
	}
	if ok, why := b.may(ctx, i, actRepostBoard, &rec); !ok {
		b.replyEphemeral(i, why)
		return
	}
	if !b.deferEphemeral(i) {
		return
	}
	unlock := b.lockGame(rec.ID)
	defer unlock()
	rec, g, err := b.loadGame(ctx, rec.ID)
	if err != nil || g == nil || rec.Status != storage.StatusActive {
		b.editOriginal(i, msg{content: gameNotRunning(rec, err)})
		return
	}
	if err := b.repostBoard(ctx, rec, g, boardPost{}); err != nil {
		b.Log.Warn("repost board", "game", rec.ID, "err", err)
		b.editOriginal(i, msg{content: "I could not post the board; please try again."})
		return
	}
	b.editOriginal(i, msg{content: fmt.Sprintf("The board of game #%d is posted below.", rec.ID)})
}

func (b *Bot) cmdLog(ctx context.Context, i *discordgo.Interaction, o options) {
	rec, err := b.Store.GameByChannel(ctx, i.ChannelID)
	if err != nil || rec.State == nil {
		b.replyEphemeral(i, "There is no game running in this channel.")
		return
	}
	_, g, err := b.loadGame(ctx, rec.ID)
	if err != nil {
		b.replyEphemeral(i, gameNotRunning(rec, err))
		return
	}
	viewer := engine.NoSide
	if sides := rec.SidesOf(userID(i)); len(sides) > 0 {
		viewer = engineSide(sides[0])
	}
	n := o.int("count", 15)
	if n <= 0 {
		n = 15
	}
	entries := g.LogSince(0, viewer)
	if len(entries) > n {
		entries = entries[len(entries)-n:]
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "**Game #%d — last %d log lines** (private lines are yours only)\n", rec.ID, len(entries))
	for _, e := range entries {
		mark := ""
		if e.To != engine.NoSide {
			mark = "🔒 "
		}
		sb.WriteString(mark + e.Text + "\n")
	}
	b.replyEphemeral(i, truncate(b.termsFor(rec.GuildID).Text(sb.String()), 2000))
}

func (b *Bot) cmdCard(ctx context.Context, i *discordgo.Interaction, o options) {
	deck := b.channelDeck(ctx, i.ChannelID)
	found := deck.FindCard(o.str("name"))
	if len(found) == 0 {
		b.replyEphemeral(i, "No card matches that name or number.")
		return
	}
	c := found[0]
	text := fmt.Sprintf("**#%d %s** — %s", c.Num, c.Name, c.Colour())
	if c.Kind == engine.ObjectiveCard {
		text += fmt.Sprintf(" objective (%s, %s)", c.Space, c.Space.Info().Dim)
	} else {
		text += fmt.Sprintf(", %d OP", c.OP)
	}
	text += fmt.Sprintf("\nStatus: **%s**", c.Status)
	if c.Status != engine.StatusKnown {
		text += " (our design; the printed text is unavailable)"
	}
	if c.TwoPlayerOnly {
		text += " · not used in solo games"
	}
	text += "\n" + c.Text
	text = truncate(b.termsFor(i.GuildID).Text(text), 2000)
	if b.Pictures == nil {
		b.replyEphemeral(i, text)
		return
	}
	if !b.deferEphemeral(i) {
		return
	}
	m := msg{content: text}
	if png, err := b.Pictures.Card(b.langOf(i.GuildID), deck, c.Num); err == nil {
		m.files = []*discordgo.File{pngFile(fmt.Sprintf("card-%d.png", c.Num), png)}
	}
	b.editOriginal(i, m)
}

func (b *Bot) onAutocomplete(i *discordgo.Interaction) {
	_, o := subcommand(i)
	q := ""
	if v, ok := o["name"]; ok {
		q, _ = v.Value.(string)
	}
	var choices []*discordgo.ApplicationCommandOptionChoice
	deck := b.channelDeck(context.Background(), i.ChannelID)
	cards := deck.FindCard(q)
	if strings.TrimSpace(q) == "" {
		cards = deck.Cards()
	}
	for _, c := range cards {
		if len(choices) == 25 {
			break
		}
		choices = append(choices, &discordgo.ApplicationCommandOptionChoice{Name: truncate(fmt.Sprintf("#%d %s", c.Num, c.Name), 100), Value: strconv.Itoa(c.Num)})
	}
	b.respond(i, &discordgo.InteractionResponse{Type: discordgo.InteractionApplicationCommandAutocompleteResult,
		Data: &discordgo.InteractionResponseData{Choices: choices}})
}

func (b *Bot) cmdRules(i *discordgo.Interaction, o options) {
	key := o.str("topic")
	var sb strings.Builder
	for _, t := range ruleTopics {
		if key == "" {
			sb.WriteString("• `" + t.key + "` — " + locale.For(locale.English).T(cmdID("choice", "topic", t.key), nil) + "\n")
		} else if t.key == key {
			b.replyEphemeral(i, t.text)
			return
		}
	}
	b.replyEphemeral(i, "Rules topics (`/rfop rules topic:…`):\n"+sb.String())
}

func (b *Bot) cmdStatus(ctx context.Context, i *discordgo.Interaction) {
	var games []storage.Game
	var err error
	if i.GuildID == "" {
		var g storage.Game
		if g, err = b.Store.GameByChannel(ctx, i.ChannelID); err == nil {
			games = []storage.Game{g}
		} else if errors.Is(err, storage.ErrNotFound) {
			err = nil
		}
	} else {
		games, err = b.Store.GamesInGuild(ctx, i.GuildID, storage.StatusActive, storage.StatusWaiting)
	}
	if err != nil {
		b.replyEphemeral(i, "I could not read the games.")
		return
	}
	if len(games) == 0 {
		b.replyEphemeral(i, "No games are running here.")
		return
	}
	var sb strings.Builder
	for _, rec := range games {
		if !b.canView(i, rec.ChannelID) {
			continue // a channel the caller cannot see: not even its existence
		}
		if rec.Status == storage.StatusWaiting {
			fmt.Fprintf(&sb, "• #%d in <#%s>: challenge waiting for %s\n", rec.ID, rec.ChannelID, mention(rec.InviteeID))
			continue
		}
		_, g, err := b.loadGame(ctx, rec.ID)
		if err != nil || g == nil {
			continue
		}
		fmt.Fprintf(&sb, "• #%d in <#%s> · %s — %s\n", rec.ID, rec.ChannelID, roundName(g.S.Round), b.waitingText(rec, g))
	}
	if sb.Len() == 0 {
		b.replyEphemeral(i, "No games are running here.")
		return
	}
	b.replyEphemeral(i, truncate(sb.String(), 2000))
}

func (b *Bot) cmdResign(ctx context.Context, i *discordgo.Interaction) {
	b.withChannelGame(ctx, i, func(rec storage.Game) {
		sides := rec.SidesOf(userID(i))
		if len(sides) == 0 {
			b.replyEphemeral(i, "You are not playing in this game.")
			return
		}
		side := engineSide(sides[0])
		b.replyEphemeral(i, "Resign game #"+strconv.FormatInt(rec.ID, 10)+"? Your opponent wins.",
			discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.Button{Label: "Yes, resign", Style: discordgo.DangerButton,
				CustomID: customID{Verb: verbResign, Game: rec.ID, Version: rec.StateVersion, Side: side.Key()}.String()}}})
	})
}

func (b *Bot) cmdUndo(ctx context.Context, i *discordgo.Interaction) {
	b.withChannelGame(ctx, i, func(rec storage.Game) {
		// Acknowledge first: the game's lock may be held while a board is drawn.
		if !b.deferEphemeral(i) {
			return
		}
		unlock := b.lockGame(rec.ID)
		defer unlock()
		rec, g, err := b.loadGame(ctx, rec.ID)
		if err != nil || g == nil {
			b.editOriginal(i, msg{content: gameNotRunning(rec, err)})
			return
		}
		sides := rec.SidesOf(userID(i))
		var side engine.Side = engine.NoSide
		for _, s := range sides {
			if g.CanUndo(engineSide(s)) {
				side = engineSide(s)
			}
		}
		if side == engine.NoSide {
			b.editOriginal(i, msg{content: "There is nothing you can undo: hidden information was revealed, or your opponent has acted since."})
			return
		}
		_, vsAI, _ := aiPlayerOf(rec)
		if _, mine := g.PromptFor(side); mine || rec.Mode == storage.ModeSolo || vsAI != "" {
			// Still deciding: the opponent has seen nothing yet.
			if rec, err = b.commit(ctx, rec, g, engine.Move{Side: side, Undo: true}, userID(i)); err != nil {
				b.editOriginal(i, msg{content: "The undo failed: " + err.Error()})
				return
			}
			b.editOriginal(i, b.panel(rec, g, side, "↩️ Your last choice was taken back."))
			return
		}
		// The opponent could have seen the move: ask for consent, in public,
		// once per version and not too often (each request pings them).
		if r, err := b.Store.PendingUndo(ctx, rec.ID); err == nil && r.Side == sideKey(side) {
			b.editOriginal(i, msg{content: refuseUndoTwice})
			return
		}
		if ok, why := b.may(ctx, i, actAskUndo, &rec); !ok {
			b.editOriginal(i, msg{content: why})
			return
		}
		if err := b.Store.RequestUndo(ctx, storage.UndoRequest{GameID: rec.ID, Side: sideKey(side), UserID: userID(i), Version: rec.StateVersion}); err != nil {
			b.Log.Warn("record undo request", "game", rec.ID, "err", err)
			b.editOriginal(i, msg{content: "I could not ask your opponent; please try again."})
			return
		}
		other, _ := rec.Player(sideKey(side.Other()))
		_, err = b.Session.ChannelMessageSendComplex(rec.ChannelID, &discordgo.MessageSend{
			Content: fmt.Sprintf("%s asks to take back their last choice. %s, do you agree?", playerName(rec, side), mention(other.UserID)),
			Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
				discordgo.Button{Label: "Allow undo", Style: discordgo.SuccessButton, CustomID: customID{Verb: verbUndoOK, Game: rec.ID, Version: rec.StateVersion, Side: side.Key()}.String()},
				discordgo.Button{Label: "Refuse", Style: discordgo.SecondaryButton, CustomID: customID{Verb: verbUndoNo, Game: rec.ID, Version: rec.StateVersion, Side: side.Key()}.String()},
			}}},
			AllowedMentions: &discordgo.MessageAllowedMentions{Users: []string{other.UserID}},
		})
		if err != nil {
			b.Log.Warn("undo request", "game", rec.ID, "err", err)
			_ = b.Store.DropUndoRequest(ctx, rec.ID)
			b.editOriginal(i, msg{content: "I could not ask your opponent; please try again."})
			return
		}
		b.editOriginal(i, msg{content: "Your opponent could have seen that choice: I asked them to allow the undo."})
	})
}

func (b *Bot) cmdAbandon(ctx context.Context, i *discordgo.Interaction) {
	rec, err := b.Store.GameByChannel(ctx, i.ChannelID)
	if err != nil {
		b.replyEphemeral(i, "There is no game in this channel.")
		return
	}
	if ok, why := b.may(ctx, i, actAbandon, &rec); !ok {
		b.replyEphemeral(i, why)
		return
	}
	// Acknowledge first: the game's lock may be held while a board is drawn.
	if !b.deferPublic(i) {
		return
	}
	unlock := b.lockGame(rec.ID)
	defer unlock()
	if _, err := b.Store.Abandon(ctx, rec.ID); err != nil {
		text := fmt.Sprintf("Game #%d is no longer running.", rec.ID)
		if !errors.Is(err, storage.ErrWrongStatus) {
			b.Log.Error("abandon", "game", rec.ID, "err", err)
			text = "I could not abandon the game; please try again."
		}
		b.editOriginal(i, msg{content: text})
		return
	}
	b.editOriginal(i, msg{content: fmt.Sprintf("Game #%d was abandoned by %s.", rec.ID, mention(userID(i)))})
	b.retireBoard(ctx, rec.ID)
}

func (b *Bot) cmdSettings(ctx context.Context, i *discordgo.Interaction, o options) {
	if i.GuildID == "" {
		b.replyEphemeral(i, "Settings belong to a server.")
		return
	}
	set, err := b.Store.GuildSettings(ctx, i.GuildID)
	if err != nil {
		b.replyEphemeral(i, "I could not read the settings.")
		return
	}
	changed := len(o) > 0
	if changed {
		if ok, why := b.may(ctx, i, actChangeSettings, nil); !ok {
			b.replyEphemeral(i, why)
			return
		}
		if v, ok := o["reminder_hours"]; ok {
			set.ReminderInterval = time.Duration(v.IntValue()) * time.Hour
		}
		if v, ok := o["admin_role"]; ok {
			set.AdminRoleID, _ = v.Value.(string)
		}
		if v, ok := o["clear_admin_role"]; ok && v.BoolValue() {
			set.AdminRoleID = ""
		}
		if v := o.str("language"); v != "" {
			l, err := glossary.ParseLang(v)
			if err != nil {
				b.replyEphemeral(i, "I don't know that language: choose English, Français or Русский.")
				return
			}
			set.Language = string(l)
		}
		if set, err = b.Store.SetGuildSettings(ctx, set); err != nil {
			b.replyEphemeral(i, "I could not save the settings: "+err.Error())
			return
		}
		if l, err := glossary.ParseLang(set.Language); err == nil {
			b.setLang(i.GuildID, l)
		}
	}
	role := "none"
	if set.AdminRoleID != "" {
		role = "<@&" + set.AdminRoleID + ">"
	}
	rem := "off"
	if set.ReminderInterval > 0 {
		rem = fmt.Sprintf("every %d h", int(set.ReminderInterval.Hours()))
	}
	prefix := "Settings"
	if changed {
		prefix = "Settings saved"
	}
	lang, _ := glossary.ParseLang(set.Language)
	b.replyEphemeral(i, fmt.Sprintf("%s: reminders %s · admin role %s · game terms: %s (the words of %s; the bot's sentences stay in English)",
		prefix, rem, role, lang.Name(), lang.Edition()))
}

func createError(err error) string {
	if errors.Is(err, storage.ErrChannelBusy) {
		return "This channel already has a game. Finish it, or `/rfop abandon` it, first."
	}
	return "I could not create the game; please try again."
}
