package bot

import (
	"errors"
	"strconv"
	"strings"

	"github.com/rfop/rfop/engine"
)

// Component custom_ids are routed like URL paths:
//
//	rfop/<verb>/<game>[/<version>/<side>[/<arg>]]
//
// Every id that acts on a game carries the game id and the state version
// it was made for; handlers re-check both against storage and the clicking
// user, so a stale or forged id can never act for another game, version
// or player. Discord limits custom_ids to 100 characters.
const idPrefix = "rfop"

// Verbs.
const (
	verbTurn     = "turn"     // open my turn panel
	verbHand     = "hand"     // show my hand (ephemeral)
	verbChoose   = "c"        // a choice button: arg = choice index
	verbSelect   = "s"        // a choice select menu (arg = page): the value is the index
	verbResign   = "resign"   // confirm resignation
	verbAccept   = "accept"   // accept a challenge
	verbDecline  = "decline"  // decline a challenge
	verbUndoOK   = "undook"   // opponent consents to an undo: arg = requesting side
	verbUndoNo   = "undono"   // opponent refuses an undo
	verbUndo     = "undo"     // the deciding player's own Undo button
	verbRematch  = "rematch"  // a finished game's Rematch button
	verbAnalysis = "analysis" // a finished game's "What decided this game?" button
	// The answers to a side's end of time (clock.go): side = the side out
	// of time.
	verbClaim    = "claim"    // claim the win
	verbMoreTime = "moretime" // give one more day
	verbWait     = "wait"     // keep waiting
)

// idShape is what a kind of custom_id carries after its game.
type idShape int

const (
	idGame        idShape = iota // rfop/<verb>/<game>
	idVersionSide                // …/<version>/<side>
	idVersionArg                 // …/<version>/<side>/<arg>
)

// idKinds is every kind of custom_id the bot emits, by verb, with its
// shape: String writes and parseCustomID reads ids by this table, so a
// button of a verb missing here does nothing at all, and the end-to-end
// walk of every kind (e2e_clicks_test.go, through EveryCustomID) covers a
// new kind as soon as it works.
var idKinds = map[string]idShape{
	verbTurn: idGame, verbHand: idGame, verbAccept: idGame, verbDecline: idGame, verbRematch: idGame, verbAnalysis: idGame,
	verbUndoOK: idVersionSide, verbUndoNo: idVersionSide, verbUndo: idVersionSide, verbResign: idVersionSide,
	verbClaim: idVersionSide, verbMoreTime: idVersionSide, verbWait: idVersionSide,
	verbChoose: idVersionArg, verbSelect: idVersionArg,
}

type customID struct {
	Verb    string
	Game    int64
	Version int64
	Side    string
	Arg     int
}

func (c customID) String() string {
	var b strings.Builder
	b.WriteString(idPrefix)
	b.WriteByte('/')
	b.WriteString(c.Verb)
	b.WriteByte('/')
	b.WriteString(strconv.FormatInt(c.Game, 10))
	if shape := idKinds[c.Verb]; shape != idGame {
		b.WriteByte('/')
		b.WriteString(strconv.FormatInt(c.Version, 10))
		b.WriteByte('/')
		b.WriteString(c.Side)
		if shape == idVersionArg {
			b.WriteByte('/')
			b.WriteString(strconv.Itoa(c.Arg))
		}
	}
	return b.String()
}

var errBadID = errors.New("this button is not one of mine")

func parseCustomID(s string) (customID, error) {
	if len(s) > 100 {
		return customID{}, errBadID
	}
	parts := strings.Split(s, "/")
	if len(parts) < 3 || parts[0] != idPrefix {
		return customID{}, errBadID
	}
	id := customID{Verb: parts[1]}
	var err error
	if id.Game, err = strconv.ParseInt(parts[2], 10, 64); err != nil || id.Game <= 0 {
		return customID{}, errBadID
	}
	shape, ok := idKinds[id.Verb]
	if !ok {
		return customID{}, errBadID
	}
	want := 3
	switch shape {
	case idVersionSide:
		want = 5
	case idVersionArg:
		want = 6
	}
	if len(parts) != want {
		return customID{}, errBadID
	}
	if want >= 5 {
		if id.Version, err = strconv.ParseInt(parts[3], 10, 64); err != nil || id.Version < 0 {
			return customID{}, errBadID
		}
		id.Side = parts[4]
		if id.Side != "versailles" && id.Side != "commune" {
			return customID{}, errBadID
		}
	}
	if want == 6 {
		if id.Arg, err = strconv.Atoi(parts[5]); err != nil || id.Arg < 0 || id.Arg > 999 {
			return customID{}, errBadID
		}
	}
	return id, nil
}

// side is the engine side the id was made for.
func (c customID) side() engine.Side {
	if c.Side == "commune" {
		return engine.Commune
	}
	return engine.Versailles
}
