package demoagent

import (
	"context"
	"fmt"
	"iter"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2asrv"
)

// DemoFile is the file every `file` task returns (docs/remote-agent.md R15: inline raw with
// filename and media type).
var DemoFile = struct {
	Name, MediaType string
	Content         []byte
}{"demo.txt", "text/plain", []byte("hello from the workrun demo agent\n")}

// Status texts, shared with the JS test server so the interop suite can
// compare them.
const (
	FailText   = "demo agent: failed as asked"
	InputText  = "demo agent: more input required; reply on this task"
	AuthText   = "demo agent: authorization required (out of band)"
	RejectText = "demo agent: rejected as asked"
	CancelText = "demo agent: canceled"
	// UnfinishedText is the WORKING status message of `unfinished`.
	UnfinishedText = "demo agent: stopped while still working"
)

const maxSlowSteps = 100000

// executor implements a2asrv.AgentExecutor.
type executor struct {
	opts   *Options
	closed <-chan struct{}

	mu   sync.Mutex
	runs map[a2a.TaskID]*run
}

// run is a task whose Execute is still going.
type run struct {
	command  string
	canceled chan struct{}
	once     sync.Once
	// signedIn carries the text of the client's follow-up to an auth task:
	// the sign-in is done and the same execution goes on (signIn).
	signedIn chan string
}

func newExecutor(opts *Options, closed <-chan struct{}) *executor {
	return &executor{opts: opts, closed: closed, runs: map[a2a.TaskID]*run{}}
}

var _ a2asrv.AgentExecutor = (*executor)(nil)

// parseCommand splits the first text part of m into its lower-cased first word and
// the remaining words.
func parseCommand(m *a2a.Message) (word string, args []string, text string) {
	if m == nil {
		return "", nil, ""
	}
	for _, p := range m.Parts {
		if t, ok := p.Content.(a2a.Text); ok {
			text = string(t)
			break
		}
	}
	fields := strings.Fields(text)
	if len(fields) == 0 {
		return "", nil, text
	}
	return strings.ToLower(fields[0]), fields[1:], text
}

