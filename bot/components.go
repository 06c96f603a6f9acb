package bot

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/rfop/rfop/engine"
	"github.com/rfop/rfop/locale"
	"github.com/rfop/rfop/storage"
)

const challengeTTL = 24 * time.Hour

func (b *Bot) onComponent(ctx context.Context, i *discordgo.Interaction) {
	data := i.MessageComponentData()
	id, err := parseCustomID(data.CustomID)
	pp := b.privatePrinterOf(i)
	if err != nil {
		b.replyEphemeral(i, pp.T("bot.reply.unknown-button", nil))
		return
	}
	switch id.Verb {
	case verbTurn:
		b.showTurn(ctx, i, id.Game, "")
	case verbHand:
		b.showHand(ctx, i, id.Game)
	case verbChoose:
		b.onChoice(ctx, i, id, id.Arg)
	case verbSelect:
		if len(data.Values) != 1 {
			b.replyEphemeral(i, pp.T("bot.reply.pick-one", nil))
			return
		}
		k, err := strconv.Atoi(data.Values[0])
		if err != nil || k < 0 {
			b.replyEphemeral(i, pp.T("bot.reply.bad-option", nil))
			return
		}
		b.onChoice(ctx, i, id, k)
	case verbAccept, verbDecline:
		b.onChallengeAnswer(ctx, i, id)
	case verbUndo:
		b.onUndoButton(ctx, i, id)
	case verbUndoOK, verbUndoNo:
		b.onUndoConsent(ctx, i, id)
	case verbResign:
		b.onResignConfirm(ctx, i, id)
	case verbRematch:
		b.onRematch(ctx, i, id)
	case verbAnalysis:
		b.onAnalysisButton(ctx, i, id)
	case verbClaim, verbMoreTime, verbWait:
		b.onClockAnswer(ctx, i, id)
	}
}

// showTurn answers privately with the user's panel, or whose turn it is.
func (b *Bot) showTurn(ctx context.Context, i *discordgo.Interaction, gameID int64, note string) {
	pp := b.privatePrinterOf(i)
	rec, g, err := b.loadGame(ctx, gameID)
	if why := b.unseenGame(i, gameID, rec, err); why != "" {
		b.replyEphemeral(i, why) // not even who plays it, or whose turn it is
		return
	}
	if err != nil || g == nil || rec.Status != storage.StatusActive {
		b.replyEphemeral(i, gameNotRunningIn(pp, rec, err))
		return
	}
	sides := rec.SidesOf(userID(i))
	if len(sides) == 0 {
		b.replyEphemeral(i, pp.T("bot.reply.not-playing", locale.Args{"ID": rec.ID})+" "+b.waitingIn(ctx, pp, rec, g))
		return
	}
	side := b.decidingSide(g, sides)
	if _, deciding := g.PromptFor(side); deciding {
		if moves, err := b.movesOf(ctx, rec.ID); err == nil {
			if since := b.sinceLastTurn(b.sidePrinter(rec, side), g, moves, side); since != "" {
				note = strings.TrimSpace(since + "\n\n" + note)
			}
		} else {
			b.Log.Warn("since your last turn", "game", rec.ID, "err", err)
		}
	}
	m := b.panel(rec, g, side, note)
	b.replyEphemeral(i, m.content, m.comps...)
}

// decidingSide picks the user's side that has a decision now (a user can
// hold both sides when playing against themselves).
func (b *Bot) decidingSide(g *engine.Game, sides []storage.Side) engine.Side {
	for _, s := range sides {
		if _, ok := g.PromptFor(engineSide(s)); ok {
			return engineSide(s)
		}
	}
	return engineSide(sides[0])
}

func (b *Bot) showHand(ctx context.Context, i *discordgo.Interaction, gameID int64) {
	if !b.deferEphemeral(i) {
		return
	}
	pp := b.privatePrinterOf(i)
	rec, g, err := b.loadGame(ctx, gameID)
	if why := b.unseenGame(i, gameID, rec, err); why != "" {
		b.editOriginal(i, msg{content: why}) // the deferred reply is private
		return
	}
	if err != nil || g == nil || rec.Status != storage.StatusActive {
		b.editOriginal(i, msg{content: gameNotRunningIn(pp, rec, err)})
		return
	}
	sides := rec.SidesOf(userID(i))
	if len(sides) == 0 {
		b.editOriginal(i, msg{content: pp.T("bot.reply.no-hand", nil)})
		return
	}
	side := b.decidingSide(g, sides)
	b.leaveAdmission(i) // the picture waits for a render slot
	b.editOriginal(i, b.handMessage(rec, g, side))
}

