package engine

import (
	"encoding/json"
	"errors"
	"fmt"
)

// Variant selects the rules variant.
type Variant string

const (
	Standard    Variant = "standard"
	Censorship  Variant = "censorship" // French and Russian editions, decisions 24-26
	maxLogEntry         = 1 << 20
)

// ParseVariant reads "standard" or "censorship" ("" means standard).
func ParseVariant(s string) (Variant, error) {
	switch s {
	case "", "standard":
		return Standard, nil
	case "censorship":
		return Censorship, nil
	}
	return "", fmt.Errorf("unknown variant %s (want standard or censorship)", Quote(s))
}

// DiscardEntry is a card on the discard pile and who played it when.
// By is NoSide for cards that were not "played" (Final Crisis discards,
// cards discarded by an event, cards put under the pile).
type DiscardEntry struct {
	Card  int8 `json:"card"`
	By    Side `json:"by"`
	Round int8 `json:"round"`
}

// State is the complete, serialisable game state. Everything needed to
// continue the game identically is here, the random source included.
type State struct {
	Variant Variant `json:"variant"`
	Seed    int64   `json:"seed"`
	DeckID  string  `json:"deckId"`
	// BotSide is the side played by the solo opponent, NoSide in a 2-player game.
	BotSide Side   `json:"botSide"`
	RNG     uint64 `json:"rng"`
	// Version counts accepted decisions (and undos); a prompt is for one version.
	Version int `json:"version"`

	Round int8 `json:"round"` // 1..3, 4 = Final Crisis

	Cubes    [2][NumMapSpaces]int8 `json:"cubes"`
	Disc     [NumMapSpaces]Side    `json:"disc"` // NoSide when empty
	Pool     [2]int8               `json:"pool"`
	Track    [2][NumZones]int8     `json:"track"`
	Bonus    [2][NumZones]int8     `json:"bonus"`
	Breached [2][NumZones]bool     `json:"breached"`
	// Pending marks zones breached during the current card play or bonus
	// action whose bonus cubes are paid when it ends (decision 14).
	Pending [2][NumZones]bool `json:"pending"`
	FCFirst Side              `json:"fcFirst"` // first side to breach its Final Crisis zone
	// FCHand is the Final Crisis hand size (rounds played), set when it begins.
	FCHand    int8    `json:"fcHand,omitempty"`
	Prussian  [3]int8 `json:"prussian"`
	OutOfPlay [2]int8 `json:"outOfPlay"`
	Momentum  [2]int8 `json:"momentum"`
	// VP is [Political, Military], positive for Versailles, negative for the Commune.
	VP         [2]int8 `json:"vp"`
	Initiative Side    `json:"initiative"`
	First      Side    `json:"first"` // who plays first this round

	Deck    []int8         `json:"deck"`
	Discard []DiscardEntry `json:"discard"` // last entry is the top
	Removed []int8         `json:"removed"` // strategy cards removed from the game during play
	// OutOfGame: cards out of the game for good, in number order — the
	// two-player-only cards at a solo setup, a Final Crisis card played for
	// operations (decision 1), the solo opponent's Final Crisis card after
	// its last play. Never reshuffled.
	OutOfGame []int8    `json:"outOfGame,omitempty"`
	Hand      [2][]int8 `json:"hand"`
	SetAside  [2][]int8 `json:"setAside"`
	FCHeld    [2]bool   `json:"fcHeld"`
	ObjDeck   []int8    `json:"objDeck"`
	ObjOffer  [2][]int8 `json:"objOffer"`
	Objective [2]int8   `json:"objective"`
	// ObjRevealed is true from objective scoring until the next deal.
	ObjRevealed bool      `json:"objRevealed"`
	Fulfilled   [2][]int8 `json:"fulfilled"`
	// ObjOut: objectives out of the game, in number order — the card not
	// kept at a deal (face down: never shown in a view) and objectives not
	// fulfilled.
	ObjOut []int8 `json:"objOut,omitempty"`
	// Census is true when every card has a place in the state (the card
	// census, invariants.go); Load upgrades older saves.
	Census bool    `json:"census,omitempty"`
	Plays  [2]int8 `json:"plays"`

	// Event context: the last space an effect step acted in ("that space"),
	// cards drawn by the current event.
	LastSpace Space `json:"lastSpace"`
	Drawn     int8  `json:"drawn"`

	Stack  []Frame    `json:"stack"`
	Log    []LogEntry `json:"log"`
	Result *Result    `json:"result,omitempty"`
	Undo   *UndoPoint `json:"undo,omitempty"`
}

