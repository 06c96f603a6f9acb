package main

// rfop play: a whole game in the terminal, hot-seat for two players or
// against the solo opponent, driven by the engine's prompts. This file is
// the game loop; play_keyboard.go reads the players and hands the keyboard
// over, play_print.go prints prompts, log, board and cards, play_board.go
// draws the board picture.

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/rfop/rfop/ai"
	"github.com/rfop/rfop/engine"
	"github.com/rfop/rfop/glossary"
	"github.com/rfop/rfop/locale"
)

func init() {
	register(&command{
		name:    "play",
		summary: "play a game in the terminal: two players at one keyboard, or against the solo opponent",
		run:     runPlay,
	})
}

// soloChooser answers a prompt addressed to the solo opponent (p.Side ==
// g.S.BotSide) with one of p.Choices and the explanation that goes into
// the log (which decision-table rows decided it). nil until package solo
// is wired in; --solo then fails with "solo opponent not available yet".
var soloChooser func(g *engine.Game, p engine.Prompt) (engine.Choice, string, error)

const playUsage = `Usage: rfop play [--solo commune|versailles | --ai commune|versailles [--level easy|normal|hard]]
                 [--variant censorship] [--lang en|fr|ru] [--deck FILE] [--seed S] [--board-dir DIR]

Red Flag Over Paris, 1871: Versailles (the government, blue) against the Paris
Commune (red), over three rounds and a Final Crisis. Each round both players
get Strategy cards and play three of them, alternately, each one for its
event or for operations points that place your cubes on the map (or remove
the opponent's). Controlling spaces wins Political VP (Institutional and
Public Opinion spaces) and Military VP (Forts and Paris spaces); each round
also scores a secret objective card per player. The VP markers are shared:
+2 Political for the Commune is -2 for Versailles.
  Versailles wins if its Military VP (0 or more) exceed the Commune's Political VP.
  The Commune wins if its Political VP (0 or more) exceed Versailles's Military VP.
  Neither: tiebreakers (combined VP, objectives, Pivotal Spaces, initiative).

Every decision is a numbered list: type the number and press Enter.
Commands (the letter or the word): u/undo take back your last choice (while
allowed), s/board the board and score, c/cards your cards with their texts,
l/log the recent log, h/help (or ?) this help, q/quit end the game.

Two players (hot-seat): the player named at the prompt takes the keyboard;
the other looks away, since the prompt shows that player's hand and lines
marked [private to ...]. At each hand-over the screen (and its scroll-back)
is cleared and the game waits for Enter; the next player then sees what the
opponent did. With --solo the program plays the side you name and you play
the other. With --ai the AI opponent plays the side you name in the full
two-player game, under the same rules as you and seeing only what its side
may see; --level sets its strength (easy, normal, hard).

Flags:
`

