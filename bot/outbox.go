package bot

// The outbox: what a committed move must publish is stored in the move's
// own transaction (storage.Move.Outbox, planned by plan), then delivered
// by one publisher per game (kick, deliverGame), in order, each entry
// marked done once delivered; across bot processes (shards) one holds the
// game's outbox lease in the database while it delivers (shard.go). Undelivered entries are delivered again at
// start-up (Resume) and periodically (Redeliver), so a crash between the
// commit and any Discord call loses nothing. Delivery is idempotent: an
// entry that creates a message records its id (the entry's outcome)
// before it is marked done, and a retry that finds no recorded id first
// looks for the message a previous attempt may have posted (same content,
// by the bot, in the place it goes) before posting again. Everything
// shown is rebuilt from the action log at the entry's version, so a
// retry shows exactly what the move showed, and nothing is published
// that was not committed.
//
// A batch (the entries of one version, stored as one row: a publication)
// is, in order: the board (posted calling the deciders, or the live one
// edited in place), the collapse of the previous board, the hand DMs of a
// new deal (a player whose DMs are closed is told so on the board,
// revealing nothing), DMs of hidden cards shown to a player (reveal), the
// result, and the mover's panel.
//
// Only what is still current is published (supersede): when a game's
// outbox holds several boards (a burst of moves outran Discord's rate
// limits), the older ones, their collapses, hand DMs of older deals and
// older panels are marked done without a call (a board still waiting for
// a render slot gives way as soon as a newer one is committed), and the
// newest board carries the log lines since the last board the channel
// saw; a board waiting behind a hand DM not yet sent goes first (the DM's
// picture may wait for a render slot; a board never waits for one behind
// hands), except behind a DM already waiting for its slot: that one keeps
// its place, and the boards that pile up behind it meanwhile are
// compacted to the newest as they come (handDrawing); the newest goes
// ahead of it only if its picture is drawn already for an identical board
// (the first boards of games started together are alike; one that two
// games want is drawn in the background: sharedBoardPicture) and its
// channel takes it now (channelWritable). A deal's hand pictures are drawn
// together (handPictureOf). A board or DM whose
// sending began (Posting, written just before the call) is never
// superseded: a crash may have left it in the channel, and the retry
// finds and records it. Reveals and the result always go out.

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/rfop/rfop/engine"
	"github.com/rfop/rfop/locale"
	"github.com/rfop/rfop/storage"
)

// Outbox entry kinds.
const (
	outDM       = "dm"       // a player's hand at a new deal
	outReveal   = "reveal"   // hidden cards an event showed a player
	outBoard    = "board"    // the board: a new one calling the deciders, or the live one edited
	outCollapse = "collapse" // the previous board keeps only its text
	outResult   = "result"   // the end of the game
	outPanel    = "panel"    // the mover's panel (or hand DM) after the chain
)

// outPayload is an entry's payload: what to publish, besides what the
// action log at the entry's version says.
type outPayload struct {
	Side  string `json:"side,omitempty"`  // dm, reveal, panel: whose
	Fresh bool   `json:"fresh,omitempty"` // board: a new one (else edit in place)
	From  int    `json:"from,omitempty"`  // reveal, panel: the chain began at this version
	// panel: the interaction to edit (its token lasts 15 minutes).
	App   string `json:"app,omitempty"`
	Token string `json:"token,omitempty"`
	// panel, for a choice made in a hand DM: the DM's text, kept above
	// the choice made.
	Record string `json:"record,omitempty"`
	Chose  string `json:"chose,omitempty"`
	// board: Chosen says the plan chose whom it pings, Ping (user ids,
	// space-separated; notify.go). An entry without Chosen (stored before
	// preferences) pings every decider.
	Chosen bool   `json:"chosen,omitempty"`
	Ping   string `json:"ping,omitempty"`
}

// outOutcome is what delivering an entry produced so far.
type outOutcome struct {
	Message  string `json:"message,omitempty"`  // the message created
	Channel  string `json:"channel,omitempty"`  // where
	Previous string `json:"previous,omitempty"` // board: the live board it replaced
	User     string `json:"user,omitempty"`     // dm: whose DMs are closed
	Closed   bool   `json:"closed,omitempty"`   // dm: the user's DMs are closed
	// Posting: a message is being sent (written just before the call):
	// a retry first looks for the message a crash may have left unnoted,
	// and a board or DM being sent is never superseded.
	Posting bool `json:"posting,omitempty"`
	// Superseded: a newer entry (this id) shows what this one would have;
	// it was marked done without a call (supersede).
	Superseded int64 `json:"superseded,omitempty"`
	// board, when it supersedes older boards: its log lines start at this
	// version (the last board the channel saw), and it is posted as a new
	// board if any of them was (Fresh).
	Since *int `json:"since,omitempty"`
	Fresh bool `json:"fresh,omitempty"`
}

// panelTarget is the interaction whose message shows the mover's
// decisions: an ephemeral panel, or a hand DM.
type panelTarget struct {
	app, token string
	side       engine.Side
	record     string // a hand DM's text (empty for a panel)
	chose      string // the choice made, for the record
}

func panelTargetOf(i *discordgo.Interaction, side engine.Side, chose string) *panelTarget {
	pt := &panelTarget{app: i.AppID, token: i.Token, side: side}
	if isHandDM(i) {
		pt.record, pt.chose = i.Message.Content, chose
	}
	return pt
}

// isHandDM: the click came from a hand DM (a message of its own, not an
// ephemeral panel, nor the board of a game in DMs, which carries the Take
// my turn button). Told by its buttons, whatever its language.
func isHandDM(i *discordgo.Interaction) bool {
	return i.Message != nil && i.GuildID == "" && i.Message.Flags&discordgo.MessageFlagsEphemeral == 0 &&
		!hasVerb(i.Message.Components, verbTurn)
}

// hasVerb reports whether components hold a button of verb.
func hasVerb(comps []discordgo.MessageComponent, verb string) bool {
	for _, c := range comps {
		switch c := c.(type) {
		case *discordgo.ActionsRow:
			if hasVerb(c.Components, verb) {
				return true
			}
		case discordgo.ActionsRow:
			if hasVerb(c.Components, verb) {
				return true
			}
		case *discordgo.Button:
			if id, err := parseCustomID(c.CustomID); err == nil && id.Verb == verb {
				return true
			}
		case discordgo.Button:
			if id, err := parseCustomID(c.CustomID); err == nil && id.Verb == verb {
				return true
			}
		}
	}
	return false
}

func entry(kind string, p outPayload) storage.OutboxEntry {
	e := storage.OutboxEntry{Kind: kind}
	if p != (outPayload{}) {
		e.Payload, _ = json.Marshal(p)
	}
	return e
}

