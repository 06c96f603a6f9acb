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
func (b *Bot) persist(ctx context.Context, rec storage.Game, g *engine.Game, m engine.Move, user, allowedBy string) (storage.Game, error) {
	state, err := g.Save()
	if err != nil {
		return rec, err
	}
	choice, err := json.Marshal(m)
	if err != nil {
		return rec, fmt.Errorf("encode move: %w", err)
	}
	mv := storage.Move{GameID: rec.ID, ExpectedVersion: rec.StateVersion, Side: sideKey(m.Side), UserID: user, AllowedBy: allowedBy, Choice: choice, NewState: state}
	if g.S.Result != nil {
		mv.Status = storage.StatusFinished
		mv.Result, _ = json.Marshal(g.S.Result)
	}
	rec, err = b.Store.ApplyMove(ctx, mv)
	if err == nil && rec.Status == storage.StatusFinished {
		b.recordResult(ctx, rec) // history, stats and ratings (history.go)
	}
	return rec, err
}

// commit applies a player's move and persists it, then lets the solo
// opponent play while it must decide (each of its decisions is an action
// of its own in the log).
func (b *Bot) commit(ctx context.Context, rec storage.Game, g *engine.Game, m engine.Move, user string) (storage.Game, error) {
	return b.commitAllowed(ctx, rec, g, m, user, "")
}

// commitAllowed is commit for an undo the opponent allowed (allowedBy):
// the store records both who asked (user) and who allowed.
func (b *Bot) commitAllowed(ctx context.Context, rec storage.Game, g *engine.Game, m engine.Move, user, allowedBy string) (storage.Game, error) {
	if err := g.ApplyMove(m); err != nil {
		return rec, err
	}
	rec, err := b.persist(ctx, rec, g, m, user, allowedBy)
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
		if rec, err = b.persist(ctx, rec, g, m, "", ""); err != nil {
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

// dealDMs sends each player their new hand, with their current choice
// (objectives, or the Final Crisis discards), when a round (or the Final
// Crisis) began during the chain: also to a player who already made that
// choice in their chain, so every player has each round's hand in DMs. It
// returns public notes for the board about players whose DMs are closed.
func (b *Bot) dealDMs(ctx context.Context, rec storage.Game, g *engine.Game, info chainInfo) []string {
	if info.known && info.prevRound == g.S.Round {
		return nil // no new deal: already sent
	}
	var notes []string
	for _, side := range []engine.Side{engine.Versailles, engine.Commune} {
		if !info.known {
			// The game start: the deal is there, the objective choice too.
			if p, ok := g.PromptFor(side); !ok || p.Kind != engine.PromptObjective && p.Kind != engine.PromptFCDiscard {
				continue
			}
		}
		if user, ok := b.sendHandDM(ctx, rec, g, side); !ok {
			// Say so without revealing anything: the board's My hand
			// button answers privately.
			notes = append(notes, "⚠️ "+mention(user)+", I can't send you direct messages: press **My hand** below to see your cards (only you will see them).")
		}
	}
	return notes
}

// sendHandDM sends side's player their hand and current choice by DM. It
// reports false, with the user, when the DM could not be sent.
func (b *Bot) sendHandDM(ctx context.Context, rec storage.Game, g *engine.Game, side engine.Side) (string, bool) {
	pl, ok := rec.Player(sideKey(side))
	if !ok || pl.IsBot {
		return "", true
	}
	if rec.GuildID == "" {
		return pl.UserID, true // a DM game: the panel is already private
	}
	m := b.panelWith(rec, g, side, fmt.Sprintf("Game #%d in <#%s> — %s. Your hand: %s.", rec.ID, rec.ChannelID, roundName(g.S.Round), b.cardList(g.Deck(), g.S.Hand[side])), false)
	ch, err := b.Session.UserChannelCreate(pl.UserID)
	if err == nil {
		send := &discordgo.MessageSend{Content: m.content, Components: m.comps}
		if png := b.handPicture(rec, g, side); png != nil {
			send.Files = []*discordgo.File{pngFile("hand.png", png)}
		}
		_, err = b.Session.ChannelMessageSendComplex(ch.ID, send)
	}
	if err == nil {
		return pl.UserID, true
	}
	if discordErrorCode(err) != codeCannotDM {
		b.Log.Warn("DM hand", "game", rec.ID, "err", err)
	}
	return pl.UserID, false
}

func (b *Bot) handPicture(rec storage.Game, g *engine.Game, side engine.Side) []byte {
	if b.Pictures == nil {
		return nil
	}
	// The player's own view: the picture sorts it into labelled sections.
	png, err := b.Pictures.Hand(b.langOf(rec.GuildID), g.Deck(), g.ViewFor(side))
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
	text = b.termsFor(rec.GuildID).Text(text) + "\n" + strings.Join(who, " ")
	if _, err := b.Session.ChannelMessageSendComplex(rec.ChannelID, &discordgo.MessageSend{
		Content: text, AllowedMentions: &discordgo.MessageAllowedMentions{Users: users},
	}); err != nil {
		b.Log.Warn("announce result", "game", rec.ID, "err", err)
	}
}
