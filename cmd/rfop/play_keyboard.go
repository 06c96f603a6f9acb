package main

// The terminal side of rfop play: reading a player's answer or command,
// and the hot-seat hand-over between the two players.

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/rfop/rfop/engine"
)

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
		if p.bot == engine.NoSide && p.ai == nil {
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
	fmt.Fprintf(p.out, "%s — %s\n", p.pr.Term(side.String()), p.pr.Prompt(g, pr))
	p.printChoices(pr)
	for {
		fmt.Fprint(p.out, p.m("play.input", aSide("Side", side), aNum("N", len(pr.Choices))))
		line, err := p.readLine()
		if err != nil {
			return err
		}
		if n, err := strconv.Atoi(line); err == nil {
			if n < 1 || n > len(pr.Choices) {
				fmt.Fprintln(p.out, p.m("play.no-choice", aNum("N", n), aNum("Max", len(pr.Choices))))
				continue
			}
			c := pr.Choices[n-1]
			text := p.pr.Choice(g, pr, c)
			if err := g.Apply(side, c); err != nil {
				// Only if the engine and this loop disagree; the prompt is re-read.
				fmt.Fprintln(p.out, p.m("play.refused", aText("Err", err.Error())))
				return nil
			}
			fmt.Fprintf(p.out, "%s: %s\n", p.pr.Term(side.String()), text)
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
			fmt.Fprintf(p.out, "%s — %s\n", p.pr.Term(side.String()), p.pr.Prompt(g, pr))
			p.printChoices(pr)
		case "hint":
			p.hint(pr)
		case "u":
			who := side
			if !g.CanUndo(who) && p.bot == engine.NoSide && p.ai == nil && g.CanUndo(side.Other()) {
				who = side.Other() // hot-seat: the other player's misplay, before anything was revealed
			}
			if !g.CanUndo(who) {
				fmt.Fprintln(p.out, p.m("play.nothing-to-undo"))
				continue
			}
			if err := g.Undo(who); err != nil {
				fmt.Fprintln(p.out, p.m("play.undo-failed", aText("Err", err.Error())))
				continue
			}
			fmt.Fprintln(p.out, p.m("play.undo", aSide("Side", who)))
			p.afterUndo()
			return nil
		case "q":
			fmt.Fprint(p.out, p.m("play.quit-ask"))
			if !p.in.Scan() {
				fmt.Fprintln(p.out)
				fmt.Fprintln(p.out, p.m("play.eof"))
				return errQuit
			}
			if yes[strings.ToLower(strings.TrimSpace(p.in.Text()))] {
				fmt.Fprintln(p.out, p.m("play.abandoned"))
				return errQuit
			}
			fmt.Fprintln(p.out, p.m("play.carry-on"))
		default:
			fmt.Fprintln(p.out, p.m("play.unknown", aText("Line", strconv.Quote(line)), aNum("Max", len(pr.Choices))))
		}
	}
}

// yes: the answers that confirm quitting, in the three languages.
var yes = map[string]bool{"y": true, "yes": true, "o": true, "oui": true, "д": true, "да": true}

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
	"hint": "hint",
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
	fmt.Fprint(p.out, p.m("play.help"))
}

// readLine reads one trimmed line; at the end of input the game is over
// without a result (errQuit).
func (p *playSession) readLine() (string, error) {
	if !p.in.Scan() {
		if err := p.in.Err(); err != nil {
			return "", fmt.Errorf("reading input: %w", err)
		}
		fmt.Fprintln(p.out)
		fmt.Fprintln(p.out, p.m("play.eof"))
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
		fmt.Fprintln(p.out, p.m("play.handover-plain", aSide("Side", side), aSide("Other", side.Other())))
		return nil
	}
	fmt.Fprint(p.out, clearScreen)
	fmt.Fprint(p.out, p.m("play.handover-screen", aSide("Side", side), aSide("Other", side.Other())))
	if _, err := p.readLine(); err != nil {
		return err
	}
	fmt.Fprint(p.out, clearScreen)
	fmt.Fprintln(p.out, p.m("play.at-keyboard", aSide("Side", side)))
	var lines []string
	for _, e := range p.g.LogSince(p.seenBy[side], engine.NoSide) {
		lines = append(lines, p.m("play.log-line", aText("Text", p.logText(e))))
	}
	if len(lines) > 0 {
		fmt.Fprintln(p.out, p.m("play.since"))
		fmt.Fprintln(p.out, strings.Join(lines, "\n"))
	}
	return nil
}
