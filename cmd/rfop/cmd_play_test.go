package main

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/rfop/rfop/engine"
	"github.com/rfop/rfop/glossary"
	"github.com/rfop/rfop/locale"
	"github.com/stretchr/testify/require"
)

// runCmd runs the rfop command line in-process.
func runCmd(stdin io.Reader, args ...string) (code int, stdout, stderr string) {
	var out, errOut bytes.Buffer
	if stdin == nil {
		stdin = strings.NewReader("")
	}
	code = run(args, stdin, &out, &errOut)
	return code, out.String(), errOut.String()
}

// TestPlayScriptedWholeGame answers "1" to every question, through a
// whole game, and expects the result line.
func TestPlayScriptedWholeGame(t *testing.T) {
	t.Parallel()
	in := strings.NewReader(strings.Repeat("1\n", 5000))
	code, out, errOut := runCmd(in, "play", "--seed", "3", "--board-dir", t.TempDir())
	require.Equal(t, 0, code, errOut)
	require.Empty(t, errOut)
	has(t, out, "GAME OVER")
	require.Regexp(t, `(?m)^(Versailles|The Commune) wins`, out)
	hasNot(t, out, "End of input", "the game must end before the input does")
	hasNot(t, out, "is not a choice")
}

// driver is stdin for play that reads play's output so far and answers
// the current question with a random valid number, now and then typing a
// command or a wrong answer instead.
type driver struct {
	out      *bytes.Buffer
	r        *rand.Rand
	reads    int
	maxReads int
	commands bool
}

var choiceRange = regexp.MustCompile(`\[1-(\d+), h [^\]]+\]> $`) // in any language

func (d *driver) Read(p []byte) (int, error) {
	d.reads++
	if d.reads > d.maxReads {
		return 0, io.EOF
	}
	line := "1\n"
	if m := choiceRange.FindSubmatch(d.out.Bytes()); m != nil {
		n, _ := strconv.Atoi(string(m[1]))
		line = fmt.Sprintf("%d\n", 1+d.r.IntN(n))
		if d.commands && d.reads%3 == 0 { // every third answer: the next command
			cmds := []string{"h", "hint", "s", "u", "c", "x", "l", "?", "0", "p", "", "u", "99", "q\nn", "  ", "-3", "1.5"}
			line = cmds[(d.reads/3)%len(cmds)] + "\n"
		}
	} else if bytes.HasSuffix(d.out.Bytes(), []byte("(y/n)> ")) {
		line = "n\n"
	}
	return copy(p, line), nil // lines are far shorter than the scanner's buffer
}

func playDriven(t *testing.T, seed uint64, commands bool, args ...string) (code int, out, errOut string) {
	t.Helper()
	var o, e bytes.Buffer
	d := &driver{out: &o, r: rand.New(rand.NewPCG(seed, 5)), maxReads: 20000, commands: commands}
	code = run(append([]string{"play", "--board-dir", t.TempDir()}, args...), d, &o, &e)
	return code, o.String(), e.String()
}

var (
	bannerRE  = regexp.MustCompile(`^─+ (Versailles|Commune) at the keyboard`)
	privateRE = regexp.MustCompile(`\[private to (Versailles|Commune)\]`)
)

// checkPrivateLines: in hot-seat a line private to a side is printed only
// while that side is at the keyboard.
func checkPrivateLines(t *testing.T, out string) int {
	t.Helper()
	at, n := "", 0
	for i, line := range strings.Split(out, "\n") {
		if m := bannerRE.FindStringSubmatch(line); m != nil {
			at = m[1]
		}
		if m := privateRE.FindStringSubmatch(line); m != nil {
			n++
			require.Equal(t, at, m[1], "output line %d: %q printed while %s is at the keyboard", i+1, line, at)
		}
	}
	return n
}

