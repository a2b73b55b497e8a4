package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// Stdio defaults.
const (
	// DefaultStdioGrace is how long each step of the graceful stop waits:
	// after stdin is closed, then after SIGTERM, before SIGKILL.
	DefaultStdioGrace = 2 * time.Second
	// DefaultMaxLineBytes caps one message line on stdout.
	DefaultMaxLineBytes = 64 << 20
	// DefaultStderrLines caps how many stderr lines reach OnStderr.
	DefaultStderrLines = 500
	// stderrTailBytes is how much of the end of stderr an exit error quotes.
	stderrTailBytes = 1024
	// maxStderrLine caps one stderr line as shown.
	maxStderrLine = 1000
	// drainAfterExit bounds how long the reader may still deliver lines the
	// program wrote before it exited (a descendant may hold stdout open).
	drainAfterExit = 500 * time.Millisecond
	// writeFailureWait bounds how long a failed write waits for the
	// program's exit to say why (Stdio.writeFailure): generous, as it
	// costs only when stdin is closed and the program still runs.
	writeFailureWait = 10 * time.Second
)

// Errors of the stdio transport, for errors.Is.
var (
	// ErrProgramExited: the server program exited (or could not be read)
	// while a request waited for its answer; *ExitError says how.
	ErrProgramExited = errors.New("mcp: the tool program exited")
	// ErrLineTooLarge: the program wrote a line on stdout over the cap.
	ErrLineTooLarge = errors.New("mcp: line over the limit")
	// ErrStopped: the transport was stopped (Close) before the answer came.
	ErrStopped = errors.New("mcp: the tool program was stopped")
	// ErrNoGuardHost: on Unix, StartStdio in an executable whose main (or
	// TestMain) did not call RunStdioGuard; nothing was started.
	ErrNoGuardHost = errors.New("mcp: this executable does not host the stdio guard (call mcp.RunStdioGuard first in main or TestMain)")
)

// RunStdioGuard makes this executable the host of the stdio guard (on
// Unix, the small process StartStdio starts a program under, which kills
// the program's whole tree when it ends or Workrun dies; docs/tool-app.md
// T3): the guard is this executable started again in the guard's mode.
// Started so, RunStdioGuard runs the guard and exits; else it returns at
// once and StartStdio may use this executable as the guard. Call it first
// in main, and in the TestMain of a test binary that starts programs.
func RunStdioGuard() { runStdioGuard() }

// StdioOptions say how to start a local MCP server program.
type StdioOptions struct {
	// Argv is the program and its arguments; it is run directly, never
	// through a shell.
	Argv []string
	// Env is added to the inherited environment ("NAME=value").
	Env []string
	// Dir is the working directory ("" for the current one).
	Dir string
	// Grace is each step of the graceful stop (default DefaultStdioGrace).
	Grace time.Duration
	// MaxLineBytes caps one stdout line (default DefaultMaxLineBytes).
	MaxLineBytes int
	// OnStderr sees each stderr line, control characters and terminal
	// escapes removed and clipped, up to StderrLines lines (default
	// DefaultStderrLines); then one line saying how many were left out.
	// It runs on the stderr reader's goroutine.
	OnStderr    func(line string)
	StderrLines int
	// OnMessage sees each message from the server that is not the answer
	// to a request: notifications, and requests from the server (which
	// the caller answers with Respond, if at all).
	OnMessage func(msg json.RawMessage)
}

// ExitError is how the program ended while a request waited: its exit
// status and the tail of its stderr. It matches ErrProgramExited.
type ExitError struct {
	// Status is "exit status 3", "signal: killed", or the read error.
	Status string
	// Code is the exit code, -1 when it was ended by a signal or unknown.
	Code int
	// Stderr is the end of what the program wrote on stderr (cleaned).
	Stderr string
}

func (e *ExitError) Error() string {
	if e.Stderr == "" {
		return fmt.Sprintf("the tool program exited during the call (%s)", e.Status)
	}
	return fmt.Sprintf("the tool program exited during the call (%s); its stderr ends with: %s", e.Status, e.Stderr)
}

