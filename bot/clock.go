package bot

// The pace of a game: a Fischer-style clock for play over days
// (docs/async.md). A pace is chosen when a two-player game starts (/rfop
// new pace:, else the server's default); games against the AI or the
// solo opponent have none. Each side has a remaining time, which runs
// only while that side must decide (both at once for a simultaneous
// decision) and its player is not away (away.go); when a side hands over
// (it has no decision left after a move) it gets the pace's increment,
// up to the pace's maximum. The clock is JSON on the game's row (the
// store does not read it), written with every move in the move's
// transaction and by the clock's own writes (a warning sent, a claim
// offered, one more day) as a compare-and-swap (Store.SetClock), so it
// survives restarts and shard moves. An undo gives its side back the
// time as it stood before the move undone.
//
// Deadlines are due work (due.go): "clock-warn" when 80 % of the time a
// side had when its clock started is used (a DM, once per decision),
// "clock-out" when it is all used (the opponent is offered, privately,
// claim the win / one more day / keep waiting). The rows are computed as
// if the clock ran from now on, so they are never late: time away only
// makes the real deadline later, and the handler then moves its row.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/rfop/rfop/engine"
	"github.com/rfop/rfop/locale"
	"github.com/rfop/rfop/storage"
)

// Kinds of the clock's due work (subject: the side).
const (
	dueClockWarn = "clock-warn"
	dueClockOut  = "clock-out"
)

// clockKinds are the kinds a clock write replaces.
var clockKinds = []string{dueClockWarn, dueClockOut}

// pace is a named Fischer clock: Base to start with, Inc added at each
// hand-over, never more than Max in hand.
type pace struct {
	Name           string
	Base, Inc, Max time.Duration
}

const (
	paceNone = "none"
	day      = 24 * time.Hour
	// warnAt: the share of the time a side had when its clock started
	// after which it is warned.
	warnAt = 0.8
	// oneMoreDay is what "give one more day" adds.
	oneMoreDay = day
	// undoDepth: the moves per side whose time an undo can give back.
	undoDepth = 16
)

// paces are the paces players can choose (the README lists them).
var paces = []pace{
	{Name: paceNone},
	{Name: "brisk", Base: day, Inc: 4 * time.Hour, Max: 3 * day},
	{Name: "steady", Base: 3 * day, Inc: 12 * time.Hour, Max: 5 * day},
	{Name: "relaxed", Base: 3 * day, Inc: 36 * time.Hour, Max: 10 * day},
}

// paceNamed finds a pace by name ("" and "none": no clock).
func paceNamed(name string) (pace, bool) {
	for _, p := range paces {
		if p.Name == name {
			return p, true
		}
	}
	return pace{}, name == ""
}

func paceChoices() []*discordgo.ApplicationCommandOptionChoice {
	out := make([]*discordgo.ApplicationCommandOptionChoice, 0, len(paces))
	for _, p := range paces {
		out = append(out, &discordgo.ApplicationCommandOptionChoice{Value: p.Name})
	}
	return out
}

// gameClock is a game's clock as stored (Game.Clock). Times are the bot's
// clock's; durations are milliseconds.
type gameClock struct {
	Pace string `json:"pace"`
	// Left: each side's remaining time when its clock started (Since), or
	// now if it is stopped.
	Left [2]int64 `json:"left"`
	// Since: when the side's clock started (zero: stopped).
	Since [2]time.Time `json:"since"`
	// At: the clock's last write by a move.
	At time.Time `json:"at"`
	// Started: written at the game's start (before it, a deciding side
	// runs from the game's last action).
	Started bool `json:"started,omitempty"`
	// Warned: the side was warned in its current decision; Offered: the
	// opponent was offered the claim.
	Warned  [2]bool `json:"warned"`
	Offered [2]bool `json:"offered"`
	// Undo: each side's remaining time before each of its last moves,
	// newest last (an undo gives it back).
	Undo [2][]int64 `json:"undo,omitempty"`
}

func ms(d time.Duration) int64          { return d.Milliseconds() }
func dur(ms int64) time.Duration        { return time.Duration(ms) * time.Millisecond }
func (c *gameClock) pace() pace         { p, _ := paceNamed(c.Pace); return p }
func (c *gameClock) running(s int) bool { return !c.Since[s].IsZero() }

