package render

import (
	"fmt"
	"image"
	"image/color"
	"strings"

	"github.com/rfop/rfop/engine"
	"github.com/rfop/rfop/locale"
)

// boardState is the (sanitised) view being drawn and the previous one.
type boardState struct {
	v    engine.View
	prev *engine.View
}

var sides = [2]engine.Side{engine.Versailles, engine.Commune}

// drawDynamic draws the state-dependent part of the board over a copy of
// the static layer.
func (r *Renderer) drawDynamic(p *painter, b *boardState, caption string) {
	r.drawCaption(p, b, caption)
	r.drawTracks(p, b)
	r.drawMap(p, b)
	for _, s := range sides {
		r.drawSideState(p, b, s)
	}
	r.drawMiddleState(p, b)
}

// ---- caption bar ----

func (r *Renderer) drawCaption(p *painter, b *boardState, caption string) {
	fs := p.fs
	v := &b.v
	label, col := decidingLabel(p, v)
	label = p.tr(label)
	pill := image.Rectangle{}
	if label != "" {
		fc := fs.bold(18)
		w := measure(fc, label) + 28
		pill = image.Rect(captionRect.Max.X-8-w, captionRect.Min.Y+6, captionRect.Max.X-8, captionRect.Max.Y-6)
		p.roundRect(pill, 17, col)
		p.roundFrame(pill, 17, 2, colWhite)
		p.textMid(fc, label, mid(pill).X, mid(pill).Y, colWhite, center)
	}
	maxW := BoardWidth - 28
	if label != "" {
		maxW = pill.Min.X - 28
	}
	fc := fs.bold(20)
	p.textMid(fc, ellipsize(fc, p.tr(caption), maxW), 14, mid(captionRect).Y, colWhite, left)
}

// decidingLabel says whose decision it is (or who won).
func decidingLabel(p *painter, v *engine.View) (string, color.RGBA) {
	if v.Result != nil {
		if v.Result.Winner == engine.NoSide {
			return p.t("render.banner.game-over", nil), colInk
		}
		return p.t("render.banner.wins", locale.Args{"Side": p.tr(sideWord(v.Result.Winner))}), sideCol(v.Result.Winner)
	}
	if len(v.Deciding) == 0 {
		return "", colInk
	}
	var who [2]bool
	for _, d := range v.Deciding {
		if d.Side == engine.Versailles || d.Side == engine.Commune {
			who[d.Side] = true
		}
	}
	what := p.t(promptWordIDs(v.Deciding[0].Kind), nil)
	switch {
	case who[0] && who[1]:
		return p.t("render.banner.both", locale.Args{"What": what}), colNeutral
	case who[0]:
		return p.t("render.banner.side", locale.Args{"Side": p.tr("VERSAILLES"), "What": what}), colVersailles
	case who[1]:
		return p.t("render.banner.side", locale.Args{"Side": p.tr("COMMUNE"), "What": what}), colCommune
	}
	return "", colInk
}

// promptWordIDs names a pending decision in a few words (a message id).
func promptWordIDs(k engine.PromptKind) string {
	switch k {
	case engine.PromptObjective:
		return "render.prompt.objective"
	case engine.PromptInitiative:
		return "render.prompt.initiative"
	case engine.PromptCensor:
		return "render.prompt.censor"
	case engine.PromptPlay:
		return "render.prompt.play"
	case engine.PromptSphere:
		return "render.prompt.sphere"
	case engine.PromptOpsRemove:
		return "render.prompt.ops-remove"
	case engine.PromptOpsPlace:
		return "render.prompt.ops-place"
	case engine.PromptFreeCube:
		return "render.prompt.free-cube"
	case engine.PromptFCDiscard:
		return "render.prompt.fc-discard"
	case engine.PromptFCPlay:
		return "render.prompt.fc-play"
	case engine.PromptFCDecide:
		return "render.prompt.fc-decide"
	case engine.PromptBonusOrder, engine.PromptBonusAction:
		return "render.prompt.bonus"
	case engine.PromptDeescalate:
		return "render.prompt.deescalate"
	case engine.PromptSpread:
		return "render.prompt.spread"
	case engine.PromptTurncoat:
		return "render.prompt.turncoat"
	case engine.PromptScoreOrder:
		return "render.prompt.score-order"
	case engine.PromptObjEventOrder, engine.PromptObjEvent:
		return "render.prompt.objective-event"
	case engine.PromptOption:
		return "render.prompt.option"
	case engine.PromptEventPlace:
		return "render.prompt.event-place"
	case engine.PromptEventRemove:
		return "render.prompt.event-remove"
	case engine.PromptEventReplace:
		return "render.prompt.event-replace"
	case engine.PromptPlaceDisc:
		return "render.prompt.place-disc"
	case engine.PromptRemoveDisc:
		return "render.prompt.remove-disc"
	case engine.PromptEventDiscard, engine.PromptForceDiscard:
		return "render.prompt.discard"
	case engine.PromptAndOrOrder:
		return "render.prompt.andor-order"
	case engine.PromptConfirmNothing:
		return "render.prompt.confirm"
	}
	return "render.prompt.other"
}

