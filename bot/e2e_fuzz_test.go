package bot_test

// Fuzz targets for what a member types: slash-command option values and
// autocomplete text. They run the real bot against the fake Discord, as a
// member would reach it: the fake checks each command against the bot's
// registered declaration as Discord does (option names, types, choices),
// so a fuzzed input is one Discord could deliver; integers are not held
// to the declared minimum and maximum, which an older registration of the
// command may lack. A handler that panics is recovered by the bot (it
// answers "something went wrong") and logged: both fail the target. How
// to run them: README, "Fuzzing".

import (
	"context"
	"log/slog"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/rfop/rfop/bot"
	"github.com/rfop/rfop/engine"
	"github.com/rfop/rfop/internal/fakediscord"
	"github.com/rfop/rfop/internal/testctx"
	"github.com/stretchr/testify/require"
)

// panicWatch is a log handler that remembers an error record of a
// recovered panic.
type panicWatch struct {
	panics atomic.Int64
	last   atomic.Value // string
}

func (w *panicWatch) Enabled(context.Context, slog.Level) bool { return true }
func (w *panicWatch) WithAttrs([]slog.Attr) slog.Handler       { return w }
func (w *panicWatch) WithGroup(string) slog.Handler            { return w }
func (w *panicWatch) Handle(_ context.Context, r slog.Record) error {
	if strings.Contains(r.Message, "panic") {
		var sb strings.Builder
		sb.WriteString(r.Message)
		r.Attrs(func(a slog.Attr) bool { sb.WriteString(" " + a.String()); return true })
		w.last.Store(sb.String())
		w.panics.Add(1)
	}
	return nil
}

// firstChoiceAI answers at once with the first choice: the fuzz targets
// exercise the commands, not the search.
type firstChoiceAI struct{ bot.AIOpponent }

func (firstChoiceAI) Choose(_ int64, _ string, _ uint64, is *engine.InfoSet) (engine.Choice, error) {
	p, _ := is.Prompt()
	return p.Choices[0], nil
}

func (firstChoiceAI) Hint(_ string, is *engine.InfoSet, n int) ([]bot.AIHint, error) {
	p, _ := is.Prompt()
	var out []bot.AIHint
	for _, c := range p.Choices[:min(n, len(p.Choices))] {
		out = append(out, bot.AIHint{Choice: c, WinRate: 0.5})
	}
	return out, nil
}

// fuzzHarness is one bot for a whole fuzzing run (its games pile up as a
// busy server's do), with stub pictures and an instant AI. Alice reads
// English, Bob French and Carol Russian.
func fuzzHarness(f *testing.F) (*harness, *panicWatch) {
	watch := &panicWatch{}
	users := []fakediscord.Option{fakediscord.WithUser(fakediscord.User{ID: alice, Username: "alice", Locale: "en-US"}),
		fakediscord.WithUser(fakediscord.User{ID: bob, Username: "bob", Locale: "fr"}),
		fakediscord.WithUser(fakediscord.User{ID: carol, Username: "carol", Locale: "ru"})}
	h := &harness{t: f, srv: fakediscord.New(f, append(users, defaultGuild(), botAPIVersion(), discordSpec(f))...), dbPath: filepath.Join(f.TempDir(), "rfop.db"),
		seed: 7, clock: &offsetClock{}, pictures: newStubPictures(), ai: firstChoiceAI{bot.DefaultAI()}, log: slog.New(watch)}
	h.start()
	f.Cleanup(h.stop)
	return h, watch
}

var (
	fuzzUsers    = []string{alice, bob, carol, admin, manager, chanMod, owner}
	fuzzChannels = []string{chanID, chan2ID, staffID, ""} // "": the member's DM with the bot
	fuzzRoles    = []string{modsRole, mgrRole, guildID, "123456789"}
)

const panicReply = "Something went wrong on my side"

// requireNoPanic fails if the bot recovered a panic or said it did.
func requireNoPanic(t *testing.T, w *panicWatch, answer string) {
	t.Helper()
	if w.panics.Load() > 0 {
		t.Fatalf("the bot recovered a panic: %v", w.last.Load())
	}
	require.NotContains(t, answer, panicReply)
}