// newClock is a new game's clock for pace p (nil: none).
func newClock(p pace) []byte {
	if p.Base <= 0 {
		return nil
	}
	raw, _ := json.Marshal(gameClock{Pace: p.Name, Left: [2]int64{ms(p.Base), ms(p.Base)}})
	return raw
}

// rematchClock is a rematch's clock: the finished game's pace, fresh.
func rematchClock(rec storage.Game) []byte {
	c, err := clockOf(rec)
	if err != nil || c == nil {
		return nil
	}
	return newClock(c.pace())
}

// clockOf reads a game's clock (nil, nil: none).
func clockOf(rec storage.Game) (*gameClock, error) {
	if len(rec.Clock) == 0 {
		return nil, nil
	}
	var c gameClock
	if err := json.Unmarshal(rec.Clock, &c); err != nil {
		return nil, fmt.Errorf("game %d: its clock: %w", rec.ID, err)
	}
	if c.pace().Base <= 0 {
		return nil, fmt.Errorf("game %d: unknown pace %q", rec.ID, c.Pace)
	}
	return &c, nil
}

func (c *gameClock) encode() []byte {
	raw, _ := json.Marshal(c)
	return raw
}

// awayTime is how long spells of away cover of [from, to).
func awayTime(spells []storage.Away, user string, from, to time.Time) time.Duration {
	var d time.Duration
	for _, a := range spells {
		if a.UserID != user {
			continue
		}
		s, e := a.Start, a.End
		if s.Before(from) {
			s = from
		}
		if e.After(to) {
			e = to
		}
		if e.After(s) {
			d += e.Sub(s)
		}
	}
	return d
}

// sideUser is the human player of side ("" for the bot).
func sideUser(rec storage.Game, side engine.Side) string {
	if pl, ok := rec.Player(sideKey(side)); ok && !pl.IsBot {
		return pl.UserID
	}
	return ""
}

// remaining is side's time left at now: what it had when its clock
// started, less the time since, less its player's time away.
func (c *gameClock) remaining(rec storage.Game, spells []storage.Away, side engine.Side, now time.Time) time.Duration {
	s := int(side)
	left := dur(c.Left[s])
	if !c.running(s) || !now.After(c.Since[s]) {
		return left
	}
	used := now.Sub(c.Since[s]) - awayTime(spells, sideUser(rec, side), c.Since[s], now)
	return left - used
}

// begin gives a clock not written since the game started its start: the
// deciding sides run from the game's last action.
func (c *gameClock) begin(rec storage.Game, deciding [2]bool) {
	if c.Started {
		return
	}
	c.Started = true
	for s := range 2 {
		if deciding[s] && c.Since[s].IsZero() {
			c.Since[s] = rec.LastActionAt
		}
	}
	if c.At.IsZero() {
		c.At = rec.LastActionAt
	}
}

// advance is the clock after move m at now, the sides in deciding having
// a decision after it.
func (c gameClock) advance(rec storage.Game, spells []storage.Away, m engine.Move, deciding [2]bool, now time.Time) gameClock {
	p := c.pace()
	for s := range 2 {
		side := engine.Side(s)
		r := c.remaining(rec, spells, side, now)
		restored := false
		switch {
		case m.Undo && m.Side == side:
			if n := len(c.Undo[s]); n > 0 {
				r, restored = dur(c.Undo[s][n-1]), true
				c.Undo[s] = c.Undo[s][: n-1 : n-1]
			}
		case !m.Timeout && !m.Resign && m.Side == side:
			// The time before this move: what it had at the clock's last
			// write.
			before := c.remaining(rec, spells, side, c.At)
			c.Undo[s] = append(c.Undo[s], ms(before))
			if len(c.Undo[s]) > undoDepth {
				c.Undo[s] = append([]int64(nil), c.Undo[s][len(c.Undo[s])-undoDepth:]...)
			}
		}
		was := c.running(s)
		switch {
		case was && !deciding[s]: // hands over: the increment
			r = max(r, 0) + p.Inc
			if r > p.Max {
				r = p.Max
			}
			c.Left[s], c.Since[s] = ms(r), time.Time{}
			c.Warned[s], c.Offered[s] = false, false
		case !was && deciding[s]: // starts
			c.Left[s], c.Since[s] = ms(r), now
			c.Warned[s], c.Offered[s] = false, false
		case was && restored: // still deciding, given time back
			c.Left[s], c.Since[s] = ms(r), now
			c.Offered[s] = false
		case !was:
			c.Left[s] = ms(r)
		}
	}
	c.At, c.Started = now, true
	return c
}