func (b *Bot) handMessage(rec storage.Game, g *engine.Game, side engine.Side) msg {
	s := &g.S
	p := b.sidePrinter(rec, side)
	d := g.Deck()
	text := p.T("bot.hand.head", locale.Args{"ID": rec.ID, "Side": p.Side(side), "Cards": b.cardList(p, d, s.Hand[side])})
	if len(s.SetAside[side]) > 0 {
		text += "\n" + p.T("bot.hand.set-aside", locale.Args{"Cards": b.cardList(p, d, s.SetAside[side])})
	}
	if s.FCHeld[side] && s.BotSide != side {
		text += "\n" + p.T("bot.hand.fc-card", locale.Args{"Cards": b.cardList(p, d, []int8{int8(engine.FinalCrisisCardOf(side))})})
	}
	if o := s.Objective[side]; o != 0 {
		text += "\n" + p.T("bot.hand.objective", locale.Args{"Cards": b.objectiveList(p, d, []int8{o})})
	} else if len(s.ObjOffer[side]) > 0 {
		text += "\n" + p.T("bot.hand.objectives-offered", locale.Args{"Cards": b.objectiveList(p, d, s.ObjOffer[side])})
	}
	m := msg{content: truncate(text, 2000)}
	if png := b.handPicture(rec, g, side); png != nil {
		m.files = []*discordgo.File{pngFile("hand.png", png)}
	}
	return m
}

// objectiveList: "#40 Name (Space), …".
func (b *Bot) objectiveList(p *locale.Printer, d *engine.Deck, objs []int8) string {
	var out []string
	for _, o := range objs {
		c := d.Card(int(o))
		if c == nil {
			continue
		}
		out = append(out, p.T("bot.objective-in-list", locale.Args{"Card": p.CardName(d, c.Num), "Space": p.Term(c.Space.String())}))
	}
	return strings.Join(out, ", ")
}

// onChoice applies a choice from a panel. The click is acknowledged at
// once; the panel is then edited with the next prompt, and the channel is
// updated when the player's decision chain ends.
//
// Authorise first, then answer: only the player of the id's side, and
// only from their own panel (an ephemeral reply or a hand DM), may change
// anything; any other clicker is answered privately and nothing changes.
// A stale or refused choice of that player edits their panel, never a
// message others see (answerClick).
func (b *Bot) onChoice(ctx context.Context, i *discordgo.Interaction, id customID, k int) {
	if !b.deferUpdate(i) {
		return
	}
	unlock := b.lockGame(id.Game)
	defer unlock()
	pp := b.privatePrinterOf(i)
	rec, g, err := b.loadGame(ctx, id.Game)
	if why := b.unseenGame(i, id.Game, rec, err); why != "" {
		b.followupEphemeral(i, msg{content: why})
		return
	}
	user := userID(i)
	side := id.side()
	if !plays(rec, user, side) {
		// Someone else's panel, or a forged id: change nothing.
		b.followupEphemeral(i, msg{content: pp.T("bot.reply.not-your-buttons", locale.Args{"Player": playerNameIn(pp, rec, side)})})
		return
	}
	private := onPrivatePanel(i)
	if errors.Is(err, errPaused) {
		b.answerClick(i, private, msg{content: gameNotRunningIn(pp, rec, err)})
		return
	}
	if err != nil || g == nil || rec.Status != storage.StatusActive {
		b.answerClick(i, private, msg{content: pp.T("bot.reply.not-running-any-more", nil)})
		return
	}
	sp := b.sidePrinter(rec, side)
	p, ok := g.PromptFor(side)
	if id.Version != rec.StateVersion {
		if !ok || !b.unchangedSince(ctx, rec, side, id.Version, p) {
			b.answerClick(i, private, b.panel(rec, g, side, sp.T("bot.note.out-of-date", nil)))
			return
		}
	}
	if !ok {
		b.answerClick(i, private, b.panel(rec, g, side, sp.T("bot.note.not-your-decision", nil)))
		return
	}
	if k >= len(p.Choices) {
		b.answerClick(i, private, b.panel(rec, g, side, sp.T("bot.note.no-such-option", nil)))
		return
	}
	if !private {
		// The move would show the mover's next panel in place of this
		// message, which others see.
		b.followupEphemeral(i, msg{content: pp.T("bot.reply.panel-only", nil)})
		return
	}
	from, chose := g.S.Version, sp.Choice(g, p, p.Choices[k])
	rec, published, err := b.commitWith(ctx, rec, g, engine.Move{Side: side, Choice: p.Choices[k]}, user, "", pubAuto, panelTargetOf(i, side, chose))
	if err != nil {
		b.moveFailed(ctx, i, id.Game, side, err)
		return
	}
	after := outPayload{From: from, Record: panelTargetOf(i, side, chose).record, Chose: chose}
	if after.Record != "" {
		b.leaveAdmission(i) // its panel shows the hand picture, which waits for a render slot
	}
	if !published {
		// The same player decides on: the next question, at once.
		b.editOriginal(i, b.afterPanel(rec, g, side, after))
		return
	}
	// The chain's end is published by the game's publisher; the mover's
	// panel does not wait for the board's picture.
	after.Token = i.Token
	b.showPanelNow(ctx, i, rec, g, side, after)
}

