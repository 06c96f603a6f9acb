package render

import (
	"image"
	"image/color"
	"image/draw"
	"strconv"
	"strings"

	"github.com/rfop/rfop/engine"
)

// The static layer: everything that does not depend on the game state,
// drawn once by New. Art that depends on a yes/no fact of the state (this
// space is controlled by Versailles, this zone is breached, this pool cell
// is open) is also drawn once, into sprites that a render blits over the
// static layer; a render then draws only pieces, markers and text.

func (r *Renderer) drawStatic() {
	fs := newFaceSet(r.fonts)
	base := image.NewRGBA(image.Rect(0, 0, BoardWidth, BoardHeight))
	p := r.painter(base, fs)
	r.drawBase(p)
	r.static = base

	// Variants drawn on copies of the base, then cut out.
	for _, side := range []engine.Side{engine.Versailles, engine.Commune} {
		layer := cloneRGBA(base)
		q := r.painter(layer, fs)
		for x := engine.Space(0); x < engine.NumMapSpaces; x++ {
			drawSpace(q, x, side)
			r.ctrl[side][x] = cut(layer, spaceSpriteRect(x))
		}
		for d := engine.Dimension(0); d < engine.NumDimensions; d++ {
			drawDimChip(q, d, side)
			r.dimCtrl[side][d] = cut(layer, dimChipRect(d))
		}
		if side == engine.Versailles {
			drawPOT(q, true)
			r.ctrl[side][engine.PrussianTerritory] = cut(layer, spaceSpriteRect(engine.PrussianTerritory))
		}
	}
	layer := cloneRGBA(base)
	q := r.painter(layer, fs)
	for _, side := range []engine.Side{engine.Versailles, engine.Commune} {
		for z := 0; z < engine.NumZones; z++ {
			drawZone(q, side, z, true)
			r.breached[side][z] = cut(layer, zoneRect(side, z))
		}
	}
	for i := range r.cellOpen {
		drawPoolCell(q, i, true)
		r.cellOpen[i] = cut(layer, poolCellRect(i))
	}
}

func cloneRGBA(m *image.RGBA) *image.RGBA {
	c := image.NewRGBA(m.Rect)
	copy(c.Pix, m.Pix)
	return c
}

func cut(m *image.RGBA, r image.Rectangle) sprite {
	s := image.NewRGBA(r)
	draw.Draw(s, r, m, r.Min, draw.Src)
	return sprite{img: s}
}

func (p *painter) blit(s sprite) {
	draw.Draw(p.img, s.img.Rect, s.img, s.img.Rect.Min, draw.Src)
}

func spaceSpriteRect(x engine.Space) image.Rectangle { return spaceRects[x].Inset(-ringW) }

// ringW is the width of the control ring around a space; the pivotal
// triple border lies just outside it.
const ringW = 6

func (r *Renderer) drawBase(p *painter) {
	p.rect(image.Rect(0, 0, BoardWidth, BoardHeight), colBackground)
	p.rect(captionRect, colCaption)

	// Crisis Tracks.
	titles := [2]string{p.t("render.track-title-versailles", nil), p.t("render.track-title-commune", nil)}
	for _, side := range []engine.Side{engine.Versailles, engine.Commune} {
		tr := trackRect[side]
		p.roundRect(tr, 8, colPanel)
		hint := p.t("render.track-hint", nil)
		// The title as large as the strip allows; the hint in what is left
		// (it is for a large screen: the arrow says it at phone width).
		if side == engine.Versailles {
			w := p.fitText(true, 19, 15, titles[side], tr.Dx()-260, tr.Min.X+10, tr.Min.Y+20, sideDark(side), left)
			p.fitText(false, 15, 12, "· "+hint+" →", tr.Dx()-w-30, tr.Min.X+18+w, tr.Min.Y+20, colInkSoft, left)
		} else {
			w := p.fitText(true, 19, 15, titles[side], tr.Dx()-260, tr.Max.X-10, tr.Min.Y+20, sideDark(side), right)
			p.fitText(false, 15, 12, "← "+hint+" ·", tr.Dx()-w-30, tr.Max.X-18-w, tr.Min.Y+20, colInkSoft, right)
		}
		for z := 0; z < engine.NumZones; z++ {
			drawZone(p, side, z, false)
		}
	}

	// Map halves.
	for i, hr := range []image.Rectangle{politicRect, militaryRect} {
		p.roundRect(hr, 10, colPanelEdge)
		p.roundRect(hr.Inset(2), 9, colBackground)
		name := "POLITICAL"
		if i == 1 {
			name = "MILITARY"
		}
		first := dimChipRect(engine.Institutional)
		if i == 1 {
			first = dimChipRect(engine.Paris)
		}
		p.fitText(true, 20, 12, name, first.Min.X-hr.Min.X-24, hr.Min.X+14, hr.Min.Y+30, colInk, left)
	}
	for d := engine.Dimension(0); d < engine.NumDimensions; d++ {
		drawDimChip(p, d, engine.NoSide)
	}
	drawLinks(p)
	for x := engine.Space(0); x < engine.NumMapSpaces; x++ {
		drawSpace(p, x, engine.NoSide)
	}
	drawHQ(p)
	drawPOT(p, false)

	// Side panels.
	for _, side := range []engine.Side{engine.Versailles, engine.Commune} {
		drawSidePanel(p, side)
	}
	drawMiddlePanel(p)
}

