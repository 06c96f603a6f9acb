package solo

import (
	"strings"

	"github.com/rfop/rfop/engine"
)

// The solo opponent's explanations as sentences a player reads: what it
// does and why, in words ("Solo opponent removes a Versailles piece from
// Press because it can take its objective's space (PR3a, RM3)."), with the
// rows of its tables kept as a short reference at the end. They are
// messages of the catalogue's "solo" area (locale/messages/LANG/solo.json),
// so each player reads them in their language; English is also registered
// with the engine for Msg.English. A decision builds its sentence from an
// action (a verb phrase, the solo opponent its subject) and a reason (a
// clause); Explanation.Why is the whole line, logged with the choice
// (engine.Game.ApplyWithWhy).

// English are the English texts of the solo area; the catalogue's
// messages/en/solo.json is the same (a test keeps them equal).
var English = map[string]string{
	"solo.note":       "Solo opponent {{.Action}} because {{.Reason}} ({{.Ref}}).",
	"solo.note-plain": "Solo opponent {{.Action}} ({{.Ref}}).",

	// Actions: verb phrases whose subject is the solo opponent.
	"solo.act.event":                "uses the event of {{.Card}}",
	"solo.act.discarded":            "uses the event of {{.Event}} from the top of the discard pile",
	"solo.act.ops":                  "conducts operations with {{.OP}}",
	"solo.act.sphere":               "operates in {{.Sphere}} spaces",
	"solo.act.sphere-lost":          "operates in {{.Sphere}} spaces, where its {{.OP}} are lost",
	"solo.act.remove":               "removes a {{.Player}} piece from {{.Space}}",
	"solo.act.attack":               "attacks the {{.Player}} pieces in {{.Space}} at strength {{.Strength}}",
	"solo.act.to-placing":           "goes on to place cubes with {{.OP}}",
	"solo.act.stop-ops":             "ends its operations with {{.OP}} unspent",
	"solo.act.place":                "places a cube in {{.Space}}",
	"solo.act.free-cube":            "places its free cube in {{.Space}}",
	"solo.act.event-place":          "places a cube in {{.Space}} with {{.Card}}",
	"solo.act.event-return":         "returns a cube removed from play to {{.Space}} with {{.Card}}",
	"solo.act.event-remove":         "removes a {{.Player}} cube from {{.Space}} with {{.Card}}",
	"solo.act.event-remove-disc":    "removes the {{.Player}} {{.Disc}} from {{.Space}} with {{.Card}}",
	"solo.act.replace":              "replaces a {{.Player}} cube in {{.Space}} with one of its own",
	"solo.act.disc":                 "places its {{.Disc}} in {{.Space}}",
	"solo.act.disc-move":            "moves its {{.Disc}} from {{.From}} to {{.Space}}",
	"solo.act.option":               "chooses option ({{.Letter}}) of {{.Card}}",
	"solo.act.andor":                "resolves the parts of {{.Card}} in printed order",
	"solo.act.obj-event":            "performs the event of its objective {{.Card}}",
	"solo.act.apply":                "applies the event of {{.Card}}",
	"solo.act.decline":              "declines the event of {{.Card}}",
	"solo.act.bonus-next":           "takes its bonus action in {{.Dim}} next",
	"solo.act.bonus":                "takes the {{.Action}} bonus action in {{.Dim}}",
	"solo.act.bonus-none":           "takes no bonus action in {{.Dim}}",
	"solo.act.spread":               "moves a cube from {{.From}} to {{.Space}}",
	"solo.act.deescalate-own":       "takes one of its cubes from {{.Space}}",
	"solo.act.deescalate-remove":    "removes a {{.Player}} cube from {{.Space}}",
	"solo.act.stops":                "stops",
	"solo.sphere.political":         "Political",
	"solo.sphere.military":          "Military",
	"solo.action.spread":            "Spread Influence",
	"solo.action.turncoat":          "Turncoat",
	"solo.action.deescalate":        "De-escalate",
	"solo.reason.and-die":           "{{.Reason}}, and a die chose among {{.N}} spaces equal on every other count",
	"solo.reason.die":               "a die chose among {{.N}} spaces its table could not tell apart",
	"solo.reason.only":              "it is the only space it may use",
	"solo.reason.both":              "{{.First}}, and {{.Second}}",
	"solo.reason.sphere":            "{{.Reason}}, in these spaces only",
	"solo.reason.sphere-die":        "it has the same reasons in both spheres, and its die rolled {{.Roll}} (1 to 4: its own sphere)",
	"solo.reason.sphere-none":       "it can do nothing in either sphere",
	"solo.reason.own-event":         "the card is its own and its event would have an effect",
	"solo.reason.not-own":           "{{.Card}} is not its card",
	"solo.reason.no-effect":         "the event of {{.Card}} would do nothing",
	"solo.reason.discard-usable":    "{{.Player}} discarded {{.Event}} this round, it is its colour and costs no more than {{.Card}}",
	"solo.reason.discard-no":        "the top card of the discard pile cannot be used",
	"solo.reason.discard-empty":     "the discard pile is empty",
	"solo.reason.PR1":               "it can break {{.Player}}'s hold on a whole Crisis Dimension",
	"solo.reason.PR2":               "it can complete its hold on a Crisis Dimension",
	"solo.reason.PR3":               "it can take its objective's space",
	"solo.reason.PR4":               "it can take a Pivotal space",
	"solo.reason.PR5":               "it can end {{.Player}}'s control of a Pivotal space",
	"solo.reason.PR6":               "it can widen a one-piece lead in a space that matters to it",
	"solo.reason.PR7":               "it can stop {{.Player}} holding two spaces of a Crisis Dimension",
	"solo.reason.PR8":               "it can clear isolated {{.Player}} cubes",
	"solo.reason.PR9-V":             "a Commune cube it removes leaves the game (the Commune's pool is full)",
	"solo.reason.PR9-C":             "it can defend Paris",
	"solo.reason.PR10":              "one removal changes who controls a space",
	"solo.reason.PR11":              "it has no cube it can place",
	"solo.reason.PR12":              "nothing is worth removing first",
	"solo.reason.no-row":            "nothing in its table is worth its OP",
	"solo.reason.PL1":               "it can end {{.Player}}'s hold on a whole Crisis Dimension there",
	"solo.reason.PL2":               "it can complete its hold on a Crisis Dimension there",
	"solo.reason.PL3":               "it can take its objective's space",
	"solo.reason.PL4":               "it can take a Pivotal space",
	"solo.reason.PL5":               "it can end {{.Player}}'s control of a Pivotal space",
	"solo.reason.PL6":               "it can take that space",
	"solo.reason.PL7":               "it can end {{.Player}}'s control of that space",
	"solo.reason.PL8":               "it is not already well ahead there",
	"solo.reason.PL9":               "it leads that Pivotal space by one piece only",
	"solo.reason.PL10":              "it is a Pivotal space or its objective's space",
	"solo.reason.PL11":              "its cube would not be isolated there",
	"solo.reason.PL12":              "it controls another space of that Crisis Dimension",
	"solo.reason.PL13":              "it does not control that space yet",
	"solo.reason.PL14":              "it is the closest contest",
	"solo.reason.PL15":              "it lies in one of its home dimensions",
	"solo.reason.D0":                "it is not already well ahead there",
	"solo.reason.RM1":               "{{.Player}} holds the whole Crisis Dimension of that space",
	"solo.reason.RM2":               "it controls the other two spaces of that Crisis Dimension",
	"solo.reason.RM3":               "it is its objective's space and its lead there is thin",
	"solo.reason.RM4":               "it is a Pivotal space and its lead there is thin",
	"solo.reason.RM5":               "one removal changes who controls it",
	"solo.reason.RM6":               "the {{.Player}} cubes there are isolated",
	"solo.reason.RM7":               "a removal there is sure",
	"solo.reason.RM8":               "it is the last {{.Player}} piece there",
	"solo.reason.RM9":               "{{.Player}} controls that space",
	"solo.reason.RM10":              "it lies in one of its home dimensions",
	"solo.reason.RM11":              "{{.Player}} has the most pieces there",
	"solo.reason.SR1":               "it has cubes to spare there",
	"solo.reason.SR2":               "it keeps its control there",
	"solo.reason.SR3":               "it is not its objective's space",
	"solo.reason.SR4":               "it is not a Pivotal space",
	"solo.reason.SR5":               "it does not hold the whole of that Crisis Dimension",
	"solo.reason.SR6":               "it has the most cubes there",
	"solo.reason.BA1":               "moving cubes within that dimension gains it two spaces",
	"solo.reason.BA2":               "it can turn a {{.Player}} cube and gain a space",
	"solo.reason.BA3":               "moving a cube within that dimension gains it a space",
	"solo.reason.BA4":               "it has cubes to spare in that dimension",
	"solo.reason.BA5":               "it can turn a {{.Player}} cube and end {{.Player}}'s control of a space",
	"solo.reason.BA6":               "none of its bonus actions would help it",
	"solo.reason.spread-second":     "this is the second move of the one it began",
	"solo.reason.bonus-order":       "it takes them in a fixed order, its own sphere first",
	"solo.reason.de-tie":            "removing it gives it control of that space",
	"solo.reason.de-one-more":       "{{.Player}} has one cube more than it there",
	"solo.reason.de-fewest":         "{{.Player}} has the fewest cubes there",
	"solo.reason.option-first":      "it is the first option that would have an effect",
	"solo.reason.printed-order":     "it always follows the printed order",
	"solo.reason.obj-event":         "it controlled its objective's space at the scoring",
	"solo.reason.effective":         "the event would have an effect",
	"solo.reason.no-effect-beyond":  "it would do nothing but raise {{.Player}}'s momentum",
	"solo.reason.no-placement":      "no space can take a cube, and its OP are lost",
	"solo.reason.no-available":      "it has no Available cube",
	"solo.reason.no-room":           "no space has room for an Available cube for {{.Card}}",
	"solo.reason.nothing-to-remove": "{{.Card}} has nothing left to remove",
	"solo.reason.no-replace":        "no space can take a replacement for {{.Card}}",
	"solo.reason.no-safe-disc":      "both its discs are on the map and neither can leave safely",
	"solo.reason.spread-none":       "no further move gains it a space",
	"solo.reason.no-source":         "no cube of its own can leave safely",
	"solo.reason.turncoat-none":     "no space qualifies for a Turncoat",
	"solo.reason.de-none-a":         "it has cubes to spare in no space",
	"solo.reason.de-none-b":         "no {{.Player}} cube is left in {{.Dim}}",
}