func (e *ExitError) Is(target error) bool { return target == ErrProgramExited }

// Stdio is one running MCP server program spoken to over its standard
// streams: newline-delimited JSON-RPC on stdin and stdout, stderr as a log.
// It is safe for concurrent use.
type Stdio struct {
	opts  StdioOptions
	cmd   *exec.Cmd
	stdin io.WriteCloser

	writeMu sync.Mutex // one line at a time on stdin

	mu      sync.Mutex
	pending map[string]*waiter
	nextSeq uint64
	fatal   error         // set once: the reason nothing more will be answered
	failed  chan struct{} // closed when fatal is set
	lineNo  int

	stderr *stderrLog

	readDone chan struct{} // the stdout reader ended (EOF, error, or over the cap)
	exited   chan struct{} // the program was reaped
	exitErr  error         // cmd.Wait's answer, read after exited
	stopOnce sync.Once
	stopErr  error

	pid      int          // the program's (the guard's is cmd.Process.Pid on Unix)
	guard    *guardHandle // Unix: what kills the program's tree (stdio_unix.go)
	killOnce sync.Once
}

// StartStdio starts the program as an MCP server. On Unix it is started
// by a guard process and leads a process group of its own; the guard kills
// the program's whole tree when the program ends, when it is stopped, and
// when Workrun dies, even by SIGKILL (stdio_unix.go), so nothing of it is
// left behind. ctx bounds only the start; Close stops the program.
func StartStdio(ctx context.Context, opts StdioOptions) (*Stdio, error) {
	if len(opts.Argv) == 0 || opts.Argv[0] == "" {
		return nil, errors.New("mcp: stdio: no program to run")
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if opts.Grace <= 0 {
		opts.Grace = DefaultStdioGrace
	}
	if opts.MaxLineBytes <= 0 {
		opts.MaxLineBytes = DefaultMaxLineBytes
	}
	if opts.StderrLines <= 0 {
		opts.StderrLines = DefaultStderrLines
	}
	cmd, guard, err := programCommand(opts)
	if err != nil {
		return nil, fmt.Errorf("mcp: start %s: %w", opts.Argv[0], err)
	}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		guard.closeAll()
		return nil, fmt.Errorf("mcp: stdio: %w", err)
	}
	// Our own pipes, so that Wait does not close the read ends while lines
	// the program wrote before it exited are still to be read.
	outR, outW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("mcp: stdio: %w", err)
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		outR.Close()
		outW.Close()
		guard.closeAll()
		return nil, fmt.Errorf("mcp: stdio: %w", err)
	}
	cmd.Stdout, cmd.Stderr = outW, errW
	if err := cmd.Start(); err != nil {
		for _, f := range []*os.File{outR, outW, errR, errW} {
			f.Close()
		}
		guard.closeAll()
		return nil, fmt.Errorf("mcp: start %s: %w", opts.Argv[0], err)
	}
	outW.Close() // the child holds its own copies
	errW.Close()
	pid, err := guard.started(ctx, cmd)
	if err != nil {
		// The guard could not start the program (or ctx ended): it has
		// exited or is killed with its group here.
		stdin.Close()
		guard.closeAll()
		cmd.Process.Kill() //nolint:errcheck // the guard; it exits by itself after a failed start
		cmd.Wait()         //nolint:errcheck // its status says nothing more than err
		outR.Close()
		errR.Close()
		return nil, fmt.Errorf("mcp: start %s: %w", opts.Argv[0], err)
	}
	s := &Stdio{
		opts: opts, cmd: cmd, stdin: stdin, pid: pid, guard: guard,
		pending:  map[string]*waiter{},
		stderr:   &stderrLog{max: opts.StderrLines, on: opts.OnStderr},
		readDone: make(chan struct{}),
		exited:   make(chan struct{}),
		failed:   make(chan struct{}),
	}
	stderrDone := make(chan struct{})
	go func() {
		defer close(stderrDone)
		s.stderr.read(errR)
		errR.Close()
	}()
	go s.readStdout(outR)
	go func() {
		err := cmd.Wait()
		// Let the stderr reader take what the program wrote last (bounded:
		// a descendant may still hold stderr open).
		select {
		case <-stderrDone:
		case <-time.After(drainAfterExit):
		}
		s.exitErr = err
		guard.closeAll() // the guard is gone: nothing left for it to kill
		close(s.exited)
		// Lines written just before the exit may still be in the pipe.
		select {
		case <-s.readDone:
		case <-time.After(drainAfterExit):
		}
		s.fail(s.exitError())
	}()
	return s, nil
}

