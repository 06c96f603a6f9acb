// Package replay turns a stored game (its options and action log) into the
// frames of an animated replay: one frame per play, one per scoring, and
// one for a resignation. It imports only the engine and does no drawing:
// render.Animation draws and encodes the frames; the bot and cmd/rfop glue
// the two.
//
// # What a play is
//
// The action log has one entry per click: a card, then the sphere, then
// each space of the operations, a free cube given to the opponent, and so
// on. A play is the span of moves that begins with a move answering one of
// these prompts and runs until the next one begins:
//
//   - PromptPlay and PromptFCPlay: a card played (event, operations,
//     momentum, a discarded event; the solo opponent's turn too);
//   - PromptBonusOrder, and PromptBonusAction unless it follows a
//     PromptBonusOrder move: one Pivotal Space bonus action.
//
// Every other move belongs to the play it happens in (operations steps,
// event steps, the opponent's free cube or Final Crisis decision), or to no
// play (the secret objective choice, initiative, the Censorship discard,
// the Final Crisis discards, the score order and objective events): their
// changes show, highlighted, on the next frame. A play's frame is the board
// when the play is over: just before the next play begins, or, for the
// last play of a round, at the engine's CheckpointPlaysOver (the round's
// scoring runs inside the same move). Each CheckpointScored adds a scoring
// frame (the end of each round, and the final scoring, which decides the
// game). A resignation ends the game with a frame of its own.
//
// Undone clicks are not plays: the log is first reduced to the moves that
// stand (an Undo cancels its side's last standing move), and frames are
// made from those. If that reduced log does not replay (it always should),
// the full log is used instead, undos and all.
//
// So a finished game has Plays + Scorings frames, plus one if a player
// resigned.
package replay

import (
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/rfop/rfop/engine"
)

// Kind is what a frame shows.
type Kind int8

const (
	Play    Kind = iota + 1 // the board after a play
	Scoring                 // the board after a round's scoring (the last one ends the game)
	Resign                  // a player resigned or ran out of time: the end
)

// Delay is how long a frame of this kind stays up: a play briefly, a
// scoring longer, and the end longest (Frame.Delay).
func (k Kind) Delay() time.Duration {
	switch k {
	case Scoring:
		return 3500 * time.Millisecond
	case Resign:
		return 6 * time.Second
	}
	return 1200 * time.Millisecond
}

// EndDelay is how long the last frame stays up before the replay loops.
const EndDelay = 8 * time.Second

// Frame is one picture of the replay.
type Frame struct {
	Kind  Kind
	N     int // 1, 2, 3... among the frames
	Play  int // 1, 2, 3... among the plays (Kind Play), else 0
	Round int8
	Side  engine.Side // who played (NoSide for scoring)
	Last  bool        // the last frame
	// Line is the log line the frame's caption quotes: for a play, its
	// first public line by the side that played (the card and how it was
	// played), else its first public line; for a round's scoring, the first
	// line that gives a side VP. Nil when there is none. The renderer words
	// the caption in the reader's language (render.Renderer.ReplayCaptions):
	// this package writes no words.
	Line *engine.Msg
	// View is the public (spectator) view; its Log is dropped.
	View engine.View
}

// Delay is how long the frame stays up.
func (f Frame) Delay() time.Duration {
	if f.Last {
		return EndDelay
	}
	return f.Kind.Delay()
}

// Summary counts what a replay holds.
type Summary struct {
	Moves    int // moves in the log, undos included
	Plays    int
	Scorings int
	Frames   int
	Result   *engine.Result
}

// Count walks the game without keeping frames: the number of plays for
// /rfop history.
func Count(o engine.Options, moves []engine.Move) (Summary, error) {
	return Walk(o, moves, nil)
}

// Walk replays the game and calls fn with each frame and the view of the
// picture before it (the initial board for the first frame), so that what
// changed can be highlighted. Frames come one at a time: a caller that
// encodes each before the next keeps memory bounded. fn may be nil.
func Walk(o engine.Options, moves []engine.Move, fn func(f Frame, prev *engine.View) error) (Summary, error) {
	eff := standing(moves)
	if len(eff) != len(moves) {
		if _, err := engine.Replay(o, eff); err != nil {
			eff = moves
		}
	}
	w := &walker{fn: fn}
	sum, err := w.run(o, eff)
	sum.Moves = len(moves)
	return sum, err
}

// standing drops undone moves and the undos themselves.
func standing(moves []engine.Move) []engine.Move {
	out := make([]engine.Move, 0, len(moves))
	for _, m := range moves {
		if !m.Undo {
			out = append(out, m)
			continue
		}
		for k := len(out) - 1; k >= 0; k-- {
			if out[k].Side == m.Side && !out[k].Resign && !out[k].Timeout {
				out = append(out[:k], out[k+1:]...)
				break
			}
		}
	}
	return out
}

type walker struct {
	fn      func(Frame, *engine.View) error
	g       *engine.Game
	prev    engine.View
	pending *Frame // the next frame, held back to mark the last one
	sum     Summary
	err     error

	open      bool // a play is under way
	playSide  engine.Side
	playRound int8
	playVer   int // version the play began at
	scoreLog  int // log length when the plays of the round ended
}