func init() { engine.RegisterEnglish(English, nil) }

// Arguments of the solo messages.
func smsg(id string, args ...engine.Arg) engine.Msg { return engine.Msg{ID: id, Args: args} }

func aSpace(k string, x engine.Space) engine.Arg {
	return engine.Arg{Name: k, Kind: engine.ArgSpace, N: int(x)}
}
func aCard(k string, n int) engine.Arg { return engine.Arg{Name: k, Kind: engine.ArgCard, N: n} }
func aNum(k string, n int) engine.Arg  { return engine.Arg{Name: k, Kind: engine.ArgNum, N: n} }
func aOP(n int) engine.Arg             { return engine.Arg{Name: "OP", Kind: engine.ArgOP, N: n} }
func aText(k, s string) engine.Arg     { return engine.Arg{Name: k, Kind: engine.ArgText, S: s} }
func aLetter(i int) engine.Arg         { return engine.Arg{Name: "Letter", Kind: engine.ArgLetter, N: i} }
func aMsg(k string, m engine.Msg) engine.Arg {
	return engine.Arg{Name: k, Kind: engine.ArgMsg, Msg: &m}
}
func aSide(k string, s engine.Side) engine.Arg {
	return engine.Arg{Name: k, Kind: engine.ArgSide, N: int(s)}
}
func aDim(d engine.Dimension) engine.Arg {
	return engine.Arg{Name: "Dim", Kind: engine.ArgDim, N: int(d)}
}

