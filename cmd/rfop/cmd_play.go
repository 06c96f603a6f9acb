package main

// rfop play: a whole game in the terminal, hot-seat for two players or
// against the solo opponent, driven by the engine's prompts.

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/rfop/rfop/engine"
	"github.com/rfop/rfop/glossary"
)

func init() {
	register(&command{
		name:    "play",
		summary: "play a game in the terminal: two players at one keyboard, or against the solo opponent",
		run:     runPlay,
	})
}

// boardWriter draws a view of the board to a PNG file.
type boardWriter interface {
	WriteBoard(path string, v engine.View, caption string) error
}

// newBoardWriter makes the board renderer for lang's game terms; nil while
// package render is not wired in, in which case play shows the board as
// text only.
var newBoardWriter func(lang glossary.Lang) (boardWriter, error)

// soloChooser answers a prompt addressed to the solo opponent (p.Side ==
// g.S.BotSide) with one of p.Choices and the explanation that goes into
// the log (which decision-table rows decided it). nil until package solo
// is wired in; --solo then fails with "solo opponent not available yet".
var soloChooser func(g *engine.Game, p engine.Prompt) (engine.Choice, string, error)

const playUsage = `Usage: rfop play [--solo commune|versailles] [--variant censorship] [--lang en|fr|ru] [--seed S] [--board-dir DIR]

Red Flag Over Paris, 1871: Versailles (the government, blue) against the Paris
Commune (red), over three rounds and a Final Crisis. Each round both players
get Strategy cards and play three of them, alternately, each one for its
event or for operations points that place your cubes on the map (or remove
the opponent's). Controlling spaces wins Political VP (Institutional and
Public Opinion spaces) and Military VP (Forts and Paris spaces); each round
also scores a secret objective card per player. The VP markers are shared:
+2 Political for the Commune is -2 for Versailles.
  Versailles wins if its Military VP (0 or more) exceed the Commune's Political VP.
  The Commune wins if its Political VP (0 or more) exceed Versailles' Military VP.
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
the other.

Flags:
`

func runPlay(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("play", flag.ContinueOnError)
	soloFlag := fs.String("solo", "", "play against the solo opponent, which plays this side (commune or versailles)")
	variantFlag := fs.String("variant", "standard", "rules variant: standard or censorship (5-card hands and a Censorship Phase)")
	seed := fs.Int64("seed", 0, "seed for the shuffles (0: pick one at random and print it)")
	boardDir := fs.String("board-dir", "", "directory for the board picture board.png, redrawn before each question (default: a new temporary directory)")
	langFlag := fs.String("lang", "en", "game terms (spaces, tracks, zones) as printed in the English (en), French (fr) or Russian (ru) edition")
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
	lang, err := glossary.ParseLang(*langFlag)
	if err != nil {
		return usageError(stderr, "play", "--lang: "+err.Error())
	}
	if lang != glossary.English {
		stdout = termsWriter{w: stdout, t: glossary.ForDeck(lang, nil)}
	}
	if *seed == 0 {
		*seed = int64(randomSeed())
	}
	g, err := engine.New(engine.Options{Seed: *seed, Variant: variant, BotSide: bot})
	if err != nil {
		fmt.Fprintf(stderr, "play: %v\n", err)
		return 1
	}
	sc := bufio.NewScanner(stdin)
	sc.Buffer(make([]byte, 4096), 1<<16)
	p := &playSession{g: g, in: sc, out: stdout, errOut: stderr, bot: bot, keyboard: engine.NoSide, boardDir: *boardDir, lang: lang,
		screen: bot == engine.NoSide && isTerminal(stdin, stdout)}
	fmt.Fprintf(stdout, "Red Flag Over Paris — %s variant, seed %d (replay this deal with --seed %d).\n", variant, *seed, *seed)
	if bot != engine.NoSide {
		fmt.Fprintf(stdout, "You play %s; the solo opponent plays %s.\n", bot.Other(), bot)
	} else {
		fmt.Fprintln(stdout, "Hot-seat: two players share this keyboard; the one not named at the prompt looks away.")
	}
	fmt.Fprintln(stdout, "Type h for help at any prompt.")
	p.setupBoard()
	return p.loop()
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
	seenBy [2]int        // log seq at which each side last left the keyboard
	lang   glossary.Lang // game terms of this edition (the board picture; out translates text)
}

// termsWriter shows the game terms of an edition (--lang) in everything
// play prints: each write is one formatted message, so no term is split.
type termsWriter struct {
	w io.Writer
	t *glossary.Terms
}