func TestPlayDrivenRandomGames(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		seed     uint64
		variant  string
		commands bool
	}{
		{1, "standard", false}, {2, "standard", true}, {3, "censorship", false}, {4, "censorship", true}, {5, "standard", true},
	} {
		t.Run(fmt.Sprintf("%s-%d", tc.variant, tc.seed), func(t *testing.T) {
			code, out, errOut := playDriven(t, tc.seed, tc.commands, "--seed", fmt.Sprint(tc.seed), "--variant", tc.variant)
			require.Equal(t, 0, code, errOut)
			require.Empty(t, errOut)
			has(t, out, "GAME OVER")
			has(t, out, tc.variant+" variant")
			require.Regexp(t, `(?m)^(Versailles|The Commune) wins|^Neither victory condition is met\. .* wins\.`, out)
			require.Positive(t, checkPrivateLines(t, out), "each side is told the objective it keeps")
			if tc.commands {
				has(t, out, "Your hand")
				has(t, out, "is not a choice or a command")
				has(t, out, "Carrying on.")
			}
		})
	}
}

func lastLines(s string, n int) string {
	l := strings.Split(s, "\n")
	if len(l) > n {
		l = l[len(l)-n:]
	}
	return strings.Join(l, "\n")
}

func TestPlayCommands(t *testing.T) {
	t.Parallel()
	// Both objectives, then: help, board, cards, log, bad input, undo.
	in := "1\n1\nh\ns\nc\nl\nfoo\n0\nu\n"
	code, out, errOut := runCmd(strings.NewReader(in), "play", "--seed", "7")
	require.Equal(t, 0, code, errOut)
	has(t, out, "Versailles wins if its Military VP")
	has(t, out, "The Commune wins if its Political VP")
	has(t, out, "look away")
	has(t, out, "play --ai --side SIDE --level=easy|normal|hard", "the in-game help tells how to play the AI")
	has(t, out, "National Assembly (pivotal)")
	has(t, out, "Your hand (Commune)")
	has(t, out, "Your objective:")
	has(t, out, "OP:", "c shows the card texts")
	has(t, out, "Your Final Crisis card (held face up until the Final Crisis):\n  #34 Charles Delescluze — red card, 4 OP: ", "c shows the Final Crisis card the play options name")
	has(t, out, "log lines (as Commune sees them)")
	has(t, out, `"foo" is not a choice or a command`)
	has(t, out, "No choice 0")
	has(t, out, "Commune takes back its last choice.")
	// The objective prompt comes back to the Commune after its undo.
	after := out[strings.Index(out, "takes back"):]
	has(t, after, "Choose the objective to keep")
	has(t, out, "End of input: game abandoned without a result.")
}

func TestPlayUndoNothing(t *testing.T) {
	t.Parallel()
	code, out, _ := runCmd(strings.NewReader("u\n"), "play", "--seed", "7")
	require.Equal(t, 0, code)
	has(t, out, "Nothing to undo")
}

func TestPlayQuit(t *testing.T) {
	t.Parallel()
	code, out, _ := runCmd(strings.NewReader("q\ny\n1\n"), "play", "--seed", "2")
	require.Equal(t, 0, code)
	has(t, out, "Quit this game?")
	has(t, out, "Game abandoned without a result.")
	hasNot(t, out, "Versailles: Keep", "the game stopped at the first question")

	code, out, _ = runCmd(strings.NewReader("q\nn\n"), "play", "--seed", "2")
	require.Equal(t, 0, code)
	has(t, out, "Carrying on.")
	has(t, out, "End of input")
}

func TestPlayEOF(t *testing.T) {
	t.Parallel()
	code, out, errOut := runCmd(nil, "play", "--seed", "2")
	require.Equal(t, 0, code)
	require.Empty(t, errOut)
	has(t, out, "End of input: game abandoned without a result.")
}

func TestPlayRandomSeedIsPrinted(t *testing.T) {
	t.Parallel()
	code, out, _ := runCmd(nil, "play")
	require.Equal(t, 0, code)
	require.Regexp(t, `seed \d+ \(replay this deal with --seed \d+\)`, out)
}

