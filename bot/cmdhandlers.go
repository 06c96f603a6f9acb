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
	if ok, why := b.allowedHere(i, name); !ok {
		b.replyEphemeral(i, why)
		return
	}
	switch name {
	case "notify":
		b.cmdNotify(ctx, i, opts)
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
	case "analysis":
		b.cmdAnalysis(ctx, i, opts)
	case "history":
		b.cmdHistory(ctx, i, opts)
	case "stats":
		b.cmdStats(ctx, i, opts)
	case "away":
		b.cmdAway(ctx, i, opts)
	case "back":
		b.cmdBack(ctx, i)
	default:
		b.replyEphemeral(i, helpText(b.privatePrinterOf(i)))
	}
}

// say prints message id of the cmd area with typed arguments, so that a
// side can be declined ({{.Side.Acc}}) and a count choose its plural form
// (an argument named Count).
func say(p *locale.Printer, id string, args ...engine.Arg) string {
	return p.Msg(nil, engine.Msg{ID: id, Args: args})
}

func argText(name, s string) engine.Arg { return engine.Arg{Name: name, Kind: engine.ArgText, S: s} }
func argNum(name string, n int64) engine.Arg {
	return engine.Arg{Name: name, Kind: engine.ArgNum, N: int(n)}
}
func argSide(name string, s engine.Side) engine.Arg {
	return engine.Arg{Name: name, Kind: engine.ArgSide, N: int(s)}
}

// variantPhrase names a rules variant in a sentence ("standard variant").
func variantPhrase(p *locale.Printer, variant string) string {
	if variant == string(engine.Censorship) {
		return p.T("cmd.variant.censorship", nil)
	}
	return p.T("cmd.variant.standard", nil)
}

func (b *Bot) withChannelGame(ctx context.Context, i *discordgo.Interaction, fn func(storage.Game)) {
	rec, err := b.Store.GameByChannel(ctx, i.ChannelID)
	if err != nil || rec.Status != storage.StatusActive {
		b.replyEphemeral(i, b.privatePrinterOf(i).T("cmd.no-game-start", nil))
		return
	}
	fn(rec)
}

func (b *Bot) cmdNew(ctx context.Context, i *discordgo.Interaction, o options) {
	p := b.privatePrinterOf(i)
	if i.GuildID == "" {
		b.replyEphemeral(i, p.T("cmd.new.in-dms", nil))
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
		b.replyEphemeral(i, p.T("cmd.new.other-opponent", nil))
		return
	}
	if r := i.ApplicationCommandData().Resolved; r != nil {
		for _, id := range []string{opp, first} {
			if u, found := r.Users[id]; found && u.Bot {
				b.replyEphemeral(i, p.T("cmd.new.no-bots", nil))
				return
			}
		}
	}
	variant := o.str("variant")
	if _, err := engine.ParseVariant(variant); err != nil {
		b.replyEphemeral(i, p.T("cmd.new.bad-variant", nil))
		return
	}
	if variant == "" {
		variant = string(engine.Standard)
	}
	paceName := o.str("pace")
	if paceName == "" {
		if set, err := b.Store.GuildSettings(ctx, i.GuildID); err == nil {
			paceName = set.Pace
		}
	}
	pc, ok := paceNamed(paceName)
	if !ok {
		b.replyEphemeral(i, p.T("cmd.new.bad-pace", nil))
		return
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
		Mode: storage.ModeTwoPlayer, BotSide: storage.NoSide, Seed: b.Seed(), CreatedBy: me, InviteeID: opp, Players: players,
		Clock: newClock(pc)}
	if admin {
		// Acknowledge first: creating and starting the game writes to the
		// database and draws the board.
		ng.InviteeID = ""
		if !b.deferPublic(i) {
			return
		}
		pub := b.publicPrinter(i.GuildID)
		rec, err := b.createGame(ctx, ng)
		if err != nil {
			b.editOriginal(i, msg{content: createError(pub, err)})
			if !errors.Is(err, storage.ErrChannelBusy) {
				b.Log.Error("create game", "err", err)
			}
			return
		}
		unlock := b.lockGame(rec.ID)
		defer unlock()
		rec, _, err = b.startGame(ctx, rec, nil)
		if err != nil {
			b.Log.Error("start game", "game", rec.ID, "err", err)
			b.editOriginal(i, msg{content: pub.T("cmd.start-failed", nil)})
			return
		}
		b.editOriginal(i, msg{content: say(pub, "cmd.new.begins", argNum("Game", rec.ID),
			argText("Versailles", playerNameIn(pub, rec, engine.Versailles)), argText("Commune", playerNameIn(pub, rec, engine.Commune)),
			argText("Variant", variantPhrase(pub, variant))) + "\n" + paceWords(pub, pc.Name)})
		return
	}
	rec, err := b.createGame(ctx, ng)
	if err != nil {
		if !errors.Is(err, storage.ErrChannelBusy) {
			b.Log.Error("create game", "err", err)
		}
		b.replyEphemeral(i, createError(p, err))
		return
	}
	pub := b.publicPrinter(i.GuildID)
	text := say(pub, "cmd.new.challenge", argText("Opponent", mention(opp)), argText("Challenger", mention(me)),
		argText("Variant", variantPhrase(pub, variant)), argSide("Side", engineSide(secondSide))) + "\n" + paceWords(pub, pc.Name)
	b.respond(i, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource, Data: &discordgo.InteractionResponseData{
		Content:         text,
		Components:      challengeButtons(pub, rec.ID),
		AllowedMentions: &discordgo.MessageAllowedMentions{Users: []string{opp}},
	}})
}