// ---- Crisis Tracks ----

func (r *Renderer) drawTracks(p *painter, b *boardState) {
	fs := p.fs
	v := &b.v
	for _, s := range sides {
		for z := 0; z < engine.NumZones; z++ {
			zr := zoneRect(s, z)
			if v.Breached[s][z] {
				p.blit(r.breached[s][z])
			}
			n := int(v.Track[s][z])
			for i := 0; i < n && i < 3; i++ {
				p.cube(trackCubeRect(s, z, i), sideCol(s), sideDark(s))
			}
			if n > 3 {
				c := trackCubeRect(s, z, 2)
				p.textMid(fs.bold(16), fmt.Sprintf("×%d", n), c.Max.X+4, mid(c).Y, colInk, left)
			}
			nb := int(v.Bonus[s][z])
			for i := 0; i < nb && i < 3; i++ {
				p.cube(bonusCubeRect(s, z, i), sideCol(s), sideDark(s))
			}
			if b.prev != nil {
				pv := b.prev
				if pv.Track[s][z] != v.Track[s][z] || pv.Bonus[s][z] != v.Bonus[s][z] || pv.Breached[s][z] != v.Breached[s][z] {
					p.roundFrame(zr.Inset(-3), 8, 4, colChanged)
				}
			}
		}
	}
}

// ---- map ----

func (r *Renderer) drawMap(p *painter, b *boardState) {
	v := &b.v
	for d := engine.Dimension(0); d < engine.NumDimensions; d++ {
		c := v.DimensionController(d)
		if c != engine.NoSide {
			p.blit(r.dimCtrl[c][d])
		}
		if b.prev != nil && b.prev.DimensionController(d) != c {
			p.roundFrame(dimChipRect(d).Inset(-3), 17, 3, colChanged)
		}
	}
	if v.Controller(engine.PrussianTerritory) == engine.Versailles {
		p.blit(r.ctrl[engine.Versailles][engine.PrussianTerritory])
	}
	for x := engine.Space(0); x < engine.NumMapSpaces; x++ {
		r.drawSpaceState(p, b, x)
	}
}

