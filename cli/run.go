package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"workrun/workrun"
)

func init() {
	register(&Command{
		Name:    "run",
		Args:    "FLOW.json [--input NAME=VALUE]… [--file NAME=PATH]… [--from NODE | --only NODE] [--pin-from RUN] [--pin NODE.FIELD=JSON]… [--json] [--lang en|zh]",
		Summary: "run a workflow file and print its node messages (exit 0 succeeded, 1 failed, 2 invalid, 3 interrupted, 4 stopped)",
		Run:     runCommand,
	})
}

func runCommand(ctx context.Context, env *Env, args []string) int {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var inputs, files repeated
	fs.Var(&inputs, "input", "")
	fs.Var(&files, "file", "")
	asJSON := fs.Bool("json", false, "")
	langFlag := fs.String("lang", "", "")
	part := addFromFlags(fs)
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return usageError(env, "run: "+err.Error())
	}
	if len(pos) != 1 {
		return usageError(env, "run needs exactly one workflow file")
	}
	lang, err := readerLanguage(env, *langFlag)
	if err != nil {
		return usageError(env, "run: "+err.Error())
	}
	wf, err := readWorkflow(pos[0])
	if err != nil {
		fmt.Fprintf(env.Stderr, "workrun: %s\n", termText(err.Error(), "  "))
		return ExitUsage
	}
	rf, partial, err := part.runFrom(wf)
	if err != nil {
		return usageError(env, "run: "+err.Error())
	}

	svc, code := env.open(ctx)
	if svc == nil {
		return code
	}
	defer closeServices(env, svc)
	if svc.Engine == nil {
		fmt.Fprintln(env.Stderr, "workrun: this build has no workflow engine")
		return ExitFailed
	}
	if probs := svc.Engine.Validate(wf); len(probs) > 0 {
		fmt.Fprintf(env.Stderr, "workrun: %s is not a valid workflow:\n", termLine(pos[0]))
		for _, p := range probs {
			fmt.Fprintf(env.Stderr, "  %s\n", termText(p.StringIn(lang), "    "))
		}
		return ExitUsage
	}
	in, err := parseInputs(ctx, wf, inputs, files, svc.Artifacts)
	if err != nil {
		fmt.Fprintf(env.Stderr, "workrun: %s\n", termText(err.Error(), "  "))
		return ExitUsage
	}

	out := newEventPrinter(env.Stdout, *asJSON)
	out.lang = lang
	events, cancel := svc.Engine.Subscribe()
	defer cancel()
	id, err := startRun(ctx, svc.Engine, wf, in, rf, partial)
	if err != nil {
		fmt.Fprintf(env.Stderr, "workrun: %s\n", termText(err.Error(), "  "))
		if errors.Is(err, workrun.ErrInvalidWorkflow) || errors.Is(err, workrun.ErrBadInput) || errors.Is(err, workrun.ErrPin) || errors.Is(err, workrun.ErrNotFound) {
			return ExitUsage
		}
		return ExitFailed
	}
	return followRun(ctx, env, svc.Engine, id, events, out)
}

// continueRun lets act continue run runID (resume it, decide a waiting
// node) and follows the run; the events are subscribed to before act, so
// none is missed. An error of act is reported as a run error.
func continueRun(ctx context.Context, env *Env, e *workrun.Engine, runID string, asJSON bool, act func() error) int {
	out := newEventPrinter(env.Stdout, asJSON)
	events, cancel := e.Subscribe()
	defer cancel()
	if err := act(); err != nil {
		return reportRunError(env, err)
	}
	return followRun(ctx, env, e, runID, events, out)
}

