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
	"strconv"
	"strings"

	"github.com/rfop/rfop/ai"
	"github.com/rfop/rfop/engine"
	"github.com/rfop/rfop/glossary"
	"github.com/rfop/rfop/locale"
)

func init() {
	register(&command{
		name:    "play",
		summary: "play a game in the terminal: two players at one keyboard, against the solo opponent (--solo) or the AI (--ai)",
		run:     runPlay,
	})
}

// soloChooser answers a prompt addressed to the solo opponent (p.Side ==
// g.S.BotSide) with one of p.Choices and the explanation that goes into
// the log: what it does and why, ending with the decision-table rows (nil:
// none). It is nil until package solo is wired in; --solo then fails with
// "solo opponent not available yet".
var soloChooser func(g *engine.Game, p engine.Prompt) (engine.Choice, *engine.Msg, error)

const playUsage = `Usage: rfop play [--solo --side commune|versailles]
                 [--ai --side commune|versailles [--level easy|normal|hard]]
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
l/log the recent log, h/help (or ?) this help, q/quit end the game; against
the AI, hint ranks your choices as the AI sees them.

Without --solo or --ai, two players share the keyboard (hot-seat): the player
named at the prompt takes it; the other looks away, since the prompt shows
that player's hand and lines marked [private to ...]. At each hand-over the
screen (and its scroll-back) is cleared and the game waits for Enter; the
next player then sees what the opponent did.
--solo: you play against the solo opponent of the rulebook.
--ai: you play the full two-player game against the AI opponent, which plays
under the same rules as you and sees only what its side may see; --level
sets its strength (easy, normal, hard; normal by default).
--side is the side you play, as in Discord (/rfop solo side:, /rfop ai side:).

Flags:
`

// modeFlag is --solo or --ai: a switch. Both once took the opponent's
// side as their value; the side is now --side, the side you play, as in
// Discord, so a side given to the switch is refused with what changed
// rather than silently read the other way round.
type modeFlag struct {
	name string
	on   bool
}

func (m *modeFlag) String() string {
	if m == nil {
		return "false"
	}
	return strconv.FormatBool(m.on)
}

func (m *modeFlag) IsBoolFlag() bool { return true }

func (m *modeFlag) Set(v string) error {
	if _, err := engine.ParseSide(strings.ToLower(v)); err == nil {
		return errors.New(oldSideFlag(m.name, v))
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		return fmt.Errorf("--%s is a switch: --%s --side commune|versailles", m.name, m.name)
	}
	m.on = b
	return nil
}

// oldSideFlag explains the change of meaning to someone who typed the old
// form, --solo commune or --ai commune.
func oldSideFlag(mode, side string) string {
	s, _ := engine.ParseSide(strings.ToLower(side))
	opp := "the solo opponent"
	if mode == "ai" {
		opp = "the AI opponent"
	}
	return fmt.Sprintf("--%[1]s no longer takes a side: it named %[2]s's side, and now --side names the side you play, as in Discord. "+
		"What was --%[1]s %[3]s (%[2]s playing %[4]s) is now --%[1]s --side %[5]s",
		mode, opp, strings.ToLower(side), s, strings.ToLower(s.Other().String()))
}

// oldFormArgs finds the old form "--solo commune" (a switch, then a side
// as a separate argument), which the flag package would otherwise report
// as an unexpected argument.
func oldFormArgs(args []string) (mode, side string, found bool) {
	for i := 0; i+1 < len(args); i++ {
		a := strings.TrimLeft(args[i], "-")
		if !strings.HasPrefix(args[i], "-") || a != "solo" && a != "ai" {
			continue
		}
		if _, err := engine.ParseSide(strings.ToLower(args[i+1])); err == nil {
			return a, args[i+1], true
		}
	}
	return "", "", false
}

