package bot

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/bwmarrin/discordgo"
	"github.com/rfop/rfop/engine"
	"github.com/rfop/rfop/storage"
)

// persist stores one applied move (action + new state) with the version
// check; a finished game is closed with its result in the same transaction.
func (b *Bot) persist(ctx context.Context, rec storage.Game, g *engine.Game, m engine.Move, user string) (storage.Game, error) {
	state, err := g.Save()
	if err != nil {
		return rec, err
	}
	choice, err := json.Marshal(m)
	if err != nil {
		return rec, fmt.Errorf("encode move: %w", err)
	}
	mv := storage.Move{GameID: rec.ID, ExpectedVersion: rec.StateVersion, Side: sideKey(m.Side), UserID: user, Choice: choice, NewState: state}
	if g.S.Result != nil {
		mv.Status = storage.StatusFinished
		mv.Result, _ = json.Marshal(g.S.Result)
	}
	return b.Store.ApplyMove(ctx, mv)
}

// commit applies a player's move and persists it, then lets the solo
// opponent play while it must decide (each of its decisions is an action
// of its own in the log).
func (b *Bot) commit(ctx context.Context, rec storage.Game, g *engine.Game, m engine.Move, user string) (storage.Game, error) {
	if err := g.ApplyMove(m); err != nil {
		return rec, err
	}
	rec, err := b.persist(ctx, rec, g, m, user)
	if err != nil {
		return rec, err
	}
	return b.playSolo(ctx, rec, g)
}

func (b *Bot) playSolo(ctx context.Context, rec storage.Game, g *engine.Game) (storage.Game, error) {
	bot := g.S.BotSide
	if bot == engine.NoSide {
		return rec, nil
	}
	if b.Solo == nil {
		return rec, errors.New("the solo opponent is not available in this build")
	}
	for n := 0; g.S.Result == nil; n++ {
		p, ok := g.PromptFor(bot)
		if !ok {
			break
		}
		if n > 2000 {
			return rec, errors.New("the solo opponent did not finish its turn")
		}
		c, note, err := b.Solo.Decide(g, p)
		if err != nil {
			return rec, fmt.Errorf("solo opponent: %w", err)
		}
		m := engine.Move{Side: bot, Choice: c, Note: note}
		if err := g.ApplyMove(m); err != nil {
			return rec, fmt.Errorf("solo opponent: %w", err)
		}
		if rec, err = b.persist(ctx, rec, g, m, ""); err != nil {
			return rec, err
		}
	}
	return rec, nil
}

func decodeMoves(actions []storage.Action) ([]engine.Move, error) {
	moves := make([]engine.Move, 0, len(actions))
	for _, a := range actions {
		var m engine.Move
		if err := json.Unmarshal(a.Choice, &m); err != nil {
			return nil, fmt.Errorf("action %d: %w", a.Seq, err)
		}
		moves = append(moves, m)
	}
	return moves, nil
}

// chainStart finds where the current decision chain began: the trailing
// run of moves by the side that just acted (plus the solo opponent's replies).
func chainStart(moves []engine.Move, bot engine.Side) int {
	i := len(moves)
	for i > 0 && moves[i-1].Side == bot {
		i--
	}
	if i == 0 {
		return len(moves) - 1
	}
	human := moves[i-1].Side
	for i > 0 && (moves[i-1].Side == human) {
		i--
	}
	if i == len(moves) {
		i = len(moves) - 1
	}
	if i < 0 {
		i = 0
	}
	return i
}

// publish shows the end of a decision chain in the channel: the board
// (edited in place), what happened, a new message mentioning whoever
// decides next, DMs for a new deal, and the result when the game ends.
func (b *Bot) publish(ctx context.Context, rec storage.Game, g *engine.Game) {
	actions, err := b.Store.Actions(ctx, rec.ID)
	if err != nil {
		b.Log.Warn("publish: read actions", "game", rec.ID, "err", err)
		return
	}
	moves, err := decodeMoves(actions)
	if err != nil {
		b.Log.Error("publish: corrupt action log", "game", rec.ID, "err", err)
		return
	}
	var prev *engine.Game
	from := 0
	if len(moves) > 0 {
		from = chainStart(moves, g.S.BotSide)
		opts, err := b.options(rec)
		if err == nil {
			prev, _ = engine.Replay(opts, moves[:from])
		}
	}
	var lines []string
	for _, e := range g.S.Log {
		if e.Version >= from && e.To == engine.NoSide {
			lines = append(lines, e.Text)
		}
	}
	var prevView *engine.View
	if prev != nil {
		v := prev.ViewFor(engine.NoSide)
		prevView = &v
	}
	b.postBoard(ctx, rec, g, prevView, lines)
	if g.S.Result != nil {
		b.announceResult(ctx, rec, g)
		return
	}
	b.ping(ctx, rec, g)
	b.dealDMs(ctx, rec, g, prev)
}

