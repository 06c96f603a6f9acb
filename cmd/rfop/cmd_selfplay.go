package main

// rfop selfplay: many games of uniformly random legal choices, checked
// after every decision (rule invariants, hidden information), summarised
// as one JSON object on stdout.

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"reflect"
	"runtime/debug"
	"runtime/pprof"
	"slices"
	"strings"
	"time"

	"github.com/rfop/rfop/engine"
)

func init() {
	register(&command{
		name:    "selfplay",
		summary: "play N random games, checking rules invariants and hidden information; print JSON stats",
		run:     runSelfplay,
	})
}

// maxSelfplayDecisions caps one game: a random game takes about 100
// decisions, so a game still running after this many does not end.
const maxSelfplayDecisions = 10000

// maxReported is how many problems are printed to stderr in detail.
const maxReported = 5

// selfplayStats is the JSON printed on stdout. Field order is the output order.
type selfplayStats struct {
	Games               int     `json:"games"`
	Errors              int     `json:"errors"`
	InvariantViolations int     `json:"invariant_violations"`
	CommuneWins         int     `json:"commune_wins"`
	VersaillesWins      int     `json:"versailles_wins"`
	FinalCrisisReached  int     `json:"final_crisis_reached"`
	AvgDecisions        float64 `json:"avg_decisions"`
	GamesPerSec         float64 `json:"games_per_sec"`
	BotWins             *int    `json:"bot_wins,omitempty"`
	BotSide             string  `json:"bot_side,omitempty"`
}