// ---- Crisis Track zones ----

func drawZone(p *painter, side engine.Side, z int, breached bool) {
	fs := p.fs
	zr := zoneRect(side, z)
	body := colBody
	if breached {
		body = colNoCtrl
	}
	p.roundRect(zr, 6, body)
	head := image.Rect(zr.Min.X, zr.Min.Y, zr.Max.X, zr.Min.Y+zoneTitle+4)
	// The zone's name and state as large as the strip allows: they are
	// what a player reads at phone width (a quarter of this size). The
	// big squares are the zone's cubes and need no label.
	cy := zr.Min.Y + zoneTitle/2
	if breached {
		p.rect(image.Rect(zr.Min.X, zr.Min.Y+zoneTitle, zr.Max.X, zr.Max.Y-6), colNoCtrl)
		p.hatch(image.Rect(zr.Min.X+2, zr.Min.Y+zoneTitle+4, zr.Max.X-2, zr.Max.Y-3), colClosed, 12)
		p.roundRect(head, 6, sideDark(side))
		p.rect(image.Rect(head.Min.X, head.Max.Y-6, head.Max.X, head.Max.Y), sideDark(side))
		// "BREACHED" when it fits beside every zone's name at a readable
		// size; the dark strip and the hatching say it in any case
		// ("Решительный бой" and "АКТИВНО" do not fit together, and a word
		// on some breached zones only would read as a difference).
		name := p.tr(engine.ZoneName(z))
		bw := 0
		if breachedWordFits(p) {
			bw = p.fitTextMid(true, 15, 12, "BREACHED", zr.Dx()-measure(fs.bold(14), name)-24, zr.Max.X-7, cy, colChanged, right)
		}
		p.fitTextMid(true, 18, 11, name, zr.Dx()-bw-20, zr.Min.X+7, cy, colWhite, left)
	} else {
		p.roundRect(head, 6, colNoCtrl)
		p.rect(image.Rect(head.Min.X, head.Max.Y-6, head.Max.X, head.Max.Y), colNoCtrl)
		p.fitTextMid(true, 18, 11, engine.ZoneName(z), zr.Dx()-14, zr.Min.X+7, cy, colInk, left)
	}
	p.roundFrame(zr, 6, 2, colPanelEdge)
	for i := 0; i < trackSlots[side][z]; i++ {
		p.slot(trackCubeRect(side, z, i), sideCol(side))
	}
	lab := colInkSoft
	if bonusSlots[side][z] == 0 {
		p.fitTextMid(true, 16, 12, p.t("render.zone-no-bonus", nil), zr.Dx()-20, zr.Min.X+12, zr.Min.Y+bonusY+13, lab, left)
	} else {
		for i := 0; i < bonusSlots[side][z]; i++ {
			p.slot(bonusCubeRect(side, z, i), colBadge)
		}
		x := bonusCubeRect(side, z, bonusSlots[side][z]-1).Max.X + 10
		p.fitTextMid(true, 16, 12, p.t("render.zone-bonus", nil), zr.Max.X-8-x, x, zr.Min.Y+bonusY+13, lab, left)
	}
}

