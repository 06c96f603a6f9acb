package bot

// The sentences of /rfop replay, /rfop history, /rfop stats and the
// Rematch button, in one place, for the message catalogue (package
// locale) to take over. Game terms in them are translated by the guild's
// glossary like every other text about a game.

const (
	txtReplayNoGame       = "There is no finished game in this channel yet. Name one: `/rfop replay game:<number>` (see `/rfop history`)."
	txtReplayNotHere      = "Game #%d was not played in this server."
	txtReplayNotYours     = "Game #%d is not one of your games."
	txtReplayNotFinished  = "Game #%d is not finished: replays are made of finished games."
	txtReplayUnavailable  = "Replays are not available here: this bot was started without pictures."
	txtReplayFailed       = "I could not make the replay of game #%d; please try again later."
	txtReplayTooLarge     = "The replay of game #%d does not fit in a Discord attachment, even at half size."
	txtReplayBusy         = "I am already drawing replays; please try again in a minute."
	txtReplayCaption      = "**Replay of game #%d** · %s · %d plays, %d scorings%s"
	txtReplayHalf         = " (half size, to fit Discord's limit)"
	txtHistoryTitle       = "**Finished games in this server** (newest first; `/rfop replay game:<number>` replays one)"
	txtHistoryTitleMember = "**Finished games of %s** (newest first; `/rfop replay game:<number>` replays one)"
	txtHistoryNone        = "No finished game here yet."
	txtHistoryDMs         = "History and stats belong to a server; your solo games in DMs are not counted there."
	txtHistoryLine        = "**#%d** · %s · %s vs %s · %s · %s · %s, %d plays"
	txtStatsTitle         = "**Server stats** — %d finished games (%d rated) · Versailles won %d, the Commune %d"
	txtStatsBoard         = "**Leaderboard** (Glicko-2 rating ± deviation; at least %d rated games)"
	txtStatsBoardEmpty    = "Nobody has %d rated games yet: ratings count games between two members (solo games are listed, not rated)."
	txtStatsBoardLine     = "%d. %s — **%.0f** ±%.0f · %d rated games, %d won"
	txtStatsPlayers       = "**Records** (all finished games, most games first)"
	txtStatsPlayerLine    = "%s — %d games, %d won · as Versailles %d–%d · as the Commune %d–%d · %d rated"
	txtStatsMember        = "**%s in this server**"
	txtStatsMemberNone    = "%s has no finished game in this server."
	txtStatsRating        = "Rating **%.0f** ±%.0f (Glicko-2) · rated games: %d%s"
	txtStatsRank          = ", rank %d on the leaderboard"
	txtStatsUnrated       = "No rating yet: ratings count games against another member."
	txtStatsFailed        = "I could not read the results; please try again."
	txtRematchLabel       = "Rematch"
	txtRematchOnlyPlayers = "Only %s and %s can ask for a rematch."
	txtRematchGone        = "That game's players cannot be found; start a new game with `/rfop new`."
	txtRematchChallenge   = "%s asks %s for a **rematch** of game #%d, sides swapped (%s variant): you would play **%s**. The challenge lasts 24 hours."

	// How a game was decided (history).
	txtWonOnVP        = "**%s** won on VP (Versailles %d Military, Commune %d Political)"
	txtWonTiebreak    = "**%s** won on tiebreakers (%d–%d)"
	txtWonResign      = "**%s** won: %s resigned"
	txtWonSoloTie     = "**%s** (the solo opponent) won: no VP condition met"
	txtWonOther       = "**%s** won"
	txtLengthUnderDay = "under a day"
	txtLengthDays     = "%d days"
	txtLengthOneDay   = "1 day"
	txtSoloOpponent   = "the solo opponent"
)