func runSelfplay(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("selfplay", flag.ContinueOnError)
	games := fs.Int("games", 100, "number of games to play")
	seed := fs.Int64("seed", 1, "seed of the first game; game i uses seed+i")
	variantFlag := fs.String("variant", "standard", "rules variant: standard or censorship")
	soloFlag := fs.String("solo", "", "solo game: the side played by the solo opponent (commune or versailles); the other side plays randomly")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the games to this file (go tool pprof)")
	playersFlag := fs.String("players", "", "a match between two players (random, greedy, ai:easy|normal|hard), e.g. ai:normal,greedy; they alternate sides game by game")
	fs.Usage = func() {
		w := fs.Output()
		fmt.Fprintln(w, "Usage: rfop selfplay [--games N] [--seed S] [--variant censorship] [--solo commune|versailles]")
		fmt.Fprintln(w, "       rfop selfplay --players A,B [--games N] [--seed S] [--variant censorship]")
		fmt.Fprintln(w)
		fmt.Fprintln(w, "Plays N games in which every decision is a uniformly random legal choice (game i")
		fmt.Fprintln(w, "uses seed S+i for its deal and for its choices, so any failure can be replayed).")
		fmt.Fprintln(w, "After every decision it checks the rules invariants (cube and card conservation,")
		fmt.Fprintln(w, "limits) and that the opponent's view holds none of the decider's hidden")
		fmt.Fprintln(w, "information (hand, set-aside cards, objective, private log lines, deck order).")
		fmt.Fprintf(w, "A game must end with a result within %d decisions.\n", maxSelfplayDecisions)
		fmt.Fprintln(w)
		fmt.Fprintln(w, "Prints one JSON object on stdout: games, errors, invariant_violations,")
		fmt.Fprintln(w, "commune_wins, versailles_wins, final_crisis_reached (games that reached the")
		fmt.Fprintln(w, "Final Crisis, round 4), avg_decisions, games_per_sec; with --solo also")
		fmt.Fprintln(w, "bot_wins and bot_side. The first problems go to stderr with seed and decision")
		fmt.Fprintln(w, "number. Exit status: 0 all good, 1 any error or violation, 2 bad flags.")
		fmt.Fprintln(w, "--cpuprofile FILE writes a CPU profile of the games (go tool pprof).")
		fmt.Fprintln(w)
		fmt.Fprintln(w, "With --players A,B (each random, greedy or ai:easy|normal|hard) it plays a match")
		fmt.Fprintln(w, "instead: A takes Versailles in even games and the Commune in odd ones, each")
		fmt.Fprintln(w, "deciding from its own side's information only. It prints games, players, wins,")
		fmt.Fprintln(w, "wins_by_side, ci95 (Wilson 95% interval of each win rate), errors and")
		fmt.Fprintln(w, "avg_decision_ms (decisions with more than one legal choice).")
		fmt.Fprintln(w)
		fmt.Fprintln(w, "Flags:")
		fs.PrintDefaults()
	}
	if code, done := parseFlags(fs, args, stdout, stderr); done {
		return code
	}
	if *games < 1 {
		return usageError(stderr, "selfplay", "--games must be at least 1")
	}
	// A run holds one game at a time (under 1 MB live) and leaves about
	// 100 KB of garbage per game: at the default GOGC the collector runs
	// every 30-40 games, about a tenth of the time. A 16 MB target makes
	// it run a quarter as often. GOGC in the environment still decides.
	if os.Getenv("GOGC") == "" {
		defer debug.SetGCPercent(debug.SetGCPercent(400))
	}
	variant, err := engine.ParseVariant(*variantFlag)
	if err != nil {
		return usageError(stderr, "selfplay", err.Error())
	}
	if *playersFlag != "" {
		if *soloFlag != "" {
			return usageError(stderr, "selfplay", "--players and --solo cannot be combined")
		}
		names, err := parsePlayers(*playersFlag)
		if err != nil {
			return usageError(stderr, "selfplay", err.Error())
		}
		return runMatch(names, *games, *seed, variant, stdout, stderr)
	}
	bot, code, ok := parseSoloFlag(*soloFlag, variant, "selfplay", stderr)
	if !ok {
		return code
	}
	if err := checkViewType(); err != nil {
		fmt.Fprintf(stderr, "selfplay: %v\n", err)
		return 1
	}

	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			fmt.Fprintf(stderr, "selfplay: %v\n", err)
			return 1
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintf(stderr, "selfplay: %v\n", err)
			return 1
		}
		defer pprof.StopCPUProfile()
	}

	var st selfplayStats
	st.Games = *games
	reported := 0
	report := func(format string, a ...any) {
		if reported < maxReported {
			fmt.Fprintf(stderr, "selfplay: "+format+"\n", a...)
		} else if reported == maxReported {
			fmt.Fprintln(stderr, "selfplay: (further problems not shown)")
		}
		reported++
	}
	botWins := 0
	decisions := 0
	var hc hiddenChecker // reset by every game, its memory reused
	start := time.Now()
	for i := 0; i < *games; i++ {
		s := *seed + int64(i)
		res := selfplayGame(s, variant, bot, i == 0, &hc)
		decisions += res.decisions
		switch {
		case res.violation != nil:
			st.InvariantViolations++
			report("%s seed %d, decision %d: invariant violated: %v", variant, s, res.decisions, res.violation)
		case res.err != nil:
			st.Errors++
			report("%s seed %d, decision %d: %v", variant, s, res.decisions, res.err)
		}
		if res.finalCrisis {
			st.FinalCrisisReached++
		}
		if res.winner == engine.Commune {
			st.CommuneWins++
		} else if res.winner == engine.Versailles {
			st.VersaillesWins++
		}
		if bot != engine.NoSide && res.winner == bot {
			botWins++
		}
	}
	elapsed := time.Since(start).Seconds()
	st.AvgDecisions = round1(float64(decisions) / float64(*games))
	if elapsed > 0 {
		st.GamesPerSec = round1(float64(*games) / elapsed)
	}
	if bot != engine.NoSide {
		st.BotWins = &botWins
		st.BotSide = bot.Key()
	}
	b, err := json.Marshal(st)
	if err != nil {
		fmt.Fprintf(stderr, "selfplay: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "%s\n", b)
	if st.Errors > 0 || st.InvariantViolations > 0 {
		return 1
	}
	return 0
}

func round1(x float64) float64 { return math.Round(x*10) / 10 }

// gameResult is the outcome of one selfplay game. At most one of err and
// violation is set; winner is NoSide unless the game ended with a result.
type gameResult struct {
	decisions   int
	winner      engine.Side
	finalCrisis bool
	err         error
	violation   error
}

// selfplayGame plays one random game, checked by hc (reset first).
// deepCheck adds a JSON check of the views (slower; done for the first
// game of a run).
func selfplayGame(seed int64, variant engine.Variant, bot engine.Side, deepCheck bool, hc *hiddenChecker) (res gameResult) {
	res.winner = engine.NoSide
	defer func() {
		if p := recover(); p != nil {
			res.err = fmt.Errorf("engine panic: %v", p)
		}
	}()
	g, err := engine.New(engine.Options{Seed: seed, Variant: variant, BotSide: bot})
	if err != nil {
		res.err = err
		return res
	}
	r := rand.New(rand.NewPCG(uint64(seed), 0x5e1f_91a7))
	hc.reset()
	if err := hc.check(g, engine.Versailles); err != nil {
		res.violation = fmt.Errorf("before the first decision: %w", err)
		return res
	}
	for g.S.Result == nil {
		if res.decisions >= maxSelfplayDecisions {
			res.err = fmt.Errorf("no result after %d decisions (round %d)", res.decisions, g.S.Round)
			return res
		}
		ps := g.Prompts()
		if len(ps) == 0 {
			res.err = errors.New("the game has neither a result nor a pending decision")
			return res
		}
		p := ps[r.IntN(len(ps))]
		var c engine.Choice
		if p.Side == bot && bot != engine.NoSide {
			c, _, err = soloChooser(g, p)
			if err != nil {
				res.err = fmt.Errorf("solo opponent (%s) on %q: %w", bot, p.Kind, err)
				return res
			}
		} else {
			c = p.Choices[r.IntN(len(p.Choices))]
		}
		if err := g.Apply(p.Side, c); err != nil {
			res.err = fmt.Errorf("%s %q: apply %+v: %w", p.Side, p.Kind, c, err)
			return res
		}
		res.decisions++
		if g.S.Round >= 4 {
			res.finalCrisis = true
		}
		if err := g.CheckInvariants(); err != nil {
			res.violation = fmt.Errorf("after %s %q: %w", p.Side, p.Kind, err)
			return res
		}
		if err := hc.check(g, p.Side); err != nil {
			res.violation = fmt.Errorf("hidden information, after %s %q: %w", p.Side, p.Kind, err)
			return res
		}
		if deepCheck && res.decisions%10 == 1 {
			if err := deepViewCheck(g); err != nil {
				res.violation = fmt.Errorf("hidden information, after %s %q: %w", p.Side, p.Kind, err)
				return res
			}
		}
	}
	res.winner = g.S.Result.Winner
	if res.winner != engine.Versailles && res.winner != engine.Commune {
		res.err = fmt.Errorf("the game ended without a winner: %+v", *g.S.Result)
	}
	return res
}

// hiddenChecker checks, after a decision by one side, that the opponent's
// view carries none of that side's secrets. It looks only at the log lines
// new since its last check, so a game costs one pass over its log.
type hiddenChecker struct {
	logSeen int    // log lines scanned for hidden card names
	viewLog [2]int // log lines already seen through each side's view

	// At the last check: the deck, the removed cards, the discard pile,
	// and the set of cards hidden anywhere.
	deckOrder, removed []int8
	discard            []engine.DiscardEntry
	hidden             uint64
	started            bool
	// views[viewer] is the view of the last check, whose memory the next
	// one reuses (engine.Game.ViewInto): checking allocates nothing.
	views [2]engine.View
	// logs[viewer] keeps the memory of a view's log while the view's is
	// nil (no line after the last check).
	logs [2][]engine.LogEntry
}

// reset makes hc ready for a new game, keeping the memory of its lists.
func (hc *hiddenChecker) reset() {
	*hc = hiddenChecker{
		deckOrder: hc.deckOrder[:0], removed: hc.removed[:0], discard: hc.discard[:0],
		views: hc.views, logs: hc.logs,
	}
}

// check inspects ViewFor(decider.Other()) against the true state.
func (hc *hiddenChecker) check(g *engine.Game, decider engine.Side) error {
	s := &g.S
	viewer := decider.Other()
	full := s.Log
	v := &hc.views[viewer]
	if v.Log == nil {
		v.Log = hc.logs[viewer][:0]
	}
	g.ViewInto(v, viewer, min(hc.viewLog[viewer], len(full)))
	if cap(v.Log) > cap(hc.logs[viewer]) {
		hc.logs[viewer] = v.Log[:0]
	}
	if v.Viewer != viewer {
		return fmt.Errorf("view for %s says it is for %s", viewer, v.Viewer)
	}
	// The viewer's own secrets, exactly: so nothing of the decider's.
	if !equalCards(v.Hand, s.Hand[viewer]) {
		return fmt.Errorf("%s's view shows hand %v, its hand is %v (opponent's: %v)", viewer, v.Hand, s.Hand[viewer], s.Hand[decider])
	}
	if !equalCards(v.SetAside, s.SetAside[viewer]) {
		return fmt.Errorf("%s's view shows set-aside cards %v, its own are %v", viewer, v.SetAside, s.SetAside[viewer])
	}
	if !equalCards(v.ObjOffer, s.ObjOffer[viewer]) {
		return fmt.Errorf("%s's view shows objective offer %v, its own is %v", viewer, v.ObjOffer, s.ObjOffer[viewer])
	}
	if v.Objective[viewer] != s.Objective[viewer] {
		return fmt.Errorf("%s's view hides its own objective", viewer)
	}
	if !s.ObjRevealed && decider != s.BotSide && v.Objective[decider] != 0 {
		return fmt.Errorf("%s sees %s's unrevealed objective #%d", viewer, decider, v.Objective[decider])
	}
	if v.DeckSize != len(s.Deck) || v.HandSize[decider] != len(s.Hand[decider]) {
		return fmt.Errorf("%s's view has wrong deck or hand sizes", viewer)
	}
	// Log lines new to this viewer: none private to the decider.
	for _, e := range v.Log {
		if e.Seq <= hc.viewLog[viewer] {
			continue
		}
		if e.To != engine.NoSide && e.To != viewer {
			return fmt.Errorf("%s's view shows a line private to %s: %q", viewer, e.To, e.English(g.Deck()))
		}
	}
	hc.viewLog[viewer] = len(full)
	// New public lines must not name a card that was hidden before the
	// decision and still is after it (drawn into a hand, held, or still in
	// the deck). Cards are drawn from the end of the deck and added to the
	// end of the discard pile and the removed cards. If the deck is not the
	// old one shortened, or the pile or the removed cards are not the old
	// ones lengthened, cards were reshuffled or moved back: a card may have
	// been public in between, and the decision is not checked.
	drawnOnly := hc.started &&
		len(s.Deck) <= len(hc.deckOrder) && equalCards(s.Deck, hc.deckOrder[:len(s.Deck)]) &&
		len(s.Removed) >= len(hc.removed) && equalCards(s.Removed[:len(hc.removed)], hc.removed) &&
		len(s.Discard) >= len(hc.discard) && slices.Equal(s.Discard[:len(hc.discard)], hc.discard)
	hc.deckOrder = append(hc.deckOrder[:0], s.Deck...)
	hc.removed = append(hc.removed[:0], s.Removed...)
	hc.discard = append(hc.discard[:0], s.Discard...)
	deck := cardMask(0, s.Deck)
	secret := cardMask(0, s.ObjDeck)
	for side := engine.Versailles; side <= engine.Commune; side++ {
		secret = cardMask(secret, s.Hand[side])
		secret = cardMask(secret, s.SetAside[side])
		secret = cardMask(secret, s.ObjOffer[side])
		// In solo both objectives are open: the bot's lies face up and the
		// player's is the other card of the pair drawn (solo.md §6.6).
		if !s.ObjRevealed && s.BotSide == engine.NoSide && s.Objective[side] > 0 {
			secret |= 1 << uint(s.Objective[side])
		}
	}
	hidden := deck | secret
	if prev := hc.hidden; drawnOnly || !hc.started {
		if !hc.started {
			prev = hidden // the setup lines: against the first deal
		}
		flag := hidden & prev
		for i := hc.logSeen; i < len(s.Log) && flag != 0; i++ {
			e := &s.Log[i]
			if e.To != engine.NoSide {
				continue
			}
			if n := namedHiddenCard(e, flag); n > 0 {
				return fmt.Errorf("public log line names hidden card #%d: %q", n, e.English(g.Deck()))
			}
		}
	}
	hc.logSeen = len(s.Log)
	hc.hidden, hc.started = hidden, true
	return nil
}

// cardMask adds cards (numbers 1-63) to a set.
func cardMask(m uint64, cards []int8) uint64 {
	for _, c := range cards {
		m |= maskBits[uint8(c)]
	}
	return m
}

// maskBits[c] is card c's bit for cardMask, 0 for a number outside 1-63
// (a table: the check runs over every card after every decision).
var maskBits = func() (t [256]uint64) {
	for c := 1; c < 64; c++ {
		t[c] = 1 << c
	}
	return t
}()

// namedHiddenCard returns a card that line e names (a card argument of its
// message, "#N" in its verbatim text) and that is in the set hidden, or 0.
// It reads the message, not words, so checking costs no text.
func namedHiddenCard(e *engine.LogEntry, hidden uint64) int {
	found := 0
	e.Cards(func(n int) {
		if found == 0 && n > 0 && n < 64 && hidden&(1<<uint(n)) != 0 {
			found = n
		}
	})
	return found
}

func equalCards(a, b []int8) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// secretKeys are JSON keys of engine.State that must never be in a View:
// the deck order, and the seed and random state that would predict it.
var secretKeys = []string{"deck", "objDeck", "rng", "seed", "stack", "undo", "objOffer", "setAside", "hand"}

// checkViewType: the View type has no field that could carry the deck
// order or the random state (the secrets only a side's own view may hold,
// hand, setAside and objOffer, are checked per view).
func checkViewType() error {
	t := reflect.TypeOf(engine.View{})
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		key := strings.Split(f.Tag.Get("json"), ",")[0]
		switch key {
		case "deck", "objDeck", "rng", "seed", "stack", "undo":
			return fmt.Errorf("engine.View has field %s (json %q): views must not carry the deck order or random state", f.Name, key)
		}
	}
	return nil
}