func TestPlayHelp(t *testing.T) {
	t.Parallel()
	for _, h := range []string{"-h", "--help"} {
		code, out, errOut := runCmd(nil, "play", h)
		require.Equal(t, 0, code)
		require.Empty(t, errOut)
		has(t, out, "Usage: rfop play")
		has(t, out, "Versailles wins if")
		has(t, out, "-board-dir")
		has(t, out, "u/undo")
		has(t, out, "l/log")
		has(t, out, "--ai: you play the full two-player game against the AI opponent")
		has(t, out, "--side is the side you play")
		has(t, out, "-level")
	}
	code, out, _ := runCmd(nil, "--help")
	require.Equal(t, 0, code)
	has(t, out, "play ")
	has(t, out, "selfplay ")
	has(t, out, "the AI (--ai)", "rfop --help names the AI opponent")
}

func TestPlayBadFlags(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"--bogus"}, 2, "flag provided but not defined: -bogus"},
		{[]string{"--seed", "x"}, 2, "invalid value"},
		{[]string{"--variant", "chess"}, 2, `unknown variant "chess"`},
		{[]string{"--solo", "--side", "prussia"}, 2, `unknown side "prussia"`},
		{[]string{"extra"}, 2, `unexpected argument "extra"`},
		{[]string{"--solo", "--side", "versailles", "--variant", "censorship"}, 2, "no solo rules"},
		// --side is the side you play, as in Discord (issue 26); the old
		// form, which named the opponent's side, is refused with what changed.
		{[]string{"--solo", "commune"}, 2, "now --solo --side versailles"},
		{[]string{"--solo=commune"}, 2, "now --solo --side versailles"},
		{[]string{"--ai", "versailles", "--level", "hard"}, 2, "now --ai --side commune"},
		{[]string{"--solo"}, 2, "--solo needs --side"},
		{[]string{"--ai", "--level", "easy"}, 2, "--ai needs --side"},
		{[]string{"--side", "commune"}, 2, "without them two players share the keyboard"},
		{[]string{"--level", "hard"}, 2, "--level sets the AI opponent's strength: add --ai"},
		{[]string{"--solo", "--side", "versailles", "--level", "hard"}, 2, "add --ai"},
		{[]string{"--solo", "--ai", "--side", "versailles"}, 2, "cannot be combined"},
	} {
		code, out, errOut := runCmd(nil, append([]string{"play"}, tc.args...)...)
		require.Equal(t, tc.code, code, "%v: %s", tc.args, errOut)
		require.Contains(t, errOut, tc.msg, tc.args)
		require.Empty(t, out, tc.args)
	}
}

func TestPlaySoloNotAvailableYet(t *testing.T) {
	t.Parallel()
	if soloChooser != nil {
		t.Skip("the solo opponent is wired in")
	}
	for _, args := range [][]string{{"play", "--solo", "--side", "versailles"}, {"selfplay", "--solo", "commune"}} {
		code, out, errOut := runCmd(nil, args...)
		require.Equal(t, 1, code)
		require.Contains(t, errOut, "solo opponent not available yet")
		require.Empty(t, out)
	}
}

// withStubSolo installs a solo opponent that takes the first choice.
func withStubSolo(t *testing.T) {
	t.Helper()
	saved := soloChooser
	soloChooser = func(g *engine.Game, p engine.Prompt) (engine.Choice, *engine.Msg, error) {
		if p.Side != g.S.BotSide {
			return engine.Choice{}, nil, fmt.Errorf("asked to decide for %s", p.Side)
		}
		return p.Choices[0], nil, nil
	}
	t.Cleanup(func() { soloChooser = saved })
}

func TestPlaySoloWithStubOpponent(t *testing.T) {
	withStubSolo(t)
	for i, bot := range []string{"versailles", "commune"} {
		botSide, _ := engine.ParseSide(bot)
		code, out, errOut := playDriven(t, uint64(10+i), true, "--seed", fmt.Sprint(10+i), "--solo", "--side", sideFlag(botSide.Other()))
		require.Equal(t, 0, code, errOut)
		has(t, out, "GAME OVER")
		has(t, out, "the solo opponent plays "+botSide.String())
		has(t, out, "Solo opponent ("+botSide.String()+"): ")
		hasNot(t, out, "[private to "+botSide.String()+"]")
		hasNot(t, out, "at the keyboard", "no hand-over banner in solo")
		require.Regexp(t, `You win!|The solo opponent wins this time\.`, out)
	}
}

