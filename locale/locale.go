package locale

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
	"sync"

	"github.com/nicksnyder/go-i18n/v2/i18n"
	"golang.org/x/text/language"

	"github.com/rfop/rfop/glossary"
)

// Lang is a supported language; the same values as the glossary's
// editions, so a server's one `language` setting chooses both.
type Lang = glossary.Lang

// The supported languages.
const (
	English = glossary.English
	French  = glossary.French
	Russian = glossary.Russian
)

// Langs lists the supported languages, English first.
var Langs = glossary.Langs

//go:embed messages
var files embed.FS

// Args are a message's named placeholders.
type Args map[string]any

var (
	loadOnce sync.Once
	bundle   *i18n.Bundle
	catalog  map[Lang]map[string]*i18n.Message // for tests and tools
	loadErr  error
)

func tag(l Lang) language.Tag {
	switch l {
	case French:
		return language.French
	case Russian:
		return language.Russian
	}
	return language.English
}

// load reads every embedded message file once.
func load() {
	bundle = i18n.NewBundle(language.English)
	catalog = map[Lang]map[string]*i18n.Message{}
	for _, l := range Langs {
		catalog[l] = map[string]*i18n.Message{}
		dir := path.Join("messages", string(l))
		entries, err := fs.ReadDir(files, dir)
		if err != nil {
			loadErr = fmt.Errorf("locale: read %s: %w", dir, err)
			return
		}
		for _, e := range entries {
			if e.IsDir() || !strings.HasSuffix(e.Name(), ".json") {
				continue
			}
			name := path.Join(dir, e.Name())
			msgs, err := parseFile(name)
			if err != nil {
				loadErr = err
				return
			}
			for _, m := range msgs {
				if _, dup := catalog[l][m.ID]; dup {
					loadErr = fmt.Errorf("locale: %s: message %q defined twice", name, m.ID)
					return
				}
				catalog[l][m.ID] = m
			}
			if err := bundle.AddMessages(tag(l), msgs...); err != nil {
				loadErr = fmt.Errorf("locale: %s: %w", name, err)
				return
			}
		}
	}
}

// parseFile reads one message file: {"id": "text"} or {"id": {"one": …,
// "other": …}}. Parsed here rather than by go-i18n's file loader because
// our file names say the area, not the language (the folder does).
func parseFile(name string) ([]*i18n.Message, error) {
	buf, err := files.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("locale: %w", err)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(buf, &raw); err != nil {
		return nil, fmt.Errorf("locale: %s: %w", name, err)
	}
	ids := make([]string, 0, len(raw))
	for id := range raw {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	out := make([]*i18n.Message, 0, len(raw))
	for _, id := range ids {
		var v any
		if err := json.Unmarshal(raw[id], &v); err != nil {
			return nil, fmt.Errorf("locale: %s: %s: %w", name, id, err)
		}
		var m *i18n.Message
		switch t := v.(type) {
		case string:
			m = &i18n.Message{ID: id, Other: t}
		case map[string]any:
			forms := map[string]any{"id": id}
			for k, f := range t {
				forms[k] = f
			}
			m, err = i18n.NewMessage(forms)
			if err != nil {
				return nil, fmt.Errorf("locale: %s: %s: %w", name, id, err)
			}
		default:
			return nil, fmt.Errorf("locale: %s: %s: want a string or an object of plural forms", name, id)
		}
		out = append(out, m)
	}
	return out, nil
}

// Err reports a catalogue that failed to load (a malformed embedded file:
// a build defect, caught by the package's tests).
func Err() error {
	loadOnce.Do(load)
	return loadErr
}

// Printer speaks one language. It is safe for concurrent use.
type Printer struct {
	lang Lang
	loc  *i18n.Localizer
}

var (
	printersMu sync.Mutex
	printers   = map[Lang]*Printer{}
)

// For returns the Printer of language l (English for an unknown value).
func For(l Lang) *Printer {
	loadOnce.Do(load)
	switch l {
	case French, Russian:
	default:
		l = English
	}
	printersMu.Lock()
	defer printersMu.Unlock()
	if p, ok := printers[l]; ok {
		return p
	}
	p := &Printer{lang: l, loc: i18n.NewLocalizer(bundle, string(l), "en")}
	printers[l] = p
	return p
}

// Lang is the Printer's language.
func (p *Printer) Lang() Lang { return p.lang }

// T prints message id with its named placeholders.
func (p *Printer) T(id string, args Args) string {
	return p.localize(id, args, nil)
}

// N prints message id in the plural form for count; the count is also
// the placeholder {{.Count}}.
func (p *Printer) N(id string, count int, args Args) string {
	data := Args{"Count": count}
	for k, v := range args {
		data[k] = v
	}
	return p.localize(id, data, count)
}

func (p *Printer) localize(id string, args Args, count any) string {
	cfg := &i18n.LocalizeConfig{MessageID: id, TemplateData: map[string]any(args)}
	if count != nil {
		cfg.PluralCount = count
	}
	s, err := p.loc.Localize(cfg)
	if err != nil {
		return "[" + id + "]"
	}
	return s
}

// Has reports whether message id exists in the Printer's language (not
// counting the English fallback).
func (p *Printer) Has(id string) bool {
	loadOnce.Do(load)
	_, ok := catalog[p.lang][id]
	return ok
}

// FromDiscord maps a Discord locale ("fr", "ru", "en-US", "pt-BR"…) to a
// supported language; ok is false for any other language, so the caller
// can fall back to the server's setting.
func FromDiscord(discordLocale string) (Lang, bool) {
	base := strings.ToLower(strings.SplitN(discordLocale, "-", 2)[0])
	switch base {
	case "fr":
		return French, true
	case "ru":
		return Russian, true
	case "en":
		return English, true
	}
	return English, false
}