// unchangedSince: a simultaneous choice (objectives, Final Crisis
// discards) stays valid while only the other side has moved since.
func (b *Bot) unchangedSince(ctx context.Context, rec storage.Game, side engine.Side, version int64, p engine.Prompt) bool {
	if p.Kind != engine.PromptObjective && p.Kind != engine.PromptFCDiscard {
		return false
	}
	actions, err := b.Store.Actions(ctx, rec.ID)
	if err != nil || version > int64(len(actions)) {
		return false
	}
	for _, a := range actions[version:] {
		if engineSide(a.Side) == side {
			return false
		}
	}
	return true
}

func (b *Bot) moveFailed(ctx context.Context, i *discordgo.Interaction, gameID int64, side engine.Side, err error) {
	pp := b.privatePrinterOf(i)
	note := pp.T("bot.note.failed", locale.Args{"Error": err.Error()})
	if errors.Is(err, storage.ErrConflict) {
		note = pp.T("bot.note.conflict", nil)
	} else {
		b.Log.Error("move failed", "game", gameID, "err", err)
	}
	rec, g, lerr := b.loadGame(ctx, gameID)
	if lerr != nil || g == nil {
		b.editOriginal(i, msg{content: note})
		return
	}
	b.editOriginal(i, b.panel(rec, g, side, note))
}

// ---- challenges ----