// aSphere is a sphere as an adjective of "spaces" ("Political spaces",
// "espaces Politiques", "политических областях"): messages of their own,
// since the glossary's words are nouns.
func aSphere(s engine.Sphere) engine.Arg {
	id := "solo.sphere.political"
	if s == engine.Military {
		id = "solo.sphere.military"
	}
	return aMsg("Sphere", smsg(id))
}
func aDisc(s engine.Side) engine.Arg {
	return engine.Arg{Name: "Disc", Kind: engine.ArgDisc, N: int(s)}
}

// reason is the clause of a table row (its id: "PR3", "PL14", "RM5"…),
// naming the Player's side where the sentence needs it.
func (d *decision) reason(row string) engine.Msg {
	return smsg("solo.reason."+row, aSide("Player", d.b.pl))
}

// say sets the action and the reason of the decision's sentence.
func (d *decision) say(act, why engine.Msg) {
	d.act, d.why = act, &why
}

// selReason is why a selection table chose its space: the first row that
// narrowed the candidates (the strongest reason), with the die if one was
// needed after it; the only candidate; or the die alone.
func (d *decision) selReason(s selection) engine.Msg {
	switch {
	case s.first != "" && s.die > 0:
		return smsg("solo.reason.and-die", aMsg("Reason", d.reason(s.first)), aNum("N", s.die))
	case s.first != "":
		return d.reason(s.first)
	case s.die > 0:
		return smsg("solo.reason.die", aNum("N", s.die))
	}
	return smsg("solo.reason.only")
}

