package bot_test

import (
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Discord's rule for chat-input command and option names (in every
// locale): letters, digits, - and _, Devanagari and Thai, 1 to 32, lower
// case where the letter has a case.
var discordNameRE = regexp.MustCompile(`^[-_\p{L}\p{N}\p{Devanagari}\p{Thai}]{1,32}$`)

var commandLocales = []discordgo.Locale{discordgo.French, discordgo.Russian}

func checkName(t *testing.T, what, name string) {
	t.Helper()
	assert.Regexp(t, discordNameRE, name, "%s: name %q breaks Discord's rule", what, name)
	assert.Equal(t, strings.ToLower(name), name, "%s: name %q is not lower case", what, name)
}

func checkDesc(t *testing.T, what, desc string) {
	t.Helper()
	n := utf8.RuneCountInString(desc)
	assert.True(t, n >= 1 && n <= 100, "%s: description %q has %d characters (1-100)", what, desc, n)
	assert.False(t, strings.HasPrefix(desc, "[cmd."), "%s: description %q is a missing message", what, desc)
}

// checkLocalised: a name and description in French and Russian, each
// within Discord's limits, the description translated.
func checkLocalised(t *testing.T, what, name, desc string, names, descs map[discordgo.Locale]string) {
	t.Helper()
	checkName(t, what, name)
	checkDesc(t, what, desc)
	for _, l := range commandLocales {
		if assert.Contains(t, names, l, "%s has no %s name", what, l) {
			checkName(t, what+" ("+string(l)+")", names[l])
		}
		if assert.Contains(t, descs, l, "%s has no %s description", what, l) {
			checkDesc(t, what+" ("+string(l)+")", descs[l])
			assert.NotEqual(t, desc, descs[l], "%s: the %s description is the English one", what, l)
		}
	}
}

// uniqueNames: sibling subcommands or options have distinct names in
// every locale (Discord refuses duplicates).
func uniqueNames(t *testing.T, what string, opts []*discordgo.ApplicationCommandOption) {
	t.Helper()
	for _, l := range commandLocales {
		seen := map[string]string{}
		for _, o := range opts {
			n := o.NameLocalizations[l]
			if prev, dup := seen[n]; dup {
				t.Errorf("%s: %s and %s have the same %s name %q", what, prev, o.Name, l, n)
			}
			seen[n] = o.Name
		}
	}
}

// The registration payload the fake Discord received carries French and
// Russian names and descriptions for the command, every subcommand and
// option, and a French and Russian name for every choice, all within
// Discord's rules for names and its length limits.
func TestE2ECommandLocalisations(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	cmds := h.srv.Commands("")
	require.Len(t, cmds, 1)
	c := cmds[0]
	require.NotNil(t, c.NameLocalizations)
	require.NotNil(t, c.DescriptionLocalizations)
	checkLocalised(t, "/"+c.Name, c.Name, c.Description, *c.NameLocalizations, *c.DescriptionLocalizations)
	require.NotEmpty(t, c.Options)
	uniqueNames(t, "/"+c.Name, c.Options)
	options, choices := 0, 0
	for _, s := range c.Options {
		what := "/" + c.Name + " " + s.Name
		checkLocalised(t, what, s.Name, s.Description, s.NameLocalizations, s.DescriptionLocalizations)
		uniqueNames(t, what, s.Options)
		for _, o := range s.Options {
			options++
			ow := what + " " + o.Name
			checkLocalised(t, ow, o.Name, o.Description, o.NameLocalizations, o.DescriptionLocalizations)
			for _, ch := range o.Choices {
				choices++
				cw := ow + " choice " + ch.Name
				n := utf8.RuneCountInString(ch.Name)
				assert.True(t, n >= 1 && n <= 100, "%s: %d characters (1-100)", cw, n)
				for _, l := range commandLocales {
					loc, ok := ch.NameLocalizations[l]
					if assert.True(t, ok, "%s has no %s name", cw, l) {
						n := utf8.RuneCountInString(loc)
						assert.True(t, n >= 1 && n <= 100, "%s (%s): %q has %d characters (1-100)", cw, l, loc, n)
						assert.False(t, strings.HasPrefix(loc, "[cmd."), "%s (%s): a missing message", cw, l)
					}
				}
			}
		}
	}
	assert.Greater(t, options, 15, "the options were checked")
	assert.Greater(t, choices, 20, "the choices were checked")
	// A few names as a French or Russian player sees them.
	byName := map[string]*discordgo.ApplicationCommandOption{}
	for _, s := range c.Options {
		byName[s.Name] = s
	}
	assert.Equal(t, "règles", byName["rules"].NameLocalizations[discordgo.French])
	assert.Equal(t, "правила", byName["rules"].NameLocalizations[discordgo.Russian])
	assert.Equal(t, "Коммуна", byName["solo"].Options[0].Choices[0].NameLocalizations[discordgo.Russian])
	assert.Equal(t, "notifications", byName["notify"].NameLocalizations[discordgo.French])
	assert.Equal(t, "уведомления", byName["notify"].NameLocalizations[discordgo.Russian])
	assert.Equal(t, "Одна сводка в личные сообщения в день", byName["notify"].Options[0].Choices[2].NameLocalizations[discordgo.Russian])
}
