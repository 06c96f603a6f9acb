package render

import (
	"image/color"

	"github.com/rfop/rfop/engine"
)

// A small, flat palette: few distinct colours keep the PNG small and the
// board legible on a phone. Side colours follow the game (Versailles blue,
// Commune red, neutral grey); dimension colours follow the printed board.
var (
	colBackground = rgb(0xF2, 0xEE, 0xE4)
	colPanel      = rgb(0xE4, 0xDE, 0xD0)
	colPanelEdge  = rgb(0xB8, 0xAF, 0x9C)
	colInk        = rgb(0x22, 0x22, 0x22)
	colInkSoft    = rgb(0x5C, 0x58, 0x52)
	colFaint      = rgb(0xA8, 0xA2, 0x96)
	colWhite      = rgb(0xFF, 0xFF, 0xFF)
	colBody       = rgb(0xFB, 0xF9, 0xF4)
	colCaption    = rgb(0x26, 0x26, 0x26)
	colLink       = rgb(0x4A, 0x46, 0x40)
	colNoCtrl     = rgb(0xD6, 0xD1, 0xC6)
	colChanged    = rgb(0xFF, 0xC4, 0x00)
	colStar       = rgb(0xF5, 0xB8, 0x00)
	colClosed     = rgb(0xB9, 0xB3, 0xA8)

	colVersailles      = rgb(0x1F, 0x4F, 0xB0)
	colVersaillesDark  = rgb(0x14, 0x34, 0x78)
	colVersaillesLight = rgb(0xD3, 0xE0, 0xF8)
	colCommune         = rgb(0xC4, 0x22, 0x2A)
	colCommuneDark     = rgb(0x82, 0x14, 0x1A)
	colCommuneLight    = rgb(0xF8, 0xD6, 0xD6)
	colNeutral         = rgb(0x6E, 0x6E, 0x6E)
	colNeutralLight    = rgb(0xE6, 0xE6, 0xE6)

	colPoliticalVP = rgb(0xE8, 0x7A, 0x00) // orange marker
	colMilitaryVP  = rgb(0x7B, 0x3F, 0xA0) // purple marker
	colBadge       = rgb(0xF0, 0xA8, 0x00)
)

// dimension colours, indexed by engine.Dimension
// (Institutional, PublicOpinion, Forts, Paris).
var (
	colDim = [engine.NumDimensions]color.RGBA{
		rgb(0x2E, 0x8B, 0x3E), // green
		rgb(0xD8, 0x6A, 0x00), // orange
		rgb(0x0F, 0x86, 0x8A), // teal
		rgb(0x7B, 0x3F, 0xA0), // purple
	}
	colDimDark = [engine.NumDimensions]color.RGBA{
		rgb(0x1B, 0x5A, 0x27),
		rgb(0x8F, 0x45, 0x00),
		rgb(0x08, 0x57, 0x5A),
		rgb(0x4E, 0x25, 0x68),
	}
)

func rgb(r, g, b uint8) color.RGBA { return color.RGBA{r, g, b, 0xFF} }

func sideCol(s engine.Side) color.RGBA {
	switch s {
	case engine.Versailles:
		return colVersailles
	case engine.Commune:
		return colCommune
	}
	return colNeutral
}

func sideDark(s engine.Side) color.RGBA {
	switch s {
	case engine.Versailles:
		return colVersaillesDark
	case engine.Commune:
		return colCommuneDark
	}
	return colInk
}

func sideLight(s engine.Side) color.RGBA {
	switch s {
	case engine.Versailles:
		return colVersaillesLight
	case engine.Commune:
		return colCommuneLight
	}
	return colNeutralLight
}

// mixCol returns t of a and 1-t of b.
func mixCol(a, b color.RGBA, t float64) color.RGBA {
	m := func(x, y uint8) uint8 { return uint8(float64(x)*t + float64(y)*(1-t) + 0.5) }
	return color.RGBA{m(a.R, b.R), m(a.G, b.G), m(a.B, b.B), 0xFF}
}
