package storage_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rfop/rfop/storage"
)

const (
	midMoveChildEnv = "RFOP_STORAGE_MIDMOVE_CHILD_DB"
	midMoveSizeEnv  = "RFOP_STORAGE_MIDMOVE_STATE_BYTES"
	midMoveCommits  = 3 // moves the mid-move child commits before the one it is killed in

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
	gone := parentGone()
	for {
		select {
		case <-gone:
			return 5
		default:
		}
		g, err = s.ApplyMove(ctx, move(g, crashState))
		if err != nil {
			fmt.Fprintln(os.Stderr, "child: move:", err)
			return 4
		}
		// Printed only once the commit has returned: every seq the
		// parent reads must be on disk.
		fmt.Printf("committed %d\n", g.StateVersion)
	}
}

// parentGone is closed when the test process that started this child is
// gone (the child's stdin, a pipe the parent holds until the child exits,
// reaches its end): a child the test did not kill does not outlive it.
func parentGone() <-chan struct{} {
	c := make(chan struct{})
	go func() {
		_, _ = io.Copy(io.Discard, os.Stdin)
		close(c)
	}()
	return c
}

// TestCrashSafety kills a writing child process with SIGKILL at random
// points, several times on the same file, and checks after each kill that
// every move the child reported committed is there and the log is
// consistent.
func TestCrashSafety(t *testing.T) {
	t.Parallel()
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
		_, err = cmd.StdinPipe() // held open until the child exits: parentGone
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
		t.Logf("round %d: SIGKILL sent on reading the child's commit %d of this run (%d reported in all, last seq %d), stored version %d",
			round, killAfter, seen, reported, g.StateVersion)
	}
}

// midMoveChild runs in the re-executed test binary: it creates a game,
// commits midMoveCommits small moves (printing "committed SEQ"), then
// starts one more move with a state of $RFOP_STORAGE_MIDMOVE_STATE_BYTES
// and, inside its transaction (the state row updated, the action not yet
// inserted), prints "inside SEQ" and waits to be killed.
func midMoveChild(path string) int {
	ctx := context.Background()
	size, err := strconv.Atoi(os.Getenv(midMoveSizeEnv))
	if err != nil {
		fmt.Fprintln(os.Stderr, "child: state size:", err)
		return 3
	}
	s, err := storage.Open(ctx, path)
	if err != nil {
		fmt.Fprintln(os.Stderr, "child: open:", err)
		return 3
	}
	g, err := s.CreateGame(ctx, storage.NewGame{
		ChannelID: crashChannel, Status: storage.StatusActive, Mode: storage.ModeTwoPlayer,
		State: stateJSON(0, 100), Players: players("alice", "bob"),
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, "child: game:", err)
		return 3
	}
	for range midMoveCommits {
		if g, err = s.ApplyMove(ctx, move(g, 100)); err != nil {
			fmt.Fprintln(os.Stderr, "child: move:", err)
			return 4
		}
		fmt.Printf("committed %d\n", g.StateVersion)
	}
	gone := parentGone()
	storage.SetTestHookMidMove(func(_, seq int64) {
		fmt.Printf("inside %d\n", seq)
		<-gone // killed here by the test
		os.Exit(5)
	})
	_, err = s.ApplyMove(ctx, move(g, size))
	fmt.Fprintln(os.Stderr, "child: the move returned instead of waiting to be killed:", err)
	return 5
}

// TestCrashMidTransaction kills a child process with SIGKILL while it is
// inside ApplyMove's write transaction (state updated, action not yet
// appended). With a state larger than SQLite's page cache the uncommitted
// pages have already spilled into the -wal file, so the kill leaves a
// partly written transaction on disk. After the kill the database must
// open, pass integrity_check, hold exactly the committed moves (the
// half-written one is gone, state and log agree) and accept the next move.
func TestCrashMidTransaction(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("re-executes the test binary")
	}
	for _, tc := range []struct {
		name       string
		stateBytes int
		spilled    bool // the WAL holds the unfinished transaction's pages when the child dies
	}{
		{"small state, nothing written to the WAL yet", 20 << 10, false},
		{"state larger than the page cache, spilled to the WAL", 6 << 20, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := dbPath(t)
			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), midMoveChildEnv+"="+path, fmt.Sprintf("%s=%d", midMoveSizeEnv, tc.stateBytes))
			var stderr strings.Builder
			cmd.Stderr = &stderr
			out, err := cmd.StdoutPipe()
			require.NoError(t, err)
			_, err = cmd.StdinPipe() // held open until the child exits: parentGone
			require.NoError(t, err)
			require.NoError(t, cmd.Start())

			var committed, inside int64
			var walBefore, walInside int64
			walSize := func() int64 {
				fi, err := os.Stat(path + "-wal")
				require.NoError(t, err)
				return fi.Size()
			}
			sc := bufio.NewScanner(out)
			for sc.Scan() {
				f := strings.Fields(sc.Text())
				require.Len(t, f, 2, sc.Text())
				n, err := strconv.ParseInt(f[1], 10, 64)
				require.NoError(t, err, sc.Text())
				switch f[0] {
				case "committed":
					committed = n
					walBefore = walSize()
				case "inside":
					inside = n
					walInside = walSize()
					require.NoError(t, cmd.Process.Signal(syscall.SIGKILL))
				}
			}
			err = cmd.Wait()
			var exitErr *exec.ExitError
			require.ErrorAs(t, err, &exitErr, stderr.String())
			ws := exitErr.Sys().(syscall.WaitStatus)
			require.True(t, ws.Signaled() && ws.Signal() == syscall.SIGKILL, "child was not killed: %v\n%s", err, stderr.String())
			require.Equal(t, int64(midMoveCommits), committed)
			require.Equal(t, committed+1, inside, "killed inside the next move's transaction")
			t.Logf("WAL %d bytes after the last commit, %d while inside the killed transaction", walBefore, walInside)
			if tc.spilled {
				require.Greater(t, walInside-walBefore, int64(tc.stateBytes/2),
					"the unfinished transaction's pages are in the WAL when the process dies")
			}

			raw := rawDB(t, path)
			var ok string
			require.NoError(t, raw.QueryRow("PRAGMA integrity_check").Scan(&ok))
			require.Equal(t, "ok", ok)
			require.NoError(t, raw.Close())

			ctx := context.Background()
			s := openSQLite(t, path)
			g, err := s.GameByChannel(ctx, crashChannel)
			require.NoError(t, err)
			g = checkLog(t, s, g.ID)
			require.Equal(t, committed, g.StateVersion, "the half-written move is gone, every committed one is there")
			g, err = s.ApplyMove(ctx, move(g, 100))
			require.NoError(t, err, "the game goes on after the crash")
			assert.Equal(t, committed+1, checkLog(t, s, g.ID).StateVersion)
		})
	}
}