// deepViewCheck marshals the spectator's and each side's view as a client
// would receive it and checks that no secret key is there (a side's own
// hand and offers aside).
func deepViewCheck(g *engine.Game) error {
	for _, viewer := range []engine.Side{engine.NoSide, engine.Versailles, engine.Commune} {
		b, err := json.Marshal(g.ViewFor(viewer))
		if err != nil {
			return err
		}
		var raw map[string]presentKey
		if err := json.Unmarshal(b, &raw); err != nil {
			return err
		}
		for _, k := range secretKeys {
			if _, ok := raw[k]; !ok {
				continue
			}
			own := viewer != engine.NoSide && (k == "hand" || k == "setAside" || k == "objOffer")
			if !own {
				return fmt.Errorf("the %s view carries %q", viewerName(viewer), k)
			}
		}
		if bytes.Contains(b, []byte(`"deck":`)) {
			return fmt.Errorf("the %s view carries a deck", viewerName(viewer))
		}
	}
	return nil
}

// presentKey is a JSON value decoded only as far as validating it: a map
// of them holds the keys of an object, which is all deepViewCheck reads
// (json.RawMessage copied every value, the whole log included).
type presentKey struct{}

func (*presentKey) UnmarshalJSON([]byte) error { return nil }

func viewerName(s engine.Side) string {
	if s == engine.NoSide {
		return "spectator"
	}
	return s.String()
}

