package bot

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/rfop/rfop/engine"
	"github.com/rfop/rfop/storage"
)

const challengeTTL = 24 * time.Hour

func (b *Bot) onComponent(ctx context.Context, i *discordgo.Interaction) {
	data := i.MessageComponentData()
	id, err := parseCustomID(data.CustomID)
	if err != nil {
		b.replyEphemeral(i, "This button is not one I recognise; nothing was changed.")
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
			b.replyEphemeral(i, "Pick one option.")
			return
		}
		k, err := strconv.Atoi(data.Values[0])
		if err != nil || k < 0 {
			b.replyEphemeral(i, "That option is not valid; nothing was changed.")
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
	}
}

// showTurn answers privately with the user's panel, or whose turn it is.
func (b *Bot) showTurn(ctx context.Context, i *discordgo.Interaction, gameID int64, note string) {
	rec, g, err := b.loadGame(ctx, gameID)
	if err != nil || g == nil || rec.Status != storage.StatusActive {
		b.replyEphemeral(i, gameNotRunning(rec, err))
		return
	}
	sides := rec.SidesOf(userID(i))
	if len(sides) == 0 {
		b.replyEphemeral(i, "You are not playing in game #"+strconv.FormatInt(rec.ID, 10)+". "+b.waitingText(rec, g))
		return
	}
	side := b.decidingSide(g, sides)
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
	rec, g, err := b.loadGame(ctx, gameID)
	if err != nil || g == nil || rec.Status != storage.StatusActive {
		b.editOriginal(i, msg{content: gameNotRunning(rec, err)})
		return
	}
	sides := rec.SidesOf(userID(i))
	if len(sides) == 0 {
		b.editOriginal(i, msg{content: "You are not playing in this game, so you have no hand in it."})
		return
	}
	side := b.decidingSide(g, sides)
	b.editOriginal(i, b.handMessage(rec, g, side))
}

func (b *Bot) handMessage(rec storage.Game, g *engine.Game, side engine.Side) msg {
	s := &g.S
	text := fmt.Sprintf("**Game #%d — your %s hand**\nHand: %s", rec.ID, side, b.cardList(g.Deck(), s.Hand[side]))
	if len(s.SetAside[side]) > 0 {
		text += "\nSet aside for the Final Crisis: " + b.cardList(g.Deck(), s.SetAside[side])
	}
	if s.FCHeld[side] && s.BotSide != side {
		text += "\nFinal Crisis card: " + b.cardList(g.Deck(), []int8{int8(engine.FinalCrisisCardOf(side))})
	}
	if o := s.Objective[side]; o != 0 {
		c := g.Deck().Card(int(o))
		text += fmt.Sprintf("\nObjective: #%d %s (%s)", c.Num, c.Name, c.Space)
	} else if len(s.ObjOffer[side]) > 0 {
		text += "\nObjectives offered (keep one): " + b.objectiveList(g.Deck(), s.ObjOffer[side])
	}
	m := msg{content: truncate(b.termsFor(rec.GuildID).Text(text), 2000)}
	if png := b.handPicture(rec, g, side); png != nil {
		m.files = []*discordgo.File{pngFile("hand.png", png)}
	}
	return m
}

func (b *Bot) objectiveList(d *engine.Deck, objs []int8) string {
	out := ""
	for k, o := range objs {
		c := d.Card(int(o))
		if k > 0 {
			out += ", "
		}
		out += fmt.Sprintf("#%d %s (%s)", c.Num, c.Name, c.Space)
	}
	return out
}