func (b *Bot) caption(g *engine.Game, lines []string) string {
	c := roundName(g.S.Round)
	if len(lines) > 0 {
		c += " · " + truncate(lines[0], 90)
	}
	if ps := g.Prompts(); len(ps) > 0 {
		c += " · " + ps[0].Side.String() + " to decide"
	}
	return c
}

// postBoard edits the game's board message (or posts one) with the new
// picture, replacing the old attachment.
func (b *Bot) postBoard(ctx context.Context, rec storage.Game, g *engine.Game, prev *engine.View, lines []string) {
	var sb strings.Builder
	fmt.Fprintf(&sb, "**Red Flag Over Paris — game #%d · %s**\n", rec.ID, roundName(g.S.Round))
	if len(lines) > 12 {
		lines = append([]string{"…"}, lines[len(lines)-11:]...)
	}
	for _, l := range lines {
		sb.WriteString("• " + l + "\n")
	}
	if g.S.Result == nil {
		sb.WriteString(b.waitingText(rec, g))
	}
	content := truncate(sb.String(), 1900)
	var png []byte
	if b.Pictures != nil {
		var err error
		if png, err = b.Pictures.Board(g.ViewFor(engine.NoSide), prev, b.caption(g, lines)); err != nil {
			b.Log.Error("render board", "game", rec.ID, "err", err)
			png = nil
		}
	}
	files := func() []*discordgo.File {
		if png == nil {
			return nil
		}
		return []*discordgo.File{pngFile("board.png", png)}
	}
	comps := []discordgo.MessageComponent{turnRow(rec.ID)}
	if g.S.Result != nil {
		comps = []discordgo.MessageComponent{}
	}
	if last, err := b.Store.LatestMessage(ctx, rec.ID, storage.KindBoard); err == nil {
		empty := []*discordgo.MessageAttachment{}
		edit := &discordgo.MessageEdit{ID: last.MessageID, Channel: last.ChannelID, Content: &content, Components: &comps,
			Files: files(), Attachments: &empty, AllowedMentions: &discordgo.MessageAllowedMentions{}}
		if _, err := b.Session.ChannelMessageEditComplex(edit); err == nil {
			return
		}
		_ = b.Store.DeleteMessage(ctx, last.ChannelID, last.MessageID)
	}
	m, err := b.Session.ChannelMessageSendComplex(rec.ChannelID, &discordgo.MessageSend{Content: content, Components: comps, Files: files(),
		AllowedMentions: &discordgo.MessageAllowedMentions{}})
	if err != nil {
		b.Log.Warn("post board", "game", rec.ID, "err", err)
		return
	}
	if _, err := b.Store.RecordMessage(ctx, storage.Message{GameID: rec.ID, Kind: storage.KindBoard, ChannelID: rec.ChannelID, MessageID: m.ID}); err != nil {
		b.Log.Warn("record board message", "game", rec.ID, "err", err)
	}
}

// ping posts a new message mentioning the players who must decide (an
// edit does not notify anyone).
func (b *Bot) ping(ctx context.Context, rec storage.Game, g *engine.Game) {
	ps := g.Prompts()
	var who []string
	var users []string
	for _, p := range ps {
		pl, ok := rec.Player(sideKey(p.Side))
		if !ok || pl.IsBot {
			continue
		}
		who = append(who, mention(pl.UserID))
		users = append(users, pl.UserID)
	}
	if len(who) == 0 {
		return
	}
	text := strings.Join(who, " and ") + " — your decision: " + g.PromptText(ps[0])
	if len(ps) > 1 {
		text = strings.Join(who, " and ") + " — you both decide now: " + g.PromptText(ps[0])
	}
	m, err := b.Session.ChannelMessageSendComplex(rec.ChannelID, &discordgo.MessageSend{
		Content: truncate(text, 1900), Components: []discordgo.MessageComponent{turnRow(rec.ID)},
		AllowedMentions: &discordgo.MessageAllowedMentions{Users: users},
	})
	if err != nil {
		b.Log.Warn("ping", "game", rec.ID, "err", err)
		return
	}
	_, _ = b.Store.RecordMessage(ctx, storage.Message{GameID: rec.ID, Kind: storage.KindPing, ChannelID: rec.ChannelID, MessageID: m.ID})
}

