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
}

// Ranked is a choice with the search's estimate of the win rate it gives.
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
// in that deal, adds one node, plays the game to its end with the
// heuristic policy and counts the win. Prompts with a single legal choice
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
	for it := 0; it < s.cfg.Iterations; it++ {
		if s.cfg.TimeCap > 0 && it&7 == 7 && time.Since(start) > s.cfg.TimeCap {
			break
		}
		g := is.Sample(r)
		path = s.iterate(g, root, side, r, path[:0])
		winner := engine.NoSide
		if g.S.Result != nil {
			winner = g.S.Result.Winner
		}
		for _, n := range path {
			n.visits++
			if n.side == winner {
				n.wins++
			}
		}
	}
	var out []Ranked
	for _, c := range p.Choices {
		rk := Ranked{Choice: c}
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
		// Untried moves legal in this deal, and availability of the others.
		var untried []engine.Choice
		for _, c := range p.Choices {
			if ch := n.child(p.Side, c); ch != nil {
				ch.avail++
			} else {
				untried = append(untried, c)
			}
		}
		var next *node
		if len(untried) > 0 {
			c := untried[r.IntN(len(untried))]
			next = &node{side: p.Side, choice: c, avail: 1}
			n.children = append(n.children, next)
		} else {
			best := -1.0
			for _, c := range p.Choices {
				ch := n.child(p.Side, c)
				v := ch.wins/float64(ch.visits) + s.cfg.Explore*math.Sqrt(math.Log(float64(ch.avail))/float64(ch.visits))
				if v > best {
					best, next = v, ch
				}
			}
		}
		if err := g.Apply(p.Side, next.choice); err != nil {
			return path
		}
		path = append(path, next)
		n = next
		if len(untried) > 0 {
			break
		}
	}
	playout(g, r, s.cfg.Epsilon)
	return path
}

// playout plays g to its end with the heuristic policy.
func playout(g *engine.Game, r *rand.Rand, eps float64) {
	for steps := 0; steps < 20000; steps++ {
		ps := g.Prompts()
		if len(ps) == 0 {
			return
		}
		p := &ps[r.IntN(len(ps))]
		if err := g.Apply(p.Side, policyChoose(&g.S, p, r, eps)); err != nil {
			return
		}
	}
}
