package ai

import (
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/rfop/rfop/engine"
)

// Config is a search budget. Levels are defined by Iterations, so that
// results do not depend on the machine; TimeCap only stops a search early
// on a slow or busy machine.
type Config struct {
	Iterations int           // playouts per decision
	TimeCap    time.Duration // 0: none
	// Explore is the UCB1 exploration constant (win rates in [0,1]).
	Explore float64
	// Epsilon is the playout policy's share of uniformly random choices
	// (1: uniform random playouts).
	Epsilon float64
	// Horizon: playouts stop after this many round ends (0: at the end
	// of the game) and score the position with Evaluate instead of a win.
	Horizon int
	// HorizonPlays: playouts also stop when this many card plays have
	// begun (0: no such limit).
	HorizonPlays int
	// Scale turns Evaluate into a win probability: 1/(1+exp(-e/Scale)).
	Scale float64
	// Priors: a node's moves get Evaluate priors once it has PriorAfter
	// visits (the root at once; RootTurn: the root's priors look to the
	// end of the own turn); Bias weighs them in the selection.
	PriorAfter int
	RootTurn   bool
	Bias       float64
	// ShareBudget: a reused subtree's visits count towards Iterations.
	ShareBudget bool
	// Eval scores positions (priors, and playouts' ends without Leaf);
	// nil: Evaluate.
	Eval EvalFunc
	// Leaf, if set, scores a playout's end instead of Eval (in Eval's
	// units: Scale turns it into a win probability).
	Leaf EvalFunc
}

// EvalFunc scores a position for side, positive good for side (Evaluate).
type EvalFunc func(g *engine.Game, side engine.Side) float64

// Ranked is a choice with the search's estimate of the win rate it gives
// (NaN for a choice the search did not try, or a forced one).
type Ranked struct {
	Choice  engine.Choice
	WinRate float64
	Visits  int
}

// node is one move in the search tree (single-observer information-set
// MCTS: one tree over moves, each iteration in a new determinization).
type node struct {
	side     engine.Side // who made the move into this node
	choice   engine.Choice
	children []*node
	visits   int
	avail    int
	wins     float64
	// prior in [0,1]: how good the move looks one step ahead (Evaluate),
	// set when the parent is expanded; lo, hi: the parent's range.
	prior    float64
	expanded bool
	lo, hi   float64
}

// selectPlain: an untried move at random, else UCB1 among the legal moves.
func (s *Searcher) selectPlain(n *node, p *engine.Prompt, r *rand.Rand) *node {
	var untried []engine.Choice
	for _, c := range p.Choices {
		if ch := n.child(p.Side, c); ch != nil {
			ch.avail++
		} else {
			untried = append(untried, c)
		}
	}
	if len(untried) > 0 {
		ch := &node{side: p.Side, choice: untried[r.IntN(len(untried))], avail: 1}
		n.children = append(n.children, ch)
		return ch
	}
	var next *node
	best := math.Inf(-1)
	for _, c := range p.Choices {
		ch := n.child(p.Side, c)
		v := ch.wins/float64(ch.visits) + s.cfg.Explore*math.Sqrt(math.Log(float64(ch.avail))/float64(ch.visits))
		if v > best {
			best, next = v, ch
		}
	}
	return next
}

// expand gives every legal move a child with its prior: the position one
// step ahead (at the root with turn set, after the rest of the own turn,
// as Greedy sees it) scored by Evaluate for the mover.
//
// The turn look-ahead is the costly part of a decision (about choices² ×
// turn length copies): past the deadline the other choices get the one
// step prior, so a time cap holds.
func (n *node) expand(g *engine.Game, p *engine.Prompt, turn bool, deadline time.Time, eval EvalFunc) {
	n.expanded = true
	vals := make([]float64, len(p.Choices))
	n.lo, n.hi = math.Inf(1), math.Inf(-1)
	for i, c := range p.Choices {
		if turn && (deadline.IsZero() || time.Now().Before(deadline)) {
			vals[i] = turnValue(g, p.Side, c, eval)
		} else {
			vals[i] = stepValue(g, p.Side, c, eval)
		}
		n.lo, n.hi = min(n.lo, vals[i]), max(n.hi, vals[i])
	}
	for i, c := range p.Choices {
		ch := n.child(p.Side, c)
		if ch == nil {
			ch = &node{side: p.Side, choice: c}
			n.children = append(n.children, ch)
		}
		ch.prior = n.norm(vals[i])
	}
}