// followRun prints the run's events until it ends or is interrupted, then
// prints the outcome and returns the exit status for it. Signals say who
// asks: SIGINT (Ctrl-C at a terminal) is a person's Stop (abort hooks run,
// bounded: remote work is cancelled); SIGTERM and SIGHUP — a logout, a
// shutdown, a supervisor stopping the process — are an exit, never a Stop:
// the run is interrupted by exit, resumable, and nothing is cancelled
// (docs/remote-agent.md R13: merely exiting never triggers CancelTask).
func followRun(ctx context.Context, env *Env, e *workrun.Engine, runID string, events <-chan workrun.Event, out *eventPrinter) int {
	sigCtx, stopSignals := signal.NotifyContext(ctx, os.Interrupt)
	defer stopSignals()
	exitSignals := make(chan os.Signal, 1)
	signal.Notify(exitSignals, syscall.SIGTERM, syscall.SIGHUP)
	defer signal.Stop(exitSignals)

	printed := make(chan struct{})
	go func() {
		defer close(printed)
		tick := time.NewTicker(progressEvery / 2)
		defer tick.Stop()
		for {
			select {
			case ev, ok := <-events:
				if !ok {
					return
				}
				if ev.RunID != runID {
					continue
				}
				out.event(ev)
				if ev.Type == workrun.EventRun && settled(ev.Run.Status) {
					return
				}
			case <-tick.C:
				out.tick()
			}
		}
	}()

	waited := make(chan struct{})
	var final workrun.Run
	var waitErr error
	go func() {
		defer close(waited)
		final, waitErr = e.Wait(context.WithoutCancel(ctx), runID)
	}()
	select {
	case <-waited:
	case <-sigCtx.Done():
		if !out.json {
			fmt.Fprintln(env.Stderr, "workrun: stopping… (abort hooks are running)")
		}
		if err := e.Stop(context.WithoutCancel(ctx), runID); err != nil {
			fmt.Fprintf(env.Stderr, "workrun: %s\n", termText(err.Error(), "  "))
		}
		<-waited
	case sig := <-exitSignals:
		if !out.json {
			fmt.Fprintf(env.Stderr, "workrun: %v: exiting; the run is interrupted, nothing is cancelled (resume it with `workrun resume %s`)\n", sig, runID)
		}
		// Close interrupts the run by exit: nodes' contexts end, no abort
		// hook runs.
		if err := e.Close(context.WithoutCancel(ctx)); err != nil {
			fmt.Fprintf(env.Stderr, "workrun: %s\n", termText(err.Error(), "  "))
		}
		<-waited
	}
	if waitErr != nil {
		fmt.Fprintf(env.Stderr, "workrun: %s\n", termText(waitErr.Error(), "  "))
		return ExitFailed
	}
	select {
	case <-printed:
	case <-time.After(5 * time.Second):
	}
	out.final(final)
	if final.Interruption == workrun.InterruptedByUnsaved {
		return ExitFailed // not resumable: the run had ended, only its record is short
	}
	return exitCode(final.Status)
}

// settled: the run is no longer going on in this process.
func settled(s workrun.RunStatus) bool { return s.Terminal() || s == workrun.RunInterrupted }

func exitCode(s workrun.RunStatus) int {
	switch s {
	case workrun.RunSucceeded:
		return ExitOK
	case workrun.RunInterrupted:
		return ExitInterrupted
	case workrun.RunStopped:
		return ExitStopped
	}
	return ExitFailed
}

func closeServices(env *Env, svc *Services) {
	if svc.Close == nil {
		return
	}
	if err := svc.Close(); err != nil {
		fmt.Fprintf(env.Stderr, "workrun: close: %s\n", termText(err.Error(), "  "))
	}
}

// readWorkflow reads a workflow file strictly (workrun.ReadWorkflow): at
// most 8 MiB, no duplicate key, no unknown field.
func readWorkflow(path string) (workrun.Workflow, error) {
	f, err := os.Open(path)
	if err != nil {
		return workrun.Workflow{}, fmt.Errorf("read workflow: %w", err)
	}
	defer f.Close()
	wf, err := workrun.ReadWorkflow(f)
	if err != nil {
		return workrun.Workflow{}, fmt.Errorf("%s is not a workflow file: %w", path, err)
	}
	if wf.Name == "" {
		wf.Name = strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	}
	return wf, nil
}

// parseInputs turns --input NAME=VALUE (converted to the field's type) and
// --file NAME=PATH (imported into the artifact store) into run inputs.
func parseInputs(ctx context.Context, wf workrun.Workflow, inputs, files []string, arts workrun.ArtifactStore) (workrun.Values, error) {
	in := workrun.Values{}
	for _, kv := range inputs {
		name, raw, ok := strings.Cut(kv, "=")
		if !ok {
			return nil, fmt.Errorf("--input %q: want NAME=VALUE", kv)
		}
		t, ok := wf.State[name]
		if !ok {
			return nil, fmt.Errorf("--input %s: the workflow has no State field %q", name, name)
		}
		var v any
		var err error
		switch t {
		case workrun.FieldText:
			v = raw
		case workrun.FieldNumber:
			v, err = strconv.ParseFloat(raw, 64)
		case workrun.FieldBoolean:
			v, err = strconv.ParseBool(raw)
		case workrun.FieldJSON:
			err = json.Unmarshal([]byte(raw), &v)
		default:
			err = fmt.Errorf("it is a %s field: use --file %s=PATH", t, name)
		}
		if err != nil {
			return nil, fmt.Errorf("--input %s: not a %s value: %w", name, t, err)
		}
		in[name] = v
	}
	for _, kv := range files {
		name, path, ok := strings.Cut(kv, "=")
		if !ok {
			return nil, fmt.Errorf("--file %q: want NAME=PATH", kv)
		}
		t, ok := wf.State[name]
		if !ok {
			return nil, fmt.Errorf("--file %s: the workflow has no State field %q", name, name)
		}
		if t != workrun.FieldFile && t != workrun.FieldFiles {
			return nil, fmt.Errorf("--file %s: it is a %s field, not file or files", name, t)
		}
		if arts == nil {
			return nil, errors.New("--file: this build has no artifact store")
		}
		id, err := importFile(ctx, arts, path)
		if err != nil {
			return nil, fmt.Errorf("--file %s: %w", name, err)
		}
		if t == workrun.FieldFile {
			if _, dup := in[name]; dup {
				return nil, fmt.Errorf("--file %s: a file field takes one file", name)
			}
			in[name] = id
			continue
		}
		list, _ := in[name].([]any)
		in[name] = append(list, id)
	}
	return in, nil
}