// plan lists what the end of a chain publishes: g is the game after the
// chain's steps, from the version before them, pt the mover's panel.
func (b *Bot) plan(ctx context.Context, rec storage.Game, g *engine.Game, steps []step, from int, pt *panelTarget) []storage.OutboxEntry {
	info := chainInfo{from: g.S.Version, fresh: true}
	now := b.Clock.Now()
	actions, err := b.Store.Actions(ctx, rec.ID)
	var moves []engine.Move
	if err == nil {
		moves, err = decodeMoves(actions)
	}
	if err == nil {
		for _, st := range steps {
			moves = append(moves, st.move)
		}
		info, err = b.chainInfoOf(rec, g, moves)
	}
	if err != nil {
		b.Log.Error("publish: read the decision chain", "game", rec.ID, "err", err)
		info = chainInfo{from: g.S.Version, fresh: true}
	}
	// The board first: it calls the players, and it is the costlier
	// picture everyone waits for; the hands follow at once.
	var ping []string
	var calls []storage.OutboxEntry
	if info.fresh {
		ping, calls = b.planCalls(ctx, rec, info, lastActed(rec, actions, steps, now), now)
	}
	out := []storage.OutboxEntry{entry(outBoard, outPayload{Fresh: info.fresh, Chosen: true, Ping: strings.Join(ping, " ")})}
	if info.fresh {
		out = append(out, entry(outCollapse, outPayload{}))
	}
	out = append(out, calls...)
	human := humanSides(rec)
	if g.S.Result == nil && rec.GuildID != "" && (!info.known || info.prevRound != g.S.Round) {
		// A new deal: every player gets the round's hand, also one who
		// already made the round's first choice.
		for _, side := range []engine.Side{engine.Versailles, engine.Commune} {
			if !human[side] {
				continue
			}
			if !info.known {
				// The game start: the deal is there, the objective choice too.
				if p, ok := g.PromptFor(side); !ok || p.Kind != engine.PromptObjective && p.Kind != engine.PromptFCDiscard {
					continue
				}
			}
			out = append(out, entry(outDM, outPayload{Side: side.Key()}))
		}
	}
	if rec.GuildID != "" {
		for _, side := range []engine.Side{engine.Versailles, engine.Commune} {
			if human[side] && len(b.revealLines(locale.For(locale.English), g, side, from)) > 0 {
				out = append(out, entry(outReveal, outPayload{Side: side.Key(), From: from}))
			}
		}
	}
	if g.S.Result != nil {
		out = append(out, entry(outResult, outPayload{}))
	}
	if pt != nil {
		out = append(out, entry(outPanel, outPayload{Side: pt.side.Key(), From: from, App: pt.app, Token: pt.token,
			Record: pt.record, Chose: pt.chose}))
	}
	return out
}

// publishStart stores a new game's first publication (its start is not a
// move: the solo opponent's opening replies, if any, carry it instead).
func (b *Bot) publishStart(ctx context.Context, rec storage.Game, g *engine.Game, replies []step) (storage.Game, error) {
	entries := b.plan(ctx, rec, g, replies, 0, nil)
	if len(replies) == 0 {
		for k := range entries {
			entries[k].GameID, entries[k].Version = rec.ID, rec.StateVersion
		}
		if err := b.Store.Enqueue(ctx, entries...); err != nil {
			return rec, err
		}
	} else {
		replies[len(replies)-1].outbox = entries
		var err error
		for _, st := range replies {
			if rec, err = b.persist(ctx, rec, st); err != nil {
				return rec, err
			}
		}
	}
	b.kick(rec.ID)
	return rec, nil
}

func (b *Bot) movesOf(ctx context.Context, gameID int64) ([]engine.Move, error) {
	actions, err := b.Store.Actions(ctx, gameID)
	if err != nil {
		return nil, fmt.Errorf("read actions of game %d: %w", gameID, err)
	}
	return decodeMoves(actions)
}

// ---- the publishers ----

// errCrashed: a test hook simulated a crash; this bot publishes nothing more.
var errCrashed = errors.New("simulated crash")

// errShuttingDown: the bot is stopping; the entry stays for the next start.
var errShuttingDown = errors.New("shutting down")

// stopped reports whether Shutdown began (a picture may then be missing:
// nothing is sent without it).
func (b *Bot) stopped() bool {
	select {
	case <-b.stopping:
		return true
	default:
		return false
	}
}

// kick makes sure a publisher delivers the game's pending entries.
func (b *Bot) kick(gameID int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.dead {
		return
	}
	if w, ok := b.pubs[gameID]; ok {
		*w = true // deliver again when the current pass ends
		if wake, ok := b.renderWaits[gameID]; ok {
			select { // its board or hand DM waiting for a render slot may give way
			case wake <- struct{}{}:
			default:
			}
		}
		return
	}
	again := false
	if len(b.pubs) == 0 {
		b.pubsIdle = make(chan struct{})
	}
	b.pubs[gameID] = &again
	go b.publisher(gameID)
}

// publishersDone is closed once no publisher runs (already, if none does).
func (b *Bot) publishersDone() <-chan struct{} {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.pubsIdle == nil {
		idle := make(chan struct{})
		close(idle)
		return idle
	}
	return b.pubsIdle
}

func (b *Bot) publisher(gameID int64) {
	ctx := context.Background()
	for {
		if err := b.deliverGame(ctx, gameID); err != nil && !errors.Is(err, errCrashed) && !errors.Is(err, errShuttingDown) {
			// Left pending: Redeliver tries again.
			b.Log.Warn("publish", "game", gameID, "err", err)
		}
		b.mu.Lock()
		again := b.pubs[gameID]
		if *again && !b.dead && !b.closing {
			*again = false
			b.mu.Unlock()
			continue
		}
		delete(b.pubs, gameID)
		if len(b.pubs) == 0 {
			close(b.pubsIdle)
			b.pubsIdle = nil
		}
		b.mu.Unlock()
		return
	}
}

// lockPublisher keeps other posts of a game's board (reminders, /rfop
// board, abandon) out of a publication in progress.
func (b *Bot) lockPublisher(gameID int64) func() {
	return b.lockIn(b.pubLocks, gameID)
}

// lockPanel serialises the edits of a game's mover's panel (showPanelNow,
// the publisher's panel entries). It is taken last: whoever holds it
// takes no other lock.
func (b *Bot) lockPanel(gameID int64) func() {
	return b.lockIn(b.panelLocks, gameID)
}

// lockIn locks the game's mutex in locks (a map under mu).
func (b *Bot) lockIn(locks map[int64]*sync.Mutex, gameID int64) func() {
	b.mu.Lock()
	l, ok := locks[gameID]
	if !ok {
		l = &sync.Mutex{}
		locks[gameID] = l
	}
	b.mu.Unlock()
	l.Lock()
	return l.Unlock
}

// pendingBatch is how many games with undelivered publications
// Redeliver reads at a time.
const pendingBatch = 256

// Redeliver starts delivering the undelivered publications of the games
// this shard owns (a Discord error, or a process that stopped, left them
// pending), found by the index of undelivered outbox entries, for this
// shard in SQL. Run calls it periodically.
func (b *Bot) Redeliver(ctx context.Context) {
	after := int64(0)
	for {
		games, err := b.Store.PendingGames(ctx, b.shardFilter(), after, pendingBatch)
		if err != nil {
			b.Log.Warn("redeliver: read the outbox", "err", err)
			return
		}
		for _, id := range games {
			b.kick(id)
		}
		if len(games) < pendingBatch {
			return
		}
		after = games[len(games)-1]
	}
}