// PID is the program's process id (and its process group's, on Unix).
func (s *Stdio) PID() int { return s.pid }

// Exited is closed when the program has exited.
func (s *Stdio) Exited() <-chan struct{} { return s.exited }

// StderrTail is the end of what the program wrote on stderr, cleaned.
func (s *Stdio) StderrTail() string { return s.stderr.tail() }

// exitError describes how the program ended; call after exited.
func (s *Stdio) exitError() *ExitError {
	e := &ExitError{Status: "exit status 0", Code: 0, Stderr: s.stderr.tail()}
	var ee *exec.ExitError
	switch {
	case errors.As(s.exitErr, &ee):
		e.Status, e.Code = ee.ProcessState.String(), ee.ExitCode()
	case s.exitErr != nil:
		e.Status, e.Code = s.exitErr.Error(), -1
	}
	return e
}

// readStdout reads one JSON-RPC message per line: an answer goes to the
// request waiting for its id, anything else to OnMessage. A line that is
// not JSON-RPC, or is over the cap, ends the conversation: the program
// broke the transport's rule that stdout carries only MCP messages.
func (s *Stdio) readStdout(r *os.File) {
	defer close(s.readDone)
	defer r.Close()
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		line, err := readLine(br, s.opts.MaxLineBytes)
		s.mu.Lock()
		s.lineNo++
		n := s.lineNo
		s.mu.Unlock()
		if errors.Is(err, ErrLineTooLarge) {
			s.fail(fmt.Errorf("%w: stdout line %d is longer than %d bytes", ErrLineTooLarge, n, s.opts.MaxLineBytes))
			s.kill()
			return
		}
		if len(bytes.TrimSpace(line)) > 0 {
			if perr := s.dispatch(line); perr != nil {
				s.fail(fmt.Errorf("%w: stdout line %d is not a JSON-RPC message: %q", ErrProtocol, n, clipString(cleanLine(string(line)), 200)))
				s.kill()
				return
			}
		}
		if err != nil {
			return // EOF or a read error: the exit says the rest
		}
	}
}

// readLine reads up to '\n' (dropped, as is a '\r' before it); a line over
// max gives ErrLineTooLarge, without keeping more than max bytes.
func readLine(br *bufio.Reader, max int) ([]byte, error) {
	var line []byte
	for {
		frag, err := br.ReadSlice('\n')
		if len(line)+len(frag) > max+2 { // room for "\r\n"
			return nil, ErrLineTooLarge
		}
		line = append(line, frag...)
		if err == bufio.ErrBufferFull {
			continue
		}
		line = bytes.TrimSuffix(line, []byte("\n"))
		line = bytes.TrimSuffix(line, []byte("\r"))
		return line, err
	}
}

// stdioID is the id and method of a message, enough to route it.
type stdioID struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Result json.RawMessage `json:"result"`
	Error  json.RawMessage `json:"error"`
}

// waiter is a request waiting for its answer: ch carries the messages
// routed to it (notifications, then the response); done is closed when the
// caller stops listening.
type waiter struct {
	ch   chan json.RawMessage
	done chan struct{}
	seq  uint64
}

// waiterBuffer is how many notifications may wait for a caller that is
// slow to read; more are dropped (the response never is).
const waiterBuffer = 256