// Result is the end of the game.
type Result struct {
	Winner Side `json:"winner"`
	// Reason: "victory" (main condition), "tiebreaker", "solo-tie" (no main
	// condition met in solo: the bot wins), or "resigned".
	Reason string `json:"reason"`
	// Tiebreakers met by each side (most combined VP, objectives, pivotal
	// spaces, final initiative), when the tiebreaker was used.
	Tiebreak [2]int `json:"tiebreak"`
	// Msg says who won and why (package locale prints it; English here).
	Msg *Msg    `json:"msg,omitempty"`
	VP  [2]int8 `json:"vp"`
	// LegacySummary is the English summary of a result saved before
	// results carried messages (Msg is nil); empty otherwise. Read it
	// through English or locale's Printer.Result.
	LegacySummary string `json:"summary,omitempty"`
}

// English says who won and why in English with the deck's card names
// (nil: the embedded deck); a result saved before messages prints its
// stored summary.
func (r *Result) English(d *Deck) string {
	if r.Msg == nil {
		return r.LegacySummary
	}
	return r.Msg.English(d)
}

// Options configure a new game.
type Options struct {
	Variant Variant
	Seed    int64
	Deck    *Deck // nil: the embedded deck
	// Solo: the side played by the solo opponent (NoSide for two players).
	BotSide Side
}

// Game is a state plus the deck it is played with. Methods on Game never
// perform I/O; all randomness comes from the state's seeded source.
type Game struct {
	S    State
	deck *Deck

	prompts   []Prompt // cache for the current version
	cachedVer int
	cached    bool
	revealed  bool // hidden information was revealed by the choice being applied
	// inMove is set while a move (choice, undo, resignation) is applied, so
	// every log entry it causes, including those written while the game
	// runs on to the next decision, carries moveFrom: the version the move
	// started from (LogEntry.Version).
	inMove   bool
	moveFrom int
	// observer receives checkpoints (SetObserver); not part of the state.
	observer func(Checkpoint)
	// undoMine is the allocation of the current undo point when nothing but
	// this game refers to it (Clone shares it): beginUndo reuses it. Code
	// outside the engine copies a game with Clone, never by assigning S.
	undoMine *undoAlloc
	// Memory for log lines' messages and prompts' choices (arena.go).
	msgMem    chunks[Msg]
	choiceMem chunks[Choice]
	// sim marks a simulation (InfoSet.Sample and its clones): no log, no
	// undo point, so search playouts cost only the rules.
	sim bool
}

// beginMove and endMove bracket the application of one move.
func (g *Game) beginMove() { g.inMove, g.moveFrom = true, g.S.Version }
func (g *Game) endMove()   { g.inMove = false }

// Deck returns the game's deck.
func (g *Game) Deck() *Deck { return g.deck }