func (b *Bot) onChallengeAnswer(ctx context.Context, i *discordgo.Interaction, id customID) {
	// Acknowledge first: accepting draws the first board under the lock.
	if !b.deferUpdate(i) {
		return
	}
	unlock := b.lockGame(id.Game)
	defer unlock()
	pp := b.privatePrinterOf(i)
	rec, err := b.Store.GameByID(ctx, id.Game)
	if why := b.unseenGame(i, id.Game, rec, err); why != "" {
		b.followupEphemeral(i, msg{content: why})
		return
	}
	if err != nil || rec.Status != storage.StatusWaiting {
		b.followupEphemeral(i, msg{content: pp.T("bot.reply.challenge-closed", nil)})
		return
	}
	pub := b.gamePrinter(rec) // the challenge message is public
	user := userID(i)
	if id.Verb == verbDecline {
		if user != rec.InviteeID && user != rec.CreatedBy {
			b.followupEphemeral(i, msg{content: pp.T("bot.reply.challenge-answer-only", locale.Args{"User": mention(rec.InviteeID)})})
			return
		}
		if !clickedItsMessage(i) {
			b.followupEphemeral(i, msg{content: pp.T("bot.reply.not-on-message", nil)})
			return
		}
		_, _ = b.Store.Abandon(ctx, rec.ID)
		b.editOriginal(i, msg{content: pub.T("bot.challenge.declined", locale.Args{"ID": rec.ID})})
		return
	}
	if rec.InviteeID != "" && user != rec.InviteeID {
		b.followupEphemeral(i, msg{content: pp.T("bot.reply.challenge-accept-only", locale.Args{"User": mention(rec.InviteeID)})})
		return
	}
	if !clickedItsMessage(i) {
		// The answer replaces the challenge: not another message.
		b.followupEphemeral(i, msg{content: pp.T("bot.reply.not-on-message", nil)})
		return
	}
	if b.Clock.Now().After(rec.CreatedAt.Add(challengeTTL)) {
		_, _ = b.Store.Abandon(ctx, rec.ID)
		b.editOriginal(i, msg{content: pub.T("bot.challenge.expired-answer", locale.Args{"ID": rec.ID})})
		return
	}
	rec, _, err = b.startGame(ctx, rec, rec.Players)
	if err != nil {
		b.Log.Error("start game", "game", rec.ID, "err", err)
		b.editOriginal(i, msg{content: pub.T("bot.reply.start-failed", locale.Args{"Error": err.Error()})})
		return
	}
	b.editOriginal(i, msg{content: pub.T("bot.challenge.accepted", locale.Args{"ID": rec.ID,
		"Versailles": playerNameIn(pub, rec, engine.Versailles), "Commune": playerNameIn(pub, rec, engine.Commune)})})
}

// startGame creates the engine game of a waiting challenge, activates it
// and publishes its start.
func (b *Bot) startGame(ctx context.Context, rec storage.Game, players []storage.Player) (storage.Game, *engine.Game, error) {
	// A new game starts with the bot's current deck, kept in the database
	// so the game keeps it whatever the deck file or a release does.
	if err := b.saveDeck(ctx); err != nil {
		return rec, nil, err
	}
	opts, err := gameOptions(rec, b.Deck)
	if err != nil {
		return rec, nil, err
	}
	g, err := engine.New(opts)
	if err != nil {
		return rec, nil, err
	}
	state, err := g.Save()
	if err != nil {
		return rec, nil, err
	}
	now := rec
	if len(players) > 0 {
		now.Players = players
	}
	due := b.dueWork(ctx, gameNow{rec: now, status: storage.StatusActive, deciding: decidingOf(g), started: true})
	rec, err = b.Store.Activate(ctx, rec.ID, state, due, players...)
	if err != nil {
		return rec, nil, err
	}
	rec = b.startClock(ctx, rec, decidingOf(g))
	replies, err := b.soloReplies(g)
	if err != nil {
		return rec, nil, err
	}
	// The first board, hand DMs... stored with the start (outbox.go).
	rec, err = b.publishStart(ctx, rec, g, replies)
	return rec, g, err
}

// ---- undo and resign ----

func (b *Bot) onUndoButton(ctx context.Context, i *discordgo.Interaction, id customID) {
	if !b.deferUpdate(i) {
		return
	}
	unlock := b.lockGame(id.Game)
	defer unlock()
	pp := b.privatePrinterOf(i)
	rec, g, err := b.loadGame(ctx, id.Game)
	if why := b.unseenGame(i, id.Game, rec, err); why != "" {
		b.followupEphemeral(i, msg{content: why})
		return
	}
	side := id.side()
	if err != nil || g == nil || !plays(rec, userID(i), side) {
		b.followupEphemeral(i, msg{content: pp.T("bot.reply.cannot-undo", nil)})
		return
	}
	private := onPrivatePanel(i)
	if id.Version != rec.StateVersion || !g.CanUndo(side) {
		b.answerClick(i, private, b.panel(rec, g, side, pp.T("bot.note.nothing-to-undo", nil)))
		return
	}
	if !private {
		b.followupEphemeral(i, msg{content: pp.T("bot.reply.panel-only", nil)})
		return
	}
	if rec, err = b.commit(ctx, rec, g, engine.Move{Side: side, Undo: true}, userID(i)); err != nil {
		b.moveFailed(ctx, i, id.Game, side, err)
		return
	}
	b.editOriginal(i, b.panel(rec, g, side, pp.T("bot.note.undone", nil)))
}