func (e *executor) Execute(ctx context.Context, ec *a2asrv.ExecutorContext) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) {
		word, args, text := parseCommand(ec.Message)
		if ec.StoredTask != nil {
			// A follow-up on an interrupted task: an answer. "input N"
			// asks N times; then the task completes with the answers.
			first, answers := conversation(ec.StoredTask.History, ec.Message)
			if w, args, _ := parseCommand(first); w == "input" && len(args) > 0 {
				if n, err := strconv.Atoi(args[0]); err == nil && len(answers) < n {
					yield(a2a.NewStatusUpdateEvent(ec, a2a.TaskStateInputRequired,
						statusText(ec, fmt.Sprintf("%s (question %d of %d)", InputText, len(answers)+1, n))), nil)
					return
				}
				text = strings.Join(answers, " | ")
			}
			_ = yield(a2a.NewStatusUpdateEvent(ec, a2a.TaskStateWorking, nil), nil) &&
				yield(artifact(ec, "echo", a2a.NewTextPart(text)), nil) &&
				yield(a2a.NewStatusUpdateEvent(ec, a2a.TaskStateCompleted, nil), nil)
			return
		}
		if word == "message" {
			reply := a2a.NewMessage(a2a.MessageRoleAgent, a2a.NewTextPart(text))
			reply.ContextID = ec.ContextID
			yield(reply, nil)
			return
		}

		r := &run{command: word, canceled: make(chan struct{}), signedIn: make(chan string, 1)}
		e.mu.Lock()
		e.runs[ec.TaskID] = r
		e.mu.Unlock()
		defer func() {
			e.mu.Lock()
			delete(e.runs, ec.TaskID)
			e.mu.Unlock()
		}()

		if !yield(a2a.NewSubmittedTask(ec, ec.Message), nil) {
			return
		}
		switch word {
		case "echo":
			_ = yield(artifact(ec, "echo", a2a.NewTextPart(text)), nil) &&
				yield(a2a.NewStatusUpdateEvent(ec, a2a.TaskStateCompleted, nil), nil)
		case "slow":
			e.slow(ctx, ec, r, args, yield)
		case "file":
			_ = yield(a2a.NewStatusUpdateEvent(ec, a2a.TaskStateWorking, nil), nil) &&
				yield(artifact(ec, "report", a2a.NewTextPart(FileReport(receivedFiles(ec.Message)))), nil) &&
				yield(artifact(ec, DemoFile.Name, &a2a.Part{
					Content:   a2a.Raw(DemoFile.Content),
					Filename:  DemoFile.Name,
					MediaType: DemoFile.MediaType,
				}), nil) &&
				yield(a2a.NewStatusUpdateEvent(ec, a2a.TaskStateCompleted, nil), nil)
		case "hang":
			if !yield(a2a.NewStatusUpdateEvent(ec, a2a.TaskStateWorking, statusText(ec, "hanging until canceled")), nil) {
				return
			}
			// The cancel's CANCELED event ends the execution; we only wait.
			e.wait(ctx, r, -1)
		case "uncancelable":
			if !yield(a2a.NewStatusUpdateEvent(ec, a2a.TaskStateWorking, statusText(ec, "working; this task cannot be canceled")), nil) {
				return
			}
			if e.wait(ctx, nil, e.opts.UncancelableFor) {
				_ = yield(artifact(ec, "result", a2a.NewTextPart("uncancelable work done")), nil) &&
					yield(a2a.NewStatusUpdateEvent(ec, a2a.TaskStateCompleted, nil), nil)
			}
		case "unfinished":
			// Server.serveRPC made the request returnImmediately, so a blocking
			// SendMessage has already been answered with the unfinished task;
			// the work then goes on like hang.
			if !yield(a2a.NewStatusUpdateEvent(ec, a2a.TaskStateWorking, statusText(ec, UnfinishedText)), nil) {
				return
			}
			e.wait(ctx, r, -1)
		case "fail":
			_ = yield(a2a.NewStatusUpdateEvent(ec, a2a.TaskStateWorking, nil), nil) &&
				yield(a2a.NewStatusUpdateEvent(ec, a2a.TaskStateFailed, statusText(ec, FailText)), nil)
		case "input":
			yield(a2a.NewStatusUpdateEvent(ec, a2a.TaskStateInputRequired, statusText(ec, InputText)), nil)
		case "auth":
			// a2asrv keeps an execution going past AUTH_REQUIRED (the agent
			// is meant to go on by itself once the sign-in is done), so the
			// client's follow-up reaches this execution through signIn.
			if !yield(a2a.NewStatusUpdateEvent(ec, a2a.TaskStateAuthRequired, statusText(ec, AuthText)), nil) {
				return
			}
			select {
			case t := <-r.signedIn:
				// The follow-up became a SubscribeToTask; give it time to
				// attach before the task ends (a2asrv answers a subscription
				// to an ended task with TaskNotFoundError).
				_ = yield(a2a.NewStatusUpdateEvent(ec, a2a.TaskStateWorking, nil), nil) &&
					e.wait(ctx, r, 300*time.Millisecond) &&
					yield(artifact(ec, "echo", a2a.NewTextPart(t)), nil) &&
					yield(a2a.NewStatusUpdateEvent(ec, a2a.TaskStateCompleted, nil), nil)
			case <-r.canceled:
			case <-ctx.Done():
			case <-e.closed:
			}
		case "reject":
			yield(a2a.NewStatusUpdateEvent(ec, a2a.TaskStateRejected, statusText(ec, RejectText)), nil)
		default:
			_ = yield(artifact(ec, "help", a2a.NewTextPart(HelpText)), nil) &&
				yield(a2a.NewStatusUpdateEvent(ec, a2a.TaskStateCompleted, nil), nil)
		}
	}
}

// HelpText is the answer to an unknown command.
const HelpText = "commands: echo TEXT | slow N [MS] | file | hang | uncancelable | unfinished | fail | input | auth | reject | message"

// slow sends N progress updates, then the result. Arguments: N (default 3) and
// an optional interval in milliseconds.
func (e *executor) slow(ctx context.Context, ec *a2asrv.ExecutorContext, r *run, args []string, yield func(a2a.Event, error) bool) {
	n, interval := slowArgs(args, e.opts.SlowInterval)
	for i := 1; i <= n; i++ {
		if i > 1 && interval > 0 && !e.wait(ctx, r, interval) {
			return
		}
		if !yield(a2a.NewStatusUpdateEvent(ec, a2a.TaskStateWorking, statusText(ec, ProgressText(i, n))), nil) {
			return
		}
	}
	_ = yield(artifact(ec, "result", a2a.NewTextPart(fmt.Sprintf("done after %d steps", n))), nil) &&
		yield(a2a.NewStatusUpdateEvent(ec, a2a.TaskStateCompleted, nil), nil)
}

// slowArgs reads `slow N [MS]`.
func slowArgs(args []string, def time.Duration) (n int, interval time.Duration) {
	n, interval = 3, def
	if len(args) > 0 {
		if v, err := strconv.Atoi(args[0]); err == nil && v >= 0 {
			n = min(v, maxSlowSteps)
		}
	}
	if len(args) > 1 {
		if v, err := strconv.Atoi(args[1]); err == nil && v >= 0 {
			interval = time.Duration(v) * time.Millisecond
		}
	}
	return n, interval
}

