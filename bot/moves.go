package bot

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/bwmarrin/discordgo"
	"github.com/rfop/rfop/engine"
	"github.com/rfop/rfop/locale"
	"github.com/rfop/rfop/storage"
)

// step is one applied move, ready to be stored: the action and the
// engine state after it.
type step struct {
	move engine.Move
	user string
	// allowedBy: the opponent who allowed this undo (the store records
	// both who asked and who allowed).
	allowedBy string
	state     []byte
	result    []byte // the engine's result when this move ended the game
	outbox    []storage.OutboxEntry
	// deciding: the sides with a decision to make after this move (the
	// game's due work, dueWork, follows from it).
	deciding [2]bool
}

// stepOf captures g right after m was applied to it.
func stepOf(g *engine.Game, m engine.Move, user string) (step, error) {
	state, err := g.Save()
	if err != nil {
		return step{}, err
	}
	st := step{move: m, user: user, state: state, deciding: decidingOf(g)}
	if g.S.Result != nil {
		if st.result, err = json.Marshal(g.S.Result); err != nil {
			return step{}, fmt.Errorf("encode result: %w", err)
		}
	}
	return st, nil
}

// persist stores one step (action + new state, and its publications)
// with the version check; a finished game is closed with its result in
// the same transaction.
func (b *Bot) persist(ctx context.Context, rec storage.Game, st step) (storage.Game, error) {
	choice, err := json.Marshal(st.move)
	if err != nil {
		return rec, fmt.Errorf("encode move: %w", err)
	}
	mv := storage.Move{GameID: rec.ID, ExpectedVersion: rec.StateVersion, Side: sideKey(st.move.Side), UserID: st.user,
		AllowedBy: st.allowedBy, Choice: choice, NewState: st.state, Outbox: st.outbox}
	status := storage.StatusActive
	if st.result != nil {
		status = storage.StatusFinished
		mv.Status = storage.StatusFinished
		mv.Result = st.result
	}
	var clockDue []storage.Due
	mv.Clock, clockDue = b.clockMove(ctx, rec, st.move, st.deciding)
	mv.Due = b.dueWork(ctx, gameNow{rec: rec, status: status, deciding: st.deciding, clock: clockDue})
	rec, err = b.Store.ApplyMove(ctx, mv)
	if err == nil && rec.Status == storage.StatusFinished {
		b.recordResult(ctx, rec) // history, stats and ratings (history.go)
	}
	return rec, err
}

// pubMode says whether a commit publishes the end of the chain.
type pubMode int

const (
	pubNever  pubMode = iota // the mover's panel carries on (undo)
	pubAlways                // the channel must be told (resign, an agreed undo)
	pubAuto                  // a choice: publish when the chain ends (see commitWith)
)

// commit applies a player's move and lets the solo opponent reply (each
// of its decisions is an action of its own in the log), then stores them;
// it publishes nothing.
func (b *Bot) commit(ctx context.Context, rec storage.Game, g *engine.Game, m engine.Move, user string) (storage.Game, error) {
	rec, _, err := b.commitWith(ctx, rec, g, m, user, "", pubNever, nil)
	return rec, err
}

// commitPublishing is commit followed by the publication of the new
// situation, stored with the moves.
func (b *Bot) commitPublishing(ctx context.Context, rec storage.Game, g *engine.Game, m engine.Move, user string) (storage.Game, error) {
	rec, _, err := b.commitWith(ctx, rec, g, m, user, "", pubAlways, nil)
	return rec, err
}

// commitWith applies m and the solo opponent's replies, decides whether
// the chain's end must be published (pubAuto: the game ended, the mover
// has no decision left, the solo opponent played, or a new round or the
// Final Crisis began, whose board and hand DMs go out at once so that
// both players choose at the same time), and stores the moves with the
// publication in the last move's transaction: what is committed is
// published, even across a crash (the outbox). It reports whether it
// published; the publisher then delivers, and updates the mover's panel
// (pt) last. allowedBy is the opponent who allowed an undo, if any.
func (b *Bot) commitWith(ctx context.Context, rec storage.Game, g *engine.Game, m engine.Move, user, allowedBy string, mode pubMode, pt *panelTarget) (storage.Game, bool, error) {
	from, round := g.S.Version, g.S.Round
	if err := g.ApplyMove(m); err != nil {
		return rec, false, err
	}
	first, err := stepOf(g, m, user)
	if err != nil {
		return rec, false, err
	}
	first.allowedBy = allowedBy
	replies, err := b.soloReplies(g)
	if err != nil {
		return rec, false, err
	}
	steps := append([]step{first}, replies...)
	publish := mode == pubAlways
	if mode == pubAuto {
		_, again := g.PromptFor(m.Side)
		publish = !again || g.S.Result != nil || len(replies) > 0 || g.S.Round != round
	}
	if publish {
		steps[len(steps)-1].outbox = b.plan(ctx, rec, g, steps, from, pt)
	}
	for _, st := range steps {
		if rec, err = b.persist(ctx, rec, st); err != nil {
			return rec, false, err
		}
	}
	b.states.remember(rec.ID, steps[len(steps)-1].state, g) // what the publisher loads next (states.go)
	if publish {
		b.kick(rec.ID)
	}
	if ai, _, ok := aiPlayerOf(rec); ok && m.Side != ai {
		b.kickAI(rec) // the AI thinks off this path (ai.go)
	}
	return rec, publish, nil
}