// Resume carries on after a restart (call it after CheckGames), for the
// games this shard owns that have something to carry on (their resume
// item, due.go): the solo opponent takes a turn a crash interrupted, a
// game started without its first publication gets it, the AI opponent
// thinks again where it was deciding; and every undelivered publication
// is delivered. A game with nothing pending costs nothing here.
func (b *Bot) Resume(ctx context.Context) error {
	b.incarnate(ctx) // this start of the shard: it takes over the leases of the previous one
	// Every resume item, whatever the clocks say: each is for the next start.
	b.runDue(ctx, dueHandler{kind: dueResume, run: b.resumeDue}, time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC))
	b.Redeliver(ctx)
	return nil
}

// mustLook: before sending e, look for a message a previous attempt may
// have sent: one began (Posting), or e was made before this process
// started and an earlier process, perhaps a version that marked no
// attempt, may have sent it. (Entry times are the store's clock, the
// system's in production, as started is.)
func (b *Bot) mustLook(e storage.OutboxEntry, out outOutcome) bool {
	return out.Posting || e.CreatedAt.Before(b.started)
}

// markPosting records, under the game's lease, that e's message is about
// to be sent (out with Posting), so that a crash during the call neither
// loses it (the retry looks for it) nor lets a newer board supersede it.
func (b *Bot) markPosting(ctx context.Context, e storage.OutboxEntry, out *outOutcome) error {
	if out.Posting {
		return nil
	}
	out.Posting = true
	raw, _ := json.Marshal(out)
	return b.Store.WriteOutbox(ctx, storage.OutboxWrite{GameID: e.GameID, Holder: b.lease.Name,
		Updates: []storage.OutboxUpdate{{ID: e.ID, Outcome: raw}}})
}

// resumeDue carries a game on (see Resume); its item stays while the AI
// is to decide (the AI's move replaces it), and is deleted otherwise.
func (b *Bot) resumeDue(ctx context.Context, d storage.Due) {
	aiTurn, err := b.resumeGame(ctx, d.GameID)
	if err != nil {
		b.Log.Warn("resume game", "game", d.GameID, "err", err)
		if !errors.Is(err, storage.ErrNotFound) {
			return // looked at again at the next start
		}
	}
	if aiTurn && b.AI != nil {
		b.enqueueAI(aiJob{game: d.GameID})
		return
	}
	b.moveDue(ctx, d, time.Time{})
}

// resumeGame carries on a game after a restart (see Resume); aiTurn
// reports that the AI opponent is to decide.
func (b *Bot) resumeGame(ctx context.Context, gameID int64) (aiTurn bool, err error) {
	unlock := b.lockGame(gameID)
	defer unlock()
	rec, g, err := b.loadGame(ctx, gameID)
	if err != nil || g == nil || rec.Status != storage.StatusActive {
		return false, err
	}
	if side, _, ok := aiPlayerOf(rec); ok {
		_, aiTurn = g.PromptFor(side)
		aiTurn = aiTurn && g.S.Result == nil
	}
	if _, ok := g.PromptFor(g.S.BotSide); ok && g.S.BotSide != engine.NoSide {
		// The human's move was stored, the solo opponent's replies not.
		from := g.S.Version
		replies, err := b.soloReplies(g)
		if err != nil {
			return false, err
		}
		replies[len(replies)-1].outbox = b.plan(ctx, rec, g, replies, from, nil)
		for _, st := range replies {
			if rec, err = b.persist(ctx, rec, st); err != nil {
				return false, err
			}
		}
		return false, nil
	}
	// Started, but stopped before its first publication was stored.
	if _, err := b.Store.LatestMessage(ctx, gameID, storage.KindBoard); !errors.Is(err, storage.ErrNotFound) {
		return aiTurn, nil
	}
	if batch, err := b.Store.OutboxBatch(ctx, gameID, rec.StateVersion); err != nil || len(batch) > 0 || rec.StateVersion > 0 {
		return aiTurn, err
	}
	_, err = b.publishStart(ctx, rec, g, nil)
	return aiTurn, err
}

