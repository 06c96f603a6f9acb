package bot

// SetCrashHook installs f, called by the publisher before each step of a
// publication ("dm:versailles", "dm:commune", "reveal:…", "board",
// "collapse", "result", "panel:…") and after a board is posted but before
// it is recorded ("board-posted"): true simulates a crash there (the bot
// then delivers nothing more, as if its process had died).
func SetCrashHook(b *Bot, f func(gameID int64, step string) bool) {
	b.mu.Lock()
	b.hook = f
	b.mu.Unlock()
}

// IsSelectID reports whether the custom_id is a select menu's.
func IsSelectID(id string) bool {
	c, err := parseCustomID(id)
	return err == nil && c.Verb == verbSelect
}