func (n *node) norm(v float64) float64 {
	if n.hi-n.lo < 1e-9 {
		return 0.5
	}
	return min(1, max(0, (v-n.lo)/(n.hi-n.lo)))
}

// selectPrior: progressive widening by prior (only the best-looking moves
// at first, more as the node is visited) and UCB1 with a progressive bias
// towards the prior that fades with visits; an unvisited move is tried
// first, best prior first.
func (s *Searcher) selectPrior(g *engine.Game, n *node, p *engine.Prompt) *node {
	legal := make([]*node, 0, len(p.Choices))
	for _, c := range p.Choices {
		ch := n.child(p.Side, c)
		if ch == nil { // legal in this deal only
			ch = &node{side: p.Side, choice: c, prior: n.norm(stepValue(g, p.Side, c, s.cfg.Eval))}
			n.children = append(n.children, ch)
		}
		legal = append(legal, ch)
	}
	slices.SortStableFunc(legal, func(a, b *node) int {
		switch {
		case a.prior > b.prior:
			return -1
		case a.prior < b.prior:
			return 1
		}
		return 0
	})
	k := 2 + int(math.Sqrt(float64(n.visits)))
	if k < len(legal) {
		legal = legal[:k]
	}
	var next *node
	best := math.Inf(-1)
	for _, ch := range legal {
		ch.avail++
		if ch.visits == 0 {
			if next == nil || next.visits > 0 {
				next, best = ch, math.Inf(1)
			}
			continue
		}
		v := ch.wins/float64(ch.visits) + s.cfg.Explore*math.Sqrt(math.Log(float64(ch.avail))/float64(ch.visits)) +
			s.cfg.Bias*ch.prior/float64(ch.visits+1)
		if v > best {
			best, next = v, ch
		}
	}
	return next
}

// stepValue is Evaluate for side after c.
func stepValue(g *engine.Game, side engine.Side, c engine.Choice, eval EvalFunc) float64 {
	h := g.Clone()
	if err := h.Apply(side, c); err != nil {
		return math.Inf(-1)
	}
	return eval(h, side) + 0.001*quickScore(&g.S, side, c)
}

// turnValue is Evaluate for side after c and the rest of side's turn, each
// later choice the best one step ahead (Greedy's view).
func turnValue(g *engine.Game, side engine.Side, c engine.Choice, eval EvalFunc) float64 {
	h := g.Clone()
	if err := h.Apply(side, c); err != nil {
		return math.Inf(-1)
	}
	for i := 0; i < maxFollow; i++ {
		ps := h.Prompts()
		if len(ps) != 1 || ps[0].Side != side || isTurnStart(ps[0].Kind) {
			break
		}
		if err := h.Apply(side, oneStep(h, &ps[0], eval)); err != nil {
			break
		}
	}
	return eval(h, side) + 0.001*quickScore(&g.S, side, c)
}

func (n *node) child(side engine.Side, c engine.Choice) *node {
	for _, ch := range n.children {
		if ch.side == side && ch.choice == c {
			return ch
		}
	}
	return nil
}

