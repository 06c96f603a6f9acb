package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Notify is how a member wants to be told that a game waits for them
// (migration 0010).
type Notify string

const (
	// NotifyMention: the new board mentions them (the default).
	NotifyMention Notify = "mention"
	// NotifyDM: a DM at each hand-over; the board does not mention them.
	NotifyDM Notify = "dm"
	// NotifyDigest: one DM a day listing the games waiting for them.
	NotifyDigest Notify = "digest"
	// NotifyOff: nothing; they look for themselves.
	NotifyOff Notify = "off"
)

// Valid reports whether n is one of the four preferences.
func (n Notify) Valid() bool {
	switch n {
	case NotifyMention, NotifyDM, NotifyDigest, NotifyOff:
		return true
	}
	return false
}

// MemberPrefs are a member's preferences across all their games.
// MemberPrefs returns NotifyMention for a member who never chose.
type MemberPrefs struct {
	UserID string
	Notify Notify
	// DigestAnchor: when the member chose the digest; it comes every day
	// at that time of day. Zero unless they chose it.
	DigestAnchor time.Time
	// DigestSentAt: the last digest sent (zero if none).
	DigestSentAt time.Time
}

// Members is the part of the Store that keeps members' preferences.
type Members interface {
	// MemberPrefs returns the member's preferences (Notify is
	// NotifyMention if they never chose).
	MemberPrefs(ctx context.Context, userID string) (MemberPrefs, error)
	// SetMemberPrefs stores them whole (read, change, set) and returns
	// what was stored (times rounded to milliseconds).
	SetMemberPrefs(ctx context.Context, p MemberPrefs) (MemberPrefs, error)
	// ActiveGamesOf lists the active games the member plays, oldest
	// move first: one index range on the players' user index.
	ActiveGamesOf(ctx context.Context, userID string) ([]Game, error)
}

func (s *sqlStore) MemberPrefs(ctx context.Context, userID string) (MemberPrefs, error) {
	p := MemberPrefs{UserID: userID, Notify: NotifyMention}
	var notify, anchor, sent string
	err := s.readDB().QueryRowContext(ctx, `SELECT notify, digest_anchor, digest_sent_at FROM member_prefs WHERE user_id = ?`,
		userID).Scan(&notify, &anchor, &sent)
	if errors.Is(err, sql.ErrNoRows) {
		return p, nil
	}
	if err != nil {
		return MemberPrefs{}, fmt.Errorf("storage: preferences of member %q: %w", userID, err)
	}
	p.Notify = Notify(notify)
	if p.DigestAnchor, err = parseTime(anchor); err != nil {
		return MemberPrefs{}, err
	}
	if p.DigestSentAt, err = parseTime(sent); err != nil {
		return MemberPrefs{}, err
	}
	return p, nil
}

func (s *sqlStore) SetMemberPrefs(ctx context.Context, p MemberPrefs) (MemberPrefs, error) {
	switch {
	case p.UserID == "":
		return MemberPrefs{}, fmt.Errorf("%w: preferences without a member", ErrInvalid)
	case !p.Notify.Valid():
		return MemberPrefs{}, fmt.Errorf("%w: unknown notification preference %q", ErrInvalid, p.Notify)
	}
	p.DigestAnchor, p.DigestSentAt = roundMillis(p.DigestAnchor), roundMillis(p.DigestSentAt)
	err := s.write(ctx, func(tx conn) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO member_prefs (user_id, notify, digest_anchor, digest_sent_at, updated_at)
			VALUES (?, ?, ?, ?, ?)
			ON CONFLICT (user_id) DO UPDATE SET notify = excluded.notify, digest_anchor = excluded.digest_anchor,
				digest_sent_at = excluded.digest_sent_at, updated_at = excluded.updated_at`,
			p.UserID, string(p.Notify), formatTime(p.DigestAnchor), formatTime(p.DigestSentAt), s.stamp())
		if err != nil {
			return fmt.Errorf("storage: saving preferences of member %q: %w", p.UserID, err)
		}
		return nil
	})
	if err != nil {
		return MemberPrefs{}, err
	}
	return p, nil
}

// roundMillis is t as stored (UTC, milliseconds), zero kept.
func roundMillis(t time.Time) time.Time {
	if t.IsZero() {
		return t
	}
	return t.UTC().Truncate(time.Millisecond)
}

func (s *sqlStore) ActiveGamesOf(ctx context.Context, userID string) ([]Game, error) {
	if userID == "" {
		return nil, fmt.Errorf("%w: games of no user", ErrInvalid)
	}
	return s.listGames(ctx, `status = 'active' AND id IN (SELECT game_id FROM players WHERE user_id = ?)`,
		"last_action_at, id", []any{userID})
}