type fakeBoard struct {
	paths   []string
	viewers []engine.Side
	logs    []int // public log lines the view carries (the renderer's caption quotes them)
	failAt  int
}

func (f *fakeBoard) WriteBoard(path string, v engine.View) error {
	f.paths = append(f.paths, path)
	f.viewers = append(f.viewers, v.Viewer)
	f.logs = append(f.logs, len(v.Log))
	if f.failAt > 0 && len(f.paths) == f.failAt {
		return fmt.Errorf("out of ink")
	}
	return nil
}

func TestPlayBoardPictures(t *testing.T) {
	saved := newBoardWriter
	t.Cleanup(func() { newBoardWriter = saved })
	fb := &fakeBoard{}
	newBoardWriter = func(glossary.Lang, *engine.Deck) (boardWriter, error) { return fb, nil }
	dir := t.TempDir()
	code, out, _ := runCmd(strings.NewReader("1\n1\n1\n"), "play", "--seed", "4", "--board-dir", dir)
	require.Equal(t, 0, code)
	require.Len(t, fb.paths, 4, "the start position and one picture per decision")
	for i, p := range fb.paths {
		require.Equal(t, dir+"/board.png", p)
		require.Equal(t, engine.NoSide, fb.viewers[i], "pictures are drawn from the spectator view")
	}
	require.Greater(t, fb.logs[3], fb.logs[0], "each picture's view carries the log up to then, for its caption")
	require.Equal(t, 4, strings.Count(out, "Board: "+dir+"/board.png"))
	hasNot(t, out, "not available in this build")

	// A failing writer stops pictures with one notice; the game goes on.
	fb = &fakeBoard{failAt: 2}
	code, out, _ = runCmd(strings.NewReader("1\n1\n1\n"), "play", "--seed", "4", "--board-dir", dir)
	require.Equal(t, 0, code)
	require.Len(t, fb.paths, 2)
	require.Equal(t, 1, strings.Count(out, "Board picture failed: out of ink"))

	// No renderer: one notice, no pictures.
	newBoardWriter = nil
	_, out, _ = runCmd(strings.NewReader("1\n"), "play", "--seed", "4")
	require.Equal(t, 1, strings.Count(out, "Board pictures are not available in this build"))
	hasNot(t, out, "Board: ")
}

// has and hasNot check the output without dumping all of it on failure.
func has(t *testing.T, out, sub string, msg ...any) {
	t.Helper()
	if !strings.Contains(out, sub) {
		t.Fatalf("output lacks %q %v; it ends:\n%s", sub, msg, lastLines(out, 25))
	}
}

func hasNot(t *testing.T, out, sub string, msg ...any) {
	t.Helper()
	if i := strings.Index(out, sub); i >= 0 {
		t.Fatalf("output has %q %v, around:\n%s", sub, msg, out[max(0, i-800):min(len(out), i+200)])
	}
}

// Against the solo opponent, a run of its decisions makes one picture: one
// before each question to the player, and one at the end.
func TestPlaySoloBoardPictures(t *testing.T) {
	withStubSolo(t)
	saved := newBoardWriter
	t.Cleanup(func() { newBoardWriter = saved })
	fb := &fakeBoard{}
	newBoardWriter = func(glossary.Lang, *engine.Deck) (boardWriter, error) { return fb, nil }
	code, out, errOut := playDriven(t, 21, false, "--seed", "21", "--solo", "--side", "versailles")
	require.Equal(t, 0, code, errOut)
	has(t, out, "GAME OVER")
	questions := strings.Count(out, "h help]> ")
	require.LessOrEqual(t, len(fb.paths), questions+1)
	require.Greater(t, len(fb.paths), questions/2)
	require.Less(t, len(fb.paths), questions+strings.Count(out, "Solo opponent (Commune): "), "bot decisions are batched")
}