func runPlay(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("play", flag.ContinueOnError)
	soloFlag := fs.String("solo", "", "play against the solo opponent, which plays this side (commune or versailles)")
	variantFlag := fs.String("variant", "standard", "rules variant: standard or censorship (5-card hands and a Censorship Phase)")
	seed := fs.Int64("seed", 0, "seed for the shuffles (0: pick one at random and print it)")
	boardDir := fs.String("board-dir", "", "directory for the board picture board.png, redrawn before each question (default: a new temporary directory)")
	aiFlag := fs.String("ai", "", "play the two-player game against the AI opponent, which plays this side (commune or versailles)")
	levelFlag := fs.String("level", "normal", "the AI opponent's level: easy, normal or hard")
	langFlag := fs.String("lang", "en", "game terms (spaces, tracks, zones) as printed in the English (en), French (fr) or Russian (ru) edition")
	deckFlag := fs.String("deck", "", "deck file replacing card effects, to try it before giving it to the bot (same format as engine/cards.json)")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), playUsage)
		fs.PrintDefaults()
	}
	if code, done := parseFlags(fs, args, stdout, stderr); done {
		return code
	}
	variant, err := engine.ParseVariant(*variantFlag)
	if err != nil {
		return usageError(stderr, "play", err.Error())
	}
	bot, code, ok := parseSoloFlag(*soloFlag, variant, "play", stderr)
	if !ok {
		return code
	}
	aiSide, aiPlayer, code, ok := parseAIFlags(*aiFlag, *levelFlag, bot, stderr)
	if !ok {
		return code
	}
	lang, err := glossary.ParseLang(*langFlag)
	if err != nil {
		return usageError(stderr, "play", "--lang: "+err.Error())
	}
	deck, err := loadDeckFlag(*deckFlag)
	if err != nil {
		fmt.Fprintf(stderr, "play: %v\n", err)
		return 2
	}
	if *seed == 0 {
		*seed = int64(randomSeed())
	}
	g, err := engine.New(engine.Options{Seed: *seed, Variant: variant, BotSide: bot, Deck: deck})
	if err != nil {
		fmt.Fprintf(stderr, "play: %v\n", err)
		return 1
	}
	sc := bufio.NewScanner(stdin)
	sc.Buffer(make([]byte, 4096), 1<<16)
	p := &playSession{g: g, in: sc, out: stdout, errOut: stderr, bot: bot, keyboard: engine.NoSide, boardDir: *boardDir, lang: lang,
		aiSide: aiSide, ai: aiPlayer,
		// Asked of the streams themselves: every sentence is in lang already
		// (the catalogue), so nothing wraps stdout between here and the
		// player. A translating wrapper once hid the terminal from this
		// check, and French and Russian hot-seat never cleared the screen.
		screen: bot == engine.NoSide && aiPlayer == nil && isTerminal(stdin, stdout), pr: locale.For(lang)}
	if playStarted != nil {
		playStarted(p)
	}
	banner := "play.banner-standard"
	if variant == engine.Censorship {
		banner = "play.banner-censorship"
	}
	fmt.Fprintln(stdout, p.m(banner, aNum("Seed", int(*seed))))
	if bot != engine.NoSide {
		fmt.Fprintln(stdout, p.m("play.you-play", aSide("You", bot.Other()), aSide("Bot", bot)))
	} else if aiPlayer != nil {
		fmt.Fprintln(stdout, p.m("play.ai-you-play", aSide("You", aiSide.Other()), aText("Level", p.m("common.level."+*levelFlag)), aSide("Bot", aiSide)))
	} else {
		fmt.Fprintln(stdout, p.m("play.hotseat"))
	}
	if *deckFlag != "" {
		fmt.Fprintln(stdout, p.m("play.deck", aText("Path", *deckFlag), aText("ID", deck.ID)))
	}
	fmt.Fprintln(stdout, p.m("play.type-h"))
	p.setupBoard()
	return p.loop()
}

// loadDeckFlag loads a --deck file; "" is the embedded deck.
func loadDeckFlag(path string) (*engine.Deck, error) {
	if path == "" {
		return engine.DefaultDeck(), nil
	}
	return engine.LoadDeckFile(path)
}

func randomSeed() uint32 {
	var b [4]byte
	if f, err := os.Open("/dev/urandom"); err == nil {
		_, _ = io.ReadFull(f, b[:])
		f.Close()
	}
	n := uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24
	if n == 0 {
		n = 1871
	}
	return n & 0x7fffffff
}

// playSession is one terminal game.
type playSession struct {
	g      *engine.Game
	in     *bufio.Scanner
	out    io.Writer
	errOut io.Writer
	bot    engine.Side // NoSide: hot-seat
	// ai plays aiSide in a 2-player game (nil: no AI opponent).
	ai     ai.Player
	aiSide engine.Side

	keyboard  engine.Side // who was last asked at the keyboard
	shown     int         // log lines up to this seq have been dealt with (public ones printed)
	privShown [2]int      // private lines up to this seq printed to each side

	board      boardWriter
	boardDir   string
	boardStale bool // decisions since the last picture

	// screen: stdin and stdout are a terminal. Hot-seat hand-overs then
	// clear the screen and its scroll-back and wait for Enter, so the next
	// player never sees the previous player's hand (scripted input, a pipe,
	// gets the plain banner).
	screen bool
	seenBy [2]int          // log seq at which each side last left the keyboard
	lang   glossary.Lang   // game terms of this edition (the board picture; out translates text)
	pr     *locale.Printer // every sentence, in lang
}

