package bot

// Notifications. Each member chooses, across all their games, how they
// are told that a game waits for them (/rfop notify, storage.Notify):
// a mention on the new board (the default), a DM, one digest DM a day,
// or nothing. Whatever the choice, a hand-over notifies once: the chain
// that ended calls a player (chainInfo.called: a decision they were not
// called for), and the player did not act in that game within
// quietAfterActing (they are at the table: a multi-step turn, or a quick
// reply back to them, notifies nobody). The decision is taken when the
// move commits (plan) and stored with the board's outbox entry, so a
// retried publication calls the same people. Reminders follow the same
// preference and stop after maxReminders (reminders.go).
//
// The member's preference is read through notifyOf: the one place that
// says how a member is told now (time away, when there is such a thing,
// makes it NotifyOff).

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/rfop/rfop/engine"
	"github.com/rfop/rfop/locale"
	"github.com/rfop/rfop/storage"
)

const (
	// quietAfterActing: a player who acted in a game this recently is
	// not notified of a new decision in it.
	quietAfterActing = 5 * time.Minute
	// maxReminders: reminders per hand-over while nobody moves (after 1,
	// 2 and 3 reminder intervals; the store counts them, a move starts
	// again); then the game waits silently.
	maxReminders = 3
	// digestEvery: a digest at most this often.
	digestEvery = 24 * time.Hour
	// digestSpan: a digest lists a waiting game while it has been idle
	// less than this (one digest per day of the reminders' span).
	digestSpan = time.Duration(maxReminders+1) * digestEvery
)

// Outbox entry kinds of notifications (outbox.go).
const (
	outNotify = "notify" // a turn DM to a player who chose DMs
	outDigest = "digest" // schedules the digest of a player who chose it
)

// dueDigest: a member's daily digest (a user's row: GameID 0, Subject
// the user id, run by shard 0).
const dueDigest = "digest"

// notifyOf is how the member is told now that a game waits for them.
// THE HOOK for anything that silences a member (time away).
func (b *Bot) notifyOf(ctx context.Context, userID string) storage.Notify {
	if b.isAway(ctx, userID) {
		return storage.NotifyOff // away.go: nothing reaches a member who is away
	}
	if pd := passOf(ctx); pd != nil {
		if how, ok := pd.notify[userID]; ok { // read with the pass's batch (pass.go)
			return how
		}
	}
	p, err := b.Store.MemberPrefs(ctx, userID)
	if err != nil {
		b.Log.Warn("read notification preference", "user", userID, "err", err)
		return storage.NotifyMention
	}
	return p.Notify
}

// lastActed is when each side last acted in the game (zero if never):
// its stored actions, and now for the steps being committed.
func lastActed(rec storage.Game, actions []storage.Action, steps []step, now time.Time) [2]time.Time {
	var at [2]time.Time
	for _, a := range actions {
		if s := engineSide(a.Side); (s == engine.Versailles || s == engine.Commune) && a.CreatedAt.After(at[s]) {
			at[s] = a.CreatedAt
		}
	}
	human := humanSides(rec)
	for _, st := range steps {
		if s := st.move.Side; (s == engine.Versailles || s == engine.Commune) && human[s] {
			at[s] = now
		}
	}
	return at
}

// planCalls decides how the chain's called players are told: the users
// the board pings, and the entries that DM or schedule a digest.
func (b *Bot) planCalls(ctx context.Context, rec storage.Game, info chainInfo, acted [2]time.Time, now time.Time) (ping []string, entries []storage.OutboxEntry) {
	for side := engine.Versailles; side <= engine.Commune; side++ {
		pl, ok := rec.Player(sideKey(side))
		if !info.called[side] || !ok || pl.IsBot || !acted[side].IsZero() && now.Sub(acted[side]) < quietAfterActing {
			continue
		}
		switch b.notifyOf(ctx, pl.UserID) {
		case storage.NotifyMention:
			ping = append(ping, pl.UserID)
		case storage.NotifyDM:
			if rec.GuildID != "" { // in DMs the board itself is the DM
				entries = append(entries, entry(outNotify, outPayload{Side: side.Key()}))
			}
		case storage.NotifyDigest:
			if rec.GuildID != "" {
				entries = append(entries, entry(outDigest, outPayload{Side: side.Key()}))
			}
		}
	}
	return ping, entries
}