// TestPlayCommandWords: at a prompt, each command works by its letter and
// by its word, in any case and with spaces around it; anything else is
// not a command.
func TestPlayCommandWords(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in   string
		want string
	}{
		{"h", "h"}, {"?", "h"}, {"help", "h"}, {"HELP", "h"},
		{"s", "s"}, {"board", "s"}, {"score", "s"},
		{"c", "c"}, {"cards", "c"}, {"hand", "c"},
		{"l", "l"}, {"log", "l"}, {" Log ", "l"},
		{"p", "p"}, {"prompt", "p"},
		{"u", "u"}, {"undo", "u"}, {"Undo", "u"},
		{"q", "q"}, {"quit", "q"}, {"exit", "q"},
		{"hint", "hint"}, {" Hint", "hint"},
		{"", ""}, {"   ", ""},
		{"x", "?!"}, {"undo it", "?!"}, {"1.5", "?!"}, {"one", "?!"},
	} {
		require.Equal(t, tc.want, playCommand(tc.in), "%q", tc.in)
	}
}

// TestPlayCommandWordsInAGame: the words a newcomer types (log, undo,
// board, cards, help) work in a real session, as the letters do.
func TestPlayCommandWordsInAGame(t *testing.T) {
	t.Parallel()
	in := "1\n1\nhelp\nboard\ncards\nlog\nundo\nquit\ny\n"
	code, out, errOut := runCmd(strings.NewReader(in), "play", "--seed", "7")
	require.Equal(t, 0, code, errOut)
	hasNot(t, out, "is not a choice or a command")
	has(t, out, "Versailles wins if its Military VP")
	has(t, out, "National Assembly (pivotal)")
	has(t, out, "OP:", "cards shows the card texts")
	has(t, out, "log lines (as Commune sees them)")
	has(t, out, "Commune takes back its last choice.")
	has(t, out, "Game abandoned without a result.")
}

// TestPlayWholeGameAgainstTheSoloOpponent: the real solo opponent (not a
// stub) plays one side through a whole game while scripted input answers
// 1 to every question of the human side; the game ends with a result.
func TestPlayWholeGameAgainstTheSoloOpponent(t *testing.T) {
	if soloChooser == nil {
		t.Skip("the solo opponent is not wired into this build")
	}
	for _, tc := range []struct {
		solo, human string
		seed        string
	}{
		{"commune", "Versailles", "11"},
		{"versailles", "Commune", "12"},
	} {
		t.Run(tc.solo, func(t *testing.T) {
			in := strings.NewReader(strings.Repeat("1\n", 5000))
			code, out, errOut := runCmd(in, "play", "--solo", "--side", strings.ToLower(tc.human), "--seed", tc.seed, "--board-dir", t.TempDir())
			require.Equal(t, 0, code, errOut)
			require.Empty(t, errOut)
			has(t, out, "You play "+tc.human)
			has(t, out, "GAME OVER")
			require.Regexp(t, `(?m)^Final score: .*\. Reason: .*\.$`, out)
			require.Regexp(t, `(?m)^(You win!|The solo opponent wins this time\.)$`, out)
			hasNot(t, out, "End of input", "the game must end before the input does")
			hasNot(t, out, "at the keyboard", "no hand-over banner in solo")
			require.Regexp(t, `(?m)^`+tc.human+` \[1-\d+, h help\]> `, out, "the human side is asked")
			// Issue #5: each bot decision says which table row decided it;
			// issue 26: in a sentence, what it does and why, the rows at the end.
			require.Regexp(t, `(?m)^  · Solo opponent .* because .* \((PR|PL|RM|SR|BA)\d+.*\)\.$`, out, "the log shows the solo opponent's reasons and table rows")
		})
	}
}