func (w *walker) run(o engine.Options, moves []engine.Move) (Summary, error) {
	g, err := engine.New(o)
	if err != nil {
		return w.sum, fmt.Errorf("replay: %w", err)
	}
	w.g = g
	w.prev = strip(g.ViewFor(engine.NoSide))
	g.SetObserver(w.checkpoint)
	lastKind := engine.PromptKind("")
	for i, m := range moves {
		kind := promptKind(g, m.Side)
		starts := kind == engine.PromptPlay || kind == engine.PromptFCPlay || kind == engine.PromptBonusOrder ||
			kind == engine.PromptBonusAction && lastKind != engine.PromptBonusOrder
		if m.Undo {
			starts = false
		}
		if (starts || m.Resign || m.Timeout) && w.open {
			w.closePlay(g.ViewFor(engine.NoSide))
		}
		if starts {
			w.open, w.playSide, w.playRound, w.playVer = true, m.Side, g.S.Round, g.S.Version
		}
		if err := g.ApplyMove(m); err != nil {
			return w.sum, fmt.Errorf("replay: move %d (%s): %w", i+1, m.Side, err)
		}
		if w.err != nil {
			return w.sum, w.err
		}
		if m.Resign || m.Timeout {
			v := g.ViewFor(engine.NoSide)
			w.emit(Frame{Kind: Resign, Round: g.S.Round, Side: m.Side}, v)
		}
		lastKind = kind
		if m.Undo {
			lastKind = ""
		}
	}
	if w.open {
		w.closePlay(g.ViewFor(engine.NoSide))
	}
	w.flush(true)
	w.sum.Result = g.S.Result
	return w.sum, w.err
}

// promptKind is the kind of the prompt side answers now.
func promptKind(g *engine.Game, side engine.Side) engine.PromptKind {
	if p, ok := g.PromptFor(side); ok {
		return p.Kind
	}
	return ""
}

func (w *walker) checkpoint(c engine.Checkpoint) {
	switch c.Kind {
	case engine.CheckpointPlaysOver:
		if w.open {
			w.closePlay(c.View)
		}
		w.scoreLog = len(w.g.S.Log)
	case engine.CheckpointScored:
		w.emit(Frame{Kind: Scoring, Round: c.Round, Side: engine.NoSide, Line: w.scoringLine()}, c.View)
	}
}

func (w *walker) closePlay(v engine.View) {
	w.open = false
	w.sum.Plays++
	f := Frame{Kind: Play, Play: w.sum.Plays, Round: w.playRound, Side: w.playSide}
	if w.fn != nil { // Count needs no caption
		f.Line = w.playLine()
	}
	w.emit(f, v)
}

// playLine is the play's first public log line by the side that played
// (the card and how it was played), else its first public line.
func (w *walker) playLine() *engine.Msg {
	var first *engine.Msg
	log := w.g.S.Log
	// Versions never decrease along the log: start at the play's first line.
	from := sort.Search(len(log), func(i int) bool { return log[i].Version >= w.playVer })
	for _, e := range log[from:] {
		if e.To != engine.NoSide || e.Msg == nil {
			continue
		}
		if e.Actor == w.playSide {
			return e.Msg
		}
		if first == nil {
			first = e.Msg
		}
	}
	return first
}

// scoringLine is the first public line of a side after the round's plays
// that gives VP (dimension control, momentum, objectives), for the scoring
// frame's caption.
func (w *walker) scoringLine() *engine.Msg {
	if w.fn == nil {
		return nil // Count needs no caption
	}
	log := w.g.S.Log
	if w.scoreLog > len(log) {
		return nil
	}
	for _, e := range log[w.scoreLog:] {
		if e.To == engine.NoSide && e.Actor != engine.NoSide && e.Msg != nil && vpLines()[e.Msg.ID] {
			return e.Msg
		}
	}
	return nil
}

// vpLines are the engine's log messages that give VP: those whose English
// speaks of VP (read once from the engine's table).
var vpLines = sync.OnceValue(func() map[string]bool {
	ids := map[string]bool{}
	single, plural := engine.EnglishMessages()
	for id, t := range single {
		if strings.HasPrefix(id, "engine.log.") && strings.Contains(t, "VP") {
			ids[id] = true
		}
	}
	for id, f := range plural {
		if strings.HasPrefix(id, "engine.log.") && strings.Contains(f[1], "VP") {
			ids[id] = true
		}
	}
	return ids
})

func (w *walker) emit(f Frame, v engine.View) {
	w.sum.Frames++
	if f.Kind == Scoring {
		w.sum.Scorings++
	}
	if w.fn == nil || w.err != nil {
		return
	}
	w.flush(false)
	f.N = w.sum.Frames
	f.View = strip(v)
	w.pending = &f
}

// flush hands the held-back frame to fn (last: it is the final frame).
func (w *walker) flush(last bool) {
	if w.pending == nil || w.fn == nil || w.err != nil {
		return
	}
	f := *w.pending
	w.pending = nil
	f.Last = last
	prev := w.prev
	w.prev = f.View
	w.err = w.fn(f, &prev)
}

func strip(v engine.View) engine.View {
	v.Log = nil
	return v
}