// onChoice applies a choice from a panel. The click is acknowledged at
// once; the panel is then edited with the next prompt, and the channel is
// updated when the player's decision chain ends.
func (b *Bot) onChoice(ctx context.Context, i *discordgo.Interaction, id customID, k int) {
	if !b.deferUpdate(i) {
		return
	}
	unlock := b.lockGame(id.Game)
	defer unlock()
	rec, g, err := b.loadGame(ctx, id.Game)
	if errors.Is(err, errPaused) {
		b.editOriginal(i, msg{content: gameNotRunning(rec, err)})
		return
	}
	if err != nil || g == nil || rec.Status != storage.StatusActive {
		b.editOriginal(i, msg{content: "This game is not running any more; nothing was changed."})
		return
	}
	user := userID(i)
	side := id.side()
	if !plays(rec, user, side) {
		// Someone else's panel, or a forged id: change nothing.
		b.followupEphemeral(i, msg{content: "These buttons belong to " + playerName(rec, side) + "; only they can use them."})
		return
	}
	p, ok := g.PromptFor(side)
	if id.Version != rec.StateVersion {
		if !ok || !b.unchangedSince(ctx, rec, side, id.Version, p) {
			b.editOriginal(i, b.panel(rec, g, side, "⚠️ This panel is out of date; here is the current one."))
			return
		}
	}
	if !ok {
		b.editOriginal(i, b.panel(rec, g, side, "It is not your decision now."))
		return
	}
	if k >= len(p.Choices) {
		b.editOriginal(i, b.panel(rec, g, side, "That option does not exist; here is the current panel."))
		return
	}
	from, chose := g.S.Version, g.ChoiceText(p, p.Choices[k])
	rec, published, err := b.commitWith(ctx, rec, g, engine.Move{Side: side, Choice: p.Choices[k]}, user, "", pubAuto, panelTargetOf(i, side, chose))
	if err != nil {
		b.moveFailed(ctx, i, id.Game, side, err)
		return
	}
	after := outPayload{From: from, Record: panelTargetOf(i, side, chose).record, Chose: chose}
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
	note := "That did not work: " + err.Error()
	if errors.Is(err, storage.ErrConflict) {
		note = "⚠️ Someone moved at the same time; here is the current panel."
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
	rec, err := b.Store.GameByID(ctx, id.Game)
	if err != nil || rec.Status != storage.StatusWaiting {
		b.followupEphemeral(i, msg{content: "This challenge is no longer open."})
		return
	}
	user := userID(i)
	if id.Verb == verbDecline {
		if user != rec.InviteeID && user != rec.CreatedBy {
			b.followupEphemeral(i, msg{content: "Only " + mention(rec.InviteeID) + " can answer this challenge."})
			return
		}
		_, _ = b.Store.Abandon(ctx, rec.ID)
		b.editOriginal(i, msg{content: fmt.Sprintf("Challenge #%d was declined or withdrawn.", rec.ID)})
		return
	}
	if rec.InviteeID != "" && user != rec.InviteeID {
		b.followupEphemeral(i, msg{content: "Only " + mention(rec.InviteeID) + " can accept this challenge."})
		return
	}
	if b.Clock.Now().After(rec.CreatedAt.Add(challengeTTL)) {
		_, _ = b.Store.Abandon(ctx, rec.ID)
		b.editOriginal(i, msg{content: fmt.Sprintf("Challenge #%d expired (challenges last 24 hours).", rec.ID)})
		return
	}
	rec, _, err = b.startGame(ctx, rec, rec.Players)
	if err != nil {
		b.Log.Error("start game", "game", rec.ID, "err", err)
		b.editOriginal(i, msg{content: "I could not start the game: " + err.Error()})
		return
	}
	b.editOriginal(i, msg{content: fmt.Sprintf("Challenge accepted: game #%d begins. %s plays Versailles, %s plays the Commune.",
		rec.ID, playerName(rec, engine.Versailles), playerName(rec, engine.Commune))})
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
	rec, err = b.Store.Activate(ctx, rec.ID, state, players...)
	if err != nil {
		return rec, nil, err
	}
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
	rec, g, err := b.loadGame(ctx, id.Game)
	side := id.side()
	if err != nil || g == nil || !plays(rec, userID(i), side) {
		b.followupEphemeral(i, msg{content: "You cannot undo in this game."})
		return
	}
	if id.Version != rec.StateVersion || !g.CanUndo(side) {
		b.editOriginal(i, b.panel(rec, g, side, "Nothing to undo now (the panel was out of date, or hidden information was revealed)."))
		return
	}
	if rec, err = b.commit(ctx, rec, g, engine.Move{Side: side, Undo: true}, userID(i)); err != nil {
		b.moveFailed(ctx, i, id.Game, side, err)
		return
	}
	b.editOriginal(i, b.panel(rec, g, side, "↩️ Your last choice was taken back."))
}

func (b *Bot) onUndoConsent(ctx context.Context, i *discordgo.Interaction, id customID) {
	// Acknowledge first: the game's lock may be held while a board is drawn.
	if !b.deferUpdate(i) {
		return
	}
	unlock := b.lockGame(id.Game)
	defer unlock()
	rec, g, err := b.loadGame(ctx, id.Game)
	asker := id.side()
	if err != nil || g == nil {
		b.followupEphemeral(i, msg{content: "That game is not running."})
		return
	}
	if !plays(rec, userID(i), asker.Other()) {
		b.followupEphemeral(i, msg{content: "Only " + playerName(rec, asker.Other()) + " can answer this request."})
		return
	}
	if id.Version != rec.StateVersion || !g.CanUndo(asker) || rec.Status != storage.StatusActive {
		b.editOriginal(i, msg{content: "This undo request is out of date."})
		return
	}
	// The button's id is only a claim: the answer must meet the request
	// stored when the asker's side asked, at this very version.
	req, err := b.Store.PendingUndo(ctx, rec.ID)
	if err != nil || req.Side != sideKey(asker) || req.Version != id.Version || !plays(rec, req.UserID, asker) {
		b.followupEphemeral(i, msg{content: refuseNoRequest})
		return
	}
	if id.Verb == verbUndoNo {
		if err := b.Store.DropUndoRequest(ctx, rec.ID); err != nil {
			b.Log.Warn("drop undo request", "game", rec.ID, "err", err)
		}
		b.editOriginal(i, msg{content: playerName(rec, asker.Other()) + " refused the undo."})
		return
	}
	if _, _, err = b.commitWith(ctx, rec, g, engine.Move{Side: asker, Undo: true}, req.UserID, userID(i), pubAlways, nil); err != nil {
		b.editOriginal(i, msg{content: "The undo failed: " + err.Error()})
		return
	}
	b.editOriginal(i, msg{content: fmt.Sprintf("↩️ %s allowed %s to take back their last choice.", mention(userID(i)), mention(req.UserID))})
}

func (b *Bot) onResignConfirm(ctx context.Context, i *discordgo.Interaction, id customID) {
	if !b.deferUpdate(i) {
		return
	}
	unlock := b.lockGame(id.Game)
	defer unlock()
	rec, g, err := b.loadGame(ctx, id.Game)
	side := id.side()
	if err != nil || g == nil || rec.Status != storage.StatusActive || !plays(rec, userID(i), side) {
		b.editOriginal(i, msg{content: "You cannot resign this game."})
		return
	}
	if _, err = b.commitPublishing(ctx, rec, g, engine.Move{Side: side, Resign: true}, userID(i)); err != nil {
		b.editOriginal(i, msg{content: "Resigning failed: " + err.Error()})
		return
	}
	b.editOriginal(i, msg{content: "You resigned."})
}

// gameNotRunning explains why a game's buttons no longer act.
func gameNotRunning(rec storage.Game, err error) string {
	switch {
	case errors.Is(err, errDeckChanged):
		return fmt.Sprintf("Game #%d is paused: it was saved before the bot kept each game's cards, and the cards have changed since, "+
			"so nothing more is played on it. A player or an admin can end it with `/rfop abandon`.", rec.ID)
	case errors.Is(err, errPaused):
		return fmt.Sprintf("Game #%d is paused: its saved state does not match its move log (found when the bot started), "+
			"so nothing more is played on it. A player or an admin can end it with `/rfop abandon`; the bot's logs say what differs.", rec.ID)
	case err != nil:
		return "That game is not running."
	case rec.Status == storage.StatusFinished:
		return fmt.Sprintf("Game #%d is over; it is not running any more.", rec.ID)
	case rec.Status == storage.StatusAbandoned:
		return fmt.Sprintf("Game #%d was abandoned; it is not running any more.", rec.ID)
	}
	return "That game is not running yet."
}