// ProgressText is the status message of the i-th of n `slow` updates.
func ProgressText(i, n int) string { return fmt.Sprintf("progress %d/%d", i, n) }

// wait blocks for d (forever if d < 0) and reports whether it ran its course:
// false when the context ended, the agent closed or the run was canceled.
func (e *executor) wait(ctx context.Context, r *run, d time.Duration) bool {
	var timeout <-chan time.Time
	if d >= 0 {
		t := time.NewTimer(d)
		defer t.Stop()
		timeout = t.C
	}
	var canceled <-chan struct{}
	if r != nil {
		canceled = r.canceled
	}
	select {
	case <-timeout:
		return true
	case <-ctx.Done():
	case <-e.closed:
	case <-canceled:
	}
	return false
}

func (e *executor) Cancel(ctx context.Context, ec *a2asrv.ExecutorContext) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) {
		e.mu.Lock()
		r := e.runs[ec.TaskID]
		e.mu.Unlock()
		if r != nil && r.command == "uncancelable" {
			yield(nil, fmt.Errorf("demo agent refuses: %w", a2a.ErrTaskNotCancelable))
			return
		}
		if r != nil && r.command == "hang" && e.opts.CancelDelay > 0 {
			select {
			case <-time.After(e.opts.CancelDelay):
			case <-ctx.Done():
				yield(nil, ctx.Err())
				return
			}
		}
		// The CANCELED event goes into the running execution's queue first; only
		// then is the work told to stop, so the execution never ends without a
		// terminal state.
		yield(a2a.NewStatusUpdateEvent(ec, a2a.TaskStateCanceled, statusText(ec, CancelText)), nil)
		if r != nil {
			r.once.Do(func() { close(r.canceled) })
		}
	}
}

func statusText(ec *a2asrv.ExecutorContext, text string) *a2a.Message {
	return a2a.NewMessageForTask(a2a.MessageRoleAgent, ec, a2a.NewTextPart(text))
}

func artifact(ec *a2asrv.ExecutorContext, name string, parts ...*a2a.Part) *a2a.TaskArtifactUpdateEvent {
	ev := a2a.NewArtifactEvent(ec, parts...)
	ev.Artifact.Name = name
	ev.LastChunk = true
	return ev
}

// ReceivedFile describes one file part of a request.
type ReceivedFile struct {
	Name      string
	Size      int    // raw bytes; -1 for a URL part
	MediaType string // as sent; "" when absent
}

func receivedFiles(m *a2a.Message) []ReceivedFile {
	var files []ReceivedFile
	if m == nil {
		return nil
	}
	for _, p := range m.Parts {
		switch c := p.Content.(type) {
		case a2a.Raw:
			files = append(files, ReceivedFile{Name: p.Filename, Size: len(c), MediaType: p.MediaType})
		case a2a.URL:
			files = append(files, ReceivedFile{Name: p.Filename, Size: -1, MediaType: p.MediaType})
		}
	}
	return files
}

// FileReport is the text of the `file` report artifact, identical in the JS
// test server:
//
//	files: 2
//	a.txt 5 text/plain
//	b.bin 1024 application/octet-stream
//
// A missing name or media type prints as "-"; a URL part's size as "url".
func FileReport(files []ReceivedFile) string {
	var b strings.Builder
	fmt.Fprintf(&b, "files: %d", len(files))
	for _, f := range files {
		size := strconv.Itoa(f.Size)
		if f.Size < 0 {
			size = "url"
		}
		fmt.Fprintf(&b, "\n%s %s %s", dash(f.Name), size, dash(f.MediaType))
	}
	return b.String()
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// conversation reads a task's user messages: the first (the submission)
// and the texts of the answers after it, m included.
func conversation(history []*a2a.Message, m *a2a.Message) (first *a2a.Message, answers []string) {
	seen := false
	for _, h := range history {
		if h == nil || h.Role != a2a.MessageRoleUser {
			continue
		}
		if first == nil {
			first = h
			continue
		}
		_, _, t := parseCommand(h)
		answers = append(answers, t)
		seen = seen || (m != nil && h.ID == m.ID)
	}
	if m != nil && !seen && (first == nil || first.ID != m.ID) {
		_, _, t := parseCommand(m)
		answers = append(answers, t)
	}
	return first, answers
}

// signIn hands text to the running auth execution of task id; false when
// no execution of task id waits for a sign-in.
func (e *executor) signIn(id a2a.TaskID, text string) bool {
	e.mu.Lock()
	r := e.runs[id]
	e.mu.Unlock()
	if r == nil || r.command != "auth" {
		return false
	}
	select {
	case r.signedIn <- text:
	default:
	}
	return true
}

// running reports whether an execution of task id is going on.
func (e *executor) running(id a2a.TaskID) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.runs[id] != nil
}