// playStarted, when set (by tests), sees each session as it starts, so a
// test can read the game a run of play went through.
var playStarted func(*playSession)

// errQuit ends the session without a result (q confirmed, or end of input).
var errQuit = errors.New("quit")

func (p *playSession) loop() int {
	g := p.g
	p.showLog(engine.NoSide) // the setup lines
	const maxBotRun = 10000  // a whole game is about 100 decisions
	botRun := 0
	for g.S.Result == nil {
		ps := g.Prompts()
		if len(ps) == 0 {
			fmt.Fprintln(p.errOut, "play: internal error: the game has neither a result nor a decision to make")
			return 1
		}
		pr := ps[0] // simultaneous decisions: one side, then the other
		if p.ai != nil {
			moved, err := p.aiMoves(ps)
			if err != nil {
				fmt.Fprintf(p.errOut, "play: AI opponent: %v\n", err)
				return 1
			}
			if moved {
				continue
			}
		}
		if pr.Side == p.bot {
			if botRun++; botRun > maxBotRun {
				fmt.Fprintf(p.errOut, "play: the solo opponent made %d decisions in a row: stopping\n", maxBotRun)
				return 1
			}
			if err := p.botMove(pr); err != nil {
				fmt.Fprintf(p.errOut, "play: solo opponent: %v\n", err)
				return 1
			}
			continue
		}
		botRun = 0
		if err := p.humanMove(pr); err != nil {
			if errors.Is(err, errQuit) {
				return 0
			}
			fmt.Fprintf(p.errOut, "play: %v\n", err)
			return 1
		}
	}
	p.writeBoard()
	r := g.S.Result
	fmt.Fprintln(p.out)
	fmt.Fprintln(p.out, p.m("play.game-over"))
	fmt.Fprintln(p.out, p.pr.Result(g.Deck(), r))
	reasons := map[string]string{"victory": "play.reason-victory", "tiebreaker": "play.reason-tiebreaker",
		"solo-tie": "play.reason-solo-tie", "resigned": "play.reason-resigned"}
	reason := r.Reason
	if id, ok := reasons[r.Reason]; ok {
		reason = p.m(id)
	}
	fmt.Fprintln(p.out, p.m("play.final-score", aText("VP", p.vpText(g.S.VP)), aText("Reason", reason)))
	if p.ai != nil {
		if r.Winner == p.aiSide {
			fmt.Fprintln(p.out, p.m("play.ai-wins"))
		} else {
			fmt.Fprintln(p.out, p.m("play.you-win"))
		}
	}
	if p.bot != engine.NoSide {
		if r.Winner == p.bot {
			fmt.Fprintln(p.out, p.m("play.bot-wins"))
		} else {
			fmt.Fprintln(p.out, p.m("play.you-win"))
		}
	}
	return 0
}

func (p *playSession) botMove(pr engine.Prompt) error {
	c, note, err := soloChooser(p.g, pr)
	if err != nil {
		return err
	}
	text := p.pr.Choice(p.g, pr, c)
	if err := p.g.ApplyWithNote(pr.Side, c, note); err != nil {
		return fmt.Errorf("its choice %q was refused: %w", p.g.ChoiceText(pr, c), err)
	}
	fmt.Fprintln(p.out, p.m("play.bot-move", aSide("Side", pr.Side), aText("Text", text)))
	p.showLog(p.bot.Other())
	p.boardStale = true
	return nil
}