// WaitPublished waits until no publication is being delivered (tests).
func (b *Bot) WaitPublished(ctx context.Context) error {
	select {
	case <-b.publishersDone():
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// ---- delivery ----

// delivery is one pass over a game's pending entries; it caches the game
// at each version it shows.
type delivery struct {
	rec   storage.Game
	moves []engine.Move
	games map[int64]*engine.Game
	infos map[int64]chainInfo
	// noSkip: deliver the board even if a newer one waits (supersede
	// found nothing to skip).
	noSkip bool
	// hands: hand pictures drawn ahead, by entry id (handPictureOf).
	hands map[int64][]byte
	// ahead: the board entry last moved ahead of a hand DM waiting for a
	// render slot (deliverPending), to be posted there only if its
	// picture needs no slot; it is not moved ahead again (a newer board
	// is). trying: ahead is in front of the DM now. drawnOnly: the board
	// being delivered is posted only if its picture needs no render slot
	// (errNotDrawn otherwise).
	ahead     int64
	trying    bool
	drawnOnly bool
}

func (d *delivery) at(ctx context.Context, b *Bot, v int64) (*engine.Game, chainInfo, error) {
	if g, ok := d.games[v]; ok {
		return g, d.infos[v], nil
	}
	if v > int64(len(d.moves)) {
		// Committed since the pass began (supersede reads the newest
		// entries): the log is append-only, read it again.
		moves, err := b.movesOf(ctx, d.rec.ID)
		if err != nil {
			return nil, chainInfo{}, err
		}
		d.moves = moves
	}
	if v > int64(len(d.moves)) {
		return nil, chainInfo{}, fmt.Errorf("game %d: publication of version %d, the log has %d moves", d.rec.ID, v, len(d.moves))
	}
	opts, err := b.options(ctx, d.rec)
	if err != nil {
		return nil, chainInfo{}, err
	}
	g, err := engine.Replay(opts, d.moves[:v])
	if err != nil {
		return nil, chainInfo{}, fmt.Errorf("game %d: replay to version %d: %w", d.rec.ID, v, err)
	}
	info, err := b.chainInfoOf(d.rec, g, d.moves[:v])
	if err != nil {
		return nil, chainInfo{}, err
	}
	if len(d.games) >= deliveryCache {
		// Entries come in version order: keep the newest versions only,
		// so that a long backlog does not hold a game per version.
		oldest := v
		for k := range d.games {
			oldest = min(oldest, k)
		}
		delete(d.games, oldest)
		delete(d.infos, oldest)
	}
	d.games[v], d.infos[v] = g, info
	return g, info, nil
}

// deliveryCache: the game versions a delivery pass keeps replayed (the
// entry's, and the newest board's while it supersedes older ones).
const deliveryCache = 3

// deliverGame delivers the game's pending entries in order; it stops at
// the first that fails (the rest wait, so that order holds). It delivers
// under the game's outbox lease: if another process holds it, that one
// delivers, and looks again once it has released it, so what was
// committed meanwhile is not left behind; likewise this one after its own
// release.
func (b *Bot) deliverGame(ctx context.Context, gameID int64) error {
	unlock := b.lockPublisher(gameID)
	defer unlock()
	for {
		pending, err := b.Store.PendingOutbox(ctx, gameID)
		if err == nil && len(pending) == 0 {
			b.mu.Lock()
			delete(b.handSince, gameID)
			b.mu.Unlock()
		}
		if err != nil || len(pending) == 0 {
			return err
		}
		ok, err := b.claimOutbox(ctx, gameID)
		if err != nil {
			return fmt.Errorf("claim the outbox of game %d: %w", gameID, err)
		}
		if !ok {
			return nil // another process is delivering it
		}
		all, err := b.deliverPending(ctx, gameID, time.Now())
		if errors.Is(err, errCrashed) {
			return err // a killed process releases nothing: its restart takes its leases over
		}
		if rerr := b.Store.ReleaseOutbox(ctx, gameID, b.lease.Name); rerr != nil && err == nil {
			err = fmt.Errorf("release the outbox of game %d: %w", gameID, rerr)
		}
		if err != nil || !all {
			return err
		}
	}
}

// deliverPending delivers, under the lease taken at claimed, the entries
// pending once it was taken; all reports that it went through every one
// of them (not stopped: paused, shutting down, or the lease lost).
func (b *Bot) deliverPending(ctx context.Context, gameID int64, claimed time.Time) (all bool, err error) {
	pending, err := b.Store.PendingOutbox(ctx, gameID)
	if err != nil || len(pending) == 0 {
		return true, err
	}
	rec, err := b.Store.GameByID(ctx, gameID)
	if err != nil {
		return false, err
	}
	b.mu.Lock()
	paused := b.paused[gameID] != nil
	b.mu.Unlock()
	if paused {
		return false, nil // its log is not trusted: nothing is shown from it
	}
	d := &delivery{rec: rec, games: map[int64]*engine.Game{}, infos: map[int64]chainInfo{}}
	if d.moves, err = b.movesOf(ctx, gameID); err != nil {
		return false, err
	}
	queue := pending
	for len(queue) > 0 {
		e := queue[0]
		queue = queue[1:]
		b.mu.Lock()
		dead, closing := b.dead, b.closing
		b.mu.Unlock()
		if dead {
			return false, errCrashed
		}
		if closing {
			return false, nil // shutting down: the next start delivers the rest
		}
		if time.Since(claimed) > outboxLease/3 { // renew the lease for this entry
			if ok, err := b.claimOutbox(ctx, gameID); err != nil || !ok {
				return false, err // lost (this process stalled): its new holder delivers
			}
			claimed = time.Now()
		} else if ok, err := b.holdsOutbox(ctx, gameID); err != nil || !ok {
			return false, err // taken over by a newer start of this shard
		}
		if rec.Status == storage.StatusAbandoned && e.Kind != outPanel {
			// Abandoned meanwhile: its board is retired, nothing more is posted.
			if err := b.Store.UpdateOutbox(ctx, e.ID, nil, true); err != nil {
				return false, err
			}
			continue
		}
		if _, drawn := d.hands[e.ID]; (e.Kind == outDM || e.Kind == outReveal) && supersedable(e) && !drawn && !b.handWaiting(gameID, e.ID) {
			// A board waits behind this DM (its picture may wait for a
			// render slot): the newest board goes first, the DMs after.
			// (Not behind a DM already in the render queue, nor one whose
			// picture is drawn: it keeps its place, and the boards behind
			// it are compacted.)
			if k := slices.IndexFunc(queue, unsentBoard); k >= 0 {
				queue = boardFirst(append([]storage.OutboxEntry{e}, queue...), k+1)
				continue
			}
		}
		if unsentBoard(e) {
			// Only the newest of several boards waiting is published.
			next, did, err := b.supersede(ctx, d, e)
			if err != nil {
				return false, fmt.Errorf("supersede the board of version %d: %w", e.Version, err)
			}
			if did {
				queue = next
				continue
			}
		}
		tried := d.trying && e.ID == d.ahead
		d.trying = false
		d.drawnOnly = tried
		err := b.deliver(ctx, d, e, queue)
		d.drawnOnly = false
		if tried && (errors.Is(err, errNotDrawn) || errors.Is(err, errNewer)) {
			// Its picture is not drawn (or a newer board came): the DM
			// goes first after all, and everything keeps its order.
			queue = append([]storage.OutboxEntry{e}, queue...)
			slices.SortStableFunc(queue, func(x, y storage.OutboxEntry) int { return cmp.Compare(x.ID, y.ID) })
			continue
		}
		if errors.Is(err, errUnwanted) && e.Kind == outDM {
			// Boards piled up behind the DM's picture: only the newest
			// stays, and the DM goes back to its place; that board first
			// if its picture is drawn already (tried once: d.ahead).
			if queue, err = b.compactBehind(ctx, d, e); err != nil {
				return false, err
			}
			if k := slices.IndexFunc(queue, unsentBoard); k >= 0 && queue[k].ID != d.ahead {
				// Tried once, now or not at all (the channel busy): a DM
				// that stepped aside for it again and again would never
				// be drawn.
				d.ahead = queue[k].ID
				if b.channelWritable(d.rec.ChannelID) {
					d.trying = true
					queue = boardFirst(queue, k)
				}
			}
			continue
		}
		if errors.Is(err, errNewer) {
			// A newer board came while this one was prepared.
			next, did, serr := b.supersede(ctx, d, e)
			if serr != nil {
				return false, fmt.Errorf("supersede the board of version %d: %w", e.Version, serr)
			}
			if did {
				queue = next
				continue
			}
			d.noSkip = true
			err = b.deliver(ctx, d, e, queue)
			d.noSkip = false
		}
		if err != nil {
			return false, fmt.Errorf("deliver %s of version %d: %w", e.Kind, e.Version, err)
		}
	}
	return true, nil
}

// errNewer: a board not yet sent found a newer board waiting; the newer
// one supersedes it (deliverPending).
var errNewer = errors.New("a newer board is waiting")

// errNotDrawn: a board tried ahead of a hand DM waiting for a render
// slot (delivery.drawnOnly) would need a slot itself; it stays behind.
var errNotDrawn = errors.New("the board's picture is not drawn yet")

// boardFirst moves board queue[k] and its batch's collapse to the front of
// queue, the rest keeping their order.
func boardFirst(queue []storage.OutboxEntry, k int) []storage.OutboxEntry {
	v := queue[k].Version
	ahead := make([]storage.OutboxEntry, 0, len(queue))
	var rest []storage.OutboxEntry
	for j, x := range queue {
		if j == k || x.Version == v && x.Kind == outCollapse {
			ahead = append(ahead, x)
		} else {
			rest = append(rest, x)
		}
	}
	return append(ahead, rest...)
}

// outcomeOf decodes an entry's outcome (zero if none or unreadable).
func outcomeOf(e storage.OutboxEntry) outOutcome {
	var o outOutcome
	if len(e.Outcome) > 0 {
		_ = json.Unmarshal(e.Outcome, &o)
	}
	return o
}

func payloadOf(e storage.OutboxEntry) outPayload {
	var p outPayload
	if len(e.Payload) > 0 {
		_ = json.Unmarshal(e.Payload, &p)
	}
	return p
}

// unsentBoard: e is a board nothing of which was sent (supersedable).
func unsentBoard(e storage.OutboxEntry) bool { return e.Kind == outBoard && supersedable(e) }

// supersedable: nothing of e was sent, nor is being sent (an entry whose
// call began may be in the channel: it is delivered, never skipped).
func supersedable(e storage.OutboxEntry) bool {
	if !e.DoneAt.IsZero() {
		return false
	}
	o := outcomeOf(e)
	return !o.Posting && o.Message == "" && !o.Closed
}

// supersede: e, a board not yet sent, is the game's first undelivered
// entry. If a newer board waits, everything from e to the newest board
// that the newest shows anyway is marked done without a call, in one
// write under the game's lease: the older boards and their collapses,
// hand DMs followed by a newer hand DM of the same player, and panels
// followed by a newer panel; reveals and results stay. The newest board
// is told where its log lines start (the last board the channel saw) and
// whether it must be posted as a new board (one of the older ones was).
// next is what remains to deliver, in order (with the DMs e was moved
// ahead of); did is false if nothing was superseded (no newer board).
func (b *Bot) supersede(ctx context.Context, d *delivery, e storage.OutboxEntry) (next []storage.OutboxEntry, did bool, err error) {
	pending, err := b.Store.PendingOutbox(ctx, d.rec.ID)
	if err != nil {
		return nil, false, err
	}
	return b.supersedeIn(ctx, d, e, pending)
}

// supersedeIn is supersede with the game's pending entries just read.
func (b *Bot) supersedeIn(ctx context.Context, d *delivery, e storage.OutboxEntry, pending []storage.OutboxEntry) (next []storage.OutboxEntry, did bool, err error) {
	k := slices.IndexFunc(pending, func(x storage.OutboxEntry) bool { return x.ID == e.ID })
	if k < 0 {
		return nil, false, nil // delivered meanwhile (it is not pending any more): deliver looks again
	}
	all := pending // entries before e stay: DMs it was moved ahead of (deliverPending), or the DM it waits behind (compactBehind)
	pending = pending[k:]
	n := -1
	for j, x := range pending {
		if x.Kind == outBoard {
			if !supersedable(x) {
				break // being sent: nothing after it is skipped past it
			}
			n = j
		}
	}
	if n <= 0 {
		return nil, false, nil
	}
	newest := pending[n]
	sup, _ := json.Marshal(outOutcome{Superseded: newest.ID})
	var ups []storage.OutboxUpdate
	skipped := map[int64]bool{}
	fresh := false
	later := func(j int, kind, side string) bool {
		return slices.ContainsFunc(pending[j+1:], func(x storage.OutboxEntry) bool {
			return x.Kind == kind && supersedable(x) && (side == "" || payloadOf(x).Side == side)
		})
	}
	for j, x := range pending[:n] {
		skip := false
		switch x.Kind {
		case outBoard:
			skip = true
			fresh = fresh || payloadOf(x).Fresh || outcomeOf(x).Fresh
		case outCollapse:
			skip = true // its board was not posted: nothing to collapse
		case outDM:
			skip = supersedable(x) && later(j, outDM, payloadOf(x).Side)
		case outPanel:
			skip = supersedable(x) && later(j, outPanel, "")
		}
		if skip {
			ups = append(ups, storage.OutboxUpdate{ID: x.ID, Outcome: sup, Done: true})
			skipped[x.ID] = true
		}
	}
	// What the newest board carries.
	out := outcomeOf(newest)
	out.Fresh = out.Fresh || fresh
	if out.Fresh || payloadOf(newest).Fresh {
		_, info, err := d.at(ctx, b, newest.Version)
		if err != nil {
			return nil, false, err
		}
		since := info.from
		if out.Since != nil {
			since = min(since, *out.Since)
		}
		last, err := b.Store.LastOutbox(ctx, d.rec.ID, outBoard, e.ID)
		switch {
		case err == nil:
			since = min(since, int(last.Version))
		case errors.Is(err, storage.ErrNotFound):
			// The game's first boards: from where the first one began.
			_, first, err := d.at(ctx, b, e.Version)
			if err != nil {
				return nil, false, err
			}
			since = min(since, first.from)
		default:
			return nil, false, err
		}
		out.Since = &since
	}
	raw, _ := json.Marshal(out)
	ups = append(ups, storage.OutboxUpdate{ID: newest.ID, Outcome: raw})
	if err := b.Store.WriteOutbox(ctx, storage.OutboxWrite{GameID: d.rec.ID, Holder: b.lease.Name, Updates: ups}); err != nil {
		return nil, false, err
	}
	for _, x := range all {
		if x.ID != e.ID && !skipped[x.ID] {
			if x.ID == newest.ID {
				x.Outcome = raw
			}
			next = append(next, x)
		}
	}
	return next, true, nil
}

// crash runs the test hook before a delivery step: true simulates a crash
// (this bot then delivers nothing more).
func (b *Bot) crash(gameID int64, step string) bool {
	b.mu.Lock()
	hook := b.hook
	b.mu.Unlock()
	if hook == nil || !hook(gameID, step) {
		return false
	}
	b.mu.Lock()
	b.dead = true
	b.mu.Unlock()
	return true
}

func (b *Bot) deliver(ctx context.Context, d *delivery, e storage.OutboxEntry, later []storage.OutboxEntry) error {
	var p outPayload
	var out outOutcome
	if len(e.Payload) > 0 {
		if err := json.Unmarshal(e.Payload, &p); err != nil {
			return err
		}
	}
	if len(e.Outcome) > 0 {
		if err := json.Unmarshal(e.Outcome, &out); err != nil {
			return err
		}
	}
	g, info, err := d.at(ctx, b, e.Version)
	if err != nil {
		return err
	}
	rec := d.rec
	done := func(o *outOutcome) error {
		var raw []byte
		if o != nil {
			raw, _ = json.Marshal(o)
		}
		return b.Store.UpdateOutbox(ctx, e.ID, raw, true)
	}
	step := e.Kind
	if p.Side != "" {
		step += ":" + p.Side
	}
	if out.Message == "" && !out.Closed && b.crash(rec.ID, step) {
		return errCrashed
	}
	switch e.Kind {
	case outDM, outReveal:
		if out.Message != "" || out.Closed {
			return done(nil)
		}
		side := sideOfKey(p.Side)
		pl, ok := rec.Player(sideKey(side))
		if !ok || pl.IsBot {
			return done(nil)
		}
		var m msg
		if e.Kind == outDM {
			var err error
			if m, err = b.handDM(rec, g, side, func() ([]byte, error) { return b.handPictureOf(ctx, d, e, g, side, later) }); err != nil {
				return err // errUnwanted: boards piled up behind it
			}
			if b.stopped() {
				return errShuttingDown
			}
		} else {
			m = msg{content: b.revealDM(rec, g, side, p.From)}
		}
		look := b.mustLook(e, out)
		if err := b.markPosting(ctx, e, &out); err != nil {
			return err
		}
		sent, err := b.sendDM(pl.UserID, m, look)
		if cannotDM(err) {
			if err := done(&outOutcome{Closed: true, User: pl.UserID}); err != nil {
				return err
			}
			if e.Kind == outDM {
				b.noteOnBoard(ctx, rec, g, info, e.Version)
			}
			return nil
		}
		if err != nil {
			return err
		}
		return done(&outOutcome{Message: sent.ID, Channel: sent.ChannelID})
	case outBoard:
		return b.deliverBoard(ctx, d, e, p, out, g, info, later)
	case outCollapse:
		batch, err := b.Store.OutboxBatch(ctx, rec.ID, e.Version)
		if err != nil {
			return err
		}
		for _, be := range batch {
			var bo outOutcome
			if be.Kind == outBoard && json.Unmarshal(be.Outcome, &bo) == nil && bo.Previous != "" && bo.Message != "" {
				b.collapseBoard(ctx, storage.Message{GameID: rec.ID, ChannelID: rec.ChannelID, MessageID: bo.Previous})
			}
		}
		return done(nil)
	case outResult:
		if out.Message != "" || g.S.Result == nil {
			return done(nil)
		}
		text, users := b.resultText(rec, g)
		users = b.mentionable(ctx, users)
		m, err := b.findPosted(rec.ChannelID, "", text)
		if err == nil && m == nil {
			m, err = b.Session.ChannelMessageSendComplex(rec.ChannelID, &discordgo.MessageSend{
				Content: text, AllowedMentions: &discordgo.MessageAllowedMentions{Users: users}})
		}
		if err != nil {
			if discordErrorCode(err) == codeUnknownChannel {
				b.HandleChannelDelete(ctx, rec.ChannelID)
				return done(nil)
			}
			return err
		}
		return done(&outOutcome{Message: m.ID, Channel: m.ChannelID})
	case outPanel:
		return b.deliverPanel(ctx, e, p, rec, g)
	case outNotify:
		return b.deliverNotify(ctx, e, p, out, rec)
	case outDigest:
		return b.deliverDigest(ctx, e, p, rec)
	}
	b.Log.Warn("unknown outbox entry", "kind", e.Kind, "game", rec.ID)
	return done(nil)
}

// handPictureOf is the picture of hand DM e (side's, g the game at its
// version): drawn ahead if it was, else drawn now (handDrawing), and with
// it, in the same turn of the render slot, the pictures of the deal's
// other hand DMs waiting in later. A deal's publication is done once all
// its DMs are sent: under a burst (200 games dealt at once) the second
// DM of each game, queued only once the first was sent, waited behind
// every game's first, and no game's deal was done for seconds.
func (b *Bot) handPictureOf(ctx context.Context, d *delivery, e storage.OutboxEntry, g *engine.Game, side engine.Side,
	later []storage.OutboxEntry) ([]byte, error) {
	if png, ok := d.hands[e.ID]; ok {
		delete(d.hands, e.ID)
		return png, nil
	}
	if b.Pictures == nil {
		return nil, nil
	}
	var png []byte
	err := b.handDrawing(ctx, d, e.ID)(func() error {
		var err error
		if png, err = b.drawHand(d.rec, g, side); err != nil {
			return err
		}
		for _, x := range later {
			if x.Kind != outDM || x.Version != e.Version || !supersedable(x) {
				continue
			}
			s := sideOfKey(payloadOf(x).Side)
			if pl, ok := d.rec.Player(sideKey(s)); !ok || pl.IsBot {
				continue
			}
			if other, err := b.drawHand(d.rec, g, s); err == nil {
				if d.hands == nil {
					d.hands = map[int64][]byte{}
				}
				d.hands[x.ID] = other
			}
		}
		return nil
	})
	if errors.Is(err, errUnwanted) {
		return nil, err
	}
	if err != nil {
		b.Log.Warn("render hand", "game", d.rec.ID, "err", err)
		return nil, nil
	}
	return png, nil
}

// handDrawing draws the picture of hand DM entry id of d's game. While it
// waits for a render slot (under a burst, behind other games' hands and
// boards), its game's players move on and their boards pile up behind
// it: it steps aside (errUnwanted) when two or more boards not yet sent
// wait, so that its publisher marks the older ones superseded
// (compactBehind), then comes back to its first place in the queue; and
// when a board not tried yet waits, which goes ahead of it if its
// picture is drawn already (d.ahead, sharedBoardPicture). (A board that
// needs the slot for itself does not go ahead: measured under a burst,
// boards drawn ahead of the DMs left deals undelivered for 25 s, and the
// backlog no smaller, the render slot being the bottleneck. But the first
// boards of 200 games started at once are alike: one drawing serves them
// all.)
func (b *Bot) handDrawing(ctx context.Context, d *delivery, id int64) func(func() error) error {
	game := d.rec.ID
	return func(draw func() error) error {
		b.mu.Lock()
		since, ok := b.handSince[game][id]
		if !ok {
			since = b.renders.now()
			if b.handSince[game] == nil {
				b.handSince[game] = map[int64]time.Time{}
			}
			b.handSince[game][id] = since
		}
		b.mu.Unlock()
		unwanted := func() bool {
			pending, err := b.Store.PendingOutbox(ctx, game)
			n, newest := 0, int64(0)
			for _, e := range pending {
				if e.Kind == outBoard && e.ID > id && supersedable(e) {
					n, newest = n+1, e.ID
				}
			}
			return err == nil && (n >= 2 || n == 1 && newest != d.ahead && b.channelWritable(d.rec.ChannelID))
		}
		err := b.drawingHandUnless(game, since, unwanted, draw)
		if !errors.Is(err, errUnwanted) {
			b.mu.Lock()
			delete(b.handSince[game], id)
			b.mu.Unlock()
		}
		return err
	}
}

// channelWritable: a board could be posted to channel now, without
// waiting for its rate limits. A board goes ahead of a hand DM waiting for
// its picture only then: waiting seconds for the channel, it would hold
// the DM out of the render queue (measured under a burst: deals done up to
// 13 s late).
func (b *Bot) channelWritable(channel string) bool {
	return b.writable == nil || b.writable(channel)
}

// handWaiting: hand DM entry id of game is waiting for a render slot (it
// stepped aside for a moment: handDrawing).
func (b *Bot) handWaiting(game, id int64) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	_, ok := b.handSince[game][id]
	return ok
}

// compactBehind marks superseded the boards (and what goes with them)
// waiting behind hand DM e, all but the newest, and returns what remains
// to deliver, e first.
func (b *Bot) compactBehind(ctx context.Context, d *delivery, e storage.OutboxEntry) ([]storage.OutboxEntry, error) {
	pending, err := b.Store.PendingOutbox(ctx, d.rec.ID)
	if err != nil {
		return nil, err
	}
	if k := slices.IndexFunc(pending, func(x storage.OutboxEntry) bool {
		return x.Kind == outBoard && x.ID > e.ID && supersedable(x)
	}); k >= 0 {
		next, did, err := b.supersedeIn(ctx, d, pending[k], pending)
		if err != nil {
			return nil, fmt.Errorf("supersede the board of version %d: %w", pending[k].Version, err)
		}
		if did {
			pending = next
		}
	}
	next := []storage.OutboxEntry{e}
	for _, x := range pending {
		if x.ID != e.ID {
			next = append(next, x)
		}
	}
	return next, nil
}

// deliverBoard posts a new board calling the deciders (or edits the live
// one in place), marking the attempt before the call and recording the
// new board with its outcome in one write, so that a retry never posts
// it twice. A board not yet sent gives way to a newer one waiting
// (errNewer), unless d.noSkip.
func (b *Bot) deliverBoard(ctx context.Context, d *delivery, e storage.OutboxEntry, p outPayload, out outOutcome,
	g *engine.Game, info chainInfo, later []storage.OutboxEntry) error {
	rec := d.rec
	fresh := p.Fresh || out.Fresh
	if out.Message != "" {
		// Posted and noted; record it as the live board (again).
		if !p.Fresh && fresh && out.Previous != "" {
			b.collapseBoard(ctx, storage.Message{GameID: rec.ID, ChannelID: rec.ChannelID, MessageID: out.Previous})
		}
		return b.Store.WriteOutbox(ctx, storage.OutboxWrite{GameID: rec.ID, Updates: []storage.OutboxUpdate{{ID: e.ID, Done: true,
			Record: &storage.Message{GameID: rec.ID, Kind: storage.KindBoard, ChannelID: rec.ChannelID, MessageID: out.Message}}}})
	}
	if out.Since != nil && *out.Since < info.from {
		var err error
		if info, err = b.withSince(ctx, d, info, *out.Since, int(e.Version)); err != nil {
			return err
		}
	}
	notes, err := b.batchNotes(ctx, rec, e.Version)
	if err != nil {
		return err
	}
	content := b.boardContent(ctx, rec, g, info, notes)
	comps := []discordgo.MessageComponent{turnRowIn(b.gamePrinter(rec), rec.ID)}
	if g.S.Result != nil {
		comps = b.resultRow(b.gamePrinter(rec), rec) // the result board: Rematch (two members), What decided this game?
	}
	// A newer board waits: this one gives way (supersede), unless its
	// sending began.
	newer := func() bool {
		return !d.noSkip && !out.Posting && b.newerBoard(ctx, rec.ID, e.ID, later)
	}
	// Coalesce: a newer board is waiting, so only that one is drawn; this
	// one goes out as text (the form it takes once superseded anyway),
	// or gives way (errNewer) if the newer one came while it waited for a
	// render slot and it may (newer).
	picture := func() ([]byte, error) {
		if b.newerBoard(ctx, rec.ID, e.ID, later) {
			return nil, nil
		}
		if d.drawnOnly {
			if png, ok := b.sharedBoardPicture(rec, g, info); ok {
				return png, nil
			}
			return nil, errNotDrawn
		}
		png, gaveUp := b.boardPictureUnless(rec, g, info, newer)
		if gaveUp {
			return nil, errNewer
		}
		return png, nil
	}
	live, lerr := b.Store.LatestMessage(ctx, rec.ID, storage.KindBoard)
	haveLive := lerr == nil
	if haveLive && !fresh {
		if newer() {
			return errNewer
		}
		png, err := picture()
		if err != nil {
			return err
		}
		if b.stopped() {
			return errShuttingDown
		}
		err = b.editBoard(live, content, comps, png)
		if err == nil {
			return b.Store.UpdateOutbox(ctx, e.ID, nil, true)
		}
		if discordErrorCode(err) != codeUnknownMsg {
			return err
		}
		// Deleted by someone: post a new board instead.
		_ = b.Store.DeleteMessage(ctx, live.ChannelID, live.MessageID)
		haveLive = false
	}
	after := ""
	if haveLive {
		after = live.MessageID
	}
	var m *discordgo.Message
	if b.mustLook(e, out) {
		m, err = b.findPosted(rec.ChannelID, after, content)
	}
	if err == nil && m == nil {
		if newer() {
			return errNewer
		}
		send := &discordgo.MessageSend{Content: content, Components: comps,
			AllowedMentions: &discordgo.MessageAllowedMentions{Users: pingsOf(p, rec, g)}}
		png, perr := picture()
		if perr != nil {
			return perr
		}
		if png != nil {
			send.Files = []*discordgo.File{pngFile("board.png", png)}
		}
		if b.stopped() {
			return errShuttingDown
		}
		if err := b.markPosting(ctx, e, &out); err != nil {
			return err
		}
		m, err = b.Session.ChannelMessageSendComplex(rec.ChannelID, send)
	}
	if err != nil {
		if discordErrorCode(err) == codeUnknownChannel {
			// Deleted while we were away (no CHANNEL_DELETE seen): archive.
			b.HandleChannelDelete(ctx, rec.ChannelID)
			return b.Store.UpdateOutbox(ctx, e.ID, nil, true)
		}
		if rec.GuildID == "" && cannotDM(err) {
			b.dmRefused.Store(rec.ID, discordErrorCode(err))
		}
		return fmt.Errorf("post board of game %d: %w", rec.ID, err)
	}
	if b.crash(rec.ID, "board-posted") {
		return errCrashed
	}
	noted := out
	noted.Posting, noted.Message, noted.Channel = false, m.ID, m.ChannelID
	if haveLive {
		noted.Previous = live.MessageID
		if !p.Fresh {
			// Posted as a new board for the boards it superseded: their
			// collapse of the live board was skipped with them.
			b.collapseBoard(ctx, live)
		}
	}
	raw, _ := json.Marshal(noted)
	return b.Store.WriteOutbox(ctx, storage.OutboxWrite{GameID: rec.ID, Updates: []storage.OutboxUpdate{{ID: e.ID, Outcome: raw, Done: true,
		Record: &storage.Message{GameID: rec.ID, Kind: storage.KindBoard, ChannelID: rec.ChannelID, MessageID: m.ID}}}})
}

// withSince is info for a board whose log lines start at since (before
// info.from): it supersedes boards the channel never saw, and carries
// their lines.
func (b *Bot) withSince(ctx context.Context, d *delivery, info chainInfo, since, version int) (chainInfo, error) {
	version = min(version, len(d.moves))
	since = max(0, min(since, version))
	info.from = since
	info.explained = nil
	for _, m := range d.moves[since:version] {
		if n := strings.TrimSpace(m.Note); n != "" {
			if info.explained == nil {
				info.explained = map[string]bool{}
			}
			info.explained[n] = true
		}
	}
	opts, err := b.options(ctx, d.rec)
	if err != nil {
		return info, err
	}
	info.since = nil
	if sg, err := engine.Replay(opts, d.moves[:since]); err == nil {
		v := sg.ViewFor(engine.NoSide)
		info.since = &v
	}
	return info, nil
}

// noteOnBoard adds the batch's notes (closed DMs) to the board the batch
// showed, keeping its picture and buttons.
func (b *Bot) noteOnBoard(ctx context.Context, rec storage.Game, g *engine.Game, info chainInfo, version int64) {
	notes, err := b.batchNotes(ctx, rec, version)
	if err != nil || len(notes) == 0 {
		return
	}
	target := ""
	if batch, err := b.Store.OutboxBatch(ctx, rec.ID, version); err == nil {
		for _, be := range batch {
			var bo outOutcome
			if be.Kind == outBoard && json.Unmarshal(be.Outcome, &bo) == nil {
				target = bo.Message
			}
		}
	}
	if target == "" {
		live, err := b.Store.LatestMessage(ctx, rec.ID, storage.KindBoard)
		if err != nil {
			return
		}
		target = live.MessageID
	}
	content := b.boardContent(ctx, rec, g, info, notes)
	if _, err := b.Session.ChannelMessageEditComplex(&discordgo.MessageEdit{ID: target, Channel: rec.ChannelID, Content: &content,
		AllowedMentions: &discordgo.MessageAllowedMentions{}}); err != nil {
		b.Log.Warn("note closed DMs on the board", "game", rec.ID, "err", err)
	}
}

// newerBoard: a board of a later version of the game is waiting.
func (b *Bot) newerBoard(ctx context.Context, gameID, id int64, later []storage.OutboxEntry) bool {
	if slices.ContainsFunc(later, func(e storage.OutboxEntry) bool { return e.Kind == outBoard }) {
		return true
	}
	pending, err := b.Store.PendingOutbox(ctx, gameID)
	return err == nil && slices.ContainsFunc(pending, func(e storage.OutboxEntry) bool { return e.Kind == outBoard && e.ID > id })
}

// batchNotes are the board's public notes about its batch's hand DMs:
// who could not be sent one (revealing nothing).
func (b *Bot) batchNotes(ctx context.Context, rec storage.Game, version int64) ([]string, error) {
	batch, err := b.Store.OutboxBatch(ctx, rec.ID, version)
	if err != nil {
		return nil, err
	}
	var notes []string
	for _, e := range batch {
		var o outOutcome
		if e.Kind == outDM && json.Unmarshal(e.Outcome, &o) == nil && o.Closed {
			notes = append(notes, closedDMsNote(b.gamePrinter(rec), o.User))
		}
	}
	return notes, nil
}

// findPosted looks in channelID, after the message after (the newest
// messages if ""), for a message of this bot with exactly this content:
// one a previous attempt posted before it could record it.
func (b *Bot) findPosted(channelID, after, content string) (*discordgo.Message, error) {
	msgs, err := b.Session.ChannelMessages(channelID, 50, "", after, "")
	if err != nil {
		return nil, err
	}
	for _, m := range msgs {
		if m.Author != nil && m.Author.Bot && m.Content == content {
			return m, nil
		}
	}
	return nil, nil
}

// sendDM sends m to the user's DMs, unless a previous attempt did (look:
// one may have).
func (b *Bot) sendDM(user string, m msg, look bool) (sent *discordgo.Message, err error) {
	ch, err := b.dmChannel(user)
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			b.dmFailed(user, err)
		}
	}()
	if look {
		if sent, err := b.findPosted(ch, "", m.content); err != nil || sent != nil {
			return sent, err
		}
	}
	return b.Session.ChannelMessageSendComplex(ch, &discordgo.MessageSend{Content: m.content, Components: m.comps, Files: m.files})
}