// clockDue is the clock's due work: each running side's warning (unless
// sent) and end of time (unless the claim was offered), as if its clock
// ran on from now (never late: see the top of the file).
func (c *gameClock) clockDue() []storage.Due {
	var out []storage.Due
	for s := range 2 {
		if !c.running(s) {
			continue
		}
		subject := engine.Side(s).Key()
		left := dur(c.Left[s])
		if !c.Warned[s] {
			out = append(out, storage.Due{Kind: dueClockWarn, Subject: subject, At: c.Since[s].Add(time.Duration(float64(left) * warnAt))})
		}
		if !c.Offered[s] {
			out = append(out, storage.Due{Kind: dueClockOut, Subject: subject, At: c.Since[s].Add(left)})
		}
	}
	return out
}

// awaySpells reads the spells of the game's players that end after from
// (none on error: the clock then runs, which a later read corrects).
func (b *Bot) awaySpells(ctx context.Context, rec storage.Game, from time.Time) []storage.Away {
	var users []string
	for _, p := range rec.Players {
		if !p.IsBot && p.UserID != "" {
			users = append(users, p.UserID)
		}
	}
	if len(users) == 0 || b.Store == nil {
		return nil
	}
	if spells, ok := passAwaySince(ctx, from, users); ok {
		return spells // read with the pass's batch (pass.go)
	}
	spells, err := b.Store.AwaySpells(ctx, from, users...)
	if err != nil {
		b.Log.Warn("read time away", "game", rec.ID, "err", err)
	}
	return spells
}

// earliest is the earliest start of a running clock (now if none).
func (c *gameClock) earliest(now time.Time) time.Time {
	t := now
	for s := range 2 {
		if c.running(s) && c.Since[s].Before(t) {
			t = c.Since[s]
		}
	}
	if !c.At.IsZero() && c.At.Before(t) {
		t = c.At
	}
	return t
}

// clockMove is the clock a move writes and its due work (nil, nil: the
// game has no clock).
func (b *Bot) clockMove(ctx context.Context, rec storage.Game, m engine.Move, deciding [2]bool) ([]byte, []storage.Due) {
	c, err := clockOf(rec)
	if err != nil {
		b.Log.Warn("clock", "game", rec.ID, "err", err)
	}
	if c == nil {
		return nil, nil
	}
	now := b.Clock.Now()
	var before [2]bool // only for a clock a crash left unstarted
	before[m.Side] = m.Side == engine.Versailles || m.Side == engine.Commune
	c.begin(rec, before)
	next := c.advance(rec, b.awaySpells(ctx, rec, c.earliest(now)), m, deciding, now)
	return next.encode(), next.clockDue()
}

// startClock starts a new game's clock (the sides deciding first run from
// now), after Activate: a crash in between leaves it to begin.
func (b *Bot) startClock(ctx context.Context, rec storage.Game, deciding [2]bool) storage.Game {
	c, err := clockOf(rec)
	if err != nil || c == nil {
		return rec
	}
	now := b.Clock.Now()
	c.Started, c.At = true, now
	for s := range 2 {
		if deciding[s] {
			c.Since[s] = now
		}
	}
	next := c.encode()
	ok, err := b.Store.SetClock(ctx, storage.ClockWrite{GameID: rec.ID, Version: rec.StateVersion, Old: rec.Clock, New: next,
		Kinds: clockKinds, Due: c.clockDue()})
	if err != nil || !ok {
		b.Log.Warn("start the clock", "game", rec.ID, "err", err)
		return rec
	}
	rec.Clock = next
	return rec
}

// setClock writes c over the clock rec was read with, and its due work;
// false if it changed meanwhile (another process wrote it, a move).
func (b *Bot) setClock(ctx context.Context, rec storage.Game, c *gameClock) (storage.Game, bool) {
	next := c.encode()
	ok, err := b.Store.SetClock(ctx, storage.ClockWrite{GameID: rec.ID, Version: rec.StateVersion, Old: rec.Clock, New: next,
		Kinds: clockKinds, Due: c.clockDue()})
	if err != nil {
		b.Log.Warn("write the clock", "game", rec.ID, "err", err)
	}
	if ok {
		rec.Clock = next
	}
	return rec, ok
}