func (b *Bot) cmdSolo(ctx context.Context, i *discordgo.Interaction, o options) {
	p := b.privatePrinterOf(i)
	if b.Solo == nil {
		b.replyEphemeral(i, p.T("cmd.solo.unavailable", nil))
		return
	}
	me := userID(i)
	mine := storage.Side(o.str("side"))
	if mine != storage.SideCommune && mine != storage.SideVersailles {
		b.replyEphemeral(i, p.T("cmd.solo.choose-side", nil))
		return
	}
	botSide := storage.SideCommune
	if mine == storage.SideCommune {
		botSide = storage.SideVersailles
	}
	guild, channel, moved, err := b.personalChannel(i)
	if err != nil {
		b.replyEphemeral(i, dmRefusedText(p, discordErrorCode(err), 0))
		return
	}
	if !moved && !b.deferPublic(i) || moved && !b.deferEphemeral(i) {
		return
	}
	// Public: the server's language, or in DMs the player's own.
	pub := b.publicPrinter(guild)
	if guild == "" {
		pub = p
	}
	rec, err := b.createGame(ctx, storage.NewGame{GuildID: guild, ChannelID: channel, Status: storage.StatusWaiting,
		Variant: string(engine.Standard), Mode: storage.ModeSolo, BotSide: botSide, Seed: b.Seed(), CreatedBy: me,
		Players: []storage.Player{{Side: mine, UserID: me}, {Side: botSide, IsBot: true}}})
	if err != nil {
		if !errors.Is(err, storage.ErrChannelBusy) {
			b.Log.Error("create solo game", "err", err)
		}
		b.editOriginal(i, msg{content: createError(pub, err)})
		return
	}
	unlock := b.lockGame(rec.ID)
	defer unlock()
	rec, _, err = b.startGame(ctx, rec, nil)
	if err != nil {
		b.Log.Error("start solo game", "game", rec.ID, "err", err)
		b.editOriginal(i, msg{content: pub.T("cmd.start-failed", nil)})
		return
	}
	if b.startedInDMs(ctx, i, p, rec, moved) {
		return
	}
	b.editOriginal(i, msg{content: say(pub, "cmd.solo.begins", argNum("Game", rec.ID), argSide("Side", engineSide(mine)))})
}