// pingsOf are the users a board entry pings: as planned, or for an entry
// stored before plans chose, every decider.
func pingsOf(p outPayload, rec storage.Game, g *engine.Game) []string {
	if p.Chosen {
		return strings.Fields(p.Ping)
	}
	return decidingUsers(rec, g)
}

// mentionable keeps the users who want mentions (the result's pings).
func (b *Bot) mentionable(ctx context.Context, users []string) []string {
	var out []string
	for _, u := range users {
		if b.notifyOf(ctx, u) == storage.NotifyMention {
			out = append(out, u)
		}
	}
	return out
}

// boardLink is the address of a message, for a DM pointing at a board.
func boardLink(guildID, channelID, messageID string) string {
	return "https://discord.com/channels/" + guildID + "/" + channelID + "/" + messageID
}

// batchBoard is the board message a batch posted ("" if none yet: the
// live board then).
func (b *Bot) batchBoard(ctx context.Context, rec storage.Game, version int64) string {
	if batch, err := b.Store.OutboxBatch(ctx, rec.ID, version); err == nil {
		for _, be := range batch {
			var bo outOutcome
			if be.Kind == outBoard && json.Unmarshal(be.Outcome, &bo) == nil && bo.Message != "" {
				return bo.Message
			}
		}
	}
	if live, err := b.Store.LatestMessage(ctx, rec.ID, storage.KindBoard); err == nil {
		return live.MessageID
	}
	return ""
}

// turnDM is the DM telling a player that a game waits for them.
func (b *Bot) turnDM(rec storage.Game, side engine.Side, boardID string, reminder bool) string {
	p := b.sidePrinter(rec, side)
	id := "bot.notify.turn"
	if reminder {
		id = "bot.notify.reminder"
	}
	return p.Msg(nil, engine.Msg{ID: id, Args: []engine.Arg{argNum("ID", rec.ID), argSide("Side", side),
		argText("Channel", "<#"+rec.ChannelID+">"), argText("Link", boardLink(rec.GuildID, rec.ChannelID, boardID))}})
}

// deliverNotify sends a notify entry's turn DM (once: a retry finds it).
func (b *Bot) deliverNotify(ctx context.Context, e storage.OutboxEntry, p outPayload, out outOutcome, rec storage.Game) error {
	done := func(o *outOutcome) error {
		var raw []byte
		if o != nil {
			raw, _ = json.Marshal(o)
		}
		return b.Store.UpdateOutbox(ctx, e.ID, raw, true)
	}
	if out.Message != "" || out.Closed {
		return done(nil)
	}
	side := sideOfKey(p.Side)
	pl, ok := rec.Player(sideKey(side))
	if !ok || pl.IsBot {
		return done(nil)
	}
	sent, err := b.sendDM(pl.UserID, msg{content: b.turnDM(rec, side, b.batchBoard(ctx, rec, e.Version), false)}, true) // looks first: a retry finds it
	if cannotDM(err) {
		b.Log.Info("turn DM refused", "game", rec.ID, "user", pl.UserID)
		return done(&outOutcome{Closed: true, User: pl.UserID})
	}
	if err != nil {
		return err
	}
	return done(&outOutcome{Message: sent.ID, Channel: sent.ChannelID})
}

// deliverDigest schedules the digest of a player who chose it.
func (b *Bot) deliverDigest(ctx context.Context, e storage.OutboxEntry, p outPayload, rec storage.Game) error {
	if pl, ok := rec.Player(sideKey(sideOfKey(p.Side))); ok && !pl.IsBot {
		if err := b.scheduleDigest(ctx, pl.UserID); err != nil {
			return err
		}
	}
	return b.Store.UpdateOutbox(ctx, e.ID, nil, true)
}