// onUndoConsent: the opponent answers an undo request, a channel message.
// Only the opponent of the asking side may answer, only a request stored
// at that version, and only on the request's own message; every other
// click is answered privately.
func (b *Bot) onUndoConsent(ctx context.Context, i *discordgo.Interaction, id customID) {
	// Acknowledge first: the game's lock may be held while a board is drawn.
	if !b.deferUpdate(i) {
		return
	}
	unlock := b.lockGame(id.Game)
	defer unlock()
	pp := b.privatePrinterOf(i)
	rec, g, err := b.loadGame(ctx, id.Game)
	if why := b.unseenGame(i, id.Game, rec, err); why != "" {
		b.followupEphemeral(i, msg{content: why})
		return
	}
	asker := id.side()
	if err != nil || g == nil {
		b.followupEphemeral(i, msg{content: pp.T("bot.reply.not-running", nil)})
		return
	}
	pub := b.gamePrinter(rec) // the request is a channel message
	if !plays(rec, userID(i), asker.Other()) {
		b.followupEphemeral(i, msg{content: pp.T("bot.reply.undo-answer-only", locale.Args{"Player": playerNameIn(pp, rec, asker.Other())})})
		return
	}
	onRequest := clickedItsMessage(i)
	if id.Version != rec.StateVersion || !g.CanUndo(asker) || rec.Status != storage.StatusActive {
		if onRequest { // the request is closed for good: its buttons go
			b.editOriginal(i, msg{content: pub.T("bot.undo.out-of-date", nil)})
		} else {
			b.followupEphemeral(i, msg{content: pp.T("bot.undo.out-of-date", nil)})
		}
		return
	}
	// The button's id is only a claim: the answer must meet the request
	// stored when the asker's side asked, at this very version.
	req, err := b.Store.PendingUndo(ctx, rec.ID)
	if err != nil || req.Side != sideKey(asker) || req.Version != id.Version || !plays(rec, req.UserID, asker) {
		b.followupEphemeral(i, msg{content: pp.T("cmd.refuse.no-request", nil)})
		return
	}
	if !onRequest {
		b.followupEphemeral(i, msg{content: pp.T("bot.reply.not-on-message", nil)})
		return
	}
	if id.Verb == verbUndoNo {
		if err := b.Store.DropUndoRequest(ctx, rec.ID); err != nil {
			b.Log.Warn("drop undo request", "game", rec.ID, "err", err)
		}
		b.editOriginal(i, msg{content: pub.T("bot.undo.refused", locale.Args{"Player": playerNameIn(pub, rec, asker.Other())})})
		return
	}
	if _, _, err = b.commitWith(ctx, rec, g, engine.Move{Side: asker, Undo: true}, req.UserID, userID(i), pubAlways, nil); err != nil {
		b.editOriginal(i, msg{content: pub.T("bot.undo.failed", locale.Args{"Error": err.Error()})})
		return
	}
	b.editOriginal(i, msg{content: pub.T("bot.undo.allowed", locale.Args{"User": mention(userID(i)), "Asker": mention(req.UserID)})})
}

// onResignConfirm: the player's "Yes, resign" on the private confirmation
// of /rfop resign. It stands for the game, not for one version of it:
// resigning is the same decision whatever moved since it was asked.
func (b *Bot) onResignConfirm(ctx context.Context, i *discordgo.Interaction, id customID) {
	if !b.deferUpdate(i) {
		return
	}
	unlock := b.lockGame(id.Game)
	defer unlock()
	pp := b.privatePrinterOf(i)
	rec, g, err := b.loadGame(ctx, id.Game)
	if why := b.unseenGame(i, id.Game, rec, err); why != "" {
		b.followupEphemeral(i, msg{content: why})
		return
	}
	side := id.side()
	if !plays(rec, userID(i), side) {
		b.followupEphemeral(i, msg{content: pp.T("bot.reply.cannot-resign", nil)})
		return
	}
	private := onPrivatePanel(i)
	if err != nil || g == nil || rec.Status != storage.StatusActive {
		b.answerClick(i, private, msg{content: pp.T("bot.reply.cannot-resign", nil)})
		return
	}
	if !private {
		b.followupEphemeral(i, msg{content: pp.T("bot.reply.panel-only", nil)})
		return
	}
	if _, err = b.commitPublishing(ctx, rec, g, engine.Move{Side: side, Resign: true}, userID(i)); err != nil {
		b.editOriginal(i, msg{content: pp.T("bot.reply.resign-failed", locale.Args{"Error": err.Error()})})
		return
	}
	b.editOriginal(i, msg{content: pp.T("bot.reply.resigned", nil)})
}

