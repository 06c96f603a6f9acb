package bot

import (
	"runtime"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
)

// Admission of the work a click or command does after its
// acknowledgement. Discord wants the acknowledgement within 3 s, and the
// bot sends it first; what follows (load the game, play the move, store
// it, build the next panel) is admitted a few interactions at a time, in
// their order of arrival. Each interaction's handler is a goroutine, and
// Go has no priorities: under a burst (200 games whose players click as
// soon as they are answered) hundreds of them were runnable at once, and
// the render goroutine, which draws the boards and the hand pictures every
// game waits for, got about half of one core (it yields about every
// millisecond so that acknowledgements are not held up, and a goroutine
// that yields waits behind every runnable one). The start's hand DMs were
// done seconds late and each game's next boards piled up behind them
// (issue 30). Admitted a few at a time, the clicks take no longer in all
// (the cores are just as busy), the renderer gets its share, and the
// acknowledgements, which wait for nothing, are sent sooner.
//
// An interaction holds its turn from its acknowledgement until its first
// answer (the panel or reply edited in, a follow-up) or until its handler
// returns; after the answer it mostly waits for Discord, tens to hundreds
// of milliseconds a call, which a turn must not be held for: held through
// the answers, a few turns would cap a process at a few dozen clicks a
// second against Discord's latency (against the fake Discord on loopback
// they already cut BenchmarkE2E200Games's throughput by a quarter). A
// handler that waits for something slow before answering (a picture, a
// channel's rate limit) gives its turn up first: leaveAdmission. None
// takes one again, so a holder never waits for a turn while holding a
// game's lock that another holder wants. A turn awaited admitPatience is
// done without: admission orders the work, it never stops it.
type admission struct {
	turns chan struct{}
	mu    sync.Mutex
	// open: the interactions being handled (HandleInteraction), by id,
	// and where each stands.
	open     map[string]admitted
	patience time.Duration
}

type admitted uint8

const (
	notYet  admitted = iota // not acknowledged yet
	holding                 // holds a turn
	through                 // had its turn, or went on without one
)

// admitPatience: how long an interaction waits for a turn at most. It
// bounds what a handler blocked while holding a turn (a stalled
// database) costs the others.
const admitPatience = 2 * time.Second

// admitTurns: four interactions a core. Measured on 2 cores: under the
// burst, 8 turns and 4 gave about the same backlog (332 and 334
// publications, against 293 and 359 with 4 and 399 without admission);
// with players who pause between clicks (BenchmarkE2E200Games), 4 turns
// made the run 12 % longer and 8 did not. A turn covers a click's own
// work, which also waits for the database (a single writer in SQLite),
// so a few turns more than cores keep the cores busy.
func admitTurns() int { return 4 * runtime.GOMAXPROCS(0) }

func newAdmission(n int, patience time.Duration) *admission {
	return &admission{turns: make(chan struct{}, n), open: map[string]admitted{}, patience: patience}
}

// begin registers interaction i as handled (HandleInteraction); end gives
// back its turn, if it holds one, when its handler returns.
func (a *admission) begin(i *discordgo.Interaction) {
	a.mu.Lock()
	a.open[i.ID] = notYet
	a.mu.Unlock()
}

func (a *admission) end(i *discordgo.Interaction) {
	a.leave(i)
	a.mu.Lock()
	delete(a.open, i.ID)
	a.mu.Unlock()
}

// enter waits for a turn for interaction i, acknowledged just now; only
// an interaction being handled takes one, once.
func (a *admission) enter(i *discordgo.Interaction) {
	a.mu.Lock()
	st, ok := a.open[i.ID]
	if ok && st == notYet {
		a.open[i.ID] = through // until it has the turn: its own goroutine waits here
	}
	patience := a.patience
	a.mu.Unlock()
	if !ok || st != notYet {
		return
	}
	t := time.NewTimer(patience)
	defer t.Stop()
	select {
	case a.turns <- struct{}{}:
	case <-t.C:
		return // goes on without a turn
	}
	a.mu.Lock()
	a.open[i.ID] = holding
	a.mu.Unlock()
}

// leave gives back interaction i's turn, if it holds one; it takes none
// again.
func (a *admission) leave(i *discordgo.Interaction) {
	a.mu.Lock()
	st, ok := a.open[i.ID]
	if ok {
		a.open[i.ID] = through
	}
	a.mu.Unlock()
	if st == holding {
		<-a.turns
	}
}

// leaveAdmission gives up interaction i's turn before its handler waits
// for something slow before answering (a picture, a channel's rate
// limit): the others' work need not wait for it.
func (b *Bot) leaveAdmission(i *discordgo.Interaction) { b.admit.leave(i) }
