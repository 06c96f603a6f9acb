//go:build linux

package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"
	"unsafe"

	"github.com/rfop/rfop/engine"
	"github.com/rfop/rfop/locale"
	"github.com/stretchr/testify/require"
)

// openPTY opens a pseudo-terminal pair with the standard library only
// (Linux: /dev/ptmx, unlock, then the numbered slave). play sees the slave
// as its stdin and stdout, a real character device, as at a terminal.
func openPTY(t *testing.T) (master, slave *os.File) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	var unlock int32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, m.Fd(), syscall.TIOCSPTLCK, uintptr(unsafe.Pointer(&unlock))); e != 0 {
		m.Close()
		t.Skipf("unlockpt: %v", e)
	}
	var n uint32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, m.Fd(), syscall.TIOCGPTN, uintptr(unsafe.Pointer(&n))); e != 0 {
		m.Close()
		t.Skipf("ptsname: %v", e)
	}
	s, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		m.Close()
		t.Skipf("open the pseudo-terminal's slave: %v", err)
	}
	// No echo of what is typed, and no \n → \r\n on output: the test reads
	// exactly what play writes.
	var tio syscall.Termios
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, s.Fd(), syscall.TCGETS, uintptr(unsafe.Pointer(&tio))); e == 0 {
		tio.Lflag &^= syscall.ECHO
		tio.Oflag &^= syscall.OPOST
		syscall.Syscall(syscall.SYS_IOCTL, s.Fd(), syscall.TCSETS, uintptr(unsafe.Pointer(&tio)))
	}
	t.Cleanup(func() { s.Close(); m.Close() })
	return m, s
}

// playOnPTY runs play with a pseudo-terminal as its stdin and stdout,
// typing input, and returns everything it printed.
func playOnPTY(t *testing.T, input string, args ...string) string {
	t.Helper()
	master, slave := openPTY(t)
	var out bytes.Buffer
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { // the screen: read until play closes its side
		defer wg.Done()
		_, _ = io.Copy(&out, master)
	}()
	go func() { _, _ = io.WriteString(master, input) }() // typing; blocks while play is busy
	var errOut bytes.Buffer
	code := run(append([]string{"play"}, args...), slave, slave, &errOut)
	require.Equal(t, 0, code, errOut.String())
	slave.Close() // the reader then sees EIO: the end of the screen
	wg.Wait()
	return out.String()
}

// checkScreens reads hot-seat output as a player sees it: the screen is
// what was printed since the last clear. When a side is asked to type a
// choice, nothing private to the other side (its private log lines, its
// prompt and its choices) may be on the screen. It returns how many
// hand-overs cleared the screen.
func checkScreens(t *testing.T, lang locale.Lang, out string) int {
	t.Helper()
	pr := locale.For(lang)
	say := func(id string, args ...engine.Arg) string { return pr.Msg(nil, engine.Msg{ID: id, Args: args}) }
	side := func(s engine.Side) engine.Arg { return engine.Arg{Name: "Side", Kind: engine.ArgSide, N: int(s)} }
	type mark struct{ private, input string }
	marks := map[engine.Side]mark{}
	for _, s := range []engine.Side{engine.Versailles, engine.Commune} {
		in := say("play.input", side(s), engine.Arg{Name: "N", Kind: engine.ArgNum, N: 9})
		marks[s] = mark{private: say("play.private-prefix", side(s)), input: in[:strings.Index(in, "[")+1]}
	}
	screens := strings.Split(out, clearScreen)
	asked := 0
	for i, screen := range screens {
		for _, s := range []engine.Side{engine.Versailles, engine.Commune} {
			k := strings.Index(screen, marks[s].input)
			if k < 0 {
				continue
			}
			asked++
			o := marks[s.Other()]
			for _, leak := range []string{o.private, o.input} {
				if j := strings.Index(screen, leak); j >= 0 {
					t.Fatalf("screen %d: %q is asked while %q of the other side is on the screen:\n%s", i, marks[s].input, leak,
						screen[max(0, j-300):min(len(screen), j+300)])
				}
			}
		}
	}
	require.Positive(t, asked)
	return len(screens) - 1
}

// The hot-seat hand-over works in every language (issue 26): at a real
// terminal the screen is cleared at each change of player, and when a
// side is asked nothing private to the other is on the screen. In French
// and Russian the output once went through a translating writer that
// made play think it was not at a terminal: no clearing at all.
func TestPlayHotSeatOnATerminalInEveryLanguage(t *testing.T) {
	for _, lang := range locale.Langs {
		t.Run(string(lang), func(t *testing.T) {
			saved := newBoardWriter
			newBoardWriter = nil // no pictures: the screen is what is tested
			t.Cleanup(func() { newBoardWriter = saved })
			// Both objectives, each after Enter at its hand-over; then the
			// game goes on to the end, "1" to every question.
			out := playOnPTY(t, "\n1\n\n1\n"+strings.Repeat("1\n", 3000), "--lang", string(lang), "--seed", "7", "--board-dir", t.TempDir())
			cleared := checkScreens(t, lang, out)
			require.Greater(t, cleared, 20, "the screen is cleared at each hand-over")
			pr := locale.For(lang)
			require.Contains(t, out, pr.Msg(nil, engine.Msg{ID: "play.handover-screen", Args: []engine.Arg{
				{Name: "Side", Kind: engine.ArgSide, N: int(engine.Commune)}, {Name: "Other", Kind: engine.ArgSide, N: int(engine.Versailles)}}}))
			require.Contains(t, out, pr.Msg(nil, engine.Msg{ID: "play.game-over"}), "the game was played to its end")
		})
	}
}