// gameNotRunning explains why a game's buttons no longer act (in
// English; gameNotRunningIn speaks the reader's language).
func gameNotRunning(rec storage.Game, err error) string {
	return gameNotRunningIn(locale.For(locale.English), rec, err)
}

// gameNotRunningIn is gameNotRunning in p's language.
func gameNotRunningIn(p *locale.Printer, rec storage.Game, err error) string {
	id := locale.Args{"ID": rec.ID}
	switch {
	case errors.Is(err, errDeckChanged):
		return p.T("bot.not-running.deck-changed", id)
	case errors.Is(err, errPaused):
		return p.T("bot.not-running.paused", id)
	case err != nil:
		return p.T("bot.reply.not-running", nil)
	case rec.Status == storage.StatusFinished:
		return p.T("bot.not-running.finished", id)
	case rec.Status == storage.StatusAbandoned:
		return p.T("bot.not-running.abandoned", id)
	}
	return p.T("bot.not-running.waiting", nil)
}

// ---- which message a click may change ----

// unseenGame is the private answer to a click or command about game id
// that the member behind i may not hear of: none such, or one they cannot
// see (visibility.go); "" when they may. rec and err are what loading it
// gave.
func (b *Bot) unseenGame(i *discordgo.Interaction, id int64, rec storage.Game, err error) string {
	p := b.privatePrinterOf(i)
	switch {
	case rec.ID == 0 && err != nil && !errors.Is(err, storage.ErrNotFound):
		return p.T("bot.reply.not-running", nil) // the store failed: nothing is said of the game
	case rec.ID == 0 || !b.canSeeGame(i, rec):
		return p.T("bot.reply.no-such-game", locale.Args{"ID": id})
	}
	return ""
}

// answerClick answers a click that was acknowledged as a message update:
// by editing the clicked message when it is the clicker's own private
// panel, else by a private follow-up, so that a message others see is
// never replaced by an answer meant for one member.
func (b *Bot) answerClick(i *discordgo.Interaction, private bool, m msg) {
	if private {
		b.editOriginal(i, m)
		return
	}
	b.followupEphemeral(i, m)
}

// onPrivatePanel: the click came from a message only the clicker sees and
// that holds their panel: an ephemeral reply, or a hand DM.
func onPrivatePanel(i *discordgo.Interaction) bool {
	return i.Message != nil && (i.Message.Flags&discordgo.MessageFlagsEphemeral != 0 || isHandDM(i))
}

// clickedItsMessage: the clicked message carries the clicked custom_id, so
// it is the message the button was made for (a challenge, an undo
// request). Discord checks this for its own clients; a tampered client
// could send any id on any message.
func clickedItsMessage(i *discordgo.Interaction) bool {
	return i.Message != nil && carries(i.Message.Components, i.MessageComponentData().CustomID)
}

// carries reports whether comps hold a button or select menu with this
// custom_id.
func carries(comps []discordgo.MessageComponent, customID string) bool {
	for _, c := range comps {
		switch c := c.(type) {
		case *discordgo.ActionsRow:
			if carries(c.Components, customID) {
				return true
			}
		case discordgo.ActionsRow:
			if carries(c.Components, customID) {
				return true
			}
		case *discordgo.Button:
			if c.CustomID == customID {
				return true
			}
		case discordgo.Button:
			if c.CustomID == customID {
				return true
			}
		case *discordgo.SelectMenu:
			if c.CustomID == customID {
				return true
			}
		case discordgo.SelectMenu:
			if c.CustomID == customID {
				return true
			}
		}
	}
	return false
}
