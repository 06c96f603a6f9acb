package bot

import "sync"

// dmChannels remembers the DM channel of each user the bot wrote to.
// Opening a DM is a request to Discord (POST /users/@me/channels) whose
// answer never changes for a user, and discordgo runs the requests of one
// route one at a time (it holds the route's bucket for the whole call):
// under a burst, every hand DM of every game waited in that one line
// (issue 30: 400 hand DMs at a deal, seconds each). The bot keeps at most
// dmChannelsSize users, the oldest dropped first.
type dmChannels struct {
	mu  sync.Mutex
	ids fifoMap[string, string] // user → DM channel
}

const dmChannelsSize = 4096

func (c *dmChannels) get(user string) (string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.ids.get(user)
}

func (c *dmChannels) put(user, channelID string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.ids.max = dmChannelsSize
	c.ids.put(user, channelID)
}

func (c *dmChannels) forget(user string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.ids.delete(user)
}

// dmChannel is the user's DM channel with the bot, opened on first use.
func (b *Bot) dmChannel(user string) (string, error) {
	if id, ok := b.dms.get(user); ok {
		return id, nil
	}
	ch, err := b.Session.UserChannelCreate(user)
	if err != nil {
		return "", err
	}
	b.dms.put(user, ch.ID)
	return ch.ID, nil
}

// dmFailed forgets a user's DM channel that Discord no longer knows, so
// that the next DM opens it again.
func (b *Bot) dmFailed(user string, err error) {
	if discordErrorCode(err) == codeUnknownChannel {
		b.dms.forget(user)
	}
}