// nextDigest is the first time after `after` at the anchor's time of day.
func nextDigest(anchor, after time.Time) time.Time {
	if anchor.IsZero() {
		anchor = after
	}
	k := after.Sub(anchor)/digestEvery + 1
	if after.Before(anchor) {
		k = 0
	}
	return anchor.Add(k * digestEvery)
}

// digestTime is when the member's next digest is due: the first
// occurrence of their digest's time of day after the last one sent (or
// after they chose it); one that would be long past (the member had no
// digest for days) is the next occurrence from now instead, so that the
// digest keeps its time of day.
func digestTime(p storage.MemberPrefs, now time.Time) time.Time {
	base := p.DigestSentAt
	if base.IsZero() {
		base = p.DigestAnchor
	}
	at := nextDigest(p.DigestAnchor, base)
	if at.Before(now.Add(-time.Hour)) {
		at = nextDigest(p.DigestAnchor, now.Add(-time.Nanosecond))
	}
	return at
}

// scheduleDigest writes the member's digest row at its time (the same
// time from every hand-over of the day: rewriting it changes nothing).
func (b *Bot) scheduleDigest(ctx context.Context, userID string) error {
	p, err := b.Store.MemberPrefs(ctx, userID)
	if err != nil {
		return err
	}
	if p.Notify != storage.NotifyDigest {
		return nil
	}
	return b.Store.ScheduleDue(ctx, storage.Due{Kind: dueDigest, Subject: userID, At: digestTime(p, b.Clock.Now())})
}

// waitingGame is a game a digest lists.
type waitingGame struct {
	rec  storage.Game
	side engine.Side
}

// waitingFor lists the member's games where they must decide, idle less
// than digestSpan.
func (b *Bot) waitingFor(ctx context.Context, userID string, now time.Time) ([]waitingGame, error) {
	games, err := b.Store.ActiveGamesOf(ctx, userID)
	if err != nil {
		return nil, err
	}
	var out []waitingGame
	for _, listed := range games {
		if listed.GuildID == "" || now.Sub(listed.LastActionAt) >= digestSpan {
			continue
		}
		// A listing holds no state (storage: lists never load states): the
		// game is read, and checked, as for play.
		rec, g, err := b.loadGame(ctx, listed.ID)
		if err != nil {
			b.Log.Warn("digest: load game", "game", listed.ID, "err", err)
			continue
		}
		for _, p := range g.Prompts() {
			if pl, ok := rec.Player(sideKey(p.Side)); ok && !pl.IsBot && pl.UserID == userID {
				out = append(out, waitingGame{rec: rec, side: p.Side})
				break
			}
		}
	}
	return out, nil
}

// digestDue sends a member's daily digest: one DM listing the games
// waiting for them. It is claimed first (moved to the next day while a
// game may still wait then), so of several processes one sends it.
func (b *Bot) digestDue(ctx context.Context, d storage.Due) {
	user, now := d.Subject, b.Clock.Now()
	prefs, err := b.Store.MemberPrefs(ctx, user)
	if err != nil {
		b.Log.Warn("digest: read preferences", "user", user, "err", err)
		return
	}
	if user == "" || b.notifyOf(ctx, user) != storage.NotifyDigest {
		b.moveDue(ctx, d, time.Time{})
		return
	}
	if !prefs.DigestSentAt.IsZero() && now.Sub(prefs.DigestSentAt) < digestEvery-time.Hour {
		b.moveDue(ctx, d, digestTime(prefs, now)) // at most one a day
		return
	}
	waiting, err := b.waitingFor(ctx, user, now)
	if err != nil {
		b.Log.Warn("digest: list games", "user", user, "err", err)
		return
	}
	if len(waiting) == 0 {
		b.moveDue(ctx, d, time.Time{}) // the next hand-over schedules it again
		return
	}
	if ok, err := b.Store.ClaimDue(ctx, d, nextDigest(prefs.DigestAnchor, now)); err != nil || !ok {
		if err != nil {
			b.Log.Warn("digest: claim", "user", user, "err", err)
		}
		return
	}
	prefs.DigestSentAt = now
	if _, err := b.Store.SetMemberPrefs(ctx, prefs); err != nil {
		b.Log.Warn("digest: record", "user", user, "err", err)
	}
	// Sent as is: yesterday's digest may read the same (sendDM would take
	// it for an earlier attempt of this one).
	ch, err := b.dmChannel(user)
	if err == nil {
		_, err = b.Session.ChannelMessageSendComplex(ch, &discordgo.MessageSend{Content: b.digestText(ctx, user, waiting),
			AllowedMentions: &discordgo.MessageAllowedMentions{}})
		b.dmFailed(user, err)
	}
	if err != nil {
		b.Log.Info("digest not delivered", "user", user, "err", err)
	}
}