func (t termsWriter) Write(b []byte) (int, error) {
	if _, err := io.WriteString(t.w, t.t.Text(string(b))); err != nil {
		return 0, err
	}
	return len(b), nil
}

// clearScreen clears an ANSI terminal and its scroll-back.
const clearScreen = "\033[H\033[2J\033[3J"

// isTerminal reports whether play talks to a person at a terminal (a
// variable so tests can pretend).
var isTerminal = func(in io.Reader, out io.Writer) bool {
	return charDevice(in) && charDevice(out)
}

func charDevice(x any) bool {
	f, ok := x.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

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
	fmt.Fprintln(p.out, "════════ GAME OVER ════════")
	fmt.Fprintln(p.out, r.Summary)
	fmt.Fprintf(p.out, "Final score: %s. Reason: %s.\n", vpText(g.S.VP), r.Reason)
	if p.bot != engine.NoSide {
		if r.Winner == p.bot {
			fmt.Fprintln(p.out, "The solo opponent wins this time.")
		} else {
			fmt.Fprintln(p.out, "You win!")
		}
	}
	return 0
}

func (p *playSession) botMove(pr engine.Prompt) error {
	c, note, err := soloChooser(p.g, pr)
	if err != nil {
		return err
	}
	text := p.g.ChoiceText(pr, c)
	if err := p.g.ApplyWithNote(pr.Side, c, note); err != nil {
		return fmt.Errorf("its choice %q was refused: %w", text, err)
	}
	fmt.Fprintf(p.out, "Solo opponent (%s): %s\n", pr.Side, text)
	p.showLog(p.bot.Other())
	p.boardStale = true
	return nil
}

// humanMove asks the side of pr until it makes a choice (or undoes one).
func (p *playSession) humanMove(pr engine.Prompt) error {
	g := p.g
	side := pr.Side
	if p.keyboard != side {
		if p.bot == engine.NoSide {
			if err := p.handOver(side); err != nil {
				return err
			}
		}
		p.keyboard = side
	}
	p.showPrivate(side)
	p.writeBoard()
	fmt.Fprintln(p.out)
	fmt.Fprintln(p.out, p.statusLine(side))
	fmt.Fprintf(p.out, "%s — %s\n", side, g.PromptText(pr))
	p.printChoices(pr)
	for {
		fmt.Fprintf(p.out, "%s [1-%d, h help]> ", side, len(pr.Choices))
		line, err := p.readLine()
		if err != nil {
			return err
		}
		if n, err := strconv.Atoi(line); err == nil {
			if n < 1 || n > len(pr.Choices) {
				fmt.Fprintf(p.out, "No choice %d: type a number from 1 to %d.\n", n, len(pr.Choices))
				continue
			}
			c := pr.Choices[n-1]
			text := g.ChoiceText(pr, c)
			if err := g.Apply(side, c); err != nil {
				// Only if the engine and this loop disagree; the prompt is re-read.
				fmt.Fprintf(p.out, "The game refused that choice: %v\n", err)
				return nil
			}
			fmt.Fprintf(p.out, "%s: %s\n", side, text)
			p.showLog(side)
			p.boardStale = true
			return nil
		}
		switch playCommand(line) {
		case "":
			continue
		case "h":
			p.help()
		case "s":
			p.showBoard(side)
		case "c":
			p.showCards(side)
		case "l":
			p.recentLog(side, 15)
		case "p":
			fmt.Fprintf(p.out, "%s — %s\n", side, g.PromptText(pr))
			p.printChoices(pr)
		case "u":
			who := side
			if !g.CanUndo(who) && p.bot == engine.NoSide && g.CanUndo(side.Other()) {
				who = side.Other() // hot-seat: the other player's misplay, before anything was revealed
			}
			if !g.CanUndo(who) {
				fmt.Fprintln(p.out, "Nothing to undo: a choice can be taken back only until a card is revealed or the opponent decides.")
				continue
			}
			if err := g.Undo(who); err != nil {
				fmt.Fprintf(p.out, "Undo failed: %v\n", err)
				continue
			}
			fmt.Fprintf(p.out, "%s takes back its last choice.\n", who)
			p.afterUndo()
			return nil
		case "q":
			fmt.Fprint(p.out, "Quit this game? It cannot be resumed. (y/n)> ")
			if !p.in.Scan() {
				fmt.Fprintln(p.out)
				fmt.Fprintln(p.out, "End of input: game abandoned without a result.")
				return errQuit
			}
			if a := strings.ToLower(strings.TrimSpace(p.in.Text())); a == "y" || a == "yes" {
				fmt.Fprintln(p.out, "Game abandoned without a result.")
				return errQuit
			}
			fmt.Fprintln(p.out, "Carrying on.")
		default:
			fmt.Fprintf(p.out, "%q is not a choice or a command: type a number from 1 to %d, or h for help.\n", line, len(pr.Choices))
		}
	}
}