// clockFor reads the game of a clock item under its lock: the game, its
// clock (begun) and the side; ok false when the item has nothing left to
// do (it is deleted).
func (b *Bot) clockFor(ctx context.Context, d storage.Due) (rec storage.Game, g *engine.Game, c *gameClock, side engine.Side, ok bool) {
	rec, g, err := b.loadGame(ctx, d.GameID)
	if errors.Is(err, storage.ErrNotFound) || err == nil && (rec.Status != storage.StatusActive || g == nil) {
		b.moveDue(ctx, d, time.Time{})
		return rec, nil, nil, 0, false
	}
	if err != nil {
		b.Log.Warn("clock", "game", d.GameID, "err", err)
		return rec, nil, nil, 0, false
	}
	if c, err = clockOf(rec); err != nil || c == nil {
		b.moveDue(ctx, d, time.Time{})
		return rec, nil, nil, 0, false
	}
	c.begin(rec, decidingOf(g))
	side = sideOfKey(d.Subject)
	if !c.running(int(side)) {
		b.moveDue(ctx, d, time.Time{})
		return rec, nil, nil, 0, false
	}
	return rec, g, c, side, true
}

// clockWarnDue warns a side whose time is 80 % used, once per decision.
func (b *Bot) clockWarnDue(ctx context.Context, d storage.Due) {
	unlock := b.lockGame(d.GameID)
	defer unlock()
	rec, _, c, side, ok := b.clockFor(ctx, d)
	if !ok {
		return
	}
	s := int(side)
	if c.Warned[s] {
		b.moveDue(ctx, d, time.Time{})
		return
	}
	now := b.Clock.Now()
	r := c.remaining(rec, b.awaySpells(ctx, rec, c.Since[s]), side, now)
	threshold := time.Duration(float64(dur(c.Left[s])) * (1 - warnAt))
	if r > threshold {
		b.moveDue(ctx, d, now.Add(r-threshold)) // away meanwhile: later
		return
	}
	c.Warned[s] = true
	if _, ok := b.setClock(ctx, rec, c); !ok {
		return // written meanwhile: the next pass looks again
	}
	user := sideUser(rec, side)
	if user == "" {
		return
	}
	p := b.userPrinter(user, rec.GuildID)
	text := p.T("bot.clock.warning", locale.Args{"ID": rec.ID, "Channel": "<#" + rec.ChannelID + ">", "Left": durationWords(p, max(r, 0)),
		"Deadline": discordTime(now.Add(max(r, 0)), "R")})
	if _, err := b.sendDM(user, msg{content: text}, true); err != nil {
		b.Log.Warn("clock warning", "game", rec.ID, "err", err)
	}
}

// clockOutDue offers the opponent of a side out of time, privately, to
// claim the win, give one more day or keep waiting.
func (b *Bot) clockOutDue(ctx context.Context, d storage.Due) {
	unlock := b.lockGame(d.GameID)
	defer unlock()
	rec, _, c, side, ok := b.clockFor(ctx, d)
	if !ok {
		return
	}
	s := int(side)
	if c.Offered[s] {
		b.moveDue(ctx, d, time.Time{})
		return
	}
	now := b.Clock.Now()
	if r := c.remaining(rec, b.awaySpells(ctx, rec, c.Since[s]), side, now); r > 0 {
		b.moveDue(ctx, d, now.Add(r))
		return
	}
	c.Offered[s], c.Warned[s] = true, true // no warning after the offer
	if rec, ok = b.setClock(ctx, rec, c); !ok {
		return
	}
	b.offerClaim(rec, side)
}

