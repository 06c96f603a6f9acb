package render

import (
	"image"

	"github.com/rfop/rfop/engine"
)

// Board picture size.
const (
	BoardWidth  = 1600
	BoardHeight = 1000
)

// Space boxes.
const (
	spaceW   = 176
	spaceH   = 188
	hqW      = 96
	hqH      = 140
	headerH  = 44 // dimension-coloured name strip
	bannerH  = 34 // control banner at the bottom of a space
	tokenSz  = 64 // cube token
	tokenTop = 52 // token offset from the top of the space
	discRowY = 122
	// Rows of the map.
	row1Y = 262
	row2Y = 520
)

var (
	captionRect  = image.Rect(0, 0, BoardWidth, 46)
	trackRect    = [2]image.Rectangle{image.Rect(8, 52, 796, 200), image.Rect(804, 52, 1592, 200)}
	politicRect  = image.Rect(8, 208, 664, 748)
	militaryRect = image.Rect(672, 208, 1592, 748)
	sidePanel    = [2]image.Rectangle{image.Rect(8, 756, 520, 994), image.Rect(1080, 756, 1592, 994)}
	middlePanel  = image.Rect(528, 756, 1072, 994)
)

// spaceRects are the boxes of the 14 spaces (12 map spaces, HQ, POT).
var spaceRects = func() [engine.NumSpaces]image.Rectangle {
	var r [engine.NumSpaces]image.Rectangle
	box := func(x, y int) image.Rectangle { return image.Rect(x, y, x+spaceW, y+spaceH) }
	pc := [3]int{24, 248, 472}    // political columns
	mc := [3]int{824, 1044, 1264} // military columns
	r[engine.Royalists] = box(pc[0], row1Y)
	r[engine.NationalAssembly] = box(pc[1], row1Y)
	r[engine.Republicans] = box(pc[2], row1Y)
	r[engine.CatholicChurch] = box(pc[0], row2Y)
	r[engine.Press] = box(pc[1], row2Y)
	r[engine.SocialMovements] = box(pc[2], row2Y)
	r[engine.MontValerien] = box(mc[0], row1Y)
	r[engine.ButteMontmartre] = box(mc[1], row1Y)
	r[engine.PereLachaise] = box(mc[2], row1Y)
	r[engine.FortIssy] = box(mc[0], row2Y)
	r[engine.ButteAuxCailles] = box(mc[1], row2Y)
	r[engine.ChateauVincennes] = box(mc[2], row2Y)
	midY := (row1Y+spaceH+row2Y)/2 - hqH/2
	r[engine.VersaillesHQ] = image.Rect(686, midY, 686+hqW, midY+hqH)
	r[engine.PrussianTerritory] = image.Rect(1482, midY, 1482+hqW, midY+hqH)
	return r
}()

// SpaceRect returns the box in which space x (map spaces, Versailles HQ and
// the Prussian Occupied Territory) is drawn on the board picture. Everything
// the board says about that space (cubes, disc, control) lies inside it.
func SpaceRect(x engine.Space) image.Rectangle {
	if x < 0 || x >= engine.NumSpaces {
		return image.Rectangle{}
	}
	return spaceRects[x]
}

// tokenRect is where side's cube token sits in map space x.
func tokenRect(x engine.Space, side engine.Side) image.Rectangle {
	b := spaceRects[x]
	dx := 14
	if side == engine.Commune {
		dx = spaceW - 14 - tokenSz
	}
	return image.Rect(b.Min.X+dx, b.Min.Y+tokenTop, b.Min.X+dx+tokenSz, b.Min.Y+tokenTop+tokenSz)
}

// Crisis Track zones: zone z of side s. Zones run from the centre of the
// board outward, as on the printed board.
const (
	zoneW     = 191
	zoneGap   = 8
	zoneTop   = 76
	zoneH     = 122
	zoneTitle = 26
)

func zoneRect(s engine.Side, z int) image.Rectangle {
	var x int
	if s == engine.Versailles {
		x = trackRect[0].Max.X - (z+1)*zoneW - z*zoneGap
	} else {
		x = trackRect[1].Min.X + z*(zoneW+zoneGap)
	}
	return image.Rect(x, zoneTop, x+zoneW, zoneTop+zoneH)
}

// Printed capacities (map.md "Crisis Tracks"): the slots drawn in each zone.
// A zone never shows fewer slots than the cubes it holds.
var (
	trackSlots = [2][engine.NumZones]int{{1, 2, 1, 2}, {3, 2, 2, 2}}
	bonusSlots = [2][engine.NumZones]int{{0, 1, 1, 2}, {0, 2, 2, 2}}
	// Cubes under Prussian Collaboration 1, 2, 3 (assumed 2 each).
	prussianSlots = 2
)

// Momentum tracks (in the side panels).
const (
	sideBarH = 34
	momCellW = 76
	momCellH = 42
)

func momCell(s engine.Side, level int) image.Rectangle {
	p := sidePanel[s]
	x := p.Min.X + 150 + level*(momCellW+6)
	y := p.Min.Y + 72
	return image.Rect(x, y, x+momCellW, y+momCellH)
}

// poolRect is the pool box of a side panel.
func poolRect(s engine.Side) image.Rectangle {
	p := sidePanel[s]
	return image.Rect(p.Min.X+12, p.Min.Y+44, p.Min.X+134, p.Min.Y+160)
}

// VP tracks in the middle panel.
const (
	vpCellW = 36
	vpCellH = 40
)

func vpCell(kind engine.Sphere, v int) image.Rectangle {
	// Versailles (+5) on the left, like every other blue thing on the board.
	x := middlePanel.Min.X + 132 + (5-v)*(vpCellW+1)
	y := middlePanel.Min.Y + 14 + int(kind)*58
	return image.Rect(x, y, x+vpCellW, y+vpCellH)
}

func roundCell(r int) image.Rectangle {
	// r: 1, 2, 3, 4 (Final Crisis)
	x := middlePanel.Min.X + 132 + (r-1)*62
	w := 56
	if r == 4 {
		w = 190 // "Решительный бой", "Crise Finale" at a readable size
	}
	y := middlePanel.Min.Y + 134
	return image.Rect(x, y, x+w, y+40)
}
