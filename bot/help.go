package bot

import "github.com/bwmarrin/discordgo"

// Short rules help; each topic names the rulebook section it summarises
// (Red Flag Over Paris, GMT 2021, Rules of Play).
var ruleTopics = []struct{ key, text string }{
	{"overview", "**Overview** (Rules of Play p. 5)\nThree rounds and a Final Crisis. Each round: 4 Strategy cards and 2 Objective cards each; keep one objective secretly; the Initiative Player plays first; alternate until each has played 3 cards; set the 4th aside for the Final Crisis. Then Pivotal Space bonus actions, Crisis Dimension scoring, objectives."},
	{"cards", "**Playing Strategy Cards** (p. 5-6)\nA card is played for its event (your colour or grey), for operations (its OP), to use the top discarded event your opponent played this round (your colour, pay with a card of at least its OP), to advance your momentum (the card leaves the game), or discarded to play your Final Crisis card for its 4 OP."},
	{"operations", "**Operations** (p. 5-6)\nIn spaces where you are present or adjacent to a space you control, all in Political or all in Military spaces. Remove first, then place. Presence and control are read once before removing and once before placing (no daisy-chaining). Placing costs 1 OP (2 next to an opposing disc); never more than 4 of your cubes in a space."},
	{"military", "**Remove — Military** (p. 6)\n1 OP per attempt (2 against a disc). Strength: +1 per adjacent space you control, +1 presence, +1 control, +1 for an extra OP. 3 or more succeeds; otherwise a card is drawn and you succeed if strength ≥ its OP. Political removal always succeeds."},
	{"tracks", "**Crisis Track & Cube Pools** (p. 6)\nPlace from your pool first, then from your Crisis Track, centre outward. The first cube taken from a zone breaches it: its bonus cubes go to your pool at the end of the play. First to breach its Final Crisis zone loses 1 Political VP. Commune cubes without a free pool cell are removed from play."},
	{"momentum", "**Player Momentum Tracks** (p. 7)\nPrussian Collaboration gives Versailles the cubes under each level and, at 3, the Prussian Occupied Territory. Revolutionary Momentum opens Commune pool cells. Reaching 2 and 3 lets the opponent place a free cube (Public Opinion / Institutional). At 3 at the end: +1 VP."},
	{"bonus", "**Pivotal Space Bonus Actions & Crisis Dimension Scoring** (p. 7)\nControl a Pivotal Space (star) → one bonus action in its dimension: De-escalate (remove up to 2 of yours, or 1 of yours and 1 opposing), Spread Influence (move up to 2 of yours), or Turncoat (replace an opposing cube). Then +1 VP per Crisis Dimension you wholly control."},
	{"objectives", "**Objective Card Scoring** (p. 7)\nWhoever controls the space on either objective gains 1 VP of its type. If you controlled your own objective you may perform its event; it joins your fulfilled pile."},
	{"final", "**Final Crisis** (p. 8)\nAfter round 3, or a round ending with both Final Crisis zones breached. Take your set-aside cards and your Final Crisis card, discard down to the number of rounds played, then play events only. Your opponent decides how your play of their event applies."},
	{"victory", "**Victory** (p. 8)\nVersailles wins with more Military VP (0 or more) than the Commune's Political VP; the Commune with more Political VP (0 or more) than Versailles' Military VP. Otherwise tiebreakers: combined VP, objectives fulfilled, Pivotal Spaces, final Initiative; still tied: the Commune."},
	{"solo", "**Solo Opponent Rules** (p. 8-11)\nThe bot holds no hand: each turn it reveals the top card and uses a Friendly event, the top discarded event, or operations, choosing spaces with its decision tables (each decision is explained in the log). It wins if neither main victory condition is met."},
	{"censorship", "**Censorship variant** (French and Russian editions)\nDeal 5 cards; after the Initiative Phase the Initiative Player, then the other, discards one card face up (it counts as played this round). Cards played for momentum or drawn for military tests go under the discard pile."},
}

func ruleTopicChoices() []*discordgo.ApplicationCommandOptionChoice {
	out := make([]*discordgo.ApplicationCommandOptionChoice, 0, len(ruleTopics))
	for _, t := range ruleTopics {
		out = append(out, &discordgo.ApplicationCommandOptionChoice{Value: t.key})
	}
	return out
}

const helpText = "**Red Flag Over Paris** — Versailles (blue) against the Paris Commune (red), three rounds and a Final Crisis.\n" +
	"• `/rfop new opponent:@someone` challenges a member in this channel; `/rfop solo side:…` plays the solo opponent (works in DMs).\n" +
	"• `/rfop ai side:… level:easy|normal|hard` plays the full two-player game against the AI opponent, which sees only what its side may see (works in DMs); `/rfop hint` shows its top three choices for your decision.\n" +
	"• When it is your turn the bot posts the board mentioning you: press **Take my turn** and choose from the panel only you can see. **My hand** shows your cards and objective.\n" +
	"• Your hand and objectives come by DM as each round begins, to both players at once: choose from the DM or from Take my turn, in either order (or use My hand if your DMs are closed). Cards an event shows you come privately too; nothing secret is ever posted in the channel.\n" +
	"• `/rfop board`, `/rfop log`, `/rfop card`, `/rfop rules`, `/rfop status`, `/rfop undo`, `/rfop resign`, `/rfop abandon`, `/rfop settings`.\n" +
	"• Members with Manage Server (or the admin role): `/rfop settings language:` shows the game terms (spaces, tracks, zones) in the words of the English, French or Russian edition.\n" +
	"• After a game: `/rfop replay` (an animated replay), `/rfop history`, `/rfop stats` (records and a Glicko-2 leaderboard); the result board's **Rematch** swaps sides.\n" +
	"Most card events are provisional designs (the printed texts are unavailable); `/rfop card` shows each card's status."