// dispatch routes one message: a response to the request with its id; a
// notification or a server request to the oldest waiting request (stdio has
// one shared channel; the notifications that matter — progress, task status
// — relate to the request in flight), or to OnMessage when none waits.
func (s *Stdio) dispatch(line []byte) error {
	var m stdioID
	if err := json.Unmarshal(line, &m); err != nil {
		return err
	}
	msg := json.RawMessage(bytes.Clone(line))
	if m.Method == "" && (m.Result != nil || m.Error != nil) {
		key := string(bytes.TrimSpace(m.ID))
		s.mu.Lock()
		w, ok := s.pending[key]
		if !ok && (key == "" || key == "null") {
			// An error with a null id: the server could not read a
			// request; the oldest waiting one takes it.
			w = s.oldest()
			ok = w != nil
			for k, x := range s.pending {
				if x == w {
					key = k
				}
			}
		}
		if ok {
			delete(s.pending, key) // from now on only this send reaches w.ch
		}
		s.mu.Unlock()
		if ok {
			select {
			case w.ch <- msg:
			case <-w.done:
			}
		}
		return nil // else the answer to a request nobody waits for any more
	}
	if m.Method == "" {
		return errors.New("neither a request, a notification nor a response")
	}
	if m.Method == "ping" && len(m.ID) > 0 {
		// A legacy server checking that we are alive: answered here, as
		// nothing else reads the shared channel's requests in time.
		pong, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": json.RawMessage(bytes.TrimSpace(m.ID)), "result": map[string]any{}})
		return s.write(pong)
	}
	s.mu.Lock()
	w := s.oldest()
	if w != nil {
		select {
		case w.ch <- msg: // under mu: fail cannot close ch meanwhile
		default: // the caller is not reading; a notification is not worth a stall
		}
	}
	s.mu.Unlock()
	if w == nil && s.opts.OnMessage != nil {
		s.opts.OnMessage(msg)
	}
	return nil
}

func (s *Stdio) oldest() *waiter {
	var o *waiter
	for _, w := range s.pending {
		if o == nil || w.seq < o.seq {
			o = w
		}
	}
	return o
}

// fail ends every waiting request with err; later requests get it too.
func (s *Stdio) fail(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fatal == nil {
		s.fatal = err
		close(s.failed)
	}
	for k, w := range s.pending {
		delete(s.pending, k)
		close(w.ch)
	}
}

// Err is the reason the program answers nothing more (nil while it may).
func (s *Stdio) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.fatal
}

// write sends one message as one line.
func (s *Stdio) write(msg []byte) error {
	if bytes.ContainsAny(msg, "\r\n") {
		// encoding/json escapes newlines inside strings; a raw one would
		// split the message.
		var buf bytes.Buffer
		if err := json.Compact(&buf, msg); err != nil {
			return fmt.Errorf("mcp: stdio: message is not JSON: %w", err)
		}
		msg = buf.Bytes()
	}
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	if _, err := s.stdin.Write(append(msg[:len(msg):len(msg)], '\n')); err != nil {
		return fmt.Errorf("mcp: write to the tool program: %w", err)
	}
	return nil
}

// writeFailure is the reason to give for a write that failed. A program
// that printed a line and exited closes its stdin before it reads ours
// (broken pipe); how it ended — the exit status and stderr, or the line
// that was not JSON-RPC — says what went wrong, and is known once the
// last of its output is read (bounded by writeFailureWait).
func (s *Stdio) writeFailure(ctx context.Context, err error) error {
	t := time.NewTimer(writeFailureWait)
	defer t.Stop()
	select {
	case <-s.failed:
		return s.Err()
	case <-t.C:
		return err // stdin closed, the program still runs: the write error is the story
	case <-ctx.Done():
		return err
	}
}

// Notify sends a notification (or a response to a server's request).
func (s *Stdio) Notify(ctx context.Context, msg []byte) error {
	if err := s.Err(); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := s.write(msg); err != nil {
		return s.writeFailure(ctx, err)
	}
	return nil
}

// RoundTrip sends one JSON-RPC request and returns the server's answer to
// its id (the whole response message); the messages routed to it before
// the answer go to OnMessage. See Stream.
func (s *Stdio) RoundTrip(ctx context.Context, req []byte) (json.RawMessage, error) {
	msgs, err := s.Stream(ctx, req)
	if err != nil {
		return nil, err
	}
	for msg, err := range msgs {
		if err != nil {
			return nil, err
		}
		if isResponse(msg) {
			return msg, nil
		}
		if s.opts.OnMessage != nil {
			s.opts.OnMessage(msg)
		}
	}
	return nil, s.Err()
}