// breachedWordFits reports whether "BREACHED" fits beside the name of
// every zone, the name at bold 14 and the word at bold 12.
func breachedWordFits(p *painter) bool {
	state := measure(p.fs.bold(12), p.tr("BREACHED"))
	for z := 0; z < engine.NumZones; z++ {
		if measure(p.fs.bold(14), p.tr(engine.ZoneName(z)))+state+24 > zoneW {
			return false
		}
	}
	return true
}

// Rows of a Crisis Track zone, below its title: the cubes, then the bonus.
const (
	cubeRowY = zoneTitle + 10
	bonusY   = zoneTitle + 56
)

func trackCubeRect(side engine.Side, z, i int) image.Rectangle {
	zr := zoneRect(side, z)
	x := zr.Min.X + 12 + i*44
	y := zr.Min.Y + cubeRowY
	return image.Rect(x, y, x+38, y+38)
}

func bonusCubeRect(side engine.Side, z, i int) image.Rectangle {
	zr := zoneRect(side, z)
	x := zr.Min.X + 14 + i*34
	y := zr.Min.Y + bonusY
	return image.Rect(x, y, x+26, y+26)
}

// ---- dimension chips (title rows of the map halves) ----

func dimChipRect(d engine.Dimension) image.Rectangle {
	var hr image.Rectangle
	i := 0
	switch d {
	case engine.Institutional:
		hr = politicRect
	case engine.PublicOpinion:
		hr, i = politicRect, 1
	case engine.Paris:
		hr = militaryRect
	case engine.Forts:
		hr, i = militaryRect, 1
	}
	// Narrow enough to leave the half's title (ПОЛИТИЧЕСКАЯ) a readable
	// size, wide enough for the longest name (Общественное мнение).
	w := 232
	x := hr.Min.X + 172 + i*(w+12)
	return image.Rect(x, hr.Min.Y+6, x+w, hr.Min.Y+36)
}

func drawDimChip(p *painter, d engine.Dimension, ctrl engine.Side) {
	fs := p.fs
	cr := dimChipRect(d)
	fill, ink := colBody, colInk
	if ctrl != engine.NoSide {
		fill, ink = sideCol(ctrl), colWhite
	}
	p.roundRect(cr, 15, fill)
	p.roundFrame(cr, 15, 2, colDimDark[d])
	p.dimIcon(int(d), float64(cr.Min.X+18), float64(cr.Min.Y+15), 16, colDim[d], colDimDark[d])
	name := d.String()
	if ctrl == engine.NoSide {
		// The dimension's name comes first; "not held" only where it fits
		// beside the whole name (the white chip says it too). The Russian
		// "Общественное мнение" was cut to "Общественн…" to make room.
		room := cr.Dx() - 34 - 10
		note := p.t("render.not-held", nil)
		nfc := fs.reg(14)
		nw := measure(nfc, note) + 8
		fc := fs.bold(16)
		for size := 16; size > 15 && measure(fc, p.tr(name)) > room-nw; size-- {
			fc = fs.bold(size - 1)
		}
		if measure(fc, p.tr(name)) > room-nw {
			note = "" // no room for both: the name alone
			p.fitTextMid(true, 16, 11, name, room, cr.Min.X+34, cr.Min.Y+15, colInk, left)
		} else {
			w := p.textMid(fc, name, cr.Min.X+34, cr.Min.Y+15, colInk, left)
			p.textMid(nfc, note, cr.Min.X+42+w, cr.Min.Y+15, colInkSoft, left)
		}
	} else {
		// Filled in the side's colour: it holds all three spaces.
		s := p.tr(name + ": " + sideWord(ctrl))
		fc := fs.bold(15)
		if measure(fc, s) > cr.Dx()-40 {
			fc = fs.bold(13)
		}
		p.textMid(fc, s, cr.Min.X+34, cr.Min.Y+15, ink, left)
	}
}

func sideWord(s engine.Side) string {
	switch s {
	case engine.Versailles:
		return "VERSAILLES"
	case engine.Commune:
		return "COMMUNE"
	}
	return "—"
}

