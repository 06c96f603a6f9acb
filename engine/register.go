package engine

import (
	"fmt"
	"strings"
	"sync"
)

// Messages of other packages that the engine logs. Package solo explains
// each decision of the solo opponent as a message of its own catalogue
// area ("solo.…"), written to the log (ApplyWithWhy) and printed by
// package locale like any line; Msg.English needs their English too, so
// the package registers it once, at its init.
var (
	regMu     sync.RWMutex
	regSingle = map[string]string{}
	regPlural = map[string][2]string{}
)

// RegisterEnglish adds the English of messages outside the engine area
// (single: id → text; plural: id → one and other forms) for Msg.English.
// Registering an id of the engine area, or one already registered with a
// different text, panics: a programming error found at start.
func RegisterEnglish(single map[string]string, plural map[string][2]string) {
	regMu.Lock()
	defer regMu.Unlock()
	check := func(id string, dup bool) {
		if strings.HasPrefix(id, "engine.") {
			panic(fmt.Sprintf("engine: RegisterEnglish: %q is an engine message", id))
		}
		if dup {
			panic(fmt.Sprintf("engine: RegisterEnglish: %q registered twice", id))
		}
	}
	for id, s := range single {
		old, dup := regSingle[id]
		check(id, dup && old != s)
		regSingle[id] = s
	}
	for id, f := range plural {
		old, dup := regPlural[id]
		check(id, dup && old != f)
		regPlural[id] = f
	}
}

func registeredSingle(id string) (string, bool) {
	regMu.RLock()
	defer regMu.RUnlock()
	s, ok := regSingle[id]
	return s, ok
}

func registeredPlural(id string) ([2]string, bool) {
	regMu.RLock()
	defer regMu.RUnlock()
	f, ok := regPlural[id]
	return f, ok
}