// TestPlayHotSeatHandOverClearsTheScreen: on a terminal, passing the
// keyboard clears the screen and its scroll-back and waits for Enter, so
// the next player never sees the previous hand; the opponent's public
// moves are then repeated.
func TestPlayHotSeatHandOverClearsTheScreen(t *testing.T) {
	saved := isTerminal
	isTerminal = func(io.Reader, io.Writer) bool { return true }
	t.Cleanup(func() { isTerminal = saved })

	// Versailles keeps an objective; Enter; the Commune keeps one; then the
	// Commune (higher initiative on a tie) chooses who plays first.
	in := strings.NewReader("\n1\n\n1\n1\nq\ny\n")
	code, out, errOut := runCmd(in, "play", "--seed", "5", "--board-dir", t.TempDir())
	require.Equal(t, 0, code, errOut)

	handOver := strings.Index(out, "──────── Commune to the keyboard")
	require.Greater(t, handOver, 0, out)
	before, after := out[:handOver], out[handOver:]
	require.True(t, strings.HasSuffix(before, clearScreen), "the screen is cleared before the hand-over banner")
	require.Contains(t, after, "press Enter when ready")
	require.Contains(t, after, clearScreen+"Commune at the keyboard.", "cleared again once the next player is there")
	// What Versailles saw privately is not repeated to the Commune.
	require.Contains(t, before, "[private to Versailles]")
	require.NotContains(t, after[:strings.Index(after, "Commune — ")], "[private to Versailles]")
	require.Contains(t, after, "Since your last decision:")
	require.Contains(t, after, "Versailles has chosen its objective.")
}

// --lang: the French or Russian edition's words in everything play prints
// and on the board picture, card names included.
func TestPlayInAnEditionsTerms(t *testing.T) {
	saved := newBoardWriter
	t.Cleanup(func() { newBoardWriter = saved })
	var asked glossary.Lang
	newBoardWriter = func(l glossary.Lang, d *engine.Deck) (boardWriter, error) { asked = l; return saved(l, d) }

	in := strings.NewReader("1\n1\n1\nq\ny\n")
	code, out, errOut := runCmd(in, "play", "--lang", "fr", "--seed", "5", "--board-dir", t.TempDir())
	require.Equal(t, 0, code, errOut)
	require.Equal(t, glossary.French, asked, "the board is drawn in French terms")
	has(t, out, "La Commune ou la Mort")
	has(t, out, "Manche 1")
	hasNot(t, out, "Round 1")
	g, err := engine.New(engine.Options{Seed: 5, BotSide: engine.NoSide})
	require.NoError(t, err)
	// The Commune plays first: its hand is listed, card names in French.
	for _, n := range g.S.Hand[engine.Commune] {
		has(t, out, locale.For(locale.French).CardName(nil, int(n)))
	}

	code, _, errOut = runCmd(nil, "play", "--lang", "de")
	require.Equal(t, 2, code)
	require.Contains(t, errOut, `unknown language "de"`)
}

// ruLatinRun: two or more Latin-alphabet words in a row.
var ruLatinRun = regexp.MustCompile(`\p{Latin}+(?:['’-]\p{Latin}+)*(?:[ ,]+\p{Latin}+(?:['’-]\p{Latin}+)*)+`)

// frEnglishWords are English words no French sentence of ours contains
// (card names removed first: some stay in their own language).
var frEnglishWords = regexp.MustCompile(`\b(the|and|with|because|from|your|you|is|are|of|to|for|its|it|plays|wins|left)\b`)