// ---- adjacency links ----

func drawLinks(p *painter) {
	two := func(a, b engine.Space) {
		ax, ay := rectCenter(spaceRects[a])
		bx, by := rectCenter(spaceRects[b])
		p.line(ax, ay, bx, by, 9, colLink)
		p.line(ax, ay, bx, by, 3, colBackground)
	}
	for _, l := range [][2]engine.Space{
		{engine.Royalists, engine.CatholicChurch}, {engine.Royalists, engine.Press}, {engine.CatholicChurch, engine.Press},
		{engine.Press, engine.Republicans}, {engine.Press, engine.SocialMovements}, {engine.Republicans, engine.SocialMovements},
		{engine.MontValerien, engine.ButteMontmartre}, {engine.MontValerien, engine.VersaillesHQ},
		{engine.FortIssy, engine.VersaillesHQ}, {engine.FortIssy, engine.ButteAuxCailles},
		{engine.ButteMontmartre, engine.ButteAuxCailles}, {engine.ButteMontmartre, engine.PereLachaise},
		{engine.ButteAuxCailles, engine.PereLachaise}, {engine.PereLachaise, engine.ChateauVincennes},
		{engine.PereLachaise, engine.PrussianTerritory}, {engine.ChateauVincennes, engine.PrussianTerritory},
	} {
		two(l[0], l[1])
	}
	// Fort d'Issy – Château de Vincennes runs under Butte-aux-Cailles.
	fi, cv := spaceRects[engine.FortIssy], spaceRects[engine.ChateauVincennes]
	y := float64(fi.Max.Y + 22)
	pts := [][2]float64{{float64(mid(fi).X), float64(mid(fi).Y)}, {float64(mid(fi).X), y}, {float64(mid(cv).X), y}, {float64(mid(cv).X), float64(mid(cv).Y)}}
	for _, w := range []struct {
		w float64
		c color.RGBA
	}{{9, colLink}, {3, colBackground}} {
		for i := 0; i+1 < len(pts); i++ {
			p.line(pts[i][0], pts[i][1], pts[i+1][0], pts[i+1][1], w.w, w.c)
		}
	}
	// One-way arrows into the National Assembly (from Royalists, Republicans).
	na := spaceRects[engine.NationalAssembly]
	_, cy := rectCenter(na)
	ro, re := spaceRects[engine.Royalists], spaceRects[engine.Republicans]
	tipL := float64(na.Min.X - 20)
	tipR := float64(na.Max.X + 20)
	p.line(float64(ro.Max.X), cy, tipL-10, cy, 5, colLink)
	p.arrowHead(tipL, cy, 1, 0, 20, colLink)
	p.line(float64(re.Min.X), cy, tipR+10, cy, 5, colLink)
	p.arrowHead(tipR, cy, -1, 0, 20, colLink)
}

// ---- spaces ----