// New sets up a game (map.md "Setup") and runs it to its first decision.
func New(o Options) (*Game, error) {
	if o.Variant == "" {
		o.Variant = Standard
	}
	if o.Variant != Standard && o.Variant != Censorship {
		return nil, fmt.Errorf("new game: unknown variant %s", Quote(string(o.Variant)))
	}
	if o.Deck == nil {
		o.Deck = DefaultDeck()
	}
	if o.BotSide != NoSide && o.BotSide != Versailles && o.BotSide != Commune {
		return nil, fmt.Errorf("new game: invalid bot side %d", o.BotSide)
	}
	if o.BotSide != NoSide && o.Variant == Censorship {
		return nil, errors.New("new game: the Censorship variant is not defined for solo play (solo.md open question 13)")
	}
	g := &Game{deck: o.Deck}
	s := &g.S
	s.Variant, s.Seed, s.DeckID, s.BotSide = o.Variant, o.Seed, o.Deck.ID, o.BotSide
	s.RNG = uint64(o.Seed)*0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019
	s.Round = 1
	s.Log = make([]LogEntry, 0, 160) // a game writes about 150 lines: grown once at most
	for x := range s.Disc {
		s.Disc[x] = NoSide
	}
	s.Cubes[Versailles][Royalists] = 1
	s.Cubes[Versailles][Press] = 1
	s.Cubes[Commune][Press] = 1
	s.Cubes[Commune][SocialMovements] = 1
	s.Cubes[Commune][PereLachaise] = 1
	s.Track = trackStart
	s.Bonus = bonusStart
	s.Prussian = prussianStart
	s.FCFirst = NoSide
	s.Initiative = Commune // the Initiative Card starts Commune side up
	s.First = Commune
	s.FCHeld = [2]bool{true, true}
	s.LastSpace = NoSpace
	s.Census = true
	for n := 1; n <= numCards; n++ {
		c := o.Deck.Card(n)
		switch {
		case c.Kind == StrategyCard:
			if s.BotSide != NoSide && c.TwoPlayerOnly {
				s.OutOfGame = append(s.OutOfGame, int8(n)) // solo setup removes #1 #12 #13 #22 #29 #30
				continue
			}
			s.Deck = append(s.Deck, int8(n))
		case c.Kind == ObjectiveCard:
			s.ObjDeck = append(s.ObjDeck, int8(n))
		}
	}
	g.shuffle(s.Deck)
	g.shuffle(s.ObjDeck)
	if s.BotSide != NoSide {
		s.FCHeld[s.BotSide] = true // kept until its last Final Crisis play
	}
	switch {
	case s.BotSide != NoSide:
		g.log(NoSide, msg("engine.log.setup-solo", aSide("Bot", s.BotSide)))
	case s.Variant == Censorship:
		g.log(NoSide, msg("engine.log.setup-censorship"))
	default:
		g.log(NoSide, msg("engine.log.setup-standard"))
	}
	s.Stack = []Frame{{K: fGame}}
	g.run()
	return g, nil
}

// setSummary sets the result's message.
func (r *Result) setSummary(m Msg) { r.Msg = &m }

// dropStoredWords forgets the English stored beside the messages by saves
// made while lines carried both (the words are made when read), so the
// next save does not write them again; lines saved before messages keep
// theirs, their only words.
func (s *State) dropStoredWords() {
	for i := range s.Log {
		if s.Log[i].Msg != nil {
			s.Log[i].LegacyText = ""
		}
	}
	if r := s.Result; r != nil && r.Msg != nil {
		r.LegacySummary = ""
	}
}

// ---- random source (splitmix64: tiny, fast, state is one integer) ----

func (g *Game) rand() uint64 {
	g.S.RNG += 0x9E3779B97F4A7C15
	z := g.S.RNG
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	return z ^ (z >> 31)
}

// intn returns a uniform integer in [0, n).
func (g *Game) intn(n int) int {
	if n <= 1 {
		return 0
	}
	// Rejection sampling for exact uniformity.
	limit := ^uint64(0) - (^uint64(0) % uint64(n))
	for {
		r := g.rand()
		if r < limit {
			return int(r % uint64(n))
		}
	}
}

func (g *Game) shuffle(a []int8) {
	for i := len(a) - 1; i > 0; i-- {
		j := g.intn(i + 1)
		a[i], a[j] = a[j], a[i]
	}
}

// ---- JSON ----

// MarshalJSON-friendly helpers: the state is plain data.

// Save returns the state as JSON.
func (g *Game) Save() ([]byte, error) {
	b, err := json.Marshal(&g.S)
	if err != nil {
		return nil, fmt.Errorf("save game: %w", err)
	}
	return b, nil
}