func (r *Renderer) drawSpaceState(p *painter, b *boardState, x engine.Space) {
	fs := p.fs
	v := &b.v
	box := spaceRects[x]
	ctrl := v.Controller(x)
	body := colBody
	if ctrl != engine.NoSide {
		p.blit(r.ctrl[ctrl][x])
		body = sideLight(ctrl)
	}
	for _, s := range sides {
		n := int(v.Cubes[s][x])
		if n == 0 {
			continue
		}
		tr := tokenRect(x, s)
		p.cube(tr, sideCol(s), sideDark(s))
		p.textMid(fs.bold(44), itoa(n), mid(tr).X, mid(tr).Y, colWhite, center)
	}
	if d := v.Disc[x]; d != engine.NoSide {
		row := image.Rect(box.Min.X+2, box.Min.Y+discRowY-2, box.Max.X-2, box.Min.Y+spaceH-bannerH-1)
		p.rect(row, body)
		name := "Fortification"
		if d == engine.Commune {
			name = "Barricade"
		}
		name = p.tr(name)
		fc := fs.bold(16)
		w := 36 + measure(fc, name)
		x0 := mid(box).X - w/2
		cy := float64(mid(row).Y)
		p.circle(float64(x0+15), cy, 15, sideDark(d))
		p.circle(float64(x0+15), cy, 11, sideCol(d))
		p.textMid(fc, name, x0+36, mid(row).Y, sideDark(d), left)
	}
	if b.prev == nil {
		return
	}
	pv := b.prev
	changed := pv.Disc[x] != v.Disc[x]
	for _, s := range sides {
		if pv.Cubes[s][x] != v.Cubes[s][x] {
			changed = true
		}
	}
	if !changed {
		return
	}
	k := ringW + 4
	if x.Info().Pivotal {
		k = ringW + 13
	}
	p.roundFrame(box.Inset(-k), 6, 5, colChanged)
	for _, s := range sides {
		dlt := int(v.Cubes[s][x]) - int(pv.Cubes[s][x])
		if dlt == 0 {
			continue
		}
		tr := tokenRect(x, s)
		label := fmt.Sprintf("%+d", dlt)
		if dlt < 0 {
			label = "−" + itoa(-dlt)
		}
		fc := fs.bold(16)
		w := measure(fc, label) + 12
		br := image.Rect(tr.Max.X-w+6, tr.Min.Y-10, tr.Max.X+6, tr.Min.Y+12)
		p.roundRect(br, 10, colChanged)
		p.roundFrame(br, 10, 1.5, colInk)
		p.textMid(fc, label, mid(br).X, mid(br).Y, colInk, center)
	}
}

// ---- side panels ----