// cmdBoard posts the board again as the newest message (the previous one
// collapses), so it is back in sight; the command itself is answered
// privately.
func (b *Bot) cmdBoard(ctx context.Context, i *discordgo.Interaction) {
	p := b.privatePrinterOf(i)
	rec, err := b.Store.GameByChannel(ctx, i.ChannelID)
	if err != nil || rec.State == nil {
		b.replyEphemeral(i, p.T("cmd.no-game", nil))
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
		b.editOriginal(i, msg{content: gameNotRunningIn(p, rec, err)})
		return
	}
	b.leaveAdmission(i) // the board waits for a render slot and the channel
	if err := b.repostBoard(ctx, rec, g, boardPost{}); err != nil {
		b.Log.Warn("repost board", "game", rec.ID, "err", err)
		b.editOriginal(i, msg{content: p.T("cmd.board.failed", nil)})
		return
	}
	b.editOriginal(i, msg{content: p.T("cmd.board.posted", locale.Args{"Game": rec.ID})})
}

func (b *Bot) cmdLog(ctx context.Context, i *discordgo.Interaction, o options) {
	p := b.privatePrinterOf(i)
	rec, err := b.Store.GameByChannel(ctx, i.ChannelID)
	if err != nil || rec.State == nil {
		b.replyEphemeral(i, p.T("cmd.no-game", nil))
		return
	}
	_, g, err := b.loadGame(ctx, rec.ID)
	if err != nil {
		b.replyEphemeral(i, gameNotRunningIn(p, rec, err))
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
	sb.WriteString(say(p, "cmd.log.title", argNum("Game", rec.ID), argNum("Count", int64(len(entries)))) + "\n")
	for _, e := range entries {
		mark := ""
		if e.To != engine.NoSide {
			mark = "🔒 "
		}
		sb.WriteString(mark + p.LogLine(g.Deck(), e) + "\n")
	}
	b.replyEphemeral(i, truncate(sb.String(), 2000))
}

func (b *Bot) cmdCard(ctx context.Context, i *discordgo.Interaction, o options) {
	p := b.privatePrinterOf(i)
	deck := b.channelDeck(ctx, i.ChannelID)
	found := findCards(p, deck, o.str("name"))
	if len(found) == 0 {
		b.replyEphemeral(i, p.T("cmd.card.none", nil))
		return
	}
	c := found[0]
	text := truncate(cardInfo(p, deck, c), 2000)
	if b.Pictures == nil {
		b.replyEphemeral(i, text)
		return
	}
	if !b.deferEphemeral(i) {
		return
	}
	m := msg{content: text}
	if png, err := b.Pictures.Card(p.Lang(), deck, c.Num); err == nil {
		m.files = []*discordgo.File{pngFile(fmt.Sprintf("card-%d.png", c.Num), png)}
	}
	b.editOriginal(i, m)
}

// cardInfo is /rfop card's text: the card's number and name in the
// reader's language, its colour and OP (or its objective's space), its
// status, and its event text.
func cardInfo(p *locale.Printer, deck *engine.Deck, c *engine.Card) string {
	var head string
	if c.Kind == engine.ObjectiveCard {
		head = p.T("cmd.card.head-objective", locale.Args{"Card": p.CardName(deck, c.Num),
			"Space": p.Term(c.Space.String()), "Dimension": p.Term(c.Space.Info().Dim.String())})
	} else {
		head = p.T("cmd.card.head", locale.Args{"Card": p.CardName(deck, c.Num),
			"Colour": p.T("cmd.colour."+c.Colour(), nil), "OP": p.N("common.op-short", c.OP, nil)})
	}
	status := p.T("cmd.card.status."+string(c.Status), nil)
	line := p.T("cmd.card.status", locale.Args{"Status": status})
	if c.Status != engine.StatusKnown {
		line += p.T("cmd.card.ours", nil)
	}
	if c.TwoPlayerOnly {
		line += p.T("cmd.card.two-player", nil)
	}
	return head + "\n" + line + "\n" + p.CardText(deck, c.Num)
}

// findCards finds cards by number, by (part of) the deck's name, or by
// (part of) the name in the reader's language.
func findCards(p *locale.Printer, deck *engine.Deck, q string) []*engine.Card {
	found := deck.FindCard(q)
	if len(found) == 1 || p.Lang() == locale.English {
		return found
	}
	needle := strings.ToLower(strings.TrimSpace(strings.TrimPrefix(q, "#")))
	if needle == "" {
		return found
	}
	seen := map[int]bool{}
	for _, c := range found {
		seen[c.Num] = true
	}
	for _, c := range deck.Cards() {
		if !seen[c.Num] && strings.Contains(strings.ToLower(p.CardTitle(deck, c.Num)), needle) {
			found = append(found, c)
			seen[c.Num] = true
		}
	}
	return found
}

func (b *Bot) onAutocomplete(i *discordgo.Interaction) {
	_, o := subcommand(i)
	q := ""
	if v, ok := o["name"]; ok {
		q, _ = v.Value.(string)
	}
	p := b.privatePrinterOf(i)
	var choices []*discordgo.ApplicationCommandOptionChoice
	deck := b.channelDeck(context.Background(), i.ChannelID)
	cards := findCards(p, deck, q)
	if strings.TrimSpace(q) == "" {
		cards = deck.Cards()
	}
	for _, c := range cards {
		if len(choices) == 25 {
			break
		}
		choices = append(choices, &discordgo.ApplicationCommandOptionChoice{Name: truncate(p.CardName(deck, c.Num), 100), Value: strconv.Itoa(c.Num)})
	}
	b.respond(i, &discordgo.InteractionResponse{Type: discordgo.InteractionApplicationCommandAutocompleteResult,
		Data: &discordgo.InteractionResponseData{Choices: choices}})
}

func (b *Bot) cmdRules(i *discordgo.Interaction, o options) {
	p := b.privatePrinterOf(i)
	key := o.str("topic")
	var sb strings.Builder
	for _, t := range ruleTopics {
		if key == "" {
			sb.WriteString("• " + p.T(cmdID("choice", "topic", t), nil) + "\n")
		} else if t == key {
			b.replyEphemeral(i, p.T("help.rules."+t, nil))
			return
		}
	}
	b.replyEphemeral(i, p.T("help.rules.list", nil)+"\n"+sb.String())
}

func (b *Bot) cmdStatus(ctx context.Context, i *discordgo.Interaction) {
	p := b.privatePrinterOf(i)
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
		b.replyEphemeral(i, p.T("cmd.status.failed", nil))
		return
	}
	if len(games) == 0 {
		b.replyEphemeral(i, p.T("cmd.status.none", nil))
		return
	}
	var sb strings.Builder
	v := b.viewerOf(i)
	for _, rec := range games {
		if !v.seesGame(rec) {
			continue // a channel the caller cannot see: not even its existence
		}
		if rec.Status == storage.StatusWaiting {
			sb.WriteString(p.T("cmd.status.challenge", locale.Args{"Game": rec.ID, "Channel": "<#" + rec.ChannelID + ">",
				"Invitee": mention(rec.InviteeID)}) + "\n")
			continue
		}
		_, g, err := b.loadGame(ctx, rec.ID)
		if err != nil || g == nil {
			continue
		}
		sb.WriteString(p.T("cmd.status.game", locale.Args{"Game": rec.ID, "Channel": "<#" + rec.ChannelID + ">",
			"Round": roundNameIn(p, g.S.Round), "Waiting": b.waitingIn(ctx, p, rec, g)}) + "\n")
	}
	if sb.Len() == 0 {
		b.replyEphemeral(i, p.T("cmd.status.none", nil))
		return
	}
	b.replyEphemeral(i, truncate(sb.String(), 2000))
}