// Searcher is the search player: information-set Monte Carlo tree search
// over the engine's own prompts. Each iteration deals the unseen cards at
// random (InfoSet.Sample), walks the tree with UCB1 among the moves legal
// in that deal, adds one node, plays on with the heuristic policy to the
// Config's horizon and scores the result (Evaluate, or the win at the
// game's end). Prompts with a single legal choice
// are played through without a node and cost nothing.
//
// Memory: the tree of one decision (about one node per iteration) is
// dropped when the next decision comes, except the subtree below the
// chosen move while the same side decides again right after (the next
// cube of the same operations): that is reused on purpose.
type Searcher struct {
	cfg  Config
	seed uint64
	name string

	expandBy time.Time // the root's turn look-ahead stops here (a quarter of the time cap)

	reuse    *node // subtree for the next decision, if it follows at once
	reuseVer int
	reuseSid engine.Side

	// Stats: decisions searched and their total time.
	Decisions int
	Elapsed   time.Duration
}

// NewSearcher returns a search player with the given budget. The same seed,
// budget and position always give the same choice (unless TimeCap cuts a
// search short).
func NewSearcher(cfg Config, seed uint64) *Searcher {
	if cfg.Explore == 0 {
		cfg.Explore = 0.7
	}
	if cfg.PriorAfter == 0 {
		cfg.PriorAfter = 1 << 30
	}
	if cfg.Scale == 0 {
		cfg.Scale = 1.5
	}
	if cfg.Eval == nil {
		cfg.Eval = Evaluate
	}
	return &Searcher{cfg: cfg, seed: seed, name: "ai"}
}

func (s *Searcher) Name() string { return s.name }

// Choose returns the most visited move of the search.
func (s *Searcher) Choose(is *engine.InfoSet) (engine.Choice, error) {
	r, err := s.Rank(is)
	if err != nil {
		return engine.Choice{}, err
	}
	c := r[0].Choice
	return c, nil
}

// Rank searches the InfoSet's decision and returns its choices, best first
// (most visits), each with its estimated win rate for the deciding side.
func (s *Searcher) Rank(is *engine.InfoSet) ([]Ranked, error) {
	p, err := promptOf(is)
	if err != nil {
		return nil, err
	}
	side := is.Side()
	if len(p.Choices) == 1 {
		if s.reuse != nil && s.reuseVer == is.Version() && s.reuseSid == side {
			s.reuseVer++ // the tree played through it too
		}
		return []Ranked{{Choice: p.Choices[0], WinRate: math.NaN()}}, nil
	}
	start := time.Now()
	root := &node{side: side.Other()}
	if s.reuse != nil && s.reuseVer == is.Version() && s.reuseSid == side {
		root = s.reuse
	}
	s.reuse = nil
	r := rand.New(rand.NewPCG(s.seed, uint64(is.Version())<<2|uint64(side)))
	path := make([]*node, 0, 64)
	s.expandBy = time.Time{}
	if s.cfg.TimeCap > 0 {
		s.expandBy = start.Add(s.cfg.TimeCap / 4)
	}
	// A reused subtree's visits count towards the budget (the turn's
	// decisions share their work), but every decision runs at least a
	// quarter of it afresh.
	n := s.cfg.Iterations
	if s.cfg.ShareBudget {
		n = max(s.cfg.Iterations-root.visits, s.cfg.Iterations/4)
	}
	for it := 0; it < n; it++ {
		if s.cfg.TimeCap > 0 && time.Since(start) > s.cfg.TimeCap {
			break
		}
		g := is.Sample(r)
		path = s.iterate(g, root, side, r, path[:0])
		v := s.value(g, side) // for side
		for _, n := range path {
			n.visits++
			if n.side == side {
				n.wins += v
			} else {
				n.wins += 1 - v
			}
		}
	}
	var out []Ranked
	for _, c := range p.Choices {
		rk := Ranked{Choice: c, WinRate: math.NaN()} // not searched
		if n := root.child(side, c); n != nil && n.visits > 0 {
			rk.Visits = n.visits
			rk.WinRate = n.wins / float64(n.visits)
		}
		out = append(out, rk)
	}
	slices.SortStableFunc(out, func(a, b Ranked) int {
		if a.Visits != b.Visits {
			return b.Visits - a.Visits
		}
		switch {
		case a.WinRate > b.WinRate:
			return -1
		case a.WinRate < b.WinRate:
			return 1
		}
		return 0
	})
	if n := root.child(side, out[0].Choice); n != nil {
		s.reuse, s.reuseVer, s.reuseSid = n, is.Version()+1, side
	}
	s.Decisions++
	s.Elapsed += time.Since(start)
	return out, nil
}