// playCommands maps what a player may type at a prompt, the letter the
// help text gives or the word, to the letter.
var playCommands = map[string]string{
	"h": "h", "?": "h", "help": "h",
	"s": "s", "board": "s", "score": "s",
	"c": "c", "cards": "c", "hand": "c",
	"l": "l", "log": "l",
	"p": "p", "prompt": "p",
	"u": "u", "undo": "u",
	"q": "q", "quit": "q", "exit": "q",
}

// playCommand returns the command letter for an input line that is not a
// number, "" for a blank line and "?!" for anything unknown.
func playCommand(line string) string {
	line = strings.ToLower(strings.TrimSpace(line))
	if line == "" {
		return ""
	}
	if c, ok := playCommands[line]; ok {
		return c
	}
	return "?!"
}

func (p *playSession) printChoices(pr engine.Prompt) {
	for i, c := range pr.Choices {
		fmt.Fprintf(p.out, "  %2d) %s\n", i+1, p.g.ChoiceText(pr, c))
	}
	if pr.CanUndo {
		fmt.Fprintln(p.out, "   (u: take back your last choice)")
	}
}

func (p *playSession) help() {
	fmt.Fprint(p.out, strings.TrimSuffix(strings.SplitN(playUsage, "\n\n", 2)[1], "Flags:\n"))
	fmt.Fprintln(p.out, "More commands: p/prompt show the current question again.")
}

// lastSeq is the sequence number of the newest log line.
func (p *playSession) lastSeq() int {
	l := p.g.S.Log
	if len(l) == 0 {
		return 0
	}
	return l[len(l)-1].Seq
}

// showLog prints the log lines new since the last call: public lines, and
// lines private to atKeyboard (the side that has just decided). Lines
// private to the other side wait until it comes to the keyboard.
func (p *playSession) showLog(atKeyboard engine.Side) {
	from := p.shown
	if atKeyboard != engine.NoSide && p.privShown[atKeyboard] < from {
		from = p.privShown[atKeyboard]
	}
	for _, e := range p.g.LogSince(from, atKeyboard) {
		switch {
		case e.To == engine.NoSide && e.Seq > p.shown:
			fmt.Fprintf(p.out, "  · %s\n", e.Text)
		case e.To != engine.NoSide && e.Seq > p.privShown[e.To]:
			fmt.Fprintf(p.out, "  · [private to %s] %s\n", e.To, e.Text)
		}
	}
	p.shown = p.lastSeq()
	if atKeyboard != engine.NoSide {
		p.privShown[atKeyboard] = p.shown
	}
}

// readLine reads one trimmed line; at the end of input the game is over
// without a result (errQuit).
func (p *playSession) readLine() (string, error) {
	if !p.in.Scan() {
		if err := p.in.Err(); err != nil {
			return "", fmt.Errorf("reading input: %w", err)
		}
		fmt.Fprintln(p.out)
		fmt.Fprintln(p.out, "End of input: game abandoned without a result.")
		return "", errQuit
	}
	return strings.TrimSpace(p.in.Text()), nil
}

// handOver passes the keyboard to side in hot-seat play. On a terminal it
// clears the screen, waits for Enter, and repeats what the opponent did
// since side last played (it was printed before the clear).
func (p *playSession) handOver(side engine.Side) error {
	if prev := p.keyboard; prev == engine.Versailles || prev == engine.Commune {
		p.seenBy[prev] = p.lastSeq()
	}
	if !p.screen {
		fmt.Fprintf(p.out, "\n──────── %s at the keyboard (%s: look away) ────────\n", side, side.Other())
		return nil
	}
	fmt.Fprint(p.out, clearScreen)
	fmt.Fprintf(p.out, "──────── %s to the keyboard ────────\n%s: look away. %s: press Enter when ready.", side, side.Other(), side)
	if _, err := p.readLine(); err != nil {
		return err
	}
	fmt.Fprint(p.out, clearScreen)
	fmt.Fprintf(p.out, "%s at the keyboard.\n", side)
	var lines []string
	for _, e := range p.g.LogSince(p.seenBy[side], engine.NoSide) {
		lines = append(lines, "  · "+e.Text)
	}
	if len(lines) > 0 {
		fmt.Fprintln(p.out, "Since your last decision:")
		fmt.Fprintln(p.out, strings.Join(lines, "\n"))
	}
	return nil
}

