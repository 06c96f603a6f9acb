package render

import (
	"strings"

	"github.com/rfop/rfop/engine"
	"github.com/rfop/rfop/locale"
	"github.com/rfop/rfop/replay"
)

// A replay frame's caption in the renderer's language (issue 26: they
// were English on French and Russian servers): the round, the play's line
// in the past tense and its number; the round's scoring with the VP and
// its first VP line; the result at the end.
func (r *Renderer) replayCaption(f replay.Frame) string {
	pr, deck := r.pr, r.deck
	round := roundName(pr, f.Round)
	if res := f.View.Result; res != nil && (f.Last || f.Kind != replay.Play) {
		sum := strings.TrimSuffix(strings.TrimSpace(pr.Result(deck, res)), ".")
		if sum == "" {
			return pr.T("render.caption.game-over-plain", locale.Args{"Round": round})
		}
		return pr.T("render.caption.game-over", locale.Args{"Round": round, "Summary": sum})
	}
	switch f.Kind {
	case replay.Scoring:
		vp := r.vpWords(f.View.VP)
		if f.Line == nil {
			return pr.T("render.replay.scored-plain", locale.Args{"Round": round, "VP": vp})
		}
		return pr.T("render.replay.scored", locale.Args{"Round": round, "VP": vp, "Line": clipLine(pr.Msg(deck, *f.Line))})
	case replay.Resign:
		return round
	}
	if f.Line == nil {
		return pr.Msg(deck, engine.Msg{ID: "render.replay.play-side", Args: []engine.Arg{
			{Name: "Round", Kind: engine.ArgText, S: round}, {Name: "Side", Kind: engine.ArgSide, N: int(f.Side)},
			{Name: "N", Kind: engine.ArgNum, N: f.Play}}})
	}
	line, ok := pastTense(pr, deck, *f.Line)
	if !ok {
		line = pr.Msg(deck, *f.Line)
	}
	return pr.T("render.replay.play", locale.Args{"Round": round, "Line": clipLine(line), "N": f.Play})
}

// vpWords reads the VP tracks: "Political VP: Versailles +2, Military VP:
// even (0)", with the edition's words.
func (r *Renderer) vpWords(vp [2]int8) string {
	pr := r.pr
	one := func(n int8) string {
		switch {
		case n > 0:
			return pr.Msg(r.deck, engine.Msg{ID: "render.vp-lead", Args: []engine.Arg{{Name: "Side", Kind: engine.ArgSide, N: int(engine.Versailles)}, {Name: "N", Kind: engine.ArgNum, N: int(n)}}})
		case n < 0:
			return pr.Msg(r.deck, engine.Msg{ID: "render.vp-lead", Args: []engine.Arg{{Name: "Side", Kind: engine.ArgSide, N: int(engine.Commune)}, {Name: "N", Kind: engine.ArgNum, N: int(-n)}}})
		}
		return pr.T("render.vp-even", nil)
	}
	return pr.T("render.replay.vp", locale.Args{"Political": pr.Term("Political VP"), "P": one(vp[engine.Political]),
		"Military": pr.Term("Military VP"), "M": one(vp[engine.Military])})
}

// clipLine drops a line's full stop and keeps it to 110 letters.
func clipLine(s string) string {
	s = strings.TrimSuffix(strings.TrimSpace(s), ".")
	if r := []rune(s); len(r) > 110 {
		return string(r[:109]) + "…"
	}
	return s
}

// ReplayCaptions are the captions of a game's replay frames (its options
// and action log) in the renderer's language, without drawing: for tests
// and tools that check what a replay says.
func (r *Renderer) ReplayCaptions(o engine.Options, moves []engine.Move) ([]string, error) {
	var out []string
	_, err := replay.Walk(o, moves, func(f replay.Frame, _ *engine.View) error {
		out = append(out, r.replayCaption(f))
		return nil
	})
	return out, err
}