func drawSpace(p *painter, x engine.Space, ctrl engine.Side) {
	fs := p.fs
	b := spaceRects[x]
	in := x.Info()
	d := in.Dim
	if ctrl == engine.NoSide && in.Pivotal {
		// Triple border (outside the control ring).
		for _, k := range []int{ringW + 2, ringW + 5, ringW + 8} {
			p.frame(b.Inset(-k), 2, colDimDark[d])
		}
	}
	if ctrl != engine.NoSide {
		p.frame(b.Inset(-ringW), ringW, sideCol(ctrl))
	}
	body := colBody
	if ctrl != engine.NoSide {
		body = sideLight(ctrl)
	}
	p.rect(b, body)
	// Header: dimension colour, icon, name.
	head := image.Rect(b.Min.X, b.Min.Y, b.Max.X, b.Min.Y+headerH)
	p.rect(head, colDim[d])
	p.dimIcon(int(d), float64(b.Min.X+20), float64(b.Min.Y+headerH/2), 20, colWhite, colDimDark[d])
	nameW := spaceW - 42
	if in.Pivotal {
		nameW -= 24
	}
	// Wrapped lines are drawn as they are: translate the whole name first.
	fc, lines := fitName(fs, p.tr(in.Name), nameW)
	if len(lines) == 1 {
		textMid(p.img, fc, lines[0], b.Min.X+36, b.Min.Y+headerH/2, colWhite, left)
	} else {
		// Two lines centred on their ink, accents and descenders included:
		// placed by the capital height, the accent of "Église" was drawn
		// above the header, on the border.
		top, bottom := inkTop(fc, lines[0]), inkBottom(fc, lines[1])
		gap := fc.capHeight + 5
		base := b.Min.Y + (headerH-(top+gap+bottom))/2 + top
		text(p.img, fc, lines[0], b.Min.X+36, base, colWhite, left)
		text(p.img, fc, lines[1], b.Min.X+36, base+gap, colWhite, left)
	}
	if in.Pivotal {
		p.star(float64(b.Max.X-18), float64(b.Min.Y+headerH/2), 15, colStar, colDimDark[d])
	}
	// Empty token places.
	for _, s := range []engine.Side{engine.Versailles, engine.Commune} {
		tr := tokenRect(x, s)
		p.roundFrame(tr, 9, 2, mixCol(sideCol(s), body, 0.35))
	}
	// Permanent presence.
	if in.Permanent != engine.NoSide {
		tr := tokenRect(x, in.Permanent)
		// As large as the gap between the token and the banner allows.
		p.fitText(true, 16, 12, p.t("render.always", nil), tr.Dx()+20, mid(tr).X, b.Min.Y+discRowY+12, sideCol(in.Permanent), center)
		p.fitText(true, 16, 12, p.t("render.present", nil), tr.Dx()+20, mid(tr).X, b.Min.Y+discRowY+28, sideCol(in.Permanent), center)
	}
	// Control banner.
	ban := image.Rect(b.Min.X, b.Max.Y-bannerH, b.Max.X, b.Max.Y)
	if ctrl == engine.NoSide {
		p.rect(ban, colNoCtrl)
		p.textMid(fs.reg(16), p.t("render.no-control", nil), mid(ban).X, mid(ban).Y, colInkSoft, center)
	} else {
		p.rect(ban, sideCol(ctrl))
		p.textMid(fs.bold(19), sideWord(ctrl), mid(ban).X, mid(ban).Y, colWhite, center)
	}
	p.frame(b, 2, colInk)
}

// fitName sets a space name in at most two lines of width w, in the
// largest bold size that fits without cutting a word (hyphens may break)
// and whose two lines, accents and descenders included, fit in the header
// with a pixel to spare at each edge.
func fitName(fs *faceSet, name string, w int) (*face, []string) {
	for _, size := range []int{19, 18, 17, 16, 15, 14} {
		fc := fs.bold(size)
		lines := wrapHyphen(fc, name, w)
		if len(lines) <= 2 {
			ok := true
			for _, l := range lines {
				if measure(fc, l) > w {
					ok = false
				}
			}
			if len(lines) == 2 && inkTop(fc, lines[0])+fc.capHeight+5+inkBottom(fc, lines[1]) > headerH-2 && size > 14 {
				ok = false
			}
			if ok {
				return fc, lines
			}
		}
	}
	fc := fs.bold(14)
	lines := wrap(fc, name, w)
	if len(lines) > 2 {
		lines = []string{lines[0], ellipsize(fc, joinRest(lines[1:]), w)}
	}
	return fc, lines
}

// wrapHyphen wraps like wrap but may also break after a hyphen, and never
// cuts inside a word (a too-long word is left too long).
func wrapHyphen(fc *face, s string, w int) []string {
	var parts []string // words, with "-" kept at the end of hyphenated pieces
	for _, word := range strings.Fields(s) {
		for {
			i := strings.Index(word, "-")
			if i < 0 || i == len(word)-1 {
				break
			}
			parts = append(parts, word[:i+1])
			word = word[i+1:]
		}
		parts = append(parts, word+" ")
	}
	var lines []string
	line := ""
	for _, part := range parts {
		cand := line + part
		if line != "" && measure(fc, strings.TrimSpace(cand)) > w {
			lines = append(lines, strings.TrimSpace(line))
			line = part
			continue
		}
		line = cand
	}
	if line != "" {
		lines = append(lines, strings.TrimSpace(line))
	}
	return lines
}