func (b *Bot) cmdResign(ctx context.Context, i *discordgo.Interaction) {
	b.withChannelGame(ctx, i, func(rec storage.Game) {
		p := b.privatePrinterOf(i)
		sides := rec.SidesOf(userID(i))
		if len(sides) == 0 {
			b.replyEphemeral(i, p.T("cmd.not-playing", nil))
			return
		}
		side := engineSide(sides[0])
		b.replyEphemeral(i, p.T("cmd.resign.confirm", locale.Args{"Game": rec.ID}),
			discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.Button{Label: p.T("cmd.resign.button", nil), Style: discordgo.DangerButton,
				CustomID: customID{Verb: verbResign, Game: rec.ID, Version: rec.StateVersion, Side: side.Key()}.String()}}})
	})
}

func (b *Bot) cmdUndo(ctx context.Context, i *discordgo.Interaction) {
	b.withChannelGame(ctx, i, func(rec storage.Game) {
		p := b.privatePrinterOf(i)
		// Acknowledge first: the game's lock may be held while a board is drawn.
		if !b.deferEphemeral(i) {
			return
		}
		unlock := b.lockGame(rec.ID)
		defer unlock()
		rec, g, err := b.loadGame(ctx, rec.ID)
		if err != nil || g == nil {
			b.editOriginal(i, msg{content: gameNotRunningIn(p, rec, err)})
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
			b.editOriginal(i, msg{content: p.T("cmd.undo.nothing", nil)})
			return
		}
		_, vsAI, _ := aiPlayerOf(rec)
		if _, mine := g.PromptFor(side); mine || rec.Mode == storage.ModeSolo || vsAI != "" {
			// Still deciding: the opponent has seen nothing yet.
			if rec, err = b.commit(ctx, rec, g, engine.Move{Side: side, Undo: true}, userID(i)); err != nil {
				b.Log.Warn("undo", "game", rec.ID, "err", err)
				b.editOriginal(i, msg{content: p.T("cmd.undo.failed", nil)})
				return
			}
			b.editOriginal(i, b.panel(rec, g, side, p.T("cmd.undo.done", nil)))
			return
		}
		// The opponent could have seen the move: ask for consent, in public,
		// once per version and not too often (each request pings them).
		if r, err := b.Store.PendingUndo(ctx, rec.ID); err == nil && r.Side == sideKey(side) {
			b.editOriginal(i, msg{content: p.T("cmd.refuse.undo-twice", nil)})
			return
		}
		if ok, why := b.may(ctx, i, actAskUndo, &rec); !ok {
			b.editOriginal(i, msg{content: why})
			return
		}
		if err := b.Store.RequestUndo(ctx, storage.UndoRequest{GameID: rec.ID, Side: sideKey(side), UserID: userID(i), Version: rec.StateVersion}); err != nil {
			b.Log.Warn("record undo request", "game", rec.ID, "err", err)
			b.editOriginal(i, msg{content: p.T("cmd.undo.ask-failed", nil)})
			return
		}
		other, _ := rec.Player(sideKey(side.Other()))
		pub := b.gamePrinter(rec)
		b.leaveAdmission(i) // the channel's rate limit may keep it waiting
		_, err = b.Session.ChannelMessageSendComplex(rec.ChannelID, &discordgo.MessageSend{
			Content: pub.T("cmd.undo.ask", locale.Args{"Player": playerNameIn(pub, rec, side), "Opponent": mention(other.UserID)}),
			Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
				discordgo.Button{Label: pub.T("cmd.undo.allow", nil), Style: discordgo.SuccessButton, CustomID: customID{Verb: verbUndoOK, Game: rec.ID, Version: rec.StateVersion, Side: side.Key()}.String()},
				discordgo.Button{Label: pub.T("cmd.undo.refuse", nil), Style: discordgo.SecondaryButton, CustomID: customID{Verb: verbUndoNo, Game: rec.ID, Version: rec.StateVersion, Side: side.Key()}.String()},
			}}},
			AllowedMentions: &discordgo.MessageAllowedMentions{Users: []string{other.UserID}},
		})
		if err != nil {
			b.Log.Warn("undo request", "game", rec.ID, "err", err)
			_ = b.Store.DropUndoRequest(ctx, rec.ID)
			b.editOriginal(i, msg{content: p.T("cmd.undo.ask-failed", nil)})
			return
		}
		b.editOriginal(i, msg{content: p.T("cmd.undo.asked", nil)})
	})
}