func (r *Renderer) drawSideState(p *painter, b *boardState, s engine.Side) {
	fs := p.fs
	v := &b.v
	pr := sidePanel[s]
	// Cards held, in the title bar.
	fc := fs.bold(16)
	info := p.n("render.in-hand", int(v.HandSize[s]), nil)
	if n := v.SetAsideSize[s]; n > 0 {
		info += p.n("render.set-aside", int(n), nil)
	}
	if v.FCHeld[s] {
		info += " · " + p.t("render.fc-held", nil)
	}
	info = p.tr(info)
	if room := pr.Dx() - 170; measure(fc, info) > room {
		fc = fs.bold(14)
		info = ellipsize(fc, info, room)
	}
	p.textMid(fc, info, pr.Max.X-12, pr.Min.Y+sideBarH/2, colWhite, right)

	// Pool.
	pb := poolRect(s)
	n := int(v.Pool[s])
	tk := image.Rect(mid(pb).X-30, pb.Min.Y+30, mid(pb).X+30, pb.Min.Y+90)
	if n > 0 {
		p.cube(tk, sideCol(s), sideDark(s))
		p.textMid(fs.bold(38), itoa(n), mid(tk).X, mid(tk).Y, colWhite, center)
	} else {
		p.textMid(fs.bold(30), "0", mid(tk).X, mid(tk).Y, colFaint, center)
	}
	if s == engine.Commune {
		cap := int(v.PoolCap)
		msg := p.n("render.cells-open", cap, nil)
		if cap == 0 {
			msg = p.t("render.no-cell", nil)
		}
		p.fitText(true, 16, 12, msg, pb.Dx()-8, mid(pb).X, pb.Max.Y-9, colCommuneDark, center)
	}
	if b.prev != nil && (b.prev.Pool[s] != v.Pool[s] || s == engine.Commune && b.prev.PoolCap != v.PoolCap) {
		p.roundFrame(pb.Inset(-3), 8, 4, colChanged)
	}

	// Momentum marker.
	m := int(v.Momentum[s])
	if b.prev != nil && b.prev.Momentum[s] != v.Momentum[s] {
		oc := momCell(s, int(b.prev.Momentum[s]))
		p.ring(float64(oc.Max.X-24), float64(mid(oc).Y), 13, 2.5, sideDark(s))
	}
	mc := momCell(s, m)
	cx, cy := float64(mc.Max.X-24), float64(mid(mc).Y)
	p.circle(cx, cy+2, 16, sideDark(s))
	p.circle(cx, cy, 16, sideCol(s))
	p.ring(cx, cy, 16, 2, colWhite)
	p.textMid(fs.bold(18), itoa(m), int(cx), int(cy), colWhite, center)
	if b.prev != nil && b.prev.Momentum[s] != v.Momentum[s] {
		p.ring(cx, cy, 21, 4, colChanged)
	}

	if s == engine.Versailles {
		for lv := 1; lv <= 3; lv++ {
			k := int(v.Prussian[lv-1])
			for i := 0; i < k && i < 3; i++ {
				p.cube(prussianCubeRect(lv, i), sideCol(s), sideDark(s))
			}
		}
	} else {
		cap := int(v.PoolCap)
		for i := 0; i < 4; i++ {
			if i < cap {
				p.blit(r.cellOpen[i])
			}
			if i < n {
				p.cube(poolCellRect(i).Inset(3), colCommune, colCommuneDark)
			}
		}
		if n > 4 {
			c := poolCellRect(3)
			p.text(fs.bold(14), fmt.Sprintf("+%d", n-4), c.Max.X+4, c.Max.Y-8, colInk, left)
		}
	}

	// Text lines under the pool.
	y := pr.Min.Y + 186
	x0 := pr.Min.X + 14
	out := int(v.OutOfPlay[s])
	outCol := colInkSoft
	if out > 0 {
		outCol = sideDark(s)
	}
	w := p.text(fs.bold(17), p.t("render.removed-from-play", locale.Args{"N": out}), x0, y, outCol, left)
	if b.prev != nil && b.prev.OutOfPlay[s] != v.OutOfPlay[s] {
		p.roundFrame(image.Rect(x0-6, y-18, x0+w+6, y+6), 6, 3, colChanged)
	}
	nf := len(v.Fulfilled[s])
	w = p.text(fs.bold(17), p.t("render.objectives-fulfilled", locale.Args{"N": nf}), pr.Max.X-14, y, colInk, right)
	if b.prev != nil && len(b.prev.Fulfilled[s]) != nf {
		p.roundFrame(image.Rect(pr.Max.X-14-w-6, y-18, pr.Max.X-8, y+6), 6, 3, colChanged)
	}
	y += 24
	obj := ""
	// Only the spectator view is guaranteed to hold revealed objectives only.
	if v.Viewer == engine.NoSide && v.Objective[s] > 0 {
		if c := r.deck.Card(int(v.Objective[s])); c != nil {
			obj = p.t("render.objective", locale.Args{"Card": p.pr.CardName(r.deck, c.Num), "Space": p.tr(c.Space.String())})
		}
	}
	if obj != "" {
		p.text(fs.bold(16), ellipsize(fs.bold(16), p.tr(obj), pr.Dx()-28), x0, y, colInk, left)
		y += 21
	}
	if nf > 0 {
		var names []string
		for _, n := range v.Fulfilled[s] {
			if c := r.deck.Card(int(n)); c != nil && c.Space >= 0 {
				names = append(names, c.Space.String())
			}
		}
		if len(names) > 0 {
			p.text(fs.reg(16), ellipsize(fs.reg(16), p.t("render.fulfilled", locale.Args{"Spaces": p.tr(strings.Join(names, ", "))}), pr.Dx()-28), x0, y, colInkSoft, left)
		}
	}
}

// ---- middle panel ----

