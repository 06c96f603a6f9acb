package main

// rfop analyse: the post-game analysis of package analysis for a stored
// game or a random one: the chart as a PNG, the turning points on
// stdout (or everything as JSON).

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"time"

	"github.com/rfop/rfop/ai"
	"github.com/rfop/rfop/analysis"
	"github.com/rfop/rfop/engine"
	"github.com/rfop/rfop/glossary"
	"github.com/rfop/rfop/locale"
)

func init() {
	register(&command{
		name:    "analyse",
		summary: "analyse a finished game (--db, --game) or a random one: the Commune's win chance as a chart (PNG) and the turning points",
		run:     runAnalyse,
	})
}

// analyseJSON is --json's output.
type analyseJSON struct {
	Game      int64          `json:"game,omitempty"`
	Seed      int64          `json:"seed"`
	Winner    string         `json:"winner"`
	Level     string         `json:"level"`
	Samples   int            `json:"samples"`
	Seconds   float64        `json:"seconds"`
	Out       string         `json:"out,omitempty"`
	Decisions []decisionJSON `json:"decisions"`
	Turning   []turningJSON  `json:"turning_points"`
}

// decisionJSON is a decision with its two moves in words (--lang).
type decisionJSON struct {
	analysis.Point
	Played   string `json:"played"`
	AIChoice string `json:"ai_choice"`
}

type turningJSON struct {
	analysis.Turning
	Swing float64 `json:"swing"`
	Text  string  `json:"text"`
}

func runAnalyse(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("analyse", flag.ContinueOnError)
	fl.SetOutput(stderr)
	dbPath := fl.String("db", "", "the bot's database, a SQLite file or a postgres:// URL (with --game)")
	gameID := fl.Int64("game", 0, "game number in the database")
	seed := fl.Int64("seed", 1, "seed of the random game (with --random-game)")
	randomGame := fl.Bool("random-game", false, "analyse a game of random legal moves played from --seed")
	out := fl.String("out", "chart.png", "PNG file to write the chart to (empty: no chart)")
	levelFlag := fl.String("level", string(ai.Normal), "search level of each decision: easy, normal or hard")
	samples := fl.Int("samples", analysis.DefaultConfig().Samples, "playouts of each side's estimate at each decision")
	deckPath := fl.String("deck", "", "deck file the game was played with (default: the embedded deck)")
	langFlag := fl.String("lang", "en", "language of the chart and the turning points: en, fr or ru")
	asJSON := fl.Bool("json", false, "print the win chance of every decision and the turning points as JSON")
	fl.Usage = func() {
		fmt.Fprintln(stderr, "Usage: rfop analyse --db FILE --game N [--out chart.png] [--json] [--lang en|fr|ru]")
		fmt.Fprintln(stderr, "       rfop analyse --seed S --random-game [--out chart.png] [--json]")
		fmt.Fprintln(stderr)
		fmt.Fprintln(stderr, "For every decision of a finished two-player game: each side's chance to win as the")
		fmt.Fprintln(stderr, "AI estimates it from that side's own information, and the choice the AI would have")
		fmt.Fprintln(stderr, "made. Writes the Commune's chance across the game as a chart and prints the three")
		fmt.Fprintln(stderr, "turning points (the decisions that moved the chance most).")
		fl.PrintDefaults()
	}
	if err := fl.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fl.NArg() > 0 || *randomGame == (*gameID != 0) || *gameID != 0 && *dbPath == "" {
		fmt.Fprintln(stderr, "rfop analyse: give either --db and --game, or --random-game")
		fl.Usage()
		return 2
	}
	lang, err := glossary.ParseLang(*langFlag)
	if err != nil {
		fmt.Fprintln(stderr, "rfop analyse:", err)
		return 2
	}
	level, err := ai.ParseLevel(*levelFlag)
	if err != nil {
		fmt.Fprintln(stderr, "rfop analyse:", err)
		return 2
	}
	var deck *engine.Deck
	if *deckPath != "" {
		if deck, err = engine.LoadDeckFile(*deckPath); err != nil {
			fmt.Fprintln(stderr, "rfop analyse:", err)
			return 1
		}
	}
	var (
		opts  engine.Options
		moves []engine.Move
	)
	if *randomGame {
		opts = engine.Options{Seed: *seed, Deck: deck, BotSide: engine.NoSide}
		moves, err = playRandom(opts, *seed)
	} else {
		opts, moves, err = storedGame(*dbPath, *gameID, deck)
	}
	if err != nil {
		fmt.Fprintln(stderr, "rfop analyse:", err)
		return 1
	}
	start := time.Now()
	a, err := analysis.Analyse(context.Background(), opts, moves, analysis.Config{Level: level, Samples: *samples}, nil)
	if err != nil {
		fmt.Fprintln(stderr, "rfop analyse:", err)
		return 1
	}
	took := time.Since(start)
	p := locale.For(lang)
	if *out != "" {
		png, err := a.Chart(p, *gameID)
		if err == nil {
			err = os.WriteFile(*out, png, 0o644)
		}
		if err != nil {
			fmt.Fprintln(stderr, "rfop analyse:", err)
			return 1
		}
	}
	texts := a.TurningTexts(p, opts.Deck)
	if !*asJSON {
		if len(texts) == 0 {
			fmt.Fprintln(stdout, p.T("analysis.none", nil))
		}
		for k, t := range texts {
			fmt.Fprintf(stdout, "%d. %s\n", k+1, t)
		}
		if *out != "" {
			fmt.Fprintln(stderr, p.N("analysis.cli.done", len(a.Points), locale.Args{"Seconds": fmt.Sprintf("%.1f", took.Seconds()), "Out": *out}))
		}
		return 0
	}
	j := analyseJSON{Game: *gameID, Seed: opts.Seed, Winner: a.Winner.String(), Level: string(a.Level), Samples: a.Samples,
		Seconds: math.Round(took.Seconds()*100) / 100, Out: *out}
	if *randomGame {
		j.Game = 0
	}
	for _, pt := range a.Points {
		j.Decisions = append(j.Decisions, decisionJSON{Point: pt, Played: p.Msg(opts.Deck, pt.PlayedMsg), AIChoice: p.Msg(opts.Deck, pt.BestMsg)})
	}
	for k, t := range a.Turning {
		j.Turning = append(j.Turning, turningJSON{Turning: t, Swing: t.Swing(), Text: texts[k]})
	}
	b, err := json.MarshalIndent(j, "", "  ")
	if err != nil {
		fmt.Fprintln(stderr, "rfop analyse:", err)
		return 1
	}
	fmt.Fprintln(stdout, string(b))
	return 0
}