func isResponse(msg json.RawMessage) bool {
	var m stdioID
	return json.Unmarshal(msg, &m) == nil && m.Method == "" && (m.Result != nil || m.Error != nil)
}

// Stream sends one JSON-RPC request and yields the messages the server
// sends for it — notifications and requests while it is the oldest request
// waiting, then the response, which is the last. When ctx ends first, the
// server is told with notifications/cancelled, as the stdio transport
// prescribes, and ctx's error is yielded. When the program exits or breaks
// the framing first, the error says how (*ExitError, ErrProtocol,
// ErrLineTooLarge). Breaking out of the loop stops listening. The sequence
// is one-shot.
func (s *Stdio) Stream(ctx context.Context, req []byte) (iter.Seq2[json.RawMessage, error], error) {
	var m stdioID
	if err := json.Unmarshal(req, &m); err != nil || len(m.ID) == 0 || m.Method == "" {
		return nil, errors.New("mcp: stdio: a request needs an id and a method")
	}
	key := string(bytes.TrimSpace(m.ID))
	w := &waiter{ch: make(chan json.RawMessage, waiterBuffer), done: make(chan struct{})}
	s.mu.Lock()
	if s.fatal != nil {
		err := s.fatal
		s.mu.Unlock()
		return nil, err
	}
	if _, dup := s.pending[key]; dup {
		s.mu.Unlock()
		return nil, fmt.Errorf("mcp: stdio: request id %s is already waiting", key)
	}
	s.nextSeq++
	w.seq = s.nextSeq
	s.pending[key] = w
	s.mu.Unlock()
	if err := s.write(req); err != nil {
		s.forget(key, w)
		return nil, s.writeFailure(ctx, err)
	}
	return func(yield func(json.RawMessage, error) bool) {
		defer s.forget(key, w)
		for {
			select {
			case msg, ok := <-w.ch:
				if !ok {
					yield(nil, s.Err())
					return
				}
				if !yield(msg, nil) || isResponse(msg) {
					return
				}
			case <-ctx.Done():
				s.cancelRequest(key)
				yield(nil, ctx.Err())
				return
			}
		}
	}, nil
}

// cancelRequest tells the server that the request key is abandoned.
func (s *Stdio) cancelRequest(key string) {
	if s.Err() != nil {
		return
	}
	cancel, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": "notifications/cancelled",
		"params": map[string]any{"requestId": json.RawMessage(key), "reason": "the caller gave up waiting"}})
	s.write(cancel) //nolint:errcheck // best effort: the caller already gave up; an exit is reported by the next request
}

// forget stops listening for w (idempotent).
func (s *Stdio) forget(key string, w *waiter) {
	select {
	case <-w.done:
	default:
		close(w.done)
	}
	s.mu.Lock()
	if s.pending[key] == w {
		delete(s.pending, key)
	}
	s.mu.Unlock()
}

// Close stops the program gracefully, as the stdio transport prescribes:
// stdin is closed, then after Grace the process group gets SIGTERM, then
// after another Grace SIGKILL (on Windows the process is terminated). It
// returns once the program has exited, or when ctx ends (the kill has been
// sent by then). Close may be called more than once.
func (s *Stdio) Close(ctx context.Context) error {
	s.stopOnce.Do(func() { s.stopErr = s.stop(ctx) })
	return s.stopErr
}