func runPlay(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("play", flag.ContinueOnError)
	solo, aiMode := &modeFlag{name: "solo"}, &modeFlag{name: "ai"}
	fs.Var(solo, "solo", "play against the solo opponent; --side is the side you play")
	fs.Var(aiMode, "ai", "play the two-player game against the AI opponent; --side is the side you play")
	sideFlag := fs.String("side", "", "with --solo or --ai: the side you play, commune or versailles")
	variantFlag := fs.String("variant", "standard", "rules variant: standard or censorship (5-card hands and a Censorship Phase)")
	seed := fs.Int64("seed", 0, "seed for the shuffles (0: pick one at random and print it)")
	boardDir := fs.String("board-dir", "", "directory for the board picture board.png, redrawn before each question (default: a new temporary directory)")
	levelFlag := fs.String("level", "normal", "with --ai: the AI opponent's level, easy, normal or hard")
	langFlag := fs.String("lang", "en", "the language of everything play prints and draws, with the game terms of that edition: English (en), French (fr) or Russian (ru)")
	deckFlag := fs.String("deck", "", "deck file replacing card effects, to try it before giving it to the bot (same format as engine/cards.json)")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), playUsage)
		fs.PrintDefaults()
	}
	if mode, side, old := oldFormArgs(args); old {
		return usageError(stderr, "play", oldSideFlag(mode, side))
	}
	if code, done := parseFlags(fs, args, stdout, stderr); done {
		return code
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	variant, err := engine.ParseVariant(*variantFlag)
	if err != nil {
		return usageError(stderr, "play", err.Error())
	}
	you, code, ok := parsePlaySide(solo.on, aiMode.on, *sideFlag, set["level"], stderr)
	if !ok {
		return code
	}
	bot := engine.NoSide
	if solo.on {
		if bot, code, ok = parseSoloFlag(you.Other().String(), variant, "play", stderr); !ok {
			return code
		}
	}
	aiSide, aiPlayer := engine.NoSide, ai.Player(nil)
	if aiMode.on {
		if aiSide, aiPlayer, code, ok = parseAIFlags(you.Other(), *levelFlag, stderr); !ok {
			return code
		}
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
		aiSide: aiSide, ai: aiPlayer, aiLevel: ai.Level(*levelFlag),
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

// parsePlaySide checks how --solo, --ai, --side and --level go together
// and returns the side the player plays (NoSide: hot-seat).
func parsePlaySide(solo, withAI bool, side string, levelSet bool, stderr io.Writer) (engine.Side, int, bool) {
	switch {
	case solo && withAI:
		return engine.NoSide, usageError(stderr, "play", "--ai and --solo cannot be combined"), false
	case levelSet && !withAI:
		return engine.NoSide, usageError(stderr, "play", "--level sets the AI opponent's strength: add --ai --side commune|versailles"), false
	case !solo && !withAI:
		if side != "" {
			return engine.NoSide, usageError(stderr, "play", "--side names the side you play against --solo or --ai; without them two players share the keyboard and play both sides"), false
		}
		return engine.NoSide, 0, true
	case side == "":
		mode := "--solo"
		if withAI {
			mode = "--ai"
		}
		return engine.NoSide, usageError(stderr, "play", mode+" needs --side commune or --side versailles: the side you play"), false
	}
	s, err := engine.ParseSide(strings.ToLower(side))
	if err != nil {
		return engine.NoSide, usageError(stderr, "play", "--side: "+err.Error()), false
	}
	return s, 0, true
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
	ai      ai.Player
	aiSide  engine.Side
	aiLevel ai.Level // also the search of the player's hints

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
	c, why, err := soloChooser(p.g, pr)
	if err != nil {
		return err
	}
	text := p.pr.Choice(p.g, pr, c)
	apply := func() error { return p.g.Apply(pr.Side, c) }
	if why != nil {
		apply = func() error { return p.g.ApplyWithWhy(pr.Side, c, *why) }
	}
	if err := apply(); err != nil {
		return fmt.Errorf("its choice %q was refused: %w", p.g.ChoiceText(pr, c), err)
	}
	if why == nil {
		// Without an explanation (a stand-in opponent), say what it chose;
		// an explanation says it in the log, with why.
		fmt.Fprintln(p.out, p.m("play.bot-move", aSide("Side", pr.Side), aText("Text", text)))
	}
	p.showLog(p.bot.Other())
	p.boardStale = true
	return nil
}