// soloReplies lets the solo opponent decide while it must, applying its
// moves to g.
func (b *Bot) soloReplies(g *engine.Game) ([]step, error) {
	bot := g.S.BotSide
	if bot == engine.NoSide {
		return nil, nil
	}
	if b.Solo == nil {
		return nil, errors.New("the solo opponent is not available in this build")
	}
	var steps []step
	for n := 0; g.S.Result == nil; n++ {
		p, ok := g.PromptFor(bot)
		if !ok {
			break
		}
		if n > 2000 {
			return nil, errors.New("the solo opponent did not finish its turn")
		}
		c, why, err := b.Solo.Decide(g, p)
		if err != nil {
			return nil, fmt.Errorf("solo opponent: %w", err)
		}
		m := engine.Move{Side: bot, Choice: c, Why: why}
		if err := g.ApplyMove(m); err != nil {
			return nil, fmt.Errorf("solo opponent: %w", err)
		}
		st, err := stepOf(g, m, "")
		if err != nil {
			return nil, err
		}
		steps = append(steps, st)
	}
	return steps, nil
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

// handDM is side's hand DM at a new deal: the game, the round and
// the hand, then the current choice (objectives, or the Final Crisis
// discards) with its buttons, and the hand picture, from picture (which
// may step aside: its errUnwanted is returned, and no message).
func (b *Bot) handDM(rec storage.Game, g *engine.Game, side engine.Side, picture func() ([]byte, error)) (msg, error) {
	p := b.sidePrinter(rec, side)
	note := p.T("bot.hand-dm", locale.Args{"ID": rec.ID, "Channel": "<#" + rec.ChannelID + ">", "Round": roundNameIn(p, g.S.Round), "Cards": b.cardList(p, g.Deck(), g.S.Hand[side])})
	png, err := picture()
	if errors.Is(err, errUnwanted) {
		return msg{}, err
	}
	m := b.panelWith(p, rec, g, side, note, false)
	if png != nil {
		m.files = []*discordgo.File{pngFile("hand.png", png)}
	}
	return m, nil
}

func (b *Bot) handPicture(rec storage.Game, g *engine.Game, side engine.Side) []byte {
	if b.Pictures == nil {
		return nil
	}
	var png []byte
	err := b.drawing(func() (err error) {
		png, err = b.drawHand(rec, g, side)
		return err
	})
	if err != nil {
		b.Log.Warn("render hand", "err", err)
		return nil
	}
	return png
}

// drawHand draws side's hand picture, from the player's own view (the
// picture sorts it into labelled sections), in the player's language; the
// caller holds a render slot.
func (b *Bot) drawHand(rec storage.Game, g *engine.Game, side engine.Side) ([]byte, error) {
	return b.Pictures.Hand(b.sidePrinter(rec, side).Lang(), g.Deck(), g.ViewFor(side))
}

// resultText announces the end of the game, mentioning its players.
func (b *Bot) resultText(rec storage.Game, g *engine.Game) (string, []string) {
	var users []string
	var who []string
	for _, p := range rec.Players {
		if !p.IsBot {
			users = append(users, p.UserID)
			who = append(who, mention(p.UserID))
		}
	}
	r := g.S.Result
	p := b.gamePrinter(rec)
	text := p.T("bot.result", locale.Args{"ID": rec.ID, "Result": p.Result(g.Deck(), r)})
	if r.Winner != engine.NoSide {
		text += "\n" + p.T("bot.result.winner", locale.Args{"Side": p.Side(r.Winner), "Player": playerNameIn(p, rec, r.Winner)})
	} else {
		text += "\n" + p.T("bot.result.no-winner", nil)
	}
	return text + "\n" + strings.Join(who, " "), users
}
