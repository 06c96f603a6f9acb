package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// RecordMessage remembers a Discord message posted for a game. Recording
// the same (channel, message) again updates its game and kind.
// ErrNotFound if the game does not exist.
func (s *sqlStore) RecordMessage(ctx context.Context, m Message) (Message, error) {
	if err := validMessage(m); err != nil {
		return Message{}, err
	}
	err := s.writeOne(ctx, func(tx conn) error { // one statement
		var err error
		m, err = recordMessage(ctx, tx, m, s.stamp())
		return err
	})
	if err != nil {
		return Message{}, err
	}
	return m, nil
}

func validMessage(m Message) error {
	switch {
	case m.Kind == "":
		return fmt.Errorf("%w: message without a kind", ErrInvalid)
	case m.ChannelID == "" || m.MessageID == "":
		return fmt.Errorf("%w: message needs a channel and a message id", ErrInvalid)
	}
	return nil
}

func recordMessage(ctx context.Context, tx conn, m Message, now string) (Message, error) {
	err := runStep(ctx, tx, recordMessageStep(tx.d, &m, now))
	return m, err
}

// recordMessageStep is recordMessage's statement: it fills m's ID and
// CreatedAt from the row it writes.
func recordMessageStep(d *dialect, m *Message, now string) step {
	return step{
		query: `INSERT INTO messages (game_id, kind, channel_id, message_id, created_at)
		VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (channel_id, message_id) DO UPDATE SET game_id = excluded.game_id, kind = excluded.kind
		RETURNING id, created_at`,
		args: []any{m.GameID, string(m.Kind), m.ChannelID, m.MessageID, now},
		fail: func(err error) error {
			if d.isForeignKey(err) {
				return fmt.Errorf("%w: game %d (recording message %s)", ErrNotFound, m.GameID, m.MessageID)
			}
			return fmt.Errorf("storage: recording message %s of game %d: %w", m.MessageID, m.GameID, err)
		},
		rows: func(r rowReader) error {
			if !r.Next() {
				return fmt.Errorf("storage: recording message %s of game %d: no row returned", m.MessageID, m.GameID)
			}
			var created string
			if err := r.Scan(&m.ID, &created); err != nil {
				return fmt.Errorf("storage: recording message %s of game %d: %w", m.MessageID, m.GameID, err)
			}
			var err error
			m.CreatedAt, err = parseTime(created)
			return err
		},
	}
}

// Messages lists the game's recorded messages of kind (every kind if kind
// is ""), oldest first.
func (s *sqlStore) Messages(ctx context.Context, gameID int64, kind MessageKind) ([]Message, error) {
	q := `SELECT id, game_id, kind, channel_id, message_id, created_at FROM messages WHERE game_id = ?`
	args := []any{gameID}
	if kind != "" {
		q += ` AND kind = ?`
		args = append(args, string(kind))
	}
	rows, err := s.readDB().QueryContext(ctx, q+` ORDER BY id`, args...)
	if err != nil {
		return nil, fmt.Errorf("storage: messages of game %d: %w", gameID, err)
	}
	defer rows.Close()
	out := []Message{}
	for rows.Next() {
		m, err := scanMessage(rows)
		if err != nil {
			return nil, fmt.Errorf("storage: messages of game %d: %w", gameID, err)
		}
		out = append(out, m)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("storage: messages of game %d: %w", gameID, err)
	}
	return out, nil
}

// latestMessageSQL reads a game's latest message of a kind.
const latestMessageSQL = `SELECT id, game_id, kind, channel_id, message_id, created_at
		FROM messages WHERE game_id = ? AND kind = ? ORDER BY id DESC LIMIT 1`

// LatestMessage returns the game's most recently recorded message of kind
// (the board to edit), or ErrNotFound.
func (s *sqlStore) LatestMessage(ctx context.Context, gameID int64, kind MessageKind) (Message, error) {
	m, err := scanMessage(s.readDB().QueryRowContext(ctx, latestMessageSQL, gameID, string(kind)))
	if errors.Is(err, sql.ErrNoRows) {
		return Message{}, fmt.Errorf("%w: no %s message for game %d", ErrNotFound, kind, gameID)
	}
	if err != nil {
		return Message{}, fmt.Errorf("storage: latest %s message of game %d: %w", kind, gameID, err)
	}
	return m, nil
}