func (b *Bot) cmdAbandon(ctx context.Context, i *discordgo.Interaction) {
	rec, err := b.Store.GameByChannel(ctx, i.ChannelID)
	if err != nil {
		b.replyEphemeral(i, b.privatePrinterOf(i).T("cmd.abandon.no-game", nil))
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
	pub := b.gamePrinter(rec)
	if _, err := b.Store.Abandon(ctx, rec.ID); err != nil {
		text := pub.T("cmd.abandon.not-running", locale.Args{"Game": rec.ID})
		if !errors.Is(err, storage.ErrWrongStatus) {
			b.Log.Error("abandon", "game", rec.ID, "err", err)
			text = pub.T("cmd.abandon.failed", nil)
		}
		b.editOriginal(i, msg{content: text})
		return
	}
	b.editOriginal(i, msg{content: pub.T("cmd.abandon.done", locale.Args{"Game": rec.ID, "Member": mention(userID(i))})})
	b.retireBoard(ctx, rec.ID)
}

func (b *Bot) cmdSettings(ctx context.Context, i *discordgo.Interaction, o options) {
	p := b.privatePrinterOf(i)
	if i.GuildID == "" {
		b.replyEphemeral(i, p.T("cmd.settings.dms", nil))
		return
	}
	set, err := b.Store.GuildSettings(ctx, i.GuildID)
	if err != nil {
		b.replyEphemeral(i, p.T("cmd.settings.read-failed", nil))
		return
	}
	changed := len(o) > 0
	was := set.ReminderInterval
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
		if v, ok := o["pace"]; ok {
			pc, found := paceNamed(v.StringValue())
			if !found {
				b.replyEphemeral(i, p.T("cmd.new.bad-pace", nil))
				return
			}
			set.Pace = pc.Name
			if pc.Base <= 0 {
				set.Pace = ""
			}
		}
		if v := o.str("language"); v != "" {
			l, err := glossary.ParseLang(v)
			if err != nil {
				b.replyEphemeral(i, p.T("cmd.settings.bad-language", nil))
				return
			}
			set.Language = string(l)
		}
		if set, err = b.Store.SetGuildSettings(ctx, set); err != nil {
			b.Log.Error("save settings", "guild", i.GuildID, "err", err)
			b.replyEphemeral(i, p.T("cmd.settings.save-failed", nil))
			return
		}
		if l, err := glossary.ParseLang(set.Language); err == nil {
			b.setLang(i.GuildID, l)
		}
		if set.ReminderInterval != was {
			b.rescheduleReminders(ctx, i.GuildID, set.ReminderInterval)
		}
		p = b.privatePrinterOf(i) // the answer speaks the new language
	}
	role := p.T("cmd.settings.no-role", nil)
	if set.AdminRoleID != "" {
		role = "<@&" + set.AdminRoleID + ">"
	}
	rem := p.T("cmd.settings.reminders-off", nil)
	if set.ReminderInterval > 0 {
		rem = p.N("cmd.settings.reminders-every", int(set.ReminderInterval.Hours()), nil)
	}
	id := "cmd.settings.show"
	if changed {
		id = "cmd.settings.saved"
	}
	lang := b.publicLang(i.GuildID)
	langWhy := p.T("cmd.settings.lang-chosen", nil)
	if set.Language == "" {
		langWhy = p.T("cmd.settings.lang-default", nil)
	}
	b.replyEphemeral(i, p.T(id, locale.Args{"Reminders": rem, "Role": role, "Language": lang.Name(), "Edition": lang.Edition(), "Why": langWhy})+
		"\n"+p.T("cmd.settings.pace", locale.Args{"Pace": paceWords(p, set.Pace)}))
}

// createError is the answer to a game that could not be created.
func createError(p *locale.Printer, err error) string {
	if errors.Is(err, storage.ErrChannelBusy) {
		return p.T("cmd.channel-busy", nil)
	}
	return p.T("cmd.create-failed", nil)
}