func sideOfKey(k string) engine.Side {
	if k == engine.Commune.Key() {
		return engine.Commune
	}
	return engine.Versailles
}

// deliverPanel edits the mover's panel as the entry's version shows it,
// unless that could show an older state than the panel already shows:
// the panel is one message, edited through each click's token, so a late
// edit would overwrite a newer one. It is skipped (marked done) when
// showPanelNow has shown it meanwhile (the entry is done: the delivery's
// list of pending entries may be older than that), or when the game has
// moved on since (the mover's newer panel, edited at their newer move,
// shows the newer state; the opponent's moves call them on the board).
// The check and the edit are one step under the panel lock, which
// showPanelNow holds while it edits and marks the entry: a newer move
// needs a click on the panel this entry shows, so none is committed in
// between.
func (b *Bot) deliverPanel(ctx context.Context, e storage.OutboxEntry, p outPayload, rec storage.Game, g *engine.Game) error {
	m := b.afterPanel(rec, g, sideOfKey(p.Side), p)
	unlock := b.lockPanel(rec.ID)
	defer unlock()
	batch, err := b.Store.OutboxBatch(ctx, rec.ID, e.Version)
	if err != nil {
		return fmt.Errorf("read the panel's batch: %w", err)
	}
	shown := slices.ContainsFunc(batch, func(be storage.OutboxEntry) bool { return be.ID == e.ID && !be.DoneAt.IsZero() })
	now, err := b.Store.GameByID(ctx, rec.ID)
	if err != nil {
		return fmt.Errorf("read the game's version: %w", err)
	}
	if !shown && now.StateVersion == e.Version {
		it := &discordgo.Interaction{AppID: p.App, Token: p.Token}
		if err := b.editPanel(it, m); err != nil {
			// Best effort: the token may have expired (15 minutes).
			b.Log.Debug("update the mover's panel", "game", rec.ID, "err", err)
		}
	}
	return b.Store.UpdateOutbox(ctx, e.ID, nil, true)
}

// showPanelNow updates the mover's panel right after the commit, without
// waiting for the board's picture, and marks the batch's panel entry
// delivered (if the bot dies first, the publisher delivers it at the next
// start). The edit and the mark are one step under the panel lock (see
// deliverPanel).
func (b *Bot) showPanelNow(ctx context.Context, i *discordgo.Interaction, rec storage.Game, g *engine.Game, side engine.Side, p outPayload) {
	if b.crash(rec.ID, "panel:"+side.Key()) {
		return
	}
	m := b.afterPanel(rec, g, side, p)
	unlock := b.lockPanel(rec.ID)
	defer unlock()
	b.editOriginal(i, m)
	batch, err := b.Store.OutboxBatch(ctx, rec.ID, rec.StateVersion)
	if err != nil {
		return
	}
	for _, e := range batch {
		if e.Kind == outPanel && e.DoneAt.IsZero() {
			if err := b.Store.UpdateOutbox(ctx, e.ID, nil, true); err != nil {
				b.Log.Warn("mark the panel shown", "game", rec.ID, "err", err)
			}
		}
	}
}
