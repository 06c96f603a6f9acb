package main

import (
	"os"

	"github.com/rfop/rfop/bot"
	"github.com/rfop/rfop/engine"
	"github.com/rfop/rfop/render"
)

// The renderer plugs into the bot and into terminal play here, so that
// neither package depends on the other.

func init() {
	botPictures = func() (bot.Pictures, error) {
		r, err := render.New(nil)
		if err != nil {
			return nil, err
		}
		return pictures{r}, nil
	}
	newBoardWriter = func() (boardWriter, error) {
		r, err := render.New(nil)
		if err != nil {
			return nil, err
		}
		return &fileBoard{r: r}, nil
	}
}

// pictures adapts *render.Renderer to bot.Pictures.
type pictures struct{ r *render.Renderer }

func (p pictures) Board(v engine.View, prev *engine.View, caption string) ([]byte, error) {
	return p.r.RenderBoard(&v, prev, caption)
}
func (p pictures) Hand(cards, objectives []int) ([]byte, error) {
	return p.r.RenderHand(cards, objectives)
}
func (p pictures) Card(num int) ([]byte, error) { return p.r.RenderCard(num) }

// fileBoard writes each board to a file, highlighting what changed since
// the previous one.
type fileBoard struct {
	r    *render.Renderer
	prev *engine.View
}

func (b *fileBoard) WriteBoard(path string, v engine.View, caption string) error {
	png, err := b.r.RenderBoard(&v, b.prev, caption)
	if err != nil {
		return err
	}
	b.prev = &v
	return os.WriteFile(path, png, 0o644)
}
