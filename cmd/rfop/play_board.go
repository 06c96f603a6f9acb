package main

// The board picture of rfop play: a PNG redrawn before each question.

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/rfop/rfop/engine"
	"github.com/rfop/rfop/glossary"
)

// boardWriter draws a view of the board to a PNG file, with the caption
// the renderer writes for it (the round, the latest play, who decides; a
// line that names the round itself is not prefixed with it again).
type boardWriter interface {
	WriteBoard(path string, v engine.View) error
}

// newBoardWriter makes the board renderer for lang's game terms and the
// game's deck; nil while package render is not wired in, in which case
// play shows the board as text only.
var newBoardWriter func(lang glossary.Lang, deck *engine.Deck) (boardWriter, error)

// setupBoard makes the board writer, or notes once that there is none.
func (p *playSession) setupBoard() {
	if newBoardWriter == nil {
		fmt.Fprintln(p.out, p.m("play.no-pictures-build"))
		return
	}
	bw, err := newBoardWriter(p.lang, p.g.Deck())
	if err != nil {
		fmt.Fprintln(p.out, p.m("play.no-pictures", aText("Err", err.Error())))
		return
	}
	if p.boardDir == "" {
		dir, err := os.MkdirTemp("", "rfop-board-")
		if err != nil {
			fmt.Fprintln(p.out, p.m("play.no-pictures", aText("Err", err.Error())))
			return
		}
		p.boardDir = dir
	} else if err := os.MkdirAll(p.boardDir, 0o755); err != nil {
		fmt.Fprintln(p.out, p.m("play.no-pictures", aText("Err", err.Error())))
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
	path := filepath.Join(p.boardDir, "board.png")
	if err := p.board.WriteBoard(path, v); err != nil {
		fmt.Fprintln(p.out, p.m("play.picture-failed", aText("Err", err.Error())))
		p.board = nil
		return
	}
	fmt.Fprintln(p.out, p.m("play.board-path", aText("Path", path)))
}