func importFile(ctx context.Context, arts workrun.ArtifactStore, path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	info, err := arts.Put(ctx, filepath.Base(path), "", f, "", "")
	if err != nil {
		return "", fmt.Errorf("import %s: %w", path, err)
	}
	return info.ID, nil
}

// progressEvery is how often `run` prints one progress stream (a node and
// message key) at most: a person cannot read more, and a terminal slows a
// fast agent down.
const progressEvery = 200 * time.Millisecond

// eventPrinter writes run events as text lines or one JSON object per line.
// Node messages are rendered in lang; in JSON a message keeps its key and
// arguments and its text is that rendering. Text lines escape what an agent
// or a process wrote (see termText).
//
// Progress lines (not yet committed: Seq 0) of one node and key are printed
// at most once per progressEvery in text: the first at once, later ones
// held, and the newest held one printed when the interval is over, or
// before any other line of its node, counting those it replaced ("(+N
// updates)"). JSON output keeps every event.
type eventPrinter struct {
	mu      sync.Mutex
	w       io.Writer
	json    bool
	lang    string // "en" or "zh"
	enc     *json.Encoder
	waiting map[string]string           // node id → type, of nodes now interrupted
	asked   map[string]workrun.Question // node id → what its remote asks
	now     func() time.Time

	printedAt map[progressStream]time.Time
	held      map[progressStream]*workrun.Message
}

// progressStream is a node's progress lines of one message key.
type progressStream struct{ node, key string }

// newEventPrinter prints in the locale's language; set lang to override.
func newEventPrinter(w io.Writer, asJSON bool) *eventPrinter {
	return &eventPrinter{w: w, json: asJSON, lang: workrun.Language(), enc: json.NewEncoder(&jsonTerm{w: w}), waiting: map[string]string{},
		asked: map[string]workrun.Question{}, now: time.Now, printedAt: map[progressStream]time.Time{}, held: map[progressStream]*workrun.Message{}}
}

// tick prints the held progress lines whose interval is over.
func (p *eventPrinter) tick() {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := p.now()
	for _, k := range p.heldStreams("") {
		if now.Sub(p.printedAt[k]) >= progressEvery {
			p.printHeld(k, now)
		}
	}
}

// heldStreams lists the held streams (of node, or all when node is ""),
// in a stable order.
func (p *eventPrinter) heldStreams(node string) []progressStream {
	var ks []progressStream
	for k := range p.held {
		if node == "" || k.node == node {
			ks = append(ks, k)
		}
	}
	slices.SortFunc(ks, func(a, b progressStream) int {
		return strings.Compare(a.node+"\x00"+a.key, b.node+"\x00"+b.key)
	})
	return ks
}

func (p *eventPrinter) printHeld(k progressStream, now time.Time) {
	p.printMessage(p.held[k])
	delete(p.held, k)
	p.printedAt[k] = now
}

func (p *eventPrinter) printMessage(m *workrun.Message) {
	fmt.Fprintf(p.w, "%s [%s] %s\n", m.Time.Local().Format("15:04:05"), termLine(m.NodeID), termText(m.In(p.lang), "    "))
}

// progress prints or holds a progress line; see eventPrinter.
func (p *eventPrinter) progress(m workrun.Message) {
	k := progressStream{m.NodeID, m.Key}
	if old := p.held[k]; old != nil {
		m.Repeat += old.Repeat + 1
		p.held[k] = &m
		return
	}
	now := p.now()
	if last, ok := p.printedAt[k]; ok && now.Sub(last) < progressEvery {
		p.held[k] = &m
		return
	}
	p.printMessage(&m)
	p.printedAt[k] = now
}

