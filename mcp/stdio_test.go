package mcp

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// helperEnv makes the test binary act as a small stdio MCP peer
// (stdioHelper) instead of running the tests: a real child process whose
// misbehaviour can be chosen.
const helperEnv = "WORKRUN_MCP_STDIO_HELPER"

// helperParentOf names the mode of the program the "parent" helper starts;
// helperMark is set in the tests' programs' environment, so every process
// of their tree carries it (treeMembers).
const (
	helperParentOf = "WORKRUN_MCP_STDIO_PARENT_OF"
	helperMark     = "WORKRUN_MCP_STDIO_TREE_MARK"
)

func TestMain(m *testing.M) {
	RunStdioGuard() // the tests' programs run under this binary as their guard
	if mode := os.Getenv(helperEnv); mode != "" {
		os.Exit(stdioHelper(mode))
	}
	os.Exit(m.Run())
}

// stdioHelper is the child's side. Modes:
//   - echo: answers each request with its method, after a notification; logs to stderr (with a terminal escape); exits on EOF
//   - crash: reads one request, writes to stderr, exits 3
//   - garbage: writes a line that is not JSON
//   - huge: writes a 2 MiB line
//   - early, earlycrash: closes stdin unread (says so on stderr), then after a while prints a line that is not JSON and exits 0, or writes to stderr and exits 4
//   - deaf: ignores stdin EOF and SIGTERM (only SIGKILL ends it)
//   - termonly: ignores stdin EOF, dies on SIGTERM
//   - grandchild: starts `sleep 60` (which keeps stdout), prints its pid on stderr, exits on EOF
//   - tree: starts two deaf descendants (one in a new session), prints their pids on stderr, exits on EOF
//   - parent: starts a program (deaf, or helperParentOf's mode) with StartStdio, prints its pid and its stderr, waits to be killed
func stdioHelper(mode string) int {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(nil, 1<<20)
	switch mode {
	case "echo":
		for in.Scan() {
			var m struct {
				ID     json.RawMessage `json:"id"`
				Method string          `json:"method"`
			}
			if json.Unmarshal(in.Bytes(), &m) != nil {
				fmt.Fprintln(os.Stderr, "bad line")
				continue
			}
			fmt.Fprintf(os.Stderr, "got \x1b[31m%s\x1b[0m\x07\n", m.Method)
			if m.ID == nil {
				continue
			}
			fmt.Printf(`{"jsonrpc":"2.0","method":"notifications/progress","params":{"for":%s}}`+"\n", m.ID)
			fmt.Printf(`{"jsonrpc":"2.0","id":%s,"result":{"method":%q}}`+"\n", m.ID, m.Method)
		}
		return 0
	case "crash":
		in.Scan()
		fmt.Fprintln(os.Stderr, "boom: the disk is full")
		return 3
	case "garbage":
		in.Scan()
		fmt.Println("Server listening on stdio")
		in.Scan()
		return 0
	case "early", "earlycrash":
		os.Stdin.Close()
		fmt.Fprintln(os.Stderr, "stdin closed")
		time.Sleep(200 * time.Millisecond)
		if mode == "early" {
			fmt.Println("Listening on stdio")
			return 0
		}
		fmt.Fprintln(os.Stderr, "fatal: no config")
		return 4
	case "huge":
		in.Scan()
		fmt.Println(`{"jsonrpc":"2.0","id":1,"result":{"x":"` + strings.Repeat("a", 2<<20) + `"}}`)
		in.Scan()
		return 0
	case "deaf", "termonly":
		if mode == "deaf" {
			signal.Ignore(syscall.SIGTERM)
		}
		fmt.Fprintln(os.Stderr, "ready")
		for in.Scan() {
			fmt.Fprintln(os.Stderr, "line", in.Text())
		}
		time.Sleep(time.Hour)
		return 0
	case "grandchild":
		cmd := exec.Command("sleep", "60")
		cmd.Stdout = os.Stdout
		if err := cmd.Start(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		fmt.Fprintf(os.Stderr, "grandchild %d\n", cmd.Process.Pid)
		for in.Scan() {
		}
		return 0
	case "tree":
		// Two descendants that ignore stdin EOF and SIGTERM: one in the
		// program's process group, one in a session of its own (out of the
		// group's reach); the program exits on EOF and leaves them behind.
		var pids []string
		for _, own := range []bool{false, true} {
			c := exec.Command(os.Args[0])
			c.Env = append(os.Environ(), helperEnv+"=deaf")
			c.SysProcAttr = newSessionAttr(own)
			if err := c.Start(); err != nil {
				fmt.Fprintln(os.Stderr, err)
				return 1
			}
			pids = append(pids, strconv.Itoa(c.Process.Pid))
		}
		fmt.Fprintf(os.Stderr, "tree %s\n", strings.Join(pids, " "))
		for in.Scan() {
		}
		return 0
	case "parent":
		// Starts the program named by helperParentOf (default deaf) with
		// StartStdio, relays its stderr, prints its pid, waits to be killed.
		of := os.Getenv(helperParentOf)
		if of == "" {
			of = "deaf"
		}
		s, err := StartStdio(context.Background(), StdioOptions{Argv: []string{os.Args[0]}, Env: []string{helperEnv + "=" + of},
			OnStderr: func(l string) { fmt.Println("stderr", l) }})
		if err != nil {
			fmt.Println("error", err)
			return 1
		}
		fmt.Printf("pid %d\n", s.PID())
		time.Sleep(time.Hour)
	}
	return 2
}

func startHelper(t *testing.T, mode string, opts StdioOptions) *Stdio {
	t.Helper()
	opts.Argv = []string{os.Args[0]}
	opts.Env = append(opts.Env, helperEnv+"="+mode)
	s, err := StartStdio(t.Context(), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.WithoutCancel(t.Context()), 20*time.Second)
		defer cancel()
		if err := s.Close(ctx); err != nil {
			t.Error(err)
		}
	})
	return s
}