// digestText lists the waiting games, in the member's language.
func (b *Bot) digestText(ctx context.Context, user string, waiting []waitingGame) string {
	p := b.userPrinter(user, waiting[0].rec.GuildID)
	var sb strings.Builder
	sb.WriteString(p.N("bot.notify.digest", len(waiting), locale.Args{"Count": len(waiting)}))
	for _, w := range waiting {
		board := b.batchBoard(ctx, w.rec, w.rec.StateVersion)
		sb.WriteString("\n" + p.Msg(nil, engine.Msg{ID: "bot.notify.digest-line", Args: []engine.Arg{argNum("ID", w.rec.ID),
			argSide("Side", w.side), argText("Channel", "<#"+w.rec.ChannelID+">"),
			argText("Link", boardLink(w.rec.GuildID, w.rec.ChannelID, board))}}))
	}
	return sb.String()
}

// notifyChoices are /rfop notify's choices.
func notifyChoices() []*discordgo.ApplicationCommandOptionChoice {
	return []*discordgo.ApplicationCommandOptionChoice{{Value: string(storage.NotifyMention)}, {Value: string(storage.NotifyDM)},
		{Value: string(storage.NotifyDigest)}, {Value: string(storage.NotifyOff)}}
}

// cmdNotify shows or sets the member's notification preference. It is
// the member's own, in every server and in DMs.
func (b *Bot) cmdNotify(ctx context.Context, i *discordgo.Interaction, o options) {
	p := b.privatePrinterOf(i)
	user := userID(i)
	prefs, err := b.Store.MemberPrefs(ctx, user)
	if err != nil {
		b.Log.Error("read notification preference", "user", user, "err", err)
		b.replyEphemeral(i, p.T("cmd.notify.failed", nil))
		return
	}
	if how := storage.Notify(o.str("how")); how != "" {
		if !how.Valid() {
			how = prefs.Notify // Discord sends only the choices
		}
		if how == storage.NotifyDigest && prefs.Notify != storage.NotifyDigest {
			prefs.DigestAnchor = b.Clock.Now() // the digest's time of day
		}
		prefs.Notify = how
		if prefs, err = b.Store.SetMemberPrefs(ctx, prefs); err != nil {
			b.Log.Error("save notification preference", "user", user, "err", err)
			b.replyEphemeral(i, p.T("cmd.notify.failed", nil))
			return
		}
		if how == storage.NotifyDigest {
			if err := b.scheduleDigest(ctx, user); err != nil {
				b.Log.Warn("schedule digest", "user", user, "err", err)
			}
		}
	}
	text := p.T("cmd.notify."+string(prefs.Notify), nil)
	if prefs.Notify == storage.NotifyDigest {
		text = p.T("cmd.notify.digest", locale.Args{"Time": "<t:" + fmt.Sprint(digestTime(prefs, b.Clock.Now()).Unix()) + ":t>"})
	}
	b.replyEphemeral(i, text)
}
