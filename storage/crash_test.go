package storage_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rfop/rfop/storage"
)

const (
	crashChildEnv = "RFOP_STORAGE_CRASH_CHILD_DB"
	crashChannel  = "crash-channel"
	crashState    = 20 << 10 // bytes of state per move, as in a real game
)

// crashChild runs in the re-executed test binary: it applies moves to the
// game in crashChannel forever (creating it if needed), printing
// "committed SEQ" after each commit returns, until it is killed.
func crashChild(path string) int {
	ctx := context.Background()
	s, err := storage.Open(ctx, path)
	if err != nil {
		fmt.Fprintln(os.Stderr, "child: open:", err)
		return 3
	}
	g, err := s.GameByChannel(ctx, crashChannel)
	if errors.Is(err, storage.ErrNotFound) {
		g, err = s.CreateGame(ctx, storage.NewGame{
			ChannelID: crashChannel, Status: storage.StatusActive, Mode: storage.ModeTwoPlayer,
			State: stateJSON(0, crashState), Players: players("alice", "bob"),
		})
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "child: game:", err)
		return 3
	}
	fmt.Printf("ready %d\n", g.StateVersion)
	deadline := time.Now().Add(2 * time.Minute) // never outlive a dead parent for long
	for time.Now().Before(deadline) {
		g, err = s.ApplyMove(ctx, move(g, crashState))
		if err != nil {
			fmt.Fprintln(os.Stderr, "child: move:", err)
			return 4
		}
		// Printed only once the commit has returned: every seq the
		// parent reads must be on disk.
		fmt.Printf("committed %d\n", g.StateVersion)
	}
	return 5
}

// TestCrashSafety kills a writing child process with SIGKILL at random
// points, several times on the same file, and checks after each kill that
// every move the child reported committed is there and the log is
// consistent.
func TestCrashSafety(t *testing.T) {
	if testing.Short() {
		t.Skip("re-executes the test binary")
	}
	path := dbPath(t)
	var stored int64 // the version found on disk after the previous kill
	for round, killAfter := range []int{1, 37, 120, 5} {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), crashChildEnv+"="+path)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		out, err := cmd.StdoutPipe()
		require.NoError(t, err)
		require.NoError(t, cmd.Start())

		sc := bufio.NewScanner(out)
		var reported, start int64 = -1, -1
		seen, killed := 0, false
		prev := int64(-1)
		for sc.Scan() {
			f := strings.Fields(sc.Text())
			if len(f) != 2 {
				continue
			}
			n, err := strconv.ParseInt(f[1], 10, 64)
			require.NoError(t, err, sc.Text())
			switch f[0] {
			case "ready":
				start, prev = n, n
			case "committed":
				require.Equal(t, prev+1, n, "round %d: the child reports seq in order", round)
				prev, reported = n, n
				seen++
				if seen == killAfter && !killed {
					require.NoError(t, cmd.Process.Signal(syscall.SIGKILL))
					killed = true
				}
			}
		}
		err = cmd.Wait()
		require.True(t, killed, "round %d: child ended before the kill: %v\n%s", round, err, stderr.String())
		var exitErr *exec.ExitError
		require.ErrorAs(t, err, &exitErr, "round %d", round)
		ws := exitErr.Sys().(syscall.WaitStatus)
		require.True(t, ws.Signaled() && ws.Signal() == syscall.SIGKILL, "round %d: child was not killed: %v\n%s", round, err, stderr.String())

		require.Equal(t, stored, start, "round %d: the child starts from the stored version", round)

		// Reopen as the restarted bot would and check.
		s, err := storage.Open(context.Background(), path)
		require.NoError(t, err)
		g, err := s.GameByChannel(context.Background(), crashChannel)
		require.NoError(t, err)
		g = checkLog(t, s, g.ID)
		assert.GreaterOrEqual(t, g.StateVersion, reported, "round %d: a move reported committed is missing", round)
		// The child was killed while writing the next move at most.
		assert.LessOrEqual(t, g.StateVersion, reported+1, "round %d", round)
		stored = g.StateVersion
		require.NoError(t, s.Close())
		raw := rawDB(t, path)
		var ok string
		require.NoError(t, raw.QueryRow("PRAGMA integrity_check").Scan(&ok))
		require.Equal(t, "ok", ok)
		require.NoError(t, raw.Close())
		t.Logf("round %d: killed after %d reported commits (last seq %d), stored version %d", round, seen, reported, g.StateVersion)
	}
}