// offerClaim sends the opponent of side, out of time, the three choices;
// in the game's channel, mentioning them, if no DM can be sent.
func (b *Bot) offerClaim(rec storage.Game, side engine.Side) {
	opp := sideUser(rec, side.Other())
	if opp == "" {
		return
	}
	p := b.userPrinter(opp, rec.GuildID)
	m := msg{content: p.T("bot.clock.out", locale.Args{"ID": rec.ID, "Channel": "<#" + rec.ChannelID + ">", "Side": p.Side(side),
		"Player": playerNameIn(p, rec, side)}), comps: claimButtons(p, rec, side, true)}
	if _, err := b.sendDM(opp, m, true); err != nil {
		b.Log.Warn("offer a claim by DM", "game", rec.ID, "err", err)
		_, err = b.Session.ChannelMessageSendComplex(rec.ChannelID, &discordgo.MessageSend{Content: mention(opp) + " " + m.content,
			Components: m.comps, AllowedMentions: &discordgo.MessageAllowedMentions{Users: []string{opp}}})
		if err != nil {
			b.Log.Warn("offer a claim", "game", rec.ID, "err", err)
		}
	}
}

// claimButtons: claim the win, one more day, keep waiting (the last two
// only while the offer is open).
func claimButtons(p *locale.Printer, rec storage.Game, side engine.Side, all bool) []discordgo.MessageComponent {
	key := side.Key()
	claim := customID{Verb: verbClaim, Game: rec.ID, Version: rec.StateVersion, Side: key}.String()
	more := customID{Verb: verbMoreTime, Game: rec.ID, Version: rec.StateVersion, Side: key}.String()
	wait := customID{Verb: verbWait, Game: rec.ID, Version: rec.StateVersion, Side: key}.String()
	row := []discordgo.MessageComponent{
		discordgo.Button{Label: p.T("bot.clock.claim", nil), Style: discordgo.DangerButton, CustomID: claim},
	}
	if all {
		row = append(row,
			discordgo.Button{Label: p.T("bot.clock.more", nil), Style: discordgo.PrimaryButton, CustomID: more},
			discordgo.Button{Label: p.T("bot.clock.wait", nil), Style: discordgo.SecondaryButton, CustomID: wait})
	}
	return []discordgo.MessageComponent{discordgo.ActionsRow{Components: row}}
}

// onClockAnswer: the opponent's answer to a side's end of time. Only the
// player of the other side may answer; the side must still be out of
// time (it may have played meanwhile).
func (b *Bot) onClockAnswer(ctx context.Context, i *discordgo.Interaction, id customID) {
	pp := b.privatePrinterOf(i)
	side := id.side()
	// Authorised before anything: only the opponent, answered privately
	// (the offer may be on a public message, if no DM could be sent).
	if rec, g, err := b.loadGame(ctx, id.Game); err != nil || g == nil || !plays(rec, userID(i), side.Other()) {
		b.replyEphemeral(i, pp.T("bot.clock.not-yours", nil))
		return
	}
	if !b.deferEphemeral(i) {
		return
	}
	unlock := b.lockGame(id.Game)
	defer unlock()
	rec, g, err := b.loadGame(ctx, id.Game)
	if err != nil || g == nil {
		b.editOriginal(i, msg{content: gameNotRunningIn(pp, rec, err)})
		return
	}
	// The answer speaks as the offer did (the offer is a DM: the member's
	// language in the game's server).
	pp = b.userPrinter(userID(i), rec.GuildID)
	c, _ := clockOf(rec)
	if rec.Status != storage.StatusActive {
		b.editOriginal(i, msg{content: gameNotRunningIn(pp, rec, nil)})
		return
	}
	if c == nil {
		b.editOriginal(i, msg{content: pp.T("bot.clock.none", locale.Args{"ID": rec.ID})})
		return
	}
	c.begin(rec, decidingOf(g))
	now := b.Clock.Now()
	s := int(side)
	r := c.remaining(rec, b.awaySpells(ctx, rec, c.earliest(now)), side, now)
	if !c.running(s) || r > 0 {
		b.editOriginal(i, msg{content: pp.T("bot.clock.too-late", locale.Args{"ID": rec.ID, "Side": pp.Side(side)})})
		return
	}
	switch id.Verb {
	case verbClaim:
		if _, err := b.commitPublishing(ctx, rec, g, engine.Move{Side: side, Timeout: true}, userID(i)); err != nil {
			b.Log.Warn("claim on time", "game", rec.ID, "err", err)
			b.editOriginal(i, msg{content: pp.T("bot.clock.failed", nil)})
			return
		}
		b.editOriginal(i, msg{content: pp.T("bot.clock.claimed", locale.Args{"ID": rec.ID, "Side": pp.Side(side)})})
	case verbMoreTime:
		c.Left[s], c.Since[s], c.Offered[s], c.Warned[s] = ms(oneMoreDay), now, false, true
		if _, ok := b.setClock(ctx, rec, c); !ok {
			b.editOriginal(i, msg{content: pp.T("bot.clock.failed", nil)})
			return
		}
		if user := sideUser(rec, side); user != "" {
			p := b.userPrinter(user, rec.GuildID)
			if _, err := b.sendDM(user, msg{content: p.T("bot.clock.given-day", locale.Args{"ID": rec.ID, "Channel": "<#" + rec.ChannelID + ">"})}, true); err != nil {
				b.Log.Warn("tell of one more day", "game", rec.ID, "err", err)
			}
		}
		b.editOriginal(i, msg{content: pp.T("bot.clock.gave-day", locale.Args{"ID": rec.ID, "Side": pp.Side(side)})})
	default: // keep waiting: the claim stays possible from here
		b.editOriginal(i, msg{content: pp.T("bot.clock.waiting", locale.Args{"ID": rec.ID, "Side": pp.Side(side)}), comps: claimButtons(pp, rec, side, false)})
	}
}