func (r *Renderer) drawMiddleState(p *painter, b *boardState) {
	fs := p.fs
	v := &b.v
	m := middlePanel
	for _, kind := range []engine.Sphere{engine.Political, engine.Military} {
		val := int(v.VP[kind])
		mcol := colPoliticalVP
		if kind == engine.Military {
			mcol = colMilitaryVP
		}
		// Who leads, in words, under the label.
		c5 := vpCell(kind, 5)
		lead, lc := p.t("render.vp-even", nil), colInkSoft
		switch {
		case val > 0:
			lead, lc = p.t("render.vp-lead", locale.Args{"Side": p.tr("Versailles"), "N": val}), colVersailles
		case val < 0:
			lead, lc = p.t("render.vp-lead", locale.Args{"Side": p.tr("Commune"), "N": -val}), colCommune
		}
		p.text(fs.bold(17), lead, m.Min.X+12, c5.Min.Y+40, lc, left)
		moved := b.prev != nil && b.prev.VP[kind] != v.VP[kind]
		if moved {
			oc := vpCell(kind, int(b.prev.VP[kind]))
			ox, oy := rectCenter(oc)
			p.ring(ox, oy, 14, 2.5, mcol)
		}
		cr := vpCell(kind, val)
		cx, cy := rectCenter(cr)
		p.circle(cx, cy+2, 19, colInk)
		p.circle(cx, cy, 19, mcol)
		p.ring(cx, cy, 19, 2, colWhite)
		n := val
		if n < 0 {
			n = -n
		}
		p.textMid(fs.bold(20), itoa(n), int(cx), int(cy), colWhite, center)
		if moved {
			p.ring(cx, cy, 24, 4, colChanged)
		}
	}
	// Round marker.
	rc := roundCell(int(v.Round))
	p.roundRect(rc, 5, colInk)
	s := itoa(int(v.Round))
	if v.Round == 4 {
		s = p.t("render.final-crisis", nil)
	}
	p.fitTextMid(true, 18, 10, s, rc.Dx()-8, mid(rc).X, mid(rc).Y, colWhite, center)
	if b.prev != nil && b.prev.Round != v.Round {
		p.roundFrame(rc.Inset(-4), 7, 4, colChanged)
	}
	// Initiative, deck, discard.
	y := m.Min.Y + 202
	x := m.Min.X + 12
	w := p.text(fs.bold(17), "Initiative:", x, y, colInk, left)
	if v.Initiative == engine.Versailles || v.Initiative == engine.Commune {
		fc := fs.bold(16)
		word := p.tr(sideWord(v.Initiative))
		pw := measure(fc, word) + 20
		pill := image.Rect(x+w+8, y-18, x+w+8+pw, y+6)
		p.roundRect(pill, 12, sideCol(v.Initiative))
		p.textMid(fc, word, mid(pill).X, mid(pill).Y, colWhite, center)
		if b.prev != nil && b.prev.Initiative != v.Initiative {
			p.roundFrame(pill.Inset(-3), 14, 3, colChanged)
		}
	}
	p.text(fs.bold(17), p.n("render.deck", int(v.DeckSize), nil), m.Max.X-12, y, colInk, right)
	y += 28
	lw := p.text(fs.bold(17), "Discard:", x, y, colInk, left)
	if len(v.Discard) == 0 {
		p.text(fs.reg(17), p.t("render.empty", nil), x+lw+8, y, colInkSoft, left)
		return
	}
	top := v.Discard[len(v.Discard)-1]
	c := r.deck.Card(int(top.Card))
	label := fmt.Sprintf("#%d", top.Card)
	side := engine.NoSide
	if c != nil {
		label = p.t("render.discard-top", locale.Args{"Card": p.pr.CardName(r.deck, c.Num), "OP": p.n("common.op-short", c.OP, nil)})
		side = c.Side
	}
	fc := fs.bold(16)
	maxW := m.Max.X - 12 - (x + lw + 8) - 20
	label = ellipsize(fc, p.tr(label), maxW)
	cw := measure(fc, label) + 20
	chip := image.Rect(x+lw+8, y-18, x+lw+8+cw, y+6)
	p.roundRect(chip, 5, sideCol(side))
	p.textMid(fc, label, mid(chip).X, mid(chip).Y, colWhite, center)
	if b.prev != nil && (len(b.prev.Discard) != len(v.Discard) || b.prev.Discard[len(b.prev.Discard)-1] != top) {
		p.roundFrame(chip.Inset(-3), 7, 3, colChanged)
	}
}
