package engine

// View is what one side (or a spectator) may see: never the other hand,
// never an unrevealed objective, never the deck order.
type View struct {
	Viewer  Side    `json:"viewer"` // NoSide for spectators
	Variant Variant `json:"variant"`
	BotSide Side    `json:"botSide"`
	Version int     `json:"version"`
	Round   int8    `json:"round"`

	Cubes     [2][NumMapSpaces]int8 `json:"cubes"`
	Disc      [NumMapSpaces]Side    `json:"disc"`
	Pool      [2]int8               `json:"pool"`
	PoolCap   int8                  `json:"communePoolCap"`
	Track     [2][NumZones]int8     `json:"track"`
	Bonus     [2][NumZones]int8     `json:"bonus"`
	Breached  [2][NumZones]bool     `json:"breached"`
	Prussian  [3]int8               `json:"prussian"`
	OutOfPlay [2]int8               `json:"outOfPlay"`
	Momentum  [2]int8               `json:"momentum"`
	VP        [2]int8               `json:"vp"`

	Initiative Side    `json:"initiative"`
	First      Side    `json:"first"`
	Plays      [2]int8 `json:"plays"`

	DeckSize     int            `json:"deckSize"`
	Discard      []DiscardEntry `json:"discard"`
	RemovedCards int            `json:"removedCards"`
	HandSize     [2]int         `json:"handSize"`
	SetAsideSize [2]int         `json:"setAsideSize"`
	FCHeld       [2]bool        `json:"fcHeld"`
	Fulfilled    [2][]int8      `json:"fulfilled"`

	// The viewer's own secrets.
	Hand     []int8 `json:"hand,omitempty"`
	SetAside []int8 `json:"setAside,omitempty"`
	ObjOffer []int8 `json:"objOffer,omitempty"`
	// Objective[side] is shown only to its owner, after the reveal at
	// scoring, or (solo) for the bot's face-up card.
	Objective [2]int8 `json:"objective"`

	// Deciding lists who must decide now and about what (public).
	Deciding []Deciding `json:"deciding"`
	Log      []LogEntry `json:"log"`
	Result   *Result    `json:"result,omitempty"`
}

// Deciding is public information about a pending decision.
type Deciding struct {
	Side Side       `json:"side"`
	Kind PromptKind `json:"kind"`
}

// ViewFor returns viewer's redacted view (NoSide: a spectator) with the
// whole visible log.
func (g *Game) ViewFor(viewer Side) View { return g.ViewSince(viewer, 0) }

// ViewSince is ViewFor with only the log lines after seq (cheap for
// callers that follow a game move by move).
func (g *Game) ViewSince(viewer Side, seq int) View {
	var v View
	g.ViewInto(&v, viewer, seq)
	return v
}

// ViewInto is ViewSince written into *v, reusing the memory of its lists
// (hand, log, discard pile...): a caller that looks at every position of
// a game, such as rfop selfplay's checks, allocates no view per move. The
// result equals ViewSince's; it shares v's lists, so a View kept from an
// earlier call must not be passed again.
func (g *Game) ViewInto(v *View, viewer Side, seq int) {
	g.viewInto(v, viewer, seq)
	ps := g.Prompts()
	v.Deciding = v.Deciding[:0]
	if len(ps) == 0 {
		v.Deciding = nil
	}
	for _, p := range ps {
		v.Deciding = append(v.Deciding, Deciding{Side: p.Side, Kind: p.Kind})
	}
}

// viewState is ViewSince without Deciding: it never reads the prompts, so
// it may run in the middle of a move (checkpoints).
func (g *Game) viewState(viewer Side, seq int) View {
	var v View
	g.viewInto(&v, viewer, seq)
	return v
}

// viewInto is viewState into *v, reusing its lists.
func (g *Game) viewInto(v *View, viewer Side, seq int) {
	s := &g.S
	// Lists are kept aside so the assignment below can clear every field.
	discard, fulfilled, hand, setAside, objOffer, log, deciding := v.Discard, v.Fulfilled, v.Hand, v.SetAside, v.ObjOffer, v.Log, v.Deciding
	*v = View{
		Viewer: viewer, Variant: s.Variant, BotSide: s.BotSide, Version: s.Version, Round: s.Round,
		Cubes: s.Cubes, Disc: s.Disc, Pool: s.Pool, PoolCap: int8(s.PoolCap(Commune)), Track: s.Track, Bonus: s.Bonus,
		Breached: s.Breached, Prussian: s.Prussian, OutOfPlay: s.OutOfPlay, Momentum: s.Momentum, VP: s.VP,
		Initiative: s.Initiative, First: s.First, Plays: s.Plays,
		DeckSize: len(s.Deck), RemovedCards: len(s.Removed),
		FCHeld: s.FCHeld, Result: s.Result, Deciding: deciding,
	}
	// A list is nil where the state's is nil or (the pile) empty, as a
	// fresh copy would be: clients see null and [] as they always did.
	if len(s.Discard) > 0 {
		v.Discard = append(discard[:0], s.Discard...)
	}
	for i := 0; i < 2; i++ {
		v.HandSize[i] = len(s.Hand[i])
		v.SetAsideSize[i] = len(s.SetAside[i])
		v.Fulfilled[i] = copy8(fulfilled[i], s.Fulfilled[i])
		side := Side(i)
		if s.ObjRevealed || side == viewer || side == s.BotSide {
			v.Objective[i] = s.Objective[i]
		}
	}
	if viewer == Versailles || viewer == Commune {
		v.Hand = copy8(hand, s.Hand[viewer])
		v.SetAside = copy8(setAside, s.SetAside[viewer])
		v.ObjOffer = copy8(objOffer, s.ObjOffer[viewer])
	}
	v.Log = g.appendLogSince(log[:0], seq, viewer)
}

// copy8 is cp8 into dst's memory when it is large enough.
func copy8(dst, src []int8) []int8 {
	if src == nil {
		return nil
	}
	if dst == nil || cap(dst) < len(src) {
		return cp8(src)
	}
	return append(dst[:0], src...)
}

// Dimension controller from a view (for clients such as the renderer).
func (v *View) Pieces(side Side, x Space) int {
	n := int(v.Cubes[side][x])
	if v.Disc[x] == side {
		n++
	}
	return n
}

// Controller of a space as seen in the view.
func (v *View) Controller(x Space) Side {
	switch x {
	case VersaillesHQ:
		return Versailles
	case PrussianTerritory:
		if v.Momentum[Versailles] == maxMomentum {
			return Versailles
		}
		return NoSide
	}
	a, b := v.Pieces(Versailles, x), v.Pieces(Commune, x)
	switch {
	case a > b:
		return Versailles
	case b > a:
		return Commune
	}
	return NoSide
}

// DimensionController as seen in the view.
func (v *View) DimensionController(d Dimension) Side {
	w := NoSide
	for i, x := range dimensionMask[d].Spaces() {
		c := v.Controller(x)
		if c == NoSide || i > 0 && c != w {
			return NoSide
		}
		w = c
	}
	return w
}
