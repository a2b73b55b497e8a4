//go:build unix

package mcp

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"
)

const sigTerm = syscall.SIGTERM

// The guard (docs/tool-app.md T3). On Unix the program is not started by
// Workrun directly but by a small guard process: Workrun's own executable
// started again with guardEnv set, which runs runGuard from RunStdioGuard
// (main's first call) instead of Workrun. The guard (in a process group of its own, out of
// the terminal's reach) starts the program; it holds the read end of a pipe whose only
// write end Workrun keeps. The program leads a process group of its own.
// When Workrun dies — even by SIGKILL — the kernel closes that end, the
// guard reads EOF and kills the program's whole tree: its process group and,
// on Linux, every descendant, also one that left the group (the guard is a
// child subreaper, so orphans are re-parented to it).
// When the program ends by itself the guard kills what it left behind the
// same way and exits with the program's status. A parent-death signal
// alone is not enough: it reaches the program, not what the program
// started (npx → sh → node).
const (
	guardEnv = "WORKRUN_MCP_STDIO_GUARD"
	// guardArg0 is the guard's argv[0]; with guardEnv it is what makes a
	// start of the executable a guard (the variable alone, leaked into an
	// environment, does not).
	guardArg0 = "workrun-stdio-guard"
	// guardLife and guardReport are the guard's extra descriptors: the
	// pipe whose EOF means Workrun is gone, and where it reports the start.
	guardLife   = 3
	guardReport = 4
	// guardKillWait bounds how long kill waits for the guard to end the
	// tree before the whole group gets SIGKILL from here.
	guardKillWait = 2 * time.Second
)

// guardHosted: RunStdioGuard was called, so this executable, started
// again, acts as the guard (rather than, say, running a test binary's
// tests once more).
var guardHosted atomic.Bool

func runStdioGuard() {
	if os.Getenv(guardEnv) == "1" && len(os.Args) > 0 && os.Args[0] == guardArg0 {
		os.Exit(runGuard(os.Args[1:]))
	}
	guardHosted.Store(true)
}

// guardHandle is Workrun's side of one guard.
type guardHandle struct {
	life    *os.File // write end: closing it (or dying) tells the guard to kill the tree
	lifeR   *os.File // the guard's read end, closed here once started
	report  *os.File // read end of the start report
	reportW *os.File
}

// programCommand is the command that starts opts.Argv under a guard; the
// caller sets its standard streams, starts it and calls started.
func programCommand(opts StdioOptions) (*exec.Cmd, *guardHandle, error) {
	probe := exec.Command(opts.Argv[0]) // resolves the name in PATH as exec.Command does
	if probe.Err != nil {
		return nil, nil, probe.Err
	}
	if !guardHosted.Load() {
		return nil, nil, ErrNoGuardHost
	}
	self, err := guardExecutable()
	if err != nil {
		return nil, nil, fmt.Errorf("the stdio guard: %w", err)
	}
	g := &guardHandle{}
	if g.lifeR, g.life, err = os.Pipe(); err != nil {
		return nil, nil, err
	}
	if g.report, g.reportW, err = os.Pipe(); err != nil {
		g.closeAll()
		return nil, nil, err
	}
	args := append([]string{guardArg0, probe.Path}, opts.Argv...)
	cmd := &exec.Cmd{Path: self, Args: args, Dir: opts.Dir}
	cmd.Env = append(append(os.Environ(), opts.Env...), guardEnv+"=1")
	cmd.ExtraFiles = []*os.File{g.lifeR, g.reportW} // fds 3 and 4
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	return cmd, g, nil
}

func (g *guardHandle) closeAll() {
	for _, f := range []*os.File{g.life, g.lifeR, g.report, g.reportW} {
		if f != nil {
			f.Close()
		}
	}
}