// parseFlags parses args; done is true when the command must return code
// now (-h: usage on stdout, 0; a bad flag: message and usage on stderr, 2).
func parseFlags(fs *flag.FlagSet, args []string, stdout, stderr io.Writer) (code int, done bool) {
	var buf bytes.Buffer
	fs.SetOutput(&buf)
	err := fs.Parse(args)
	fs.SetOutput(stderr)
	switch {
	case errors.Is(err, flag.ErrHelp):
		stdout.Write(buf.Bytes())
		return 0, true
	case err != nil:
		stderr.Write(buf.Bytes())
		return 2, true
	case fs.NArg() > 0:
		fmt.Fprintf(stderr, "%s: unexpected argument %s (run 'rfop %s -h')\n", fs.Name(), engine.Quote(fs.Arg(0)), fs.Name())
		return 2, true
	}
	return 0, false
}

func usageError(stderr io.Writer, cmd, msg string) int {
	fmt.Fprintf(stderr, "%s: %s (run 'rfop %s -h')\n", cmd, msg, cmd)
	return 2
}

// parseSoloFlag reads --solo. ok is false when the command must return code.
func parseSoloFlag(v string, variant engine.Variant, cmd string, stderr io.Writer) (bot engine.Side, code int, ok bool) {
	if v == "" {
		return engine.NoSide, 0, true
	}
	bot, err := engine.ParseSide(strings.ToLower(v))
	if err != nil {
		return engine.NoSide, usageError(stderr, cmd, "--solo: "+err.Error()), false
	}
	if variant == engine.Censorship {
		return engine.NoSide, usageError(stderr, cmd, "the Censorship variant has no solo rules; use --solo with the standard variant"), false
	}
	if soloChooser == nil {
		fmt.Fprintf(stderr, "%s: solo opponent not available yet (the solo package is not wired into this build); play without --solo\n", cmd)
		return engine.NoSide, 1, false
	}
	return bot, 0, true
}
