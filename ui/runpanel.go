package ui

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/widget"

	"workrun/workrun"
)

// RunPanel shows one run: its status and failure reason at the top, then
// every node with its status and time-stamped messages (SPEC W5, W6). It is
// changed only on the Fyne thread (Apply is called inside fyne.Do).
type RunPanel struct {
	runs     workrun.RunStore
	readOnly bool

	runID string
	run   workrun.Run
	nodes map[string]workrun.NodeRun
	msgs  map[string][]workrun.Message
	seen  map[int64]bool
	order []string

	header  *widget.Label
	reason  *widget.Label
	actions *fyne.Container
	rows    *fyne.Container
	rowOf   map[string]*nodeRow
	root    fyne.CanvasObject

	// Callbacks the window sets; nil in read-only views.
	OnStatus   func(nodeID string, s workrun.NodeStatus)
	OnStop     func()
	OnResume   func()
	OnRunAgain func()
	OnDecide   func(d workrun.Decision)
}

type nodeRow struct {
	box   *fyne.Container
	title *widget.Label
	msgs  *widget.Label
	extra *fyne.Container
	kind  string
}

// NewRunPanel makes an empty panel. runs may be nil (nothing to load).
func NewRunPanel(runs workrun.RunStore, readOnly bool) *RunPanel {
	p := &RunPanel{runs: runs, readOnly: readOnly, rowOf: map[string]*nodeRow{}}
	p.header = widget.NewLabelWithStyle(lang.X("run.none", "No run yet. Press Run to start one."), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	p.reason = widget.NewLabel("")
	p.reason.Importance = widget.DangerImportance
	p.reason.Wrapping = fyne.TextWrapWord
	p.reason.Hide()
	p.actions = container.NewHBox()
	p.rows = container.NewVBox()
	p.root = container.NewBorder(container.NewVBox(container.NewBorder(nil, nil, nil, p.actions, p.header), p.reason), nil, nil, nil, container.NewVScroll(p.rows))
	p.reset("")
	return p
}

// Object is the panel's widget tree.
func (p *RunPanel) Object() fyne.CanvasObject { return p.root }

// RunID is the run shown ("" for none).
func (p *RunPanel) RunID() string { return p.runID }

// Run returns the run as last shown.
func (p *RunPanel) Run() workrun.Run { return p.run }

func (p *RunPanel) reset(runID string) {
	p.runID = runID
	p.run = workrun.Run{ID: runID}
	p.nodes = map[string]workrun.NodeRun{}
	p.msgs = map[string][]workrun.Message{}
	p.seen = map[int64]bool{}
	p.order = nil
	p.rowOf = map[string]*nodeRow{}
	p.rows.RemoveAll()
}

// Clear shows no run.
func (p *RunPanel) Clear() {
	p.reset("")
	p.refreshHeader()
}

// Show loads a run from the store and shows it; events applied later add to it.
func (p *RunPanel) Show(ctx context.Context, runID string) error {
	p.reset(runID)
	if p.runs == nil {
		p.refreshHeader()
		return nil
	}
	r, err := p.runs.GetRun(ctx, runID)
	if err != nil {
		return fmt.Errorf("show run %s: %w", runID, err)
	}
	nrs, err := p.runs.NodeRuns(ctx, runID)
	if err != nil {
		return fmt.Errorf("show run %s: %w", runID, err)
	}
	ms, err := p.runs.Messages(ctx, runID)
	if err != nil {
		return fmt.Errorf("show run %s: %w", runID, err)
	}
	p.Load(r, nrs, ms)
	return nil
}

// Load shows a run from its records.
func (p *RunPanel) Load(r workrun.Run, nrs []workrun.NodeRun, ms []workrun.Message) {
	p.reset(r.ID)
	p.setRun(r)
	for _, n := range nrs {
		p.setNode(n)
	}
	for _, m := range ms {
		p.addMessage(m)
	}
	p.refreshHeader()
}

// Start shows a run that has just been created from wf.
func (p *RunPanel) Start(runID string, wf workrun.Workflow) {
	p.reset(runID)
	p.setRun(workrun.Run{ID: runID, Workflow: wf, WorkflowName: wf.Name, Status: workrun.RunRunning, CreatedAt: time.Now()})
	p.refreshHeader()
}

// Apply shows one engine event if it belongs to the run shown.
func (p *RunPanel) Apply(ev Event) {
	if ev.RunID != p.runID || p.runID == "" {
		return
	}
	switch {
	case ev.Run != nil:
		p.setRun(*ev.Run)
	case ev.Node != nil:
		p.setNode(*ev.Node)
	case ev.Message != nil:
		p.addMessage(*ev.Message)
	}
	p.refreshHeader()
}

func (p *RunPanel) setRun(r workrun.Run) {
	if len(r.Workflow.Nodes) == 0 {
		r.Workflow = p.run.Workflow // run events may carry no snapshot
	}
	p.run = r
	for _, n := range r.Workflow.Nodes {
		p.row(n.ID, n.Type)
	}
}

func (p *RunPanel) setNode(n workrun.NodeRun) {
	p.nodes[n.NodeID] = n
	p.row(n.NodeID, n.Type)
	p.refreshRow(n.NodeID)
	if p.OnStatus != nil {
		p.OnStatus(n.NodeID, n.Status)
	}
}

func (p *RunPanel) addMessage(m workrun.Message) {
	if m.Seq != 0 {
		if p.seen[m.Seq] {
			return // already loaded from the store
		}
		p.seen[m.Seq] = true
	}
	p.msgs[m.NodeID] = append(p.msgs[m.NodeID], m)
	p.row(m.NodeID, "")
	p.refreshRow(m.NodeID)
}

// row returns the node's row, making it on first sight.
func (p *RunPanel) row(id, kind string) *nodeRow {
	if r := p.rowOf[id]; r != nil {
		if r.kind == "" && kind != "" {
			r.kind = kind
		}
		return r
	}
	r := &nodeRow{title: widget.NewLabelWithStyle(id, fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
		msgs: widget.NewLabel(""), extra: container.NewHBox(), kind: kind}
	r.msgs.Wrapping = fyne.TextWrapWord
	r.msgs.Hide()
	r.box = container.NewVBox(container.NewBorder(nil, nil, nil, r.extra, r.title), r.msgs, widget.NewSeparator())
	p.rowOf[id] = r
	p.order = append(p.order, id)
	p.rows.Add(r.box)
	return r
}

func (p *RunPanel) refreshRow(id string) {
	r := p.rowOf[id]
	n, ok := p.nodes[id]
	title := id
	for _, spec := range p.run.Workflow.Nodes {
		if spec.ID == id && spec.Title != "" {
			title = spec.Title + " (" + id + ")"
		}
	}
	if r.kind != "" {
		title = KindLabel(r.kind) + " · " + title
	}
	if ok {
		title += " — " + StatusLabel(string(n.Status))
		if !n.StartedAt.IsZero() {
			end := n.EndedAt
			if end.IsZero() && n.Status == workrun.NodeRunning {
				end = time.Now()
			}
			if !end.IsZero() {
				title += fmt.Sprintf(" (%s)", end.Sub(n.StartedAt).Round(time.Millisecond))
			}
		}
		if n.Error != "" && n.Status == workrun.NodeFailed {
			title += ": " + n.Error
		}
	}
	r.title.SetText(title)
	if lines := p.MessageLines(id); len(lines) > 0 {
		r.msgs.SetText(strings.Join(lines, "\n"))
		r.msgs.Show()
	}
	p.refreshDecision(id, r)
}

// refreshDecision shows Approve/Reject or an answer box on a node waiting
// for a person (SPEC W7).
func (p *RunPanel) refreshDecision(id string, r *nodeRow) {
	r.extra.RemoveAll()
	n := p.nodes[id]
	waiting := n.Status == workrun.NodeInterrupted && p.run.Status == workrun.RunInterrupted && p.run.Interruption == workrun.InterruptedByHuman
	if p.readOnly || !waiting || p.OnDecide == nil {
		return
	}
	switch r.kind {
	case "human_review":
		r.extra.Add(widget.NewButton(lang.X("run.approve", "Approve"), func() {
			p.OnDecide(workrun.Decision{RunID: p.runID, NodeID: id, Approved: true, Time: time.Now()})
		}))
		r.extra.Add(widget.NewButton(lang.X("run.reject", "Reject"), func() {
			p.OnDecide(workrun.Decision{RunID: p.runID, NodeID: id, Approved: false, Time: time.Now()})
		}))
	case "ask_human":
		e := widget.NewEntry()
		e.SetPlaceHolder(lang.X("run.answer_hint", "Type your answer"))
		send := func() {
			if strings.TrimSpace(e.Text) != "" {
				p.OnDecide(workrun.Decision{RunID: p.runID, NodeID: id, Approved: true, Text: e.Text, Time: time.Now()})
			}
		}
		e.OnSubmitted = func(string) { send() }
		r.extra.Add(container.NewGridWrap(fyne.NewSize(260, e.MinSize().Height), e))
		r.extra.Add(widget.NewButton(lang.X("run.answer", "Answer"), send))
	}
}

// MessageLines returns a node's messages as shown: "15:04:05  text".
func (p *RunPanel) MessageLines(nodeID string) []string {
	ms := slices.Clone(p.msgs[nodeID])
	slices.SortStableFunc(ms, func(a, b workrun.Message) int {
		if a.Seq != 0 && b.Seq != 0 {
			return int(a.Seq - b.Seq)
		}
		return 0
	})
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.Time.Local().Format("15:04:05") + "  " + LocalizeMessage(m.Text)
	}
	return out
}

// NodeKind returns a node's type as known to the panel ("" if unknown).
func (p *RunPanel) NodeKind(id string) string {
	if r := p.rowOf[id]; r != nil {
		return r.kind
	}
	return ""
}

// NodeStatus returns a node's status as shown.
func (p *RunPanel) NodeStatus(id string) workrun.NodeStatus { return p.nodes[id].Status }

// Header returns the status line and the failure reason as shown.
func (p *RunPanel) Header() (status, reason string) {
	r := ""
	if p.reason.Visible() {
		r = p.reason.Text
	}
	return p.header.Text, r
}

// Active reports whether the run shown is going on.
func (p *RunPanel) Active() bool {
	return p.runID != "" && (p.run.Status == workrun.RunRunning || p.run.Status == workrun.RunStopping)
}

// Stoppable reports whether Stop applies to the run shown.
func (p *RunPanel) Stoppable() bool { return p.runID != "" && p.run.Status == workrun.RunRunning }

// Actions returns the labels of the run-level buttons shown (tests check R12).
func (p *RunPanel) Actions() []string {
	var out []string
	for _, o := range p.actions.Objects {
		if b, ok := o.(*widget.Button); ok {
			out = append(out, b.Text)
		}
	}
	return out
}

// TapAction presses the run-level button with this label.
func (p *RunPanel) TapAction(label string) bool {
	for _, o := range p.actions.Objects {
		if b, ok := o.(*widget.Button); ok && b.Text == label && !b.Disabled() {
			b.OnTapped()
			return true
		}
	}
	return false
}

func (p *RunPanel) refreshHeader() {
	r := p.run
	if p.runID == "" {
		p.header.SetText(lang.X("run.none", "No run yet. Press Run to start one."))
		p.reason.Hide()
		p.actions.RemoveAll()
		return
	}
	name := r.WorkflowName
	if name == "" {
		name = r.Workflow.Name
	}
	status := StatusLabel(string(r.Status))
	if r.Status == workrun.RunStopping {
		status = lang.X("run.stopping", "stopping…")
	}
	p.header.SetText(fmt.Sprintf("%s · %s · %s", name, shortID(r.ID), status))
	switch {
	case r.Status == workrun.RunFailed && r.Reason != "":
		node := ""
		if r.FailedNode != "" {
			node = " (" + r.FailedNode + ")"
		}
		p.reason.SetText(lang.X("run.failed_because", "Failed") + node + ": " + r.Reason)
		p.reason.Show()
	case r.Status == workrun.RunInterrupted:
		p.reason.SetText(interruptionText(r))
		p.reason.Show()
	default:
		p.reason.Hide()
	}
	p.actions.RemoveAll()
	if p.readOnly {
		return
	}
	add := func(label string, f func()) {
		if f != nil {
			p.actions.Add(widget.NewButton(label, f))
		}
	}
	switch r.Status {
	case workrun.RunRunning:
		add(lang.X("run.stop", "Stop"), p.OnStop)
	case workrun.RunStopping:
		b := widget.NewButton(lang.X("run.stopping", "stopping…"), nil)
		b.Disable()
		p.actions.Add(b)
	case workrun.RunInterrupted:
		// R12, R13: an exit keeps the original resume path; a remote agent
		// asking for input or authentication cannot be answered here (R8).
		if r.Interruption == workrun.InterruptedByExit {
			add(lang.X("run.resume", "Resume"), p.OnResume)
		}
		if r.Interruption == workrun.InterruptedByRemote {
			add(lang.X("run.again", "Run again"), p.OnRunAgain)
		}
	case workrun.RunFailed, workrun.RunStopped:
		// R12: a failed or stopped run is never continued; it runs again as new.
		add(lang.X("run.again", "Run again"), p.OnRunAgain)
	case workrun.RunSucceeded:
		add(lang.X("run.again", "Run again"), p.OnRunAgain)
	}
	for id, row := range p.rowOf {
		p.refreshDecision(id, row)
	}
}

func interruptionText(r workrun.Run) string {
	var s string
	switch r.Interruption {
	case workrun.InterruptedByExit:
		s = lang.X("run.int_exit", "Interrupted: the application exited while this run was going on. Resume continues it.")
	case workrun.InterruptedByRemote:
		s = lang.X("run.int_remote", "Interrupted: a remote agent asked for input or authentication. This cannot be answered from Workrun; see the remote task panel.")
	case workrun.InterruptedByHuman:
		s = lang.X("run.int_human", "Waiting for a person: approve, reject or answer below.")
	default:
		s = lang.X("run.int", "Interrupted")
	}
	if r.Reason != "" && r.Interruption != workrun.InterruptedByHuman {
		s += " " + r.Reason
	}
	return s
}

func shortID(id string) string {
	if len(id) > 8 {
		return id[:8]
	}
	return id
}

// R11 messages as the engine writes them (English) and their translation
// keys, so that a Chinese window shows the seed's wording.
var r11 = []struct{ key, en string }{
	{"r11.requesting", "Remote task: requesting cancellation…"},
	{"r11.canceled", "Remote task: canceled"},
	{"r11.unconfirmed", "Cancel result unconfirmed: the request failed or timed out; it will not be retried automatically."},
	{"r11.unknown", "Remote task: submission result unknown"},
}

// LocalizeMessage translates a node message when it is one of the fixed R11
// lines (or starts with one); any other text is shown as written.
func LocalizeMessage(text string) string {
	for _, m := range r11 {
		if rest, ok := strings.CutPrefix(text, m.en); ok {
			return lang.X(m.key, m.en) + rest
		}
	}
	return text
}
