package main

// The terminal side of rfop play: reading a player's answer or command,
// hot-seat hand-over between the two players, and the edition's terms in
// everything printed.

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/rfop/rfop/engine"
	"github.com/rfop/rfop/glossary"
)

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
func (p *playSession) help() {
	fmt.Fprint(p.out, strings.TrimSuffix(strings.SplitN(playUsage, "\n\n", 2)[1], "Flags:\n"))
	fmt.Fprintln(p.out, "More commands: p/prompt show the current question again.")
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