func joinRest(a []string) string {
	s := ""
	for i, x := range a {
		if i > 0 {
			s += " "
		}
		s += x
	}
	return s
}

func drawHQ(p *painter) {
	b := spaceRects[engine.VersaillesHQ]
	p.frame(b.Inset(-ringW), ringW, colVersailles)
	p.rect(b, colVersaillesLight)
	p.rect(image.Rect(b.Min.X, b.Min.Y, b.Max.X, b.Min.Y+48), colVersailles)
	p.centredLines(true, 16, 12, p.tr("Versailles HQ"), b.Dx()-10, mid(b).X, b.Min.Y+21, 19, 2, colWhite)
	p.centredLines(false, 13, 11, p.t("render.hq-note", nil), b.Dx()-10, mid(b).X, b.Min.Y+72, 16, 4, colVersaillesDark)
	p.frame(b, 2, colInk)
}

func drawPOT(p *painter, ctrl bool) {
	b := spaceRects[engine.PrussianTerritory]
	head, body, ink := colNeutral, colNoCtrl, colInkSoft
	if ctrl {
		p.frame(b.Inset(-ringW), ringW, colVersailles)
		head, body, ink = colVersailles, colVersaillesLight, colVersaillesDark
	}
	p.rect(b, body)
	p.rect(image.Rect(b.Min.X, b.Min.Y, b.Max.X, b.Min.Y+62), head)
	p.centredLines(true, 14, 9, p.tr("Prussian Occupied Territory"), b.Dx()-6, mid(b).X, b.Min.Y+18, 18, 3, colWhite)
	if ctrl {
		p.centredLines(false, 14, 11, p.t("render.pot-controlled", nil), b.Dx()-8, mid(b).X, b.Min.Y+84, 17, 3, ink)
	} else {
		p.centredLines(false, 14, 9, p.t("render.pot-note", nil), b.Dx()-6, mid(b).X, b.Min.Y+82, 16, 4, ink)
	}
	p.frame(b, 2, colInk)
}

// ---- side panels: momentum track, pool, cubes under the track ----

func drawSidePanel(p *painter, side engine.Side) {
	fs := p.fs
	pr := sidePanel[side]
	p.roundRect(pr, 8, colPanel)
	bar := image.Rect(pr.Min.X, pr.Min.Y, pr.Max.X, pr.Min.Y+sideBarH)
	p.roundRect(bar, 8, sideCol(side))
	p.rect(image.Rect(bar.Min.X, bar.Max.Y-8, bar.Max.X, bar.Max.Y), sideCol(side))
	p.textMid(fs.bold(20), sideWord(side), pr.Min.X+12, mid(bar).Y, colWhite, left)

	// Pool box.
	pb := poolRect(side)
	p.roundRect(pb, 6, colBody)
	p.roundFrame(pb, 6, 2, sideCol(side))
	p.text(fs.bold(15), "CUBE POOL", mid(pb).X, pb.Min.Y+19, sideDark(side), center)
	if side == engine.Versailles {
		p.fitText(true, 16, 12, p.t("render.never-full", nil), pb.Dx()-8, mid(pb).X, pb.Max.Y-9, colInkSoft, center)
	}

	// Momentum track.
	label := engine.MomentumTrackName(side)
	c0 := momCell(side, 0)
	p.text(fs.bold(17), label, c0.Min.X, c0.Min.Y-8, colInk, left)
	for lv := 0; lv <= 3; lv++ {
		c := momCell(side, lv)
		p.roundRect(c, 5, colBody)
		p.roundFrame(c, 5, 2, sideCol(side))
		p.text(fs.bold(22), itoa(lv), c.Min.X+8, c.Min.Y+29, mixCol(sideCol(side), colBody, 0.55), left)
	}
	if side == engine.Versailles {
		for lv := 1; lv <= 3; lv++ {
			for i := 0; i < prussianSlots; i++ {
				p.slot(prussianCubeRect(lv, i), colVersailles)
			}
		}
		c0 := momCell(side, 0)
		p.fitText(false, 15, 12, p.t("render.cubes-under-1", nil), momCellW+8, c0.Min.X+2, c0.Max.Y+18, colInkSoft, left)
		p.fitText(false, 15, 12, p.t("render.cubes-under-2", nil), momCellW+8, c0.Min.X+2, c0.Max.Y+35, colInkSoft, left)
	} else {
		c0 := momCell(side, 0)
		p.fitText(false, 15, 12, p.t("render.pool-cells-1", nil), momCellW+8, c0.Min.X+2, c0.Max.Y+18, colInkSoft, left)
		p.fitText(false, 15, 12, p.t("render.pool-cells-2", nil), momCellW+8, c0.Min.X+2, c0.Max.Y+35, colInkSoft, left)
		for i := 0; i < 4; i++ {
			drawPoolCell(p, i, false)
		}
	}
}