func rpcLine(id int, method string) []byte {
	return fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"method":%q}`, id, method)
}

// TestStdio_RoundTripsAndNotifications: requests sent concurrently get
// their own answers by id; notifications go to OnMessage; stderr lines reach
// OnStderr without terminal escapes or control characters.
func TestStdio_RoundTripsAndNotifications(t *testing.T) {
	var mu sync.Mutex
	var notes, logs []string
	s := startHelper(t, "echo", StdioOptions{
		OnMessage: func(m json.RawMessage) { mu.Lock(); notes = append(notes, string(m)); mu.Unlock() },
		OnStderr:  func(l string) { mu.Lock(); logs = append(logs, l); mu.Unlock() },
	})
	var wg sync.WaitGroup
	for i := 1; i <= 20; i++ {
		wg.Go(func() {
			method := fmt.Sprintf("m%d", i)
			got, err := s.RoundTrip(t.Context(), rpcLine(i, method))
			if err != nil {
				t.Error(err)
				return
			}
			want := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{"method":%q}}`, i, method)
			if string(got) != want {
				t.Errorf("got %s, want %s", got, want)
			}
		})
	}
	wg.Wait()
	if err := s.Notify(t.Context(), []byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(t.Context()); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(notes) != 20 {
		t.Errorf("%d notifications, want 20", len(notes))
	}
	if len(logs) != 21 || !contains(logs, "got m7") || !contains(logs, "got notifications/initialized") {
		t.Errorf("stderr log %q", logs)
	}
	for _, l := range logs {
		if strings.ContainsAny(l, "\x1b\x07") || strings.Contains(l, "[31m") {
			t.Errorf("stderr line kept a terminal escape: %q", l)
		}
	}
}

func contains(lines []string, s string) bool {
	for _, l := range lines {
		if l == s {
			return true
		}
	}
	return false
}

// TestStdio_CrashMidCall: a program that exits while a request waits fails
// it with its exit status and the tail of its stderr.
func TestStdio_CrashMidCall(t *testing.T) {
	s := startHelper(t, "crash", StdioOptions{})
	_, err := s.RoundTrip(t.Context(), rpcLine(1, "tools/call"))
	var ee *ExitError
	if !errors.Is(err, ErrProgramExited) || !errors.As(err, &ee) {
		t.Fatalf("got %v", err)
	}
	if ee.Code != 3 || ee.Status != "exit status 3" || ee.Stderr != "boom: the disk is full" {
		t.Errorf("exit error %+v", ee)
	}
	if want := "the tool program exited during the call (exit status 3); its stderr ends with: boom: the disk is full"; err.Error() != want {
		t.Errorf("got %q", err)
	}
	// Later requests get the same answer at once.
	if _, err := s.RoundTrip(t.Context(), rpcLine(2, "tools/list")); !errors.Is(err, ErrProgramExited) {
		t.Errorf("after the exit: %v", err)
	}
}