// prRow is the row id of a Place-or-Remove hit without its variant
// ("PR3" of PR3a; PR9-V and PR9-C keep their faction).
func prRow(h prHit) string { return h.id }

// ref is the short table reference at the end of a sentence: the rows
// that decided, in order ("PR3a, RM3", "§5 PR4", "§6.1.5" for step 5 of
// §6.1, "d6"), or the section of solo.md when no row had to choose.
func ref(pr engine.PromptKind, fired []string) string {
	var out []string
	for _, k := range fired {
		switch {
		case k == "event":
			k = "§6.1.3" // solo.md §6.1, step 3
		case k == "discarded":
			k = "§6.1.4"
		case k == "ops":
			k = "§6.1.5"
		case k == "die":
			k = "d6"
		case strings.HasPrefix(k, "§5:"):
			k = "§5 " + strings.TrimPrefix(k, "§5:")
		}
		if len(out) == 0 || out[len(out)-1] != k {
			out = append(out, k)
		}
	}
	if len(out) == 0 { // no row had to choose: the section of solo.md
		switch pr {
		case engine.PromptOption, engine.PromptAndOrOrder, engine.PromptFCDecide, engine.PromptObjEvent:
			return "§6.2"
		case engine.PromptBonusOrder, engine.PromptBonusAction, engine.PromptSpread, engine.PromptTurncoat, engine.PromptDeescalate:
			return "§6.4"
		case engine.PromptFreeCube:
			return "§6.5"
		case engine.PromptPlaceDisc:
			return "§6.3"
		case engine.PromptEventRemove, engine.PromptRemoveDisc:
			return "§4.2"
		case engine.PromptOpsRemove:
			return "§3"
		case engine.PromptSphere:
			return "§5"
		}
		return "§4.1"
	}
	return strings.Join(out, ", ")
}

// sentence is the decision's whole line.
func (d *decision) sentence(fired []string) engine.Msg {
	r := aText("Ref", ref(d.pr.Kind, fired))
	if d.why == nil {
		return smsg("solo.note-plain", aMsg("Action", d.act), r)
	}
	return smsg("solo.note", aMsg("Action", d.act), aMsg("Reason", *d.why), r)
}

// sphereReason is why §5 chose the sphere, read from the trace: the row
// that fired in one sphere only, or the die.
func (d *decision) sphereReason() engine.Msg {
	for _, k := range d.t.keys {
		switch {
		case k == "§5:die":
			roll := 0
			if n := len(d.t.dice); n > 0 {
				roll = d.t.dice[n-1]
			}
			return smsg("solo.reason.sphere-die", aNum("Roll", roll))
		case strings.HasPrefix(k, "§5:PR"):
			row := strings.TrimPrefix(k, "§5:")
			if row == "PR9" {
				row += "-" + map[engine.Side]string{engine.Versailles: "V", engine.Commune: "C"}[d.b.bot]
			}
			return smsg("solo.reason.sphere", aMsg("Reason", d.reason(row)))
		}
	}
	return smsg("solo.reason.sphere-none")
}
