package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"image"
	"image/png"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"sort"
	"time"

	"github.com/rfop/rfop/engine"
	"github.com/rfop/rfop/glossary"
	"github.com/rfop/rfop/render"
)

func init() {
	register(&command{
		name:    "render",
		summary: "draw the board (or a hand) of a sample position to a PNG; --bench times it",
		run:     runRender,
	})
}

func runRender(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("render", flag.ContinueOnError)
	fl.SetOutput(stderr)
	seed := fl.Int64("seed", 1, "game seed (also seeds the random moves)")
	after := fl.Int("after", 0, "number of random legal decisions to play first")
	out := fl.String("out", "board.png", "PNG file to write")
	hand := fl.String("hand", "", "write this side's hand (commune or versailles) instead of the board")
	bench := fl.Bool("bench", false, "time the board (and the --hand side's hand, else the deciding side's) as the bot makes it against an RGBA png.BestSpeed encoding of the same picture; print one JSON object instead of writing a file")
	runs := fl.Int("runs", 30, "renders to time with --bench (at least 20)")
	langFlag := fl.String("lang", "en", "game terms as printed in the English (en), French (fr) or Russian (ru) edition")
	deckFlag := fl.String("deck", "", "deck file replacing card effects (same format as engine/cards.json)")
	fl.Usage = func() {
		fmt.Fprintln(stderr, "Usage: rfop render [--seed S] [--after N] [--out board.png] [--hand commune|versailles] [--lang en|fr|ru] [--deck FILE] [--bench]")
		fl.PrintDefaults()
	}
	if err := fl.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fl.NArg() > 0 {
		fmt.Fprintf(stderr, "rfop render: unexpected argument %s\n", engine.Quote(fl.Arg(0)))
		fl.Usage()
		return 2
	}
	if *after < 0 {
		fmt.Fprintln(stderr, "rfop render: --after must be 0 or more")
		return 2
	}
	var handSide engine.Side = engine.NoSide
	if *hand != "" {
		s, err := engine.ParseSide(*hand)
		if err != nil {
			fmt.Fprintf(stderr, "rfop render: --hand: %v\n", err)
			return 2
		}
		handSide = s
	}
	lang, err := glossary.ParseLang(*langFlag)
	if err != nil {
		fmt.Fprintf(stderr, "rfop render: --lang: %v\n", err)
		return 2
	}
	if *runs < 20 {
		*runs = 20
	}

	deck, err := loadDeckFlag(*deckFlag)
	if err != nil {
		fmt.Fprintf(stderr, "rfop render: %v\n", err)
		return 2
	}
	g, err := engine.New(engine.Options{Seed: *seed, BotSide: engine.NoSide, Deck: deck})
	if err != nil {
		fmt.Fprintf(stderr, "rfop render: %v\n", err)
		return 1
	}
	rng := rand.New(rand.NewPCG(uint64(*seed), 0))
	// prev is the view before the last decision played, so that the picture
	// highlights what that decision changed (also when the game ended
	// before --after decisions).
	var prev *engine.View
	played := 0
	for played < *after {
		m, ok := g.RandomMove(rng)
		if !ok {
			break // game over
		}
		pv := g.ViewFor(engine.NoSide)
		prev = &pv
		if err := g.ApplyMove(m); err != nil {
			fmt.Fprintf(stderr, "rfop render: move %d: %v\n", played+1, err)
			return 1
		}
		played++
	}
	if played < *after {
		fmt.Fprintf(stderr, "rfop render: the game ended after %d decisions\n", played)
	}

	r, err := render.NewFor(g.Deck(), lang)
	if err != nil {
		fmt.Fprintf(stderr, "rfop render: %v\n", err)
		return 1
	}
	// Channel pictures are always made from the spectator view.
	v := g.ViewFor(engine.NoSide)
	caption := r.Caption(&v) // in the --lang edition

	if *bench {
		side := handSide
		if side == engine.NoSide {
			side = engine.Commune
			if ps := g.Prompts(); len(ps) > 0 {
				side = ps[0].Side // the hand a player would look at now
			}
		}
		return renderBench(r, g, &v, prev, caption, side, *runs, stdout, stderr)
	}

	var png []byte
	if handSide != engine.NoSide {
		// The player's own view: the renderer sorts it into the cards in
		// hand, those set aside, the Final Crisis card and the objectives.
		hv := g.ViewFor(handSide)
		png, err = r.RenderHand(&hv)
		if errors.Is(err, render.ErrEmptyHand) {
			fmt.Fprintf(stderr, "rfop render: %s holds no card after %d decisions; nothing written\n", handSide, played)
			return 1
		}
	} else {
		png, err = r.RenderBoard(&v, prev, caption)
	}
	if err != nil {
		fmt.Fprintf(stderr, "rfop render: %v\n", err)
		return 1
	}
	if err := os.WriteFile(*out, png, 0o644); err != nil {
		fmt.Fprintf(stderr, "rfop render: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "wrote %s (%d bytes) after %d decisions\n", *out, len(png), played)
	return 0
}

// renderBench times, alternately in one run so that a busy machine slows
// both alike, what the bot does for a board (RenderBoard: draw, quantize
// to the board palette, encode a paletted PNG) and the former path's
// encoding alone: the same picture in RGBA encoded with png.BestSpeed;
// then the same for the hand of handSide. It prints medians and sizes as
// one JSON object.
func renderBench(r *render.Renderer, g *engine.Game, v, prev *engine.View, caption string, handSide engine.Side, runs int, stdout, stderr io.Writer) int {
	img, err := r.DrawBoard(v, prev, caption)
	if err != nil {
		fmt.Fprintf(stderr, "rfop render: %v\n", err)
		return 1
	}
	board, err := benchPair(runs, func() ([]byte, error) { return r.RenderBoard(v, prev, caption) }, img)
	if err != nil {
		fmt.Fprintf(stderr, "rfop render: %v\n", err)
		return 1
	}
	out := map[string]any{
		"render_encode_ms_median":         board.render,
		"rgba_bestspeed_encode_ms_median": board.rgba,
		"ratio":                           round2(board.render / board.rgba),
		"bytes":                           board.bytes,
		"rgba_bytes":                      board.rgbaBytes,
		"width":                           img.Bounds().Dx(),
		"height":                          img.Bounds().Dy(),
	}
	hv := g.ViewFor(handSide)
	himg, err := r.DrawHand(&hv)
	switch {
	case errors.Is(err, render.ErrEmptyHand):
		fmt.Fprintf(stderr, "rfop render: %s holds no card: no hand figures\n", handSide)
	case err != nil:
		fmt.Fprintf(stderr, "rfop render: %v\n", err)
		return 1
	default:
		hand, err := benchPair(runs, func() ([]byte, error) { return r.RenderHand(&hv) }, himg)
		if err != nil {
			fmt.Fprintf(stderr, "rfop render: %v\n", err)
			return 1
		}
		out["hand_side"] = handSide.String()
		out["hand_render_encode_ms_median"] = hand.render
		out["hand_rgba_bestspeed_encode_ms_median"] = hand.rgba
		out["hand_ratio"] = round2(hand.render / hand.rgba)
		out["hand_bytes"] = hand.bytes
		out["hand_rgba_bytes"] = hand.rgbaBytes
		out["hand_width"], out["hand_height"] = himg.Bounds().Dx(), himg.Bounds().Dy()
	}
	b, _ := json.Marshal(out)
	fmt.Fprintln(stdout, string(b))
	return 0
}

type benchResult struct {
	render, rgba     float64 // medians, ms
	bytes, rgbaBytes int
}

// benchPair times render (the bot's path) and an RGBA png.BestSpeed
// encoding of img, alternately, runs times each after two warm-ups.
func benchPair(runs int, render func() ([]byte, error), img image.Image) (benchResult, error) {
	var res benchResult
	enc := png.Encoder{CompressionLevel: png.BestSpeed, BufferPool: &encoderPool{}}
	full := make([]float64, 0, runs)
	rgba := make([]float64, 0, runs)
	var w bytes.Buffer
	for i := 0; i < runs+2; i++ {
		t0 := time.Now()
		b, err := render()
		d := time.Since(t0)
		if err != nil {
			return res, err
		}
		res.bytes = len(b)
		w.Reset()
		t0 = time.Now()
		if err := enc.Encode(&w, img); err != nil {
			return res, err
		}
		e := time.Since(t0)
		res.rgbaBytes = w.Len()
		if i >= 2 { // two warm-up rounds
			full = append(full, ms(d))
			rgba = append(rgba, ms(e))
		}
	}
	res.render, res.rgba = round2(median(full)), round2(median(rgba))
	return res, nil
}

// encoderPool keeps one png.EncoderBuffer, as the renderer's encoder does.
type encoderPool struct{ b *png.EncoderBuffer }

func (p *encoderPool) Get() *png.EncoderBuffer  { return p.b }
func (p *encoderPool) Put(b *png.EncoderBuffer) { p.b = b }

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func round2(x float64) float64 { return math.Round(x*100) / 100 }

func median(a []float64) float64 {
	s := append([]float64(nil), a...)
	sort.Float64s(s)
	n := len(s)
	if n == 0 {
		return 0
	}
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}