// iterate runs one iteration on the sample g: selection and expansion in
// the tree, then a playout. It returns the nodes visited (root first).
func (s *Searcher) iterate(g *engine.Game, root *node, me engine.Side, r *rand.Rand, path []*node) []*node {
	n := root
	path = append(path, n)
	for {
		ps := g.Prompts()
		if len(ps) == 0 {
			return path
		}
		p := &ps[0]
		if len(ps) > 1 && ps[1].Side == me { // a simultaneous decision: ours first
			p = &ps[1]
		}
		if len(p.Choices) == 1 {
			if err := g.Apply(p.Side, p.Choices[0]); err != nil {
				return path
			}
			continue
		}
		if !n.expanded && (n == root || n.visits >= s.cfg.PriorAfter) {
			n.expand(g, p, n == root && s.cfg.RootTurn, s.expandBy, s.cfg.Eval)
		}
		var next *node
		if n.expanded {
			next = s.selectPrior(g, n, p)
		} else {
			next = s.selectPlain(n, p, r)
		}
		if err := g.Apply(p.Side, next.choice); err != nil {
			return path
		}
		path = append(path, next)
		n = next
		if next.visits == 0 {
			break
		}
	}
	playout(g, r, s.cfg.Epsilon, s.cfg.Horizon, s.cfg.HorizonPlays)
	return path
}

// value is the iteration's result for side: 1 or 0 at the end of the
// game, else the leaf evaluation's estimate (Leaf, or Eval).
func (s *Searcher) value(g *engine.Game, side engine.Side) float64 {
	if res := g.S.Result; res != nil {
		if res.Winner == side {
			return 1
		}
		return 0
	}
	eval := s.cfg.Eval
	if s.cfg.Leaf != nil {
		eval = s.cfg.Leaf
	}
	return 1 / (1 + math.Exp(-eval(g, side)/s.cfg.Scale))
}

// playout plays g with the heuristic policy to its end or, with a
// horizon, until that many rounds have ended.
func playout(g *engine.Game, r *rand.Rand, eps float64, horizon, plays int) {
	stop := int8(127)
	if horizon > 0 {
		stop = g.S.Round + int8(horizon)
	}
	if plays <= 0 {
		plays = 1 << 30
	}
	for steps := 0; steps < 20000; steps++ {
		ps := g.Prompts()
		if len(ps) == 0 || g.S.Round >= stop {
			return
		}
		if k := ps[0].Kind; k == engine.PromptPlay || k == engine.PromptFCPlay {
			if plays--; plays < 0 {
				return
			}
		}
		p := &ps[r.IntN(len(ps))]
		if err := g.Apply(p.Side, policyChoose(&g.S, p, r, eps)); err != nil {
			return
		}
	}
}

// Estimate is the side's chance to win from what the InfoSet's side
// knows, whether it has a decision or not: n playouts, each from a new
// deal of the unseen cards, with the playout policy to the Config's
// horizon, scored as the search scores its iterations (the result at the
// game's end, else Evaluate read as a chance). Like Rank it reads nothing
// but the InfoSet: the same InfoSet, seed and n give the same estimate.
func (s *Searcher) Estimate(is *engine.InfoSet, n int) float64 {
	side := is.Side()
	r := rand.New(rand.NewPCG(s.seed^0x45535449, uint64(is.Version())<<2|uint64(side)))
	if n <= 0 {
		n = 1
	}
	var sum float64
	for i := 0; i < n; i++ {
		g := is.Sample(r)
		playout(g, r, s.cfg.Epsilon, s.cfg.Horizon, s.cfg.HorizonPlays)
		sum += s.value(g, side)
	}
	return sum / float64(n)
}
