package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"time"

	"github.com/rfop/rfop/engine"
	"github.com/rfop/rfop/glossary"
	"github.com/rfop/rfop/render"
	"github.com/rfop/rfop/storage"
)

func init() {
	register(&command{
		name:    "replay",
		summary: "write the animated replay (GIF) of a stored game (--db, --game) or of a random game from a seed",
		run:     runReplay,
	})
}

func runReplay(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("replay", flag.ContinueOnError)
	fl.SetOutput(stderr)
	dbPath := fl.String("db", "", "the bot's database, a SQLite file or a postgres:// URL (with --game)")
	gameID := fl.Int64("game", 0, "game number in the database")
	seed := fl.Int64("seed", 1, "seed of the random game (with --random-game)")
	randomGame := fl.Bool("random-game", false, "replay a game of random legal moves played from --seed")
	out := fl.String("out", "replay.gif", "GIF file to write")
	half := fl.Bool("half", false, "draw at half size (800×500)")
	maxBytes := fl.Int("max-bytes", render.DiscordLimit, "size limit: over it the replay is drawn at half size (0: none)")
	deckPath := fl.String("deck", "", "deck file the game was played with (default: the embedded deck)")
	langFlag := fl.String("lang", "en", "the language of the captions, with the game terms of that edition: English (en), French (fr) or Russian (ru)")
	fl.Usage = func() {
		fmt.Fprintln(stderr, "Usage: rfop replay --db FILE --game N [--out replay.gif]")
		fmt.Fprintln(stderr, "       rfop replay --seed S --random-game [--out replay.gif]")
		fl.PrintDefaults()
	}
	if err := fl.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fl.NArg() > 0 || *randomGame == (*gameID != 0) || *gameID != 0 && *dbPath == "" {
		fmt.Fprintln(stderr, "rfop replay: give either --db and --game, or --random-game")
		fl.Usage()
		return 2
	}
	lang, err := glossary.ParseLang(*langFlag)
	if err != nil {
		fmt.Fprintln(stderr, "rfop replay:", err)
		return 2
	}
	var deck *engine.Deck
	if *deckPath != "" {
		if deck, err = engine.LoadDeckFile(*deckPath); err != nil {
			fmt.Fprintln(stderr, "rfop replay:", err)
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
		fmt.Fprintln(stderr, "rfop replay:", err)
		return 1
	}
	r, err := render.NewFor(deck, lang)
	if err != nil {
		fmt.Fprintln(stderr, "rfop replay:", err)
		return 1
	}
	start := time.Now()
	gif, info, err := r.ReplayGIF(opts, moves, render.ReplayOptions{MaxBytes: *maxBytes, Half: *half})
	if err != nil {
		fmt.Fprintln(stderr, "rfop replay:", err)
		return 1
	}
	took := time.Since(start)
	if err := os.WriteFile(*out, gif, 0o644); err != nil {
		fmt.Fprintln(stderr, "rfop replay:", err)
		return 1
	}
	sum := map[string]any{"out": *out, "moves": info.Moves, "plays": info.Plays, "scorings": info.Scorings,
		"frames": info.Frames, "bytes": info.Bytes, "half": info.Half, "seconds": took.Seconds()}
	if info.Result != nil {
		sum["result"] = info.Result.English(opts.Deck)
	}
	b, _ := json.Marshal(sum)
	fmt.Fprintln(stdout, string(b))
	return 0
}

// playRandom plays uniformly random legal moves from seed to the end.
func playRandom(o engine.Options, seed int64) ([]engine.Move, error) {
	g, err := engine.New(o)
	if err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(uint64(seed), 0x5eed))
	var moves []engine.Move
	for {
		m, ok := g.RandomMove(rng)
		if !ok {
			return moves, nil
		}
		if err := g.ApplyMove(m); err != nil {
			return nil, err
		}
		moves = append(moves, m)
	}
}

// storedGame reads a game's options and action log from the bot's
// database (opening it migrates it to this binary's schema, as the bot
// would).
func storedGame(path string, id int64, deck *engine.Deck) (engine.Options, []engine.Move, error) {
	if !storage.IsPostgresURL(path) {
		if _, err := os.Stat(path); err != nil {
			return engine.Options{}, nil, fmt.Errorf("database %s: %w", path, err)
		}
	}
	ctx := context.Background()
	st, err := storage.OpenURL(ctx, path)
	if err != nil {
		return engine.Options{}, nil, err
	}
	defer st.Close()
	rec, err := st.GameByID(ctx, id)
	if err != nil {
		return engine.Options{}, nil, err
	}
	if rec.State == nil {
		return engine.Options{}, nil, fmt.Errorf("game %d never started", id)
	}
	acts, err := st.Actions(ctx, id)
	if err != nil {
		return engine.Options{}, nil, err
	}
	moves := make([]engine.Move, 0, len(acts))
	for _, a := range acts {
		var m engine.Move
		if err := json.Unmarshal(a.Choice, &m); err != nil {
			return engine.Options{}, nil, fmt.Errorf("game %d, action %d: %w", id, a.Seq, err)
		}
		moves = append(moves, m)
	}
	v, err := engine.ParseVariant(rec.Variant)
	if err != nil {
		return engine.Options{}, nil, err
	}
	bot := engine.NoSide
	switch rec.BotSide {
	case storage.SideVersailles:
		bot = engine.Versailles
	case storage.SideCommune:
		bot = engine.Commune
	}
	return engine.Options{Variant: v, Seed: rec.Seed, Deck: deck, BotSide: bot}, moves, nil
}