func prussianCubeRect(level, i int) image.Rectangle {
	c := momCell(engine.Versailles, level)
	x := c.Min.X + 8 + i*32
	y := c.Max.Y + 8
	return image.Rect(x, y, x+26, y+26)
}

// poolCellLevel: the momentum level each Commune pool cell opens at.
var poolCellLevel = [4]int{1, 1, 2, 3}

func poolCellRect(i int) image.Rectangle {
	lv := poolCellLevel[i]
	c := momCell(engine.Commune, lv)
	k := 0
	if i == 1 {
		k = 1
	}
	x := c.Min.X + 6 + k*34
	y := c.Max.Y + 8
	return image.Rect(x, y, x+30, y+30)
}

func drawPoolCell(p *painter, i int, open bool) {
	r := poolCellRect(i)
	if open {
		p.rect(r, colWhite)
		p.frame(r, 2, colCommune)
		return
	}
	p.rect(r, colClosed)
	p.line(float64(r.Min.X+6), float64(r.Min.Y+6), float64(r.Max.X-6), float64(r.Max.Y-6), 2, colInkSoft)
	p.line(float64(r.Max.X-6), float64(r.Min.Y+6), float64(r.Min.X+6), float64(r.Max.Y-6), 2, colInkSoft)
}

// ---- middle panel: VP tracks, round track ----

func drawMiddlePanel(p *painter) {
	fs := p.fs
	m := middlePanel
	p.roundRect(m, 8, colPanel)
	for _, kind := range []engine.Sphere{engine.Political, engine.Military} {
		c := vpCell(kind, 5)
		label := "Political VP"
		mc := colPoliticalVP
		if kind == engine.Military {
			label, mc = "Military VP", colMilitaryVP
		}
		p.circle(float64(m.Min.X+18), float64(c.Min.Y+13), 7, mc)
		p.fitText(true, 17, 11, label, c.Min.X-m.Min.X-36, m.Min.X+30, c.Min.Y+19, colInk, left)
		for v := -5; v <= 5; v++ {
			cr := vpCell(kind, v)
			fill := colBody
			switch {
			case v > 0:
				fill = mixCol(colVersaillesLight, colBody, 0.3+0.7*float64(v)/5)
			case v < 0:
				fill = mixCol(colCommuneLight, colBody, 0.3-0.7*float64(v)/5)
			}
			p.rect(cr, fill)
			p.frame(cr, 1, colPanelEdge)
			n := v
			if n < 0 {
				n = -n
			}
			p.textMid(fs.bold(16), itoa(n), mid(cr).X, mid(cr).Y, colFaint, center)
		}
		l, rr := vpCell(kind, 5), vpCell(kind, -5)
		p.text(fs.bold(13), "◄ Versailles", l.Min.X, l.Max.Y+14, colVersailles, left)
		p.text(fs.bold(13), "Commune ►", rr.Max.X, rr.Max.Y+14, colCommune, right)
	}
	// Round track.
	c1 := roundCell(1)
	p.fitText(true, 17, 11, "Round", c1.Min.X-m.Min.X-18, m.Min.X+12, mid(c1).Y+6, colInk, left)
	for rd := 1; rd <= 4; rd++ {
		c := roundCell(rd)
		p.roundRect(c, 5, colBody)
		p.roundFrame(c, 5, 2, colPanelEdge)
		s := itoa(rd)
		if rd == 4 {
			s = "Final Crisis"
		}
		p.fitTextMid(true, 16, 10, s, c.Dx()-8, mid(c).X, mid(c).Y, colFaint, center)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