func (p *eventPrinter) event(ev workrun.Event) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if ev.Type == workrun.EventNode {
		if ev.Node.Status == workrun.NodeInterrupted {
			p.waiting[ev.NodeID] = ev.Node.Type
		} else {
			delete(p.waiting, ev.NodeID)
		}
		if q := ev.Node.Question; q != nil && ev.Node.Status == workrun.NodeInterrupted {
			p.asked[ev.NodeID] = *q
		} else {
			delete(p.asked, ev.NodeID)
		}
	}
	if p.json {
		if ev.Message != nil {
			m := *ev.Message
			m.Text = m.In(p.lang)
			ev.Message = &m
		}
		_ = p.enc.Encode(ev)
		return
	}
	// A node's held progress is printed before its next other line; a
	// run's, before the run's next event.
	if ev.Type != workrun.EventMessage || ev.Message.Seq != 0 {
		node := ev.NodeID
		if ev.Type == workrun.EventRun {
			node = ""
		}
		for _, k := range p.heldStreams(node) {
			p.printHeld(k, p.now())
		}
	}
	switch ev.Type {
	case workrun.EventMessage:
		if ev.Message.Seq == 0 {
			p.progress(*ev.Message)
		} else {
			p.printMessage(ev.Message)
		}
	case workrun.EventNode:
		n := ev.Node
		switch n.Status {
		case workrun.NodeFailed, workrun.NodeStopped, workrun.NodeInterrupted, workrun.NodeHandled:
			fmt.Fprintf(p.w, "[%s] %s: %s\n", termLine(n.NodeID), termLine(string(n.Status)), termText(n.Error, "    "))
		default:
			fmt.Fprintf(p.w, "[%s] %s\n", termLine(n.NodeID), termLine(string(n.Status)))
		}
	case workrun.EventRun:
		// A failure passes through "stopping" too (its abort hooks run);
		// only a person's Stop, which names no failed node, says so.
		if ev.Run.Status == workrun.RunStopping && ev.Run.FailedNode == "" {
			fmt.Fprintln(p.w, "stopping…")
		}
	}
}

// finalLine is the last JSON object of --json output.
type finalLine struct {
	RunID        string               `json:"run_id"`
	Status       workrun.RunStatus    `json:"status"`
	Reason       string               `json:"reason,omitempty"`
	FailedNode   string               `json:"failed_node,omitempty"`
	Interruption workrun.Interruption `json:"interruption,omitempty"`
}

func (p *eventPrinter) final(r workrun.Run) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, k := range p.heldStreams("") {
		p.printHeld(k, p.now())
	}
	if p.json {
		_ = p.enc.Encode(finalLine{RunID: r.ID, Status: r.Status, Reason: r.Reason, FailedNode: r.FailedNode, Interruption: r.Interruption})
		return
	}
	id, reason := termLine(r.ID), termText(r.Reason, "    ")
	switch r.Status {
	case workrun.RunFailed:
		if r.FailedNode != "" {
			fmt.Fprintf(p.w, "run %s failed at node %s: %s\n", id, termLine(r.FailedNode), reason)
		} else {
			fmt.Fprintf(p.w, "run %s failed: %s\n", id, reason)
		}
	case workrun.RunInterrupted:
		fmt.Fprintf(p.w, "run %s interrupted (%s): %s\n", id, termLine(string(r.Interruption)), reason)
		if r.Interruption == workrun.InterruptedByHuman {
			for _, node := range slices.Sorted(maps.Keys(p.waiting)) {
				if q, ok := p.asked[node]; ok {
					printQuestion(p.w, p.lang, r.ID, node, q)
					continue
				}
				switch p.waiting[node] {
				case "human_review":
					fmt.Fprintf(p.w, "  decide with: workrun review %s %s approve|reject\n", id, termLine(node))
				case "ask_human":
					fmt.Fprintf(p.w, "  answer with: workrun answer %s %s TEXT\n", id, termLine(node))
				}
			}
		} else if r.Interruption == workrun.InterruptedByExit || r.Interruption == workrun.InterruptedByUnreachable {
			fmt.Fprintf(p.w, "  continue with: workrun resume %s\n", id)
		} else if r.Interruption == workrun.InterruptedByPush {
			fmt.Fprintf(p.w, "  waits for the agent's push under workrun serve (no connection held); to read the task once now: workrun resume %s\n", id)
		} else if r.Interruption == workrun.InterruptedBySignIn {
			fmt.Fprintf(p.w, "  sign in with: workrun credential login URL --name CREDENTIAL, then: workrun resume %s\n", id)
		} else if r.Interruption == workrun.InterruptedByUnsaved {
			fmt.Fprintf(p.w, "  it cannot be resumed; free some disk space, then run the workflow again\n")
		} else if r.Interruption == workrun.InterruptedByRemote {
			fmt.Fprintf(p.w, "  the agent's request cannot be answered here: workrun stop %s (or run it again)\n", id)
		}
	default:
		fmt.Fprintf(p.w, "run %s %s\n", id, termLine(string(r.Status)))
	}
}