func (s *Stdio) stop(ctx context.Context) error {
	s.fail(ErrStopped)
	s.writeMu.Lock()
	s.stdin.Close() //nolint:errcheck // closing is the signal; a program already gone is what we want
	s.writeMu.Unlock()
	steps := []func(){func() { s.signal(sigTerm) }, s.kill}
	for i := 0; ; i++ {
		t := time.NewTimer(s.opts.Grace)
		select {
		case <-s.exited:
			t.Stop()
			s.reapGroup()
			return nil
		case <-ctx.Done():
			t.Stop()
			s.kill()
			return fmt.Errorf("mcp: stop the tool program: %w", ctx.Err())
		case <-t.C:
		}
		if i < len(steps) {
			steps[i]()
			continue
		}
		// Killed and still not reaped: the kernel owes us the exit.
		select {
		case <-s.exited:
			s.reapGroup()
			return nil
		case <-ctx.Done():
			return fmt.Errorf("mcp: stop the tool program: %w", ctx.Err())
		}
	}
}

// reapGroup kills what is left of the program's process group once the
// program itself exited: a descendant that still holds stdout open is
// still in the group (so the group id cannot have been reused).
func (s *Stdio) reapGroup() {
	select {
	case <-s.readDone:
	default:
		s.kill()
	}
}

// Stopped reports whether Close was called or the program ended.
func (s *Stdio) Stopped() bool {
	select {
	case <-s.exited:
		return true
	default:
		return s.Err() != nil
	}
}

// cleanLine removes control characters and terminal escape sequences
// (and bidirectional overrides) so a program's text cannot move the
// cursor, recolour a terminal or disguise itself when shown.
func cleanLine(s string) string {
	var b strings.Builder
	esc := 0 // 0 text, 1 after ESC, 2 inside CSI, 3 inside OSC/string
	for _, r := range s {
		switch esc {
		case 1:
			switch r {
			case '[':
				esc = 2
			case ']', 'P', '_', '^', 'X':
				esc = 3
			default:
				esc = 0
			}
			continue
		case 2:
			if r >= 0x40 && r <= 0x7e {
				esc = 0
			}
			continue
		case 3:
			if r == 0x07 || r == 0x9c {
				esc = 0
			} else if r == 0x1b {
				esc = 1
			}
			continue
		}
		switch {
		case r == 0x1b:
			esc = 1
		case r == '\t':
			b.WriteByte(' ')
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f):
		case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x200e, r == 0x200f:
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// stderrLog reads the program's stderr: each line cleaned and clipped goes
// to on (up to max lines, then one count of the rest), and the last bytes
// are kept for an exit error.
type stderrLog struct {
	max int
	on  func(string)

	mu      sync.Mutex
	ring    []byte
	shown   int
	skipped int
}

func (l *stderrLog) read(r io.Reader) {
	br := bufio.NewReaderSize(r, 16<<10)
	for {
		line, err := readLine(br, 1<<20)
		if errors.Is(err, ErrLineTooLarge) {
			line, err = []byte("(a stderr line over 1 MiB was left out)"), nil
		}
		if len(line) > 0 || err == nil {
			l.add(cleanLine(string(line)))
		}
		if err != nil {
			break
		}
	}
	l.mu.Lock()
	skipped := l.skipped
	l.mu.Unlock()
	if skipped > 0 && l.on != nil {
		l.on(fmt.Sprintf("(%d more stderr lines not shown)", skipped))
	}
}

func (l *stderrLog) add(line string) {
	line = strings.TrimRight(line, " ")
	if line == "" {
		return
	}
	line = clipString(line, maxStderrLine)
	l.mu.Lock()
	l.ring = append(l.ring, line...)
	l.ring = append(l.ring, '\n')
	if over := len(l.ring) - 4*stderrTailBytes; over > 0 {
		l.ring = append(l.ring[:0], l.ring[over:]...)
	}
	show := l.shown < l.max
	if show {
		l.shown++
	} else {
		l.skipped++
	}
	l.mu.Unlock()
	if show && l.on != nil {
		l.on(line)
	}
}

func (l *stderrLog) tail() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	t := strings.TrimSpace(string(l.ring))
	if len(t) > stderrTailBytes {
		t = t[len(t)-stderrTailBytes:]
		// Start at a whole character.
		for len(t) > 0 && t[0]&0xc0 == 0x80 {
			t = t[1:]
		}
		t = "…" + t
	}
	return strings.ReplaceAll(t, "\n", " | ")
}
