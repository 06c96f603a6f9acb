package main

import (
	"os"

	"github.com/rfop/rfop/bot"
	"github.com/rfop/rfop/engine"
	"github.com/rfop/rfop/glossary"
	"github.com/rfop/rfop/render"
)

// The renderer plugs into the bot and terminal play here.

func init() {
	botPictures = func() (bot.Pictures, error) { return bot.DefaultPictures() }
	newBoardWriter = func(lang glossary.Lang, deck *engine.Deck) (boardWriter, error) {
		r, err := render.NewFor(deck, lang)
		if err != nil {
			return nil, err
		}
		return &fileBoard{r: r}, nil
	}
}

// fileBoard writes each board to a file, highlighting what changed since
// the previous one.
type fileBoard struct {
	r    *render.Renderer
	prev *engine.View
}

func (b *fileBoard) WriteBoard(path string, v engine.View) error {
	png, err := b.r.RenderBoard(&v, b.prev, b.r.Caption(&v))
	if err != nil {
		return err
	}
	b.prev = &v
	return os.WriteFile(path, png, 0o644)
}