// dealDMs sends each player whose secret choice just began (a new deal:
// objectives, or the Final Crisis discards) their hand and the choice.
func (b *Bot) dealDMs(ctx context.Context, rec storage.Game, g *engine.Game, prev *engine.Game) {
	for _, p := range g.Prompts() {
		if p.Kind != engine.PromptObjective && p.Kind != engine.PromptFCDiscard {
			continue
		}
		if prev != nil {
			if pp, ok := prev.PromptFor(p.Side); ok && pp.Kind == p.Kind && prev.S.Round == g.S.Round {
				continue // already sent
			}
		}
		b.sendHandDM(ctx, rec, g, p.Side)
	}
}

func (b *Bot) sendHandDM(ctx context.Context, rec storage.Game, g *engine.Game, side engine.Side) {
	pl, ok := rec.Player(sideKey(side))
	if !ok || pl.IsBot {
		return
	}
	if rec.GuildID == "" {
		return // a DM game: the panel is already private
	}
	m := b.panel(rec, g, side, fmt.Sprintf("Game #%d in <#%s> — %s. Your hand: %s.", rec.ID, rec.ChannelID, roundName(g.S.Round), b.cardList(g.S.Hand[side])))
	ch, err := b.Session.UserChannelCreate(pl.UserID)
	if err == nil {
		send := &discordgo.MessageSend{Content: m.content, Components: m.comps}
		if png := b.handPicture(g, side); png != nil {
			send.Files = []*discordgo.File{pngFile("hand.png", png)}
		}
		_, err = b.Session.ChannelMessageSendComplex(ch.ID, send)
	}
	if err == nil {
		return
	}
	if discordErrorCode(err) != codeCannotDM {
		b.Log.Warn("DM hand", "game", rec.ID, "err", err)
	}
	// Closed DMs: say so in the channel without revealing anything.
	_, _ = b.Session.ChannelMessageSendComplex(rec.ChannelID, &discordgo.MessageSend{
		Content:         mention(pl.UserID) + ", I can't send you direct messages. Use **My hand** and **Take my turn** below: they answer privately.",
		Components:      []discordgo.MessageComponent{turnRow(rec.ID)},
		AllowedMentions: &discordgo.MessageAllowedMentions{Users: []string{pl.UserID}},
	})
}

func (b *Bot) handPicture(g *engine.Game, side engine.Side) []byte {
	if b.Pictures == nil {
		return nil
	}
	var cards, objs []int
	for _, c := range g.S.Hand[side] {
		cards = append(cards, int(c))
	}
	for _, c := range g.S.SetAside[side] {
		cards = append(cards, int(c))
	}
	if g.S.FCHeld[side] && g.S.BotSide != side {
		cards = append(cards, engine.FinalCrisisCardOf(side))
	}
	for _, c := range g.S.ObjOffer[side] {
		objs = append(objs, int(c))
	}
	if o := g.S.Objective[side]; o != 0 {
		objs = append(objs, int(o))
	}
	png, err := b.Pictures.Hand(cards, objs)
	if err != nil {
		b.Log.Warn("render hand", "err", err)
		return nil
	}
	return png
}

func (b *Bot) announceResult(ctx context.Context, rec storage.Game, g *engine.Game) {
	var users []string
	var who []string
	for _, p := range rec.Players {
		if !p.IsBot {
			users = append(users, p.UserID)
			who = append(who, mention(p.UserID))
		}
	}
	r := g.S.Result
	text := fmt.Sprintf("🏁 **Game #%d is over.** %s\nWinner: **%s**", rec.ID, r.Summary, r.Winner)
	if r.Winner != engine.NoSide {
		text += " — " + playerName(rec, r.Winner)
	}
	text += "\n" + strings.Join(who, " ")
	if _, err := b.Session.ChannelMessageSendComplex(rec.ChannelID, &discordgo.MessageSend{
		Content: text, AllowedMentions: &discordgo.MessageAllowedMentions{Users: users},
	}); err != nil {
		b.Log.Warn("announce result", "game", rec.ID, "err", err)
	}
}