// Load restores a game saved with Save. The deck must be the one the game
// was started with; a corrupt state is rejected with the reason.
func Load(b []byte, deck *Deck) (*Game, error) {
	if deck == nil {
		deck = DefaultDeck()
	}
	g := &Game{deck: deck}
	if err := json.Unmarshal(b, &g.S); err != nil {
		return nil, fmt.Errorf("load game: state is not valid JSON: %w", err)
	}
	if g.S.DeckID != deck.ID {
		return nil, fmt.Errorf("load game: the game was started with deck %s, not %s", g.S.DeckID, deck.ID)
	}
	g.S.dropStoredWords()
	// A save from before the card census: give its cards their places.
	if err := g.S.giveLostCardsAPlace(deck); err != nil {
		return nil, fmt.Errorf("load game: corrupt state: %w", err)
	}
	if u := g.S.Undo; u != nil && u.Base != nil {
		if err := u.Base.giveLostCardsAPlace(deck); err != nil {
			return nil, fmt.Errorf("load game: corrupt undo point: %w", err)
		}
	}
	if err := g.CheckInvariants(); err != nil {
		return nil, fmt.Errorf("load game: corrupt state: %w", err)
	}
	if err := g.checkStack(); err != nil {
		return nil, fmt.Errorf("load game: corrupt state: %w", err)
	}
	return g, nil
}

// Clone returns a deep copy of the game (the log is shared up to its
// current length and copied on append).
func (g *Game) Clone() *Game {
	c := &Game{deck: g.deck, sim: g.sim}
	c.S = g.S.clone(!g.sim)
	g.undoMine = nil // the clone's undo point shares the base
	return c
}

func cp8(a []int8) []int8 {
	if a == nil {
		return nil
	}
	return append(make([]int8, 0, len(a)), a...)
}

// clone copies the state; the card lists share one allocation (a clone is
// made for every undo point and every AI simulation, and a dozen small
// allocations were most of its cost). Each list is cut to its length and
// capacity, so an append to one reallocates it instead of writing over
// the next; a nil list stays nil and an empty one empty (Save writes null
// and [] for them), as cp8 copied them.
func (s *State) clone(withLog bool) State {
	var c State
	s.cloneInto(&c, nil, nil, nil)
	if withLog {
		c.Log = s.Log[:len(s.Log):len(s.Log)]
	}
	if withLog && s.Undo != nil {
		u := *s.Undo
		u.Choices = u.Choices[:len(u.Choices):len(u.Choices)] // an append must not write into s's room
		c.Undo = &u
	}
	return c
}

// cloneInto copies the state without log and undo point into c, taking
// the memory of its lists from *lists, *discard and *stack when they are
// large enough (and leaving there what it allocated): an undo point
// reuses its base's.
func (s *State) cloneInto(c *State, lists *[]int8, discard *[]DiscardEntry, stack *[]Frame) {
	*c = *s
	ls := [...]*[]int8{&c.Deck, &c.Removed, &c.OutOfGame, &c.ObjDeck, &c.ObjOut,
		&c.Hand[0], &c.Hand[1], &c.SetAside[0], &c.SetAside[1],
		&c.ObjOffer[0], &c.ObjOffer[1], &c.Fulfilled[0], &c.Fulfilled[1]}
	n := 0
	for _, l := range ls {
		n += len(*l)
	}
	var buf []int8
	if lists != nil && cap(*lists) >= n {
		buf = (*lists)[:n]
	} else {
		buf = make([]int8, n)
		if lists != nil {
			*lists = buf
		}
	}
	for _, l := range ls {
		if *l == nil {
			continue
		}
		k := copy(buf, *l)
		*l, buf = buf[:k:k], buf[k:]
	}
	// An empty pile or stack is copied as nil, as it always was: undo
	// points (clones) are saved, and a stored game must match its replay.
	c.Discard = nil
	if len(s.Discard) > 0 {
		var d []DiscardEntry
		if discard != nil {
			d = *discard
		}
		d = append(d[:0], s.Discard...)
		if discard != nil {
			*discard = d
		}
		c.Discard = d[:len(d):len(d)]
	}
	c.Stack = nil
	if len(s.Stack) > 0 {
		var f []Frame
		if stack != nil {
			f = *stack
		}
		f = append(f[:0], s.Stack...)
		if stack != nil {
			*stack = f
		}
		c.Stack = f[:len(f):len(f)]
	}
	c.Log = nil
	if s.Result != nil {
		r := *s.Result
		c.Result = &r
	}
	c.Undo = nil
}