// TestStdio_NotJSONIsAProtocolErrorNamingTheLine and huge lines: the
// program broke stdout's rule; the error names the line, and the program is
// stopped.
func TestStdio_NotJSONIsAProtocolErrorNamingTheLine(t *testing.T) {
	s := startHelper(t, "garbage", StdioOptions{})
	_, err := s.RoundTrip(t.Context(), rpcLine(1, "initialize"))
	if !errors.Is(err, ErrProtocol) || !strings.Contains(err.Error(), `stdout line 1 is not a JSON-RPC message: "Server listening on stdio"`) {
		t.Fatalf("got %v", err)
	}
	waitExit(t, s)

	s = startHelper(t, "huge", StdioOptions{MaxLineBytes: 1 << 20})
	_, err = s.RoundTrip(t.Context(), rpcLine(1, "initialize"))
	if !errors.Is(err, ErrLineTooLarge) || !strings.Contains(err.Error(), "stdout line 1 is longer than 1048576 bytes") {
		t.Fatalf("got %v", err)
	}
	waitExit(t, s)
}

// TestStdio_ProgramGoneBeforeItReads: a program that prints a line and
// exits without reading its stdin makes our write fail (broken pipe); the
// error says what the program did instead — the line, or its exit status
// and stderr — for requests and notifications alike.
func TestStdio_ProgramGoneBeforeItReads(t *testing.T) {
	for _, tc := range []struct {
		mode, want string
		is         error
	}{
		{"early", `stdout line 1 is not a JSON-RPC message: "Listening on stdio"`, ErrProtocol},
		{"earlycrash", "exited during the call (exit status 4); its stderr ends with: stdin closed | fatal: no config", ErrProgramExited},
	} {
		for _, notify := range []bool{false, true} {
			closed := make(chan struct{}, 1)
			s := startHelper(t, tc.mode, StdioOptions{OnStderr: func(l string) {
				if l == "stdin closed" {
					closed <- struct{}{}
				}
			}})
			select { // our write comes after the close, before the line (mostly)
			case <-closed:
			case <-time.After(time.Minute):
				t.Fatal("the program did not close its stdin")
			}
			var err error
			if notify {
				err = s.Notify(t.Context(), []byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`))
			} else {
				_, err = s.RoundTrip(t.Context(), rpcLine(1, "server/discover"))
			}
			if !errors.Is(err, tc.is) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%s (notify %v): got %v, want %q", tc.mode, notify, err, tc.want)
			}
		}
	}
}

func waitExit(t *testing.T, s *Stdio) {
	t.Helper()
	select {
	case <-s.Exited():
	case <-time.After(20 * time.Second):
		t.Fatal("the program was not stopped")
	}
}

// TestStdio_GracefulStopEscalates: closing stdin stops a program that
// honours it; one that ignores it gets SIGTERM after the grace; one that
// ignores SIGTERM too gets SIGKILL after another grace.
func TestStdio_GracefulStopEscalates(t *testing.T) {
	for _, tc := range []struct {
		mode   string
		grace  time.Duration
		status string
		min    time.Duration
	}{
		{"echo", 20 * time.Second, "exit status 0", 0},
		{"termonly", 300 * time.Millisecond, "signal: terminated", 300 * time.Millisecond},
		{"deaf", 300 * time.Millisecond, "signal: killed", 600 * time.Millisecond},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			var ready sync.Once
			up := make(chan struct{})
			s := startHelper(t, tc.mode, StdioOptions{Grace: tc.grace,
				OnStderr: func(l string) {
					if l == "ready" {
						ready.Do(func() { close(up) })
					}
				}})
			if tc.mode != "echo" {
				<-up // the signal handler is in place
			}
			began := time.Now()
			if err := s.Close(t.Context()); err != nil {
				t.Fatal(err)
			}
			if d := time.Since(began); d < tc.min {
				t.Errorf("stopped after %s, before the grace of %s", d, tc.min)
			}
			if got := s.exitError().Status; got != tc.status {
				t.Errorf("ended with %q, want %q", got, tc.status)
			}
		})
	}
}

// TestStdio_StopKillsWhatTheProgramStarted: a descendant that outlives the
// program (and holds its stdout) is killed with the process group.
func TestStdio_StopKillsWhatTheProgramStarted(t *testing.T) {
	pid := make(chan int, 1)
	s := startHelper(t, "grandchild", StdioOptions{OnStderr: func(l string) {
		if n, ok := strings.CutPrefix(l, "grandchild "); ok {
			p, _ := strconv.Atoi(n)
			pid <- p
		}
	}})
	var p int
	select {
	case p = <-pid:
	case <-time.After(20 * time.Second):
		t.Fatal("no grandchild")
	}
	if err := s.Close(t.Context()); err != nil {
		t.Fatal(err)
	}
	waitGone(t, p)
}

// waitGone waits until no process has pid (a zombie counts as gone).
func waitGone(t *testing.T, pid int) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for alive(pid) {
		if time.Now().After(deadline) {
			t.Fatalf("process %d is still running", pid)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func alive(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	// The state follows the command name in parentheses.
	s := string(b)
	if i := strings.LastIndexByte(s, ')'); i >= 0 && i+2 < len(s) {
		return s[i+2] != 'Z' && s[i+2] != 'X'
	}
	return true
}

// TestStdio_ProgramDiesWithWorkrun: a program started by a process that is
// SIGKILLed (no Close, no deferred cleanup) is killed too, even one that
// ignores stdin EOF and SIGTERM.
func TestStdio_ProgramDiesWithWorkrun(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("needs /proc (Linux)")
	}
	parent := exec.Command(os.Args[0])
	parent.Env = append(os.Environ(), helperEnv+"=parent")
	out, err := parent.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := parent.Start(); err != nil {
		t.Fatal(err)
	}
	defer parent.Wait()         //nolint:errcheck // killed below
	defer parent.Process.Kill() //nolint:errcheck // in case the test failed early
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	var pid int
	if _, err := fmt.Sscanf(line, "pid %d", &pid); err != nil {
		t.Fatalf("parent said %q", line)
	}
	if !alive(pid) {
		t.Fatalf("program %d is not running", pid)
	}
	if err := parent.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	waitGone(t, pid)
}

// TestStdio_CanceledRequestIsAnnounced: a request the caller gives up on is
// cancelled with notifications/cancelled naming its id.
func TestStdio_CanceledRequestIsAnnounced(t *testing.T) {
	logs := make(chan string, 10)
	s := startHelper(t, "deaf", StdioOptions{Grace: 100 * time.Millisecond, OnStderr: func(l string) { logs <- l }})
	ctx, cancel := context.WithTimeout(t.Context(), 200*time.Millisecond)
	defer cancel()
	if _, err := s.RoundTrip(ctx, rpcLine(7, "tools/call")); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("got %v", err)
	}
	want := `line {"jsonrpc":"2.0","method":"notifications/cancelled","params":{"reason":"the caller gave up waiting","requestId":7}}`
	deadline := time.After(20 * time.Second)
	for {
		select {
		case l := <-logs:
			if l == want {
				return
			}
		case <-deadline:
			t.Fatal("no notifications/cancelled reached the program")
		}
	}
}

func TestCleanLine(t *testing.T) {
	for in, want := range map[string]string{
		"plain":                           "plain",
		"\x1b[1;31mred\x1b[0m":            "red",
		"title\x1b]0;pwned\x07 after":     "title after",
		"tab\there":                       "tab here",
		"bell\x07 nul\x00 del\x7f":        "bell nul del",
		"bidi \u202eevil\u202c":           "bidi evil",
		"c1 \u009b31m":                    "c1 31m",
		"中文 stays":                        "中文 stays",
		"\x1b[2J\x1b[Hcleared the screen": "cleared the screen",
	} {
		if got := cleanLine(in); got != want {
			t.Errorf("cleanLine(%q) = %q, want %q", in, got, want)
		}
	}
}

// treeMembers lists the running processes whose environment holds
// helperMark=mark: every process of a test program's tree inherits it,
// also one that left its process group or session.
func treeMembers(mark string) []int {
	entries, _ := os.ReadDir("/proc")
	var out []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || !alive(pid) {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/environ")
		if err == nil && strings.Contains("\x00"+string(b), "\x00"+helperMark+"="+mark+"\x00") {
			out = append(out, pid)
		}
	}
	return out
}

// waitTreeGone waits until no process of the marked tree is left.
func waitTreeGone(t *testing.T, mark string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		left := treeMembers(mark)
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("processes of the program's tree are still running: %v", left)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// wantMarked checks that the program and its descendants run and carry
// the mark, so that waitTreeGone's answer means something.
func wantMarked(t *testing.T, mark string, pids []int) {
	t.Helper()
	marked := treeMembers(mark)
	for _, p := range pids {
		if !slices.Contains(marked, p) {
			t.Fatalf("process %d is not running with the mark (marked: %v)", p, marked)
		}
	}
}

// treePIDs parses the tree helper's "tree A B" line.
func treePIDs(t *testing.T, line string) []int {
	t.Helper()
	var pids []int
	for _, f := range strings.Fields(strings.TrimPrefix(line, "tree ")) {
		p, err := strconv.Atoi(f)
		if err != nil {
			t.Fatalf("tree line %q", line)
		}
		pids = append(pids, p)
	}
	if len(pids) != 2 {
		t.Fatalf("tree line %q", line)
	}
	return pids
}

// TestStdio_StopKillsTheWholeTree (docs/tool-app.md T3): the program exits
// when stdin closes but leaves two descendants that ignore SIGTERM, one of
// them in a session of its own; Close leaves no process of the tree.
func TestStdio_StopKillsTheWholeTree(t *testing.T) {
	if _, err := os.Stat("/proc/self/environ"); err != nil {
		t.Skip("needs /proc (Linux)")
	}
	mark := strconv.FormatInt(time.Now().UnixNano(), 36)
	line := make(chan string, 1)
	s := startHelper(t, "tree", StdioOptions{Env: []string{helperMark + "=" + mark}, OnStderr: func(l string) {
		if strings.HasPrefix(l, "tree ") {
			line <- l
		}
	}})
	var pids []int
	select {
	case l := <-line:
		pids = treePIDs(t, l)
	case <-time.After(20 * time.Second):
		t.Fatal("no tree")
	}
	wantMarked(t, mark, append(pids, s.PID()))
	if err := s.Close(t.Context()); err != nil {
		t.Fatal(err)
	}
	for _, p := range append(pids, s.PID()) {
		waitGone(t, p)
	}
	waitTreeGone(t, mark)
}

// TestStdio_TreeDiesWithWorkrun (docs/tool-app.md T3): Workrun (here the
// "parent" helper, which started the tree program with StartStdio) is
// SIGKILLed — no Close, no deferred cleanup; the program, its descendant in
// its group and the one in a session of its own all go: no process of the
// tree is left (checked by pid, and by the mark every one of them carries).
func TestStdio_TreeDiesWithWorkrun(t *testing.T) {
	if _, err := os.Stat("/proc/self/environ"); err != nil {
		t.Skip("needs /proc (Linux)")
	}
	mark := strconv.FormatInt(time.Now().UnixNano(), 36)
	parent := exec.Command(os.Args[0])
	parent.Env = append(os.Environ(), helperEnv+"=parent", helperParentOf+"=tree", helperMark+"="+mark)
	out, err := parent.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := parent.Start(); err != nil {
		t.Fatal(err)
	}
	defer parent.Wait()         //nolint:errcheck // killed below
	defer parent.Process.Kill() //nolint:errcheck // in case the test failed early
	br := bufio.NewReader(out)
	var pid int
	var pids []int
	for pid == 0 || pids == nil {
		line, err := br.ReadString('\n')
		if err != nil {
			t.Fatalf("parent: %v (pid %d, tree %v)", err, pid, pids)
		}
		line = strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(line, "pid "):
			pid, _ = strconv.Atoi(strings.TrimPrefix(line, "pid "))
		case strings.HasPrefix(line, "stderr tree "):
			pids = treePIDs(t, strings.TrimPrefix(line, "stderr "))
		case strings.HasPrefix(line, "error"):
			t.Fatal(line)
		}
	}
	wantMarked(t, mark, append(pids, pid))
	if err := parent.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	for _, p := range append(pids, pid) {
		waitGone(t, p)
	}
	waitTreeGone(t, mark)
}