// FuzzSlashCommand: any subcommand of /rfop, with any values of its
// options, by any member in any channel (or DM), gets an answer, and no
// handler panics.
func FuzzSlashCommand(f *testing.F) {
	subs := bot.Commands()[0].Options
	index := map[string]int{}
	for k, s := range subs {
		index[s.Name] = k
	}
	for _, s := range subs {
		f.Add(uint8(index[s.Name]), uint8(0), uint8(0), uint8(0xff), "", "", int64(1), false)
	}
	f.Add(uint8(index["new"]), uint8(0), uint8(0), uint8(0), "versailles", "", int64(1), false)
	f.Add(uint8(index["card"]), uint8(2), uint8(1), uint8(0), "Commune", "", int64(0), false)
	f.Add(uint8(index["card"]), uint8(2), uint8(1), uint8(0), "#17", "", int64(0), false)
	f.Add(uint8(index["log"]), uint8(1), uint8(0), uint8(0xff), "", "", int64(-3), false)
	f.Add(uint8(index["settings"]), uint8(4), uint8(0), uint8(0xff), "", "", int64(1<<40), true)
	f.Add(uint8(index["replay"]), uint8(0), uint8(0), uint8(0xff), "", "", int64(1), false)
	f.Add(uint8(index["history"]), uint8(2), uint8(3), uint8(0xff), "", "", int64(3), false)
	h, watch := fuzzHarness(f)
	f.Fuzz(func(t *testing.T, sub, who, where, pick uint8, s1, s2 string, n int64, flag bool) {
		sc := subs[int(sub)%len(subs)]
		var args []fakediscord.Arg
		strs := []string{s1, s2}
		for k, o := range sc.Options {
			if !o.Required && pick&(1<<(k%8)) == 0 {
				continue
			}
			a := fakediscord.Arg{Name: o.Name, Type: o.Type}
			switch {
			case len(o.Choices) > 0:
				a.Value = o.Choices[(int(pick)+k)%len(o.Choices)].Value
			case o.Type == discordgo.ApplicationCommandOptionString:
				a.Value = strings.ToValidUTF8(strs[0], "?") // JSON carries text
				if len(a.Value.(string)) > 6000 {           // Discord's limit for an option's value
					a.Value = a.Value.(string)[:6000]
				}
				strs = strs[1:]
				if len(strs) == 0 {
					strs = []string{s1}
				}
			case o.Type == discordgo.ApplicationCommandOptionInteger:
				a.Value = n % (1 << 53) // Discord's integers are JSON numbers
			case o.Type == discordgo.ApplicationCommandOptionBoolean:
				a.Value = flag
			case o.Type == discordgo.ApplicationCommandOptionUser:
				a.Value = fuzzUsers[(int(pick)+k)%len(fuzzUsers)]
			case o.Type == discordgo.ApplicationCommandOptionRole:
				a.Value = fuzzRoles[(int(pick)+k)%len(fuzzRoles)]
			default:
				t.Fatalf("option %s of /rfop %s: type %d has no fuzzed value yet", o.Name, sc.Name, o.Type)
			}
			args = append(args, a)
		}
		ctx := testctx.Context(t)
		user, channel := fuzzUsers[int(who)%len(fuzzUsers)], fuzzChannels[int(where)%len(fuzzChannels)]
		guild := guildID
		if channel == "" {
			guild = ""
		}
		i := h.srv.SlashCommand(user, guild, channel, "rfop", fakediscord.SubCmd(sc.Name, args...))
		r, err := i.WaitResponse(ctx)
		require.NoError(t, err, "no answer to /rfop %s %v", sc.Name, args)
		answer := r.Content
		if r.Type == discordgo.InteractionResponseDeferredChannelMessageWithSource {
			m, err := i.WaitOriginal(ctx, nil)
			require.NoError(t, err, "the deferred answer to /rfop %s %v never came", sc.Name, args)
			answer = m.Content
		}
		requireNoPanic(t, watch, answer)
	})
}

// FuzzAutocomplete: whatever a member types in /rfop card's name, in any
// language, the bot answers with at most 25 choices, each a card number
// with a name Discord accepts (1 to 100 characters).
func FuzzAutocomplete(f *testing.F) {
	for _, q := range []string{"", "comm", "#17", "17", "  Thiers ", "ВЕРСАЛЬ", "é", "#", "\x00"} {
		f.Add(uint8(0), q)
	}
	f.Add(uint8(1), "garde")
	f.Add(uint8(2), "коммуна")
	h, watch := fuzzHarness(f)
	readers := []string{alice, bob, carol} // English, French, Russian
	f.Fuzz(func(t *testing.T, lang uint8, q string) {
		q = strings.ToValidUTF8(q, "?")
		if len(q) > 6000 {
			q = q[:6000]
		}
		ctx := testctx.Context(t)
		i := h.srv.Autocomplete(readers[int(lang)%len(readers)], guildID, chanID, "rfop",
			fakediscord.SubCmd("card", fakediscord.StrArg("name", q).Focus()))
		r, err := i.WaitResponse(ctx)
		require.NoError(t, err, "no answer to the autocomplete of %q", q)
		requireNoPanic(t, watch, r.Content)
		require.Equal(t, discordgo.InteractionApplicationCommandAutocompleteResult, r.Type)
		require.LessOrEqual(t, len(r.Choices), 25)
		for _, c := range r.Choices {
			require.NotEmpty(t, c.Name)
			require.LessOrEqual(t, len([]rune(c.Name)), 100)
			require.Regexp(t, `^[0-9]+$`, c.Value)
		}
	})
}
