package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
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
	bench := fl.Bool("bench", false, "time board rendering and print one JSON object instead of writing a file")
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
		return renderBench(r, &v, prev, caption, *runs, stdout, stderr)
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

// renderBench times full renders (draw + encode) and encoding alone of the
// same drawn image, and prints medians as one JSON object.
func renderBench(r *render.Renderer, v, prev *engine.View, caption string, runs int, stdout, stderr io.Writer) int {
	full := make([]float64, 0, runs)
	var size int
	for i := 0; i < runs+2; i++ {
		t0 := time.Now()
		b, err := r.RenderBoard(v, prev, caption)
		d := time.Since(t0)
		if err != nil {
			fmt.Fprintf(stderr, "rfop render: %v\n", err)
			return 1
		}
		size = len(b)
		if i >= 2 { // two warm-up renders
			full = append(full, ms(d))
		}
	}
	img, err := r.DrawBoard(v, prev, caption)
	if err != nil {
		fmt.Fprintf(stderr, "rfop render: %v\n", err)
		return 1
	}
	enc := make([]float64, 0, runs)
	for i := 0; i < runs+2; i++ {
		var w bytes.Buffer
		t0 := time.Now()
		w.Grow(256 << 10) // as RenderBoard does
		if err := r.Encode(&w, img); err != nil {
			fmt.Fprintf(stderr, "rfop render: %v\n", err)
			return 1
		}
		if i >= 2 {
			enc = append(enc, ms(time.Since(t0)))
		}
	}
	out := struct {
		RenderEncode float64 `json:"render_encode_ms_median"`
		EncodeOnly   float64 `json:"encode_only_ms_median"`
		Bytes        int     `json:"bytes"`
		Width        int     `json:"width"`
		Height       int     `json:"height"`
	}{round2(median(full)), round2(median(enc)), size, img.Bounds().Dx(), img.Bounds().Dy()}
	b, _ := json.Marshal(out)
	fmt.Fprintln(stdout, string(b))
	return 0
}

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