// Whole games in the terminal in French and Russian (issues 13 and 26):
// hot-seat in both variants, against the solo opponent and against the
// AI, every answer random and every command typed now and then (hint
// included). No English sentence is printed: in Russian no run of two
// Latin words anywhere (the command letters and words of the help, such
// as "u/undo", are single words); in French no English word outside the
// card names, and none of the English sentences.
func TestPlayWholeGameInFrenchAndRussian(t *testing.T) {
	// Not parallel: no pictures (a package variable), which makes the eight games quick.
	saved := newBoardWriter
	newBoardWriter = nil // the words are tested here, not the pictures
	t.Cleanup(func() { newBoardWriter = saved })
	for _, tc := range []struct {
		lang    string
		variant string
		seed    uint64
		mode    []string
	}{
		{"ru", "standard", 21, nil}, {"ru", "censorship", 22, nil}, {"fr", "standard", 23, nil}, {"fr", "censorship", 24, nil},
		{"ru", "standard", 25, []string{"--solo", "--side", "versailles"}}, {"fr", "standard", 26, []string{"--solo", "--side", "commune"}},
		{"ru", "standard", 27, []string{"--ai", "--side", "commune", "--level", "easy"}},
		{"fr", "censorship", 28, []string{"--ai", "--side", "versailles", "--level", "easy"}},
	} {
		name := tc.lang + "-" + tc.variant
		if len(tc.mode) > 0 {
			name += "-" + strings.TrimPrefix(tc.mode[0], "--")
		}
		t.Run(name, func(t *testing.T) {
			args := append([]string{"--seed", fmt.Sprint(tc.seed), "--variant", tc.variant, "--lang", tc.lang}, tc.mode...)
			code, out, errOut := playDriven(t, tc.seed, true, args...)
			require.Equal(t, 0, code, errOut)
			hasNot(t, out, "[engine.")
			hasNot(t, out, "[play.")
			hasNot(t, out, "[render.")
			hasNot(t, out, "[solo.")
			hasNot(t, out, "[common.")
			hasNot(t, out, "<no value>")
			for _, en := range []string{"GAME OVER", "Final score", "is not a choice", "at the keyboard", "Your hand",
				"Round ", "plays first", "places a cube", "card(s)", " wins", "Carrying on", "Political VP",
				"Solo opponent", "AI (", " because ", "Keep ", "to win", "(easy)"} {
				hasNot(t, out, en)
			}
			pr := locale.For(locale.Lang(tc.lang))
			lines := strings.Split(out, "\n")
			for i, line := range lines {
				if tc.lang == "ru" {
					if run := ruLatinRun.FindString(line); run != "" {
						t.Errorf("line %d: Latin words %q in %q", i+1, run, line)
					}
					continue
				}
				rest := line
				for n := 53; n >= 1; n-- {
					rest = strings.ReplaceAll(rest, pr.CardName(nil, n), "")
				}
				if w := frEnglishWords.FindString(rest); w != "" {
					t.Errorf("line %d: English %q in %q", i+1, w, line)
				}
			}
			if tc.lang == "ru" {
				has(t, out, "ИГРА ОКОНЧЕНА")
			} else {
				has(t, out, "FIN DE PARTIE")
			}
			switch {
			case len(tc.mode) > 0 && tc.mode[0] == "--solo":
				// "Бот …, так как … (…)." / "L'Adversaire Solo … car … (…)."
				note := pr.T("solo.note", locale.Args{"Action": "\x00", "Reason": "\x01", "Ref": "\x02"})
				lead, rest, _ := strings.Cut(note, "\x00")
				mid, _, _ := strings.Cut(rest, "\x01")
				require.Regexp(t, `(?m)^  · `+regexp.QuoteMeta(lead)+`.+`+regexp.QuoteMeta(mid)+`.+\)\.$`, out, "the solo opponent explains itself")
			case len(tc.mode) > 0 && tc.mode[0] == "--ai":
				has(t, out, strings.TrimSuffix(pr.T("play.hint-head", nil), ":"), "the hint speaks the language")
			}
		})
	}
}

// sideFlag is the --side value of side s.
func sideFlag(s engine.Side) string { return strings.ToLower(s.String()) }

// The terminal's picture has the renderer's caption (issue 26): the round
// once, even when the latest line names it ("Round 1: … are dealt"), once
// read "Round 1 — Round 1: …".
func TestPlayBoardCaptionSaysTheRoundOnce(t *testing.T) {
	for _, lang := range locale.Langs {
		bw, err := newBoardWriter(lang, nil)
		require.NoError(t, err)
		fb := bw.(*fileBoard)
		g, err := engine.New(engine.Options{Seed: 4})
		require.NoError(t, err)
		v := g.ViewFor(engine.NoSide)
		c := fb.r.Caption(&v)
		round := locale.For(lang).T("render.round", locale.Args{"N": 1})
		require.Equal(t, 1, strings.Count(c, round), "%s: %q", lang, c)
		require.Contains(t, c, strings.TrimSuffix(locale.For(lang).LogLine(nil, v.Log[len(v.Log)-1]), "."), lang)
		require.NoError(t, bw.WriteBoard(t.TempDir()+"/board.png", v))
	}
}
