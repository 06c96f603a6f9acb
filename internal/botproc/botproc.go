// Package botproc runs the rfop binary as a process of its own, for the
// tests and benchmarks that measure or kill a real bot (internal/shardtest,
// internal/loadtest, internal/scaletest): the binary built from this tree,
// its output kept in a log file, and its start awaited until it logs its
// "ready" line (the health line: serving), or exits, or the caller's
// context ends.
package botproc

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/rfop/rfop/internal/testctx"
	"github.com/stretchr/testify/require"
)

// ErrNoGo: there is no go command to build the binary with.
var ErrNoGo = errors.New("botproc: no go command to build rfop with")

// Build builds this tree's rfop binary into dir and returns its path.
func Build(dir string) (string, error) {
	gobin := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(gobin); err != nil {
		if gobin, err = exec.LookPath("go"); err != nil {
			return "", ErrNoGo
		}
	}
	bin := filepath.Join(dir, "rfop")
	if out, err := exec.Command(gobin, "build", "-o", bin, "github.com/rfop/rfop/cmd/rfop").CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build: %w: %s", err, out)
	}
	return bin, nil
}

// BuildFor is Build into the test's temporary directory; the test is
// skipped without a go command.
func BuildFor(t testing.TB) string {
	t.Helper()
	bin, err := Build(t.TempDir())
	if errors.Is(err, ErrNoGo) {
		t.Skip(err)
	}
	require.NoError(t, err)
	return bin
}

// Proc is one bot process.
type Proc struct {
	Cmd  *exec.Cmd
	Log  string // its standard output and error
	done chan struct{}
}

// Start runs `bin bot` with env, its output in the file log, and returns
// once it is ready; it fails the test, quoting the log's end, if the
// process exits first or ctx ends. name says which process in those
// messages ("the bot", "shard 1"). The test's cleanup stops it (Stop).
func Start(t testing.TB, ctx context.Context, name, bin string, env []string, log string) *Proc {
	t.Helper()
	p := &Proc{Log: log, done: make(chan struct{})}
	f, err := os.Create(log)
	require.NoError(t, err)
	ready := make(chan struct{})
	p.Cmd = exec.Command(bin, "bot")
	p.Cmd.Env = env
	// One writer for both: exec copies them from one goroutine.
	w := &readyWriter{f: f, ready: ready}
	p.Cmd.Stdout, p.Cmd.Stderr = w, w
	require.NoError(t, p.Cmd.Start())
	go func() {
		_ = p.Cmd.Wait()
		_ = f.Close()
		close(p.done)
	}()
	stopCtx := testctx.Detached(t)
	t.Cleanup(func() { p.Stop(stopCtx) })
	select {
	case <-ready:
	case <-p.done:
		t.Fatalf("%s exited before it was ready:\n%s", name, p.Tail())
	case <-ctx.Done():
		t.Fatalf("%s not ready (%v):\n%s", name, ctx.Err(), p.Tail())
	}
	return p
}

// Pid is the process's id.
func (p *Proc) Pid() int { return p.Cmd.Process.Pid }

// Done is closed when the process has exited.
func (p *Proc) Done() <-chan struct{} { return p.done }

// Kill is kill -9, and waits for the process to end.
func (p *Proc) Kill() {
	_ = p.Cmd.Process.Signal(syscall.SIGKILL)
	<-p.done
}

// Stop asks the process to finish (SIGTERM: it finishes its moves in
// progress), and kills it if it has not by the time ctx ends.
func (p *Proc) Stop(ctx context.Context) {
	select {
	case <-p.done:
		return
	default:
	}
	_ = p.Cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
	case <-ctx.Done():
		p.Kill()
	}
}

// Tail is the end of the process's log (4,000 bytes), for a failure
// message.
func (p *Proc) Tail() string {
	b, _ := os.ReadFile(p.Log)
	if len(b) > 4000 {
		b = b[len(b)-4000:]
	}
	return string(b)
}

// Status reads a size field of a process's /proc status ("VmRSS:",
// "VmHWM:"), in bytes.
func Status(pid int, field string) (int64, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	for _, l := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(l, field); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb << 10, err
		}
	}
	return 0, fmt.Errorf("no %s in the status of process %d", field, pid)
}

// readyWriter writes the process's output to its log and closes ready at
// its "ready" line.
type readyWriter struct {
	f       io.Writer
	partial []byte
	ready   chan struct{}
	seen    bool
}

func (l *readyWriter) Write(p []byte) (int, error) {
	if !l.seen {
		l.partial = append(l.partial, p...)
		if bytes.Contains(l.partial, []byte(`"msg":"ready"`)) {
			l.seen = true
			close(l.ready)
			l.partial = nil
		} else if k := bytes.LastIndexByte(l.partial, '\n'); k >= 0 {
			l.partial = l.partial[k+1:]
		}
	}
	return l.f.Write(p)
}