// clockLine is the clock's line on the board and in /rfop status: each
// side's time left ("Commune to decide · 1 d 4 h left"), and who is away
// until when. "" for a game with neither.
func (b *Bot) clockLine(ctx context.Context, p *locale.Printer, rec storage.Game, g *engine.Game) string {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	now := b.Clock.Now()
	c, _ := clockOf(rec)
	from := now
	if c != nil {
		c.begin(rec, decidingOf(g))
		from = c.earliest(now)
	}
	spells := b.awaySpells(ctx, rec, from)
	var parts []string
	if c != nil && g.S.Result == nil {
		deciding := decidingOf(g)
		for _, side := range []engine.Side{engine.Versailles, engine.Commune} {
			r := c.remaining(rec, spells, side, now)
			args := locale.Args{"Side": p.Side(side), "Left": durationWords(p, max(r, 0))}
			switch {
			case r <= 0:
				parts = append(parts, p.T("bot.clock.side-out", args))
			case deciding[side]:
				parts = append(parts, p.T("bot.clock.side-deciding", args))
			default:
				parts = append(parts, p.T("bot.clock.side", args))
			}
		}
	}
	for _, a := range spells {
		if !a.Start.After(now) && a.End.After(now) {
			parts = append(parts, p.T("bot.clock.away", locale.Args{"Player": mention(a.UserID), "Until": discordTime(a.End, "f")}))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "⏱ " + strings.Join(parts, " | ")
}

// durationWords is a time left as players read it: "1 d 4 h", "5 h 20
// min", "12 min".
func durationWords(p *locale.Printer, d time.Duration) string {
	d = d.Round(time.Minute)
	days, hours, mins := int(d/day), int(d%day/time.Hour), int(d%time.Hour/time.Minute)
	switch {
	case days > 0 && hours > 0:
		return p.T("bot.clock.dh", locale.Args{"D": days, "H": hours})
	case days > 0:
		return p.T("bot.clock.d", locale.Args{"D": days})
	case hours > 0 && mins > 0:
		return p.T("bot.clock.hm", locale.Args{"H": hours, "M": mins})
	case hours > 0:
		return p.T("bot.clock.h", locale.Args{"H": hours})
	}
	return p.T("bot.clock.m", locale.Args{"M": mins})
}

// discordTime is a time Discord shows in each reader's own time zone and
// language (style f: date and time, R: relative).
func discordTime(t time.Time, style string) string {
	return fmt.Sprintf("<t:%d:%s>", t.Unix(), style)
}

// paceWords describes a pace: "brisk: 1 d + 4 h per hand-over, at most 3 d".
func paceWords(p *locale.Printer, name string) string {
	pc, _ := paceNamed(name)
	if pc.Base <= 0 {
		return p.T("bot.pace.none", nil)
	}
	return p.T("bot.pace.clock", locale.Args{"Name": p.T("bot.pace.name."+pc.Name, nil), "Base": durationWords(p, pc.Base),
		"Inc": durationWords(p, pc.Inc), "Max": durationWords(p, pc.Max)})
}