// started reads the guard's report once it runs: the program's pid, or why
// it could not start. The guard keeps no end of the report pipe open after
// it reported, so EOF without a report means it died first.
func (g *guardHandle) started(ctx context.Context, _ *exec.Cmd) (int, error) {
	g.lifeR.Close()
	g.reportW.Close()
	type answer struct {
		line string
		err  error
	}
	ch := make(chan answer, 1)
	go func() {
		line, err := bufio.NewReader(io.LimitReader(g.report, 4096)).ReadString('\n')
		g.report.Close()
		ch <- answer{strings.TrimSuffix(line, "\n"), err}
	}()
	var a answer
	select {
	case a = <-ch:
	case <-ctx.Done():
		g.report.Close()
		return 0, ctx.Err()
	}
	if rest, ok := strings.CutPrefix(a.line, "err "); ok {
		return 0, errors.New(rest)
	}
	if rest, ok := strings.CutPrefix(a.line, "ok "); ok {
		if pid, err := strconv.Atoi(rest); err == nil {
			return pid, nil
		}
	}
	return 0, fmt.Errorf("the stdio guard did not report the start (%q, %v)", a.line, a.err)
}

// abandon tells the guard to kill the program's tree now.
func (g *guardHandle) abandon() { g.life.Close() }

// signal sends sig to the program's process group.
func (s *Stdio) signal(sig syscall.Signal) {
	syscall.Kill(-s.pid, sig) //nolint:errcheck // ESRCH: the group is already gone
}

// kill ends the program's tree: the guard does it (it also finds the
// descendants that left the group); if the guard has not exited after
// guardKillWait, the group gets SIGKILL from here.
func (s *Stdio) kill() {
	s.guard.abandon()
	s.killOnce.Do(func() {
		go func() {
			t := time.NewTimer(guardKillWait)
			defer t.Stop()
			select {
			case <-s.exited:
			case <-t.C:
				s.signal(syscall.SIGKILL)
				s.cmd.Process.Kill() //nolint:errcheck // the guard; it may just have exited
			}
		}()
	})
}

// runGuard is the guard process: args are the program's resolved path and
// its argv. It returns the program's exit code, or ends by the program's
// signal, so Workrun sees the program's own status.
func runGuard(args []string) int {
	var st syscall.Stat_t
	if syscall.Fstat(guardReport, &st) != nil || syscall.Fstat(guardLife, &st) != nil || len(args) < 2 {
		fmt.Fprintln(os.Stderr, guardArg0+": started without its pipes")
		return 127
	}
	report := os.NewFile(guardReport, "report")
	life := os.NewFile(guardLife, "life")
	syscall.CloseOnExec(guardReport)
	syscall.CloseOnExec(guardLife)
	becomeSubreaper()
	// The group's SIGTERM of a graceful stop is for the program; the guard
	// stays until the program ends (Notify, not Ignore: an ignored signal
	// would stay ignored in the program).
	signal.Notify(make(chan os.Signal, 1), syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP, syscall.SIGPIPE)

	cmd := &exec.Cmd{Path: args[0], Args: args[1:], Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, guardEnv+"=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.SysProcAttr = programAttr()
	if err := cmd.Start(); err != nil {
		fmt.Fprintf(report, "err %s\n", strings.ReplaceAll(err.Error(), "\n", " "))
		return 127
	}
	fmt.Fprintf(report, "ok %d\n", cmd.Process.Pid)
	report.Close()
	// Only the program and what it starts hold the streams now.
	os.Stdin.Close()
	os.Stdout.Close()
	os.Stderr.Close()

	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	gone := make(chan struct{})
	go func() {
		io.Copy(io.Discard, life) //nolint:errcheck // EOF or an error: either way Workrun's end is gone
		close(gone)
	}()
	var err error
	pid := cmd.Process.Pid
	select {
	case err = <-done:
	case <-gone:
		killTree(pid, pid)
		err = <-done
	}
	killTree(pid, 0)
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			signal.Reset(ws.Signal())
			syscall.Kill(os.Getpid(), ws.Signal()) //nolint:errcheck // then the exit code below
			time.Sleep(100 * time.Millisecond)
			return 128 + int(ws.Signal())
		}
		return ee.ExitCode()
	}
	if err != nil {
		return 127
	}
	return 0
}