// showPrivate prints private lines for side not shown yet.
func (p *playSession) showPrivate(side engine.Side) {
	for _, e := range p.g.LogSince(p.privShown[side], side) {
		if e.To == side {
			fmt.Fprintf(p.out, "  · [private to %s] %s\n", side, e.Text)
		}
	}
	p.privShown[side] = p.lastSeq()
}

// afterUndo: an undo rewinds the log; what was printed stays printed.
func (p *playSession) afterUndo() {
	n := p.lastSeq()
	p.shown = n
	for i := range p.privShown {
		if p.privShown[i] > n {
			p.privShown[i] = n
		}
	}
	p.boardStale = true
}

func (p *playSession) recentLog(side engine.Side, n int) {
	lines := p.g.LogSince(0, side)
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	fmt.Fprintf(p.out, "Last %d log lines (as %s sees them):\n", len(lines), side)
	for _, e := range lines {
		prefix := ""
		if e.To != engine.NoSide {
			prefix = "[private to " + e.To.String() + "] "
		}
		fmt.Fprintf(p.out, "  %s%s\n", prefix, e.Text)
	}
}

func vpText(vp [2]int8) string {
	f := func(name string, n int8) string {
		switch {
		case n > 0:
			return fmt.Sprintf("%s VP: Versailles %d", name, n)
		case n < 0:
			return fmt.Sprintf("%s VP: Commune %d", name, -n)
		}
		return name + " VP: 0"
	}
	return f("Political", vp[0]) + ", " + f("Military", vp[1])
}

func roundName(r int8) string {
	if r >= 4 {
		return "Final Crisis"
	}
	return fmt.Sprintf("Round %d", r)
}

func (p *playSession) statusLine(side engine.Side) string {
	s := &p.g.S
	return fmt.Sprintf("[%s · %s · momentum: Prussian %d/3, Revolutionary %d/3 · %s has %d card(s) in hand]",
		roundName(s.Round), vpText(s.VP), s.Momentum[engine.Versailles], s.Momentum[engine.Commune], side, len(s.Hand[side]))
}

// showBoard prints the board as side sees it.
func (p *playSession) showBoard(side engine.Side) {
	v := p.g.ViewFor(side)
	w := p.out
	fmt.Fprintf(w, "%s. %s. Initiative: %s.\n", roundName(v.Round), vpText(v.VP), v.Initiative)
	fmt.Fprintf(w, "Momentum: %s %d/3 (Versailles), %s %d/3 (Commune).\n",
		engine.MomentumTrackName(engine.Versailles), v.Momentum[engine.Versailles],
		engine.MomentumTrackName(engine.Commune), v.Momentum[engine.Commune])
	fmt.Fprintf(w, "  %-30s %10s %8s  %s\n", "Space", "Versailles", "Commune", "controlled by")
	dim := engine.Dimension(-1)
	for x := engine.Space(0); x < engine.NumMapSpaces; x++ {
		in := x.Info()
		if in.Dim != dim {
			dim = in.Dim
			fmt.Fprintf(w, " %s (%s):\n", dim, dim.Sphere())
		}
		name := in.Name
		if in.Pivotal {
			name += " (pivotal)"
		}
		vs, cs := fmt.Sprint(v.Cubes[engine.Versailles][x]), fmt.Sprint(v.Cubes[engine.Commune][x])
		switch v.Disc[x] {
		case engine.Versailles:
			vs += "+fort"
		case engine.Commune:
			cs += "+barr"
		}
		if in.Permanent == engine.Versailles {
			vs += "*"
		} else if in.Permanent == engine.Commune {
			cs += "*"
		}
		ctrl := "-"
		if c := v.Controller(x); c != engine.NoSide {
			ctrl = c.String()
		}
		fmt.Fprintf(w, "  %-30s %10s %8s  %s\n", name, vs, cs, ctrl)
	}
	fmt.Fprintln(w, "  (* always present there; fort/barr: Fortification/Barricade disc)")
	for _, s := range []engine.Side{engine.Versailles, engine.Commune} {
		var zones []string
		for z := 0; z < engine.NumZones; z++ {
			b := ""
			if v.Breached[s][z] {
				b = ", breached"
			}
			zones = append(zones, fmt.Sprintf("%s %d%s", engine.ZoneName(z), v.Track[s][z], b))
		}
		pool := fmt.Sprintf("pool %d", v.Pool[s])
		if s == engine.Commune {
			pool += fmt.Sprintf("/%d", v.PoolCap)
		}
		fmt.Fprintf(w, "%s cubes: %s; Crisis Track: %s; removed from play %d.\n", s, pool, strings.Join(zones, ", "), v.OutOfPlay[s])
	}
	top := "empty"
	if n := len(v.Discard); n > 0 {
		top = p.cardName(int(v.Discard[n-1].Card))
	}
	fmt.Fprintf(w, "Deck %d card(s); discard pile %d (top: %s). Hands: Versailles %d, Commune %d.\n",
		v.DeckSize, len(v.Discard), top, v.HandSize[engine.Versailles], v.HandSize[engine.Commune])
	p.showHandLine(w, v)
}

