package storage

// Reads of a batch: what a pass over many due items needs of each game,
// guild and member, read in one query each for the whole batch instead of
// one per item (on PostgreSQL each query is a round trip).

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// Batches is the part of the Store that reads many rows at once.
type Batches interface {
	// GamesByIDs lists the games with those ids (a listing: records and
	// players, no state), in id order; an id that names no game is left
	// out.
	GamesByIDs(ctx context.Context, ids ...int64) ([]Game, error)
	// GuildSettingsOf returns each guild's settings (DefaultSettings for
	// a guild that never set any), by guild id.
	GuildSettingsOf(ctx context.Context, guildIDs ...string) (map[string]Settings, error)
	// MemberPrefsOf returns each member's preferences (Notify is
	// NotifyMention if they never chose), by user id.
	MemberPrefsOf(ctx context.Context, userIDs ...string) (map[string]MemberPrefs, error)
	// ClaimReminderOutbox is ClaimOutbox and ClaimReminder in one
	// transaction: it takes h's lease on the game's outbox (as
	// ClaimOutbox, until until) and claims the reminder (as
	// ClaimReminder), or does neither and reports false (another
	// process is delivering the game's publications, or claimed the
	// reminder first). If claimed, live is the game's live board (its
	// LatestMessage of KindBoard, read under the lease; ID 0 if it has
	// none).
	ClaimReminderOutbox(ctx context.Context, id int64, h LeaseHolder, now, until time.Time, seen, at time.Time, next Due) (claimed bool, live Message, err error)
	// RecordMessageRelease is RecordMessage and ReleaseOutbox(m.GameID,
	// holder) in one transaction (one commit: on PostgreSQL one flush
	// of the log instead of two): a reminder's board recorded, its lease
	// ended. pending reports whether the game has undelivered outbox
	// entries, read after the release in the same transaction: a
	// publisher that found the lease taken committed its entries
	// before, so they are seen, and one that tries after the release
	// takes the lease itself (the caller delivers them only if pending).
	RecordMessageRelease(ctx context.Context, m Message, holder string) (rec Message, pending bool, err error)
}

func (s *sqlStore) RecordMessageRelease(ctx context.Context, m Message, holder string) (Message, bool, error) {
	if err := validMessage(m); err != nil {
		return Message{}, false, err
	}
	// Pipelined: on PostgreSQL one round trip instead of four, and the
	// caller's look at the outbox (a fifth) comes with it.
	pending := false
	rec, release, look := recordMessageStep(s.d, &m, s.stamp()), step{
		query: `DELETE FROM outbox_leases WHERE game_id = ? AND holder = ?`,
		args:  []any{m.GameID, holder},
		fail: func(err error) error {
			return fmt.Errorf("storage: game %d: releasing the outbox: %w", m.GameID, err)
		},
	}, step{
		// After the release: a statement of a READ COMMITTED transaction
		// sees what committed before it began (SQLite's writer sees
		// everything committed).
		query: `SELECT 1 FROM outbox WHERE done_at = '' AND game_id = ? LIMIT 1`,
		args:  []any{m.GameID},
		fail: func(err error) error {
			return fmt.Errorf("storage: game %d: reading the outbox: %w", m.GameID, err)
		},
		rows: func(r rowReader) error {
			pending = r.Next()
			return nil
		},
	}
	if err := s.pipe(ctx, false, []step{rec, release, look}); err != nil {
		return Message{}, false, err
	}
	return m, pending, nil
}

// marks is n placeholders, comma separated.
func marks(n int) string {
	return strings.TrimSuffix(strings.Repeat("?, ", n), ", ")
}

func (s *sqlStore) GamesByIDs(ctx context.Context, ids ...int64) ([]Game, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = id
	}
	return s.listGames(ctx, `id IN (`+marks(len(ids))+`)`, "id", args)
}

func (s *sqlStore) GuildSettingsOf(ctx context.Context, guildIDs ...string) (map[string]Settings, error) {
	out := make(map[string]Settings, len(guildIDs))
	if len(guildIDs) == 0 {
		return out, nil
	}
	args := make([]any, len(guildIDs))
	for i, g := range guildIDs {
		args[i] = g
		out[g] = DefaultSettings(g)
	}
	rows, err := s.readDB().QueryContext(ctx, `SELECT guild_id, reminder_interval_seconds, admin_role_id, language, language_chosen, pace
		FROM guild_settings WHERE guild_id IN (`+marks(len(guildIDs))+`)`, args...)
	if err != nil {
		return nil, fmt.Errorf("storage: settings of guilds: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var st Settings
		var secs, chosen int64
		if err := rows.Scan(&st.GuildID, &secs, &st.AdminRoleID, &st.Language, &chosen, &st.Pace); err != nil {
			return nil, fmt.Errorf("storage: settings of guilds: %w", err)
		}
		if chosen == 0 {
			st.Language = ""
		}
		st.ReminderInterval = time.Duration(secs) * time.Second
		out[st.GuildID] = st
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("storage: settings of guilds: %w", err)
	}
	return out, nil
}

func (s *sqlStore) MemberPrefsOf(ctx context.Context, userIDs ...string) (map[string]MemberPrefs, error) {
	out := make(map[string]MemberPrefs, len(userIDs))
	if len(userIDs) == 0 {
		return out, nil
	}
	args := make([]any, len(userIDs))
	for i, u := range userIDs {
		args[i] = u
		out[u] = MemberPrefs{UserID: u, Notify: NotifyMention}
	}
	rows, err := s.readDB().QueryContext(ctx, `SELECT user_id, notify, digest_anchor, digest_sent_at FROM member_prefs
		WHERE user_id IN (`+marks(len(userIDs))+`)`, args...)
	if err != nil {
		return nil, fmt.Errorf("storage: preferences of members: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var p MemberPrefs
		var notify, anchor, sent string
		if err := rows.Scan(&p.UserID, &notify, &anchor, &sent); err != nil {
			return nil, fmt.Errorf("storage: preferences of members: %w", err)
		}
		p.Notify = Notify(notify)
		if p.DigestAnchor, err = parseTime(anchor); err != nil {
			return nil, err
		}
		if p.DigestSentAt, err = parseTime(sent); err != nil {
			return nil, err
		}
		out[p.UserID] = p
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("storage: preferences of members: %w", err)
	}
	return out, nil
}