// DeleteMessage forgets a recorded message. ErrNotFound if it was not
// recorded.
func (s *sqlStore) DeleteMessage(ctx context.Context, channelID, messageID string) error {
	// One statement, its own transaction (on PostgreSQL one round trip,
	// not three).
	return s.writeOne(ctx, func(tx conn) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM messages WHERE channel_id = ? AND message_id = ?`, channelID, messageID)
		if err != nil {
			return fmt.Errorf("storage: deleting message %s: %w", messageID, err)
		}
		if n, err := res.RowsAffected(); err != nil {
			return fmt.Errorf("storage: deleting message %s: %w", messageID, err)
		} else if n == 0 {
			return fmt.Errorf("%w: message %s in channel %s", ErrNotFound, messageID, channelID)
		}
		return nil
	})
}

func scanMessage(sc scanner) (Message, error) {
	var m Message
	var kind, created string
	if err := sc.Scan(&m.ID, &m.GameID, &kind, &m.ChannelID, &m.MessageID, &created); err != nil {
		return Message{}, err
	}
	m.Kind = MessageKind(kind)
	var err error
	m.CreatedAt, err = parseTime(created)
	return m, err
}

// GuildSettings returns the guild's settings, DefaultSettings if it never
// set any. Language is "" while the guild never chose one.
func (s *sqlStore) GuildSettings(ctx context.Context, guildID string) (Settings, error) {
	st := Settings{GuildID: guildID}
	var secs, chosen int64
	err := s.readDB().QueryRowContext(ctx, `SELECT reminder_interval_seconds, admin_role_id, language, language_chosen, pace
		FROM guild_settings WHERE guild_id = ?`, guildID).Scan(&secs, &st.AdminRoleID, &st.Language, &chosen, &st.Pace)
	if errors.Is(err, sql.ErrNoRows) {
		return DefaultSettings(guildID), nil
	}
	if err != nil {
		return Settings{}, fmt.Errorf("storage: settings of guild %q: %w", guildID, err)
	}
	if chosen == 0 {
		st.Language = ""
	}
	st.ReminderInterval = time.Duration(secs) * time.Second
	return st, nil
}

// SetGuildSettings stores the guild's settings whole (read, change, set)
// and returns what was stored: the reminder interval is rounded down to
// whole seconds; an empty Language stays unchosen (the bot then speaks
// the server's preferred locale).
func (s *sqlStore) SetGuildSettings(ctx context.Context, st Settings) (Settings, error) {
	if st.ReminderInterval < 0 {
		return Settings{}, fmt.Errorf("%w: negative reminder interval %s", ErrInvalid, st.ReminderInterval)
	}
	st.ReminderInterval = st.ReminderInterval.Truncate(time.Second)
	lang, chosen := st.Language, 1
	if lang == "" {
		lang, chosen = DefaultLanguage, 0
	}
	err := s.write(ctx, func(tx conn) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO guild_settings
			(guild_id, reminder_interval_seconds, admin_role_id, language, language_chosen, pace, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (guild_id) DO UPDATE SET
				reminder_interval_seconds = excluded.reminder_interval_seconds,
				admin_role_id = excluded.admin_role_id, language = excluded.language,
				language_chosen = excluded.language_chosen, pace = excluded.pace, updated_at = excluded.updated_at`,
			st.GuildID, int64(st.ReminderInterval/time.Second), st.AdminRoleID, lang, chosen, st.Pace, s.stamp())
		if err != nil {
			return fmt.Errorf("storage: saving settings of guild %q: %w", st.GuildID, err)
		}
		return nil
	})
	if err != nil {
		return Settings{}, err
	}
	return st, nil
}

// SetUserLocale remembers the Discord locale last seen for a user ("fr",
// "en-US"…), so a DM outside any interaction can speak it.
func (s *sqlStore) SetUserLocale(ctx context.Context, userID, locale string) error {
	return s.setLocale(ctx, "user_locales", "user_id", userID, locale)
}

// UserLocale returns the Discord locale last seen for a user, "" if none.
func (s *sqlStore) UserLocale(ctx context.Context, userID string) (string, error) {
	return s.locale(ctx, "user_locales", "user_id", userID)
}

// SetGuildLocale remembers a guild's preferred locale as Discord last
// reported it.
func (s *sqlStore) SetGuildLocale(ctx context.Context, guildID, locale string) error {
	return s.setLocale(ctx, "guild_locales", "guild_id", guildID, locale)
}

// GuildLocale returns a guild's preferred locale as last reported, "" if
// none.
func (s *sqlStore) GuildLocale(ctx context.Context, guildID string) (string, error) {
	return s.locale(ctx, "guild_locales", "guild_id", guildID)
}

// setLocale and locale serve the two locale tables (names from the
// methods above, never from input).
func (s *sqlStore) setLocale(ctx context.Context, table, key, id, locale string) error {
	if id == "" || locale == "" {
		return fmt.Errorf("%w: a locale needs an id and a value (%s %q, %q)", ErrInvalid, key, id, locale)
	}
	return s.write(ctx, func(tx conn) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO `+table+` (`+key+`, locale, updated_at) VALUES (?, ?, ?)
			ON CONFLICT (`+key+`) DO UPDATE SET locale = excluded.locale, updated_at = excluded.updated_at`,
			id, locale, s.stamp())
		if err != nil {
			return fmt.Errorf("storage: saving the locale of %s %q: %w", key, id, err)
		}
		return nil
	})
}

func (s *sqlStore) locale(ctx context.Context, table, key, id string) (string, error) {
	var l string
	err := s.readDB().QueryRowContext(ctx, `SELECT locale FROM `+table+` WHERE `+key+` = ?`, id).Scan(&l)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("storage: the locale of %s %q: %w", key, id, err)
	}
	return l, nil
}