func (p *playSession) showHandLine(w io.Writer, v engine.View) {
	var names []string
	for _, c := range v.Hand {
		names = append(names, p.cardName(int(c)))
	}
	if len(names) == 0 {
		names = []string{"no cards"}
	}
	fmt.Fprintf(w, "Your hand (%s): %s.\n", v.Viewer, strings.Join(names, "; "))
	if o := v.Objective[v.Viewer]; o > 0 {
		fmt.Fprintf(w, "Your objective: %s.\n", p.cardName(int(o)))
	}
}

// showCards prints side's cards with their texts.
func (p *playSession) showCards(side engine.Side) {
	v := p.g.ViewFor(side)
	d := p.g.Deck()
	show := func(title string, cards []int8) {
		if len(cards) == 0 {
			return
		}
		fmt.Fprintf(p.out, "%s:\n", title)
		for _, n := range cards {
			c := d.Card(int(n))
			if c == nil {
				continue
			}
			if c.Kind == engine.ObjectiveCard {
				fmt.Fprintf(p.out, "  #%d %s — objective: control %s; event: %s\n", c.Num, c.Name, c.Space, c.Text)
				continue
			}
			fmt.Fprintf(p.out, "  #%d %s — %s card, %d OP: %s\n", c.Num, c.Name, c.Colour(), c.OP, c.Text)
		}
	}
	show("Your hand", v.Hand)
	show("Set aside for the Final Crisis", v.SetAside)
	show("Objectives offered to you", v.ObjOffer)
	if o := v.Objective[side]; o > 0 {
		show("Your objective this round", []int8{o})
	}
	if other := side.Other(); v.Objective[other] > 0 {
		show(other.String()+"'s objective", []int8{v.Objective[other]})
	}
	if len(v.Hand) == 0 && len(v.SetAside) == 0 && len(v.ObjOffer) == 0 {
		fmt.Fprintln(p.out, "You hold no cards right now.")
	}
}

func (p *playSession) cardName(n int) string {
	if c := p.g.Deck().Card(n); c != nil {
		return fmt.Sprintf("#%d %s", n, c.Name)
	}
	return fmt.Sprintf("#%d", n)
}

// setupBoard makes the board writer, or notes once that there is none.
func (p *playSession) setupBoard() {
	if newBoardWriter == nil {
		fmt.Fprintln(p.out, "(Board pictures are not available in this build: type s to see the board as text.)")
		return
	}
	bw, err := newBoardWriter(p.lang)
	if err != nil {
		fmt.Fprintf(p.out, "(No board pictures: %v. Type s to see the board as text.)\n", err)
		return
	}
	if p.boardDir == "" {
		dir, err := os.MkdirTemp("", "rfop-board-")
		if err != nil {
			fmt.Fprintf(p.out, "(No board pictures: %v. Type s to see the board as text.)\n", err)
			return
		}
		p.boardDir = dir
	} else if err := os.MkdirAll(p.boardDir, 0o755); err != nil {
		fmt.Fprintf(p.out, "(No board pictures: %v. Type s to see the board as text.)\n", err)
		return
	}
	p.board = bw
	p.boardStale = true
}

// writeBoard draws the board, if decisions were made since the last
// picture, from the spectator's view (nothing private: the picture stays on
// screen when the keyboard changes hands) and prints its path. It is
// called before each question to a player and at the end of the game, so
// a run of solo-opponent decisions makes one picture.
func (p *playSession) writeBoard() {
	if p.board == nil || !p.boardStale {
		return
	}
	p.boardStale = false
	v := p.g.ViewFor(engine.NoSide)
	caption := roundName(v.Round)
	if n := len(v.Log); n > 0 {
		caption += " — " + v.Log[n-1].Text
	}
	path := filepath.Join(p.boardDir, "board.png")
	if err := p.board.WriteBoard(path, v, caption); err != nil {
		fmt.Fprintf(p.out, "(Board picture failed: %v. No more pictures; type s for the board as text.)\n", err)
		p.board = nil
		return
	}
	fmt.Fprintf(p.out, "Board: %s\n", path)
}
