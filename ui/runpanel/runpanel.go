package runpanel

import (
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"workrun/ui/records"
	"workrun/workrun"
)

// Panel shows one run: its status and failure reason at the top; on the
// left every node with its status and (ticking) duration; on the right the
// Selected node's inputs and outputs first, then its time-stamped messages
// (docs/product.md W5, W6). The message list is virtualised (widget.List), so a node
// with 100,000 lines scrolls as smoothly as one with ten.
//
// Apply only changes the panel's model and marks it dirty; Flush redraws
// what changed. The app layer applies a whole batch of events and then
// flushes once, so a fast stream costs one redraw per frame, not one per
// event. The panel runs no goroutine of its own: the app layer calls Tick
// while a node runs, so its duration counts up.
type Panel struct {
	readOnly bool

	// callerRun is the run a caller started and caller names it ("called
	// by LABEL", SetCaller); the header says so while that run is shown.
	callerRun, caller string

	runID   string
	run     workrun.Run
	nodes   map[string]workrun.NodeRun
	kinds   map[string]string
	msgs    map[string]*msgLog
	seen    map[int64]bool
	order   []string // node ids in workflow order, then first sight
	touched map[string]bool
	sel     string // selected node id
	picked  bool   // the person chose sel; automatic selection stops

	dirtyHeader, dirtyNodes, dirtyDetail, dirtyMsgs bool
	listShown                                       time.Time // last redraw of the message list

	header    *widget.Label
	note      *widget.Label // what the app layer says of the run shown (an older version)
	reason    *widget.Label
	reasonBox *cappedText // reason.go
	actions   *fyne.Container
	recent    *widget.Select // the workflow's recent runs (recent.go)
	recentBox *fyne.Container
	nodeList  *widget.List
	title     *widget.Label
	titleNote *widget.Label // the attempt and last failure under the title
	titleRow  *fyne.Container
	// fitFor and fitOffset: the node fitDetail last set the detail's
	// divider for, and where (a different offset is the person's drag).
	fitFor    string
	fitOffset float64
	fitHeight float32 // FitHeight as the window was last told
	// listFitFor and listFitOffset: the run fitList last set the node
	// list's divider for, and where.
	listFitFor    string
	listFitOffset float64
	nodeErr       *widget.Label
	decision      *fyne.Container
	ask           *fyne.Container // a remote's question (question.go)
	askView       *questionView
	askPrev       *questionView    // the last one shown, until another is
	detail        *container.Split // the node's detail above its messages
	split         *container.Split // the node list beside the detail; hidden with no run
	vals          *ValuesView      // the selected node's inputs and outputs
	msgList       *widget.List
	shown         *msgLog // messages of sel
	shownN        int     // how many of them the list shows (as of its last redraw)
	shownRows     int     // the list's rows: a long message wraps onto several (wrap.go)
	root          fyne.CanvasObject

	// nodeErrRow holds nodeErr and its Copy, which copies nodeErrFull:
	// the line with its ids whole (p.words.ShortIDs, p.words.CopyButton).
	nodeErrRow  *fyne.Container
	nodeErrFull string
	// reasonRow holds the run's reason and its Copy (reasonFull).
	reasonRow  *fyne.Container
	reasonFull string

	runFromBox *fyne.Container // Run from here / Test this node (runfrom.go)
	recentRuns []workrun.Run   // the runs recent lists, in its order

	// Callbacks the window sets; nil in read-only views.
	OnStatus   func(nodeID string, s workrun.NodeStatus)
	OnStop     func()
	OnResume   func()
	OnRunAgain func()
	// OnSignIn opens Sign in for the run's node that needs it (the app layer: ui/runpanel_signin.go).
	OnSignIn func()
	OnDecide func(d workrun.Decision)
	// OnAskChanged is called when a question's form appears or goes
	// (question.go): the window gives the panel WantHeight meanwhile.
	OnAskChanged func()
	// OnOpenURL opens a sign-in link when the person presses Open (never
	// by itself); nil hides the button.
	OnOpenURL func(u *url.URL)
	// OnNeedFiles asks for the descriptions of file values shown (answer
	// with KnowFiles); OnOpenFile and OnSaveFile open or save one. Nil:
	// files show by id, without Open or Save….
	OnNeedFiles func(ids []string)
	OnOpenFile  func(id string)
	OnSaveFile  func(id string)
	// OnRunFrom starts a new run from the node (only: that node alone),
	// pinned from the run shown (runfrom.go).
	OnRunFrom func(nodeID string, only bool)
	// OnRunChanged is called when the panel starts showing another run
	// ("" for none), so the remote task panel can follow it.
	OnRunChanged func(runID string)
	// OnFitChanged is called when FitHeight may have changed: the window
	// lays its panes out again.
	OnFitChanged func()
	// OnPickRun asks to show another of the workflow's recent runs
	// (recent.go).
	OnPickRun func(runID string)

	loc   Localizer // the words, in the window's language
	words Wording   // the window's wording of reasons, statuses, kinds…
}

// New makes an empty panel; the app layer loads runs into it.
func New(loc Localizer, words Wording, readOnly bool) *Panel {
	p := &Panel{loc: loc, words: words, readOnly: readOnly}
	p.header = widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	p.header.Truncation = fyne.TextTruncateEllipsis
	p.reason = widget.NewLabel("")
	p.reason.Importance = widget.DangerImportance
	p.reason.Wrapping = fyne.TextWrapWord
	p.reasonBox = newCappedText(p.reason, reasonLines)
	p.reasonRow = container.NewBorder(nil, nil, nil, container.NewVBox(p.words.CopyButton("", func() string { return p.reasonFull })), p.reasonBox.box)
	p.reasonRow.Hide()
	p.note = widget.NewLabel("")
	p.note.Importance = widget.WarningImportance
	p.note.Wrapping = fyne.TextWrapWord
	p.note.Hide()
	p.actions = container.NewHBox()
	p.newRecent()

	p.nodeList = widget.NewList(func() int { return len(p.order) },
		func() fyne.CanvasObject {
			l := widget.NewLabel("Remote Agent · node — running (10s)")
			l.Truncation = fyne.TextTruncateEllipsis
			return l
		},
		func(i widget.ListItemID, o fyne.CanvasObject) {
			if i < len(p.order) {
				o.(*widget.Label).SetText(p.NodeRow(p.order[i]))
			}
		})
	p.nodeList.OnSelected = func(i widget.ListItemID) {
		if i < len(p.order) && p.order[i] != p.sel {
			p.picked = true
			p.selectNode(p.order[i])
			p.Flush()
		}
	}

	// The node's header is one line beside Run from here / Test this node
	// (cut with an ellipsis; the node list has it too); what a retry adds —
	// the attempt, the last failure — wraps on the line below (titleNote).
	p.title = widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	p.title.Truncation = fyne.TextTruncateEllipsis
	p.titleNote = widget.NewLabel("")
	p.titleNote.Wrapping = fyne.TextWrapWord
	p.titleNote.Hide()
	p.nodeErr = widget.NewLabel("")
	p.nodeErr.Importance = widget.DangerImportance
	p.nodeErr.Wrapping = fyne.TextWrapWord
	p.nodeErr.Hide()
	p.nodeErrRow = container.NewBorder(nil, nil, nil, container.NewVBox(p.words.CopyButton("", func() string { return p.nodeErrFull })), p.nodeErr)
	p.nodeErrRow.Hide()
	p.decision = container.NewHBox()
	p.ask = container.NewVBox()
	p.ask.Hide()
	p.runFromBox = container.NewHBox()
	p.vals = NewValuesView(p.loc, p.words)
	p.vals.OnNeedFiles = func(ids []string) {
		if p.OnNeedFiles != nil {
			p.OnNeedFiles(ids)
		}
	}
	p.msgList = widget.NewList(func() int { return p.shownRows },
		func() fyne.CanvasObject { return newMsgRow() },
		func(i widget.ListItemID, o fyne.CanvasObject) {
			if i < p.shownRows {
				o.(*msgRow).SetText(p.MessageRowText(i))
			}
		})
	p.msgList.OnSelected = func(i widget.ListItemID) {
		// A line wraps in the list up to rowRunes; selecting it shows it
		// whole.
		if i < p.shownRows {
			msg, _, _ := p.shown.wraps.at(i)
			m := *p.shown.at(msg)
			p.showErr(messageLine(p.words, m), m.Time.Local().Format("15:04:05")+"  "+m.In(loc.Messages()), widget.MediumImportance)
		}
	}
	// The node's title, error, inputs and outputs above its messages; both
	// halves scroll on their own, so the panel stays usable when the window
	// gives it only a few lines.
	p.titleRow = container.NewBorder(nil, nil, nil, container.NewVBox(container.NewHBox(p.decision, p.runFromBox)), p.title)
	detailTop := container.NewVScroll(container.NewVBox(p.titleRow, p.titleNote, p.nodeErrRow, p.vals.Object()))
	detail := container.NewVSplit(detailTop, container.New(msgListLayout{p}, p.msgList))
	detail.Offset = detailOffset
	p.detail = detail
	// A question's form sits over the split, outside its scrolls: the
	// window grows the panel to show it whole (WantHeight).
	// detailFit moves the detail's divider again when the window gives
	// the panel another height (FitHeight).
	split := container.NewHSplit(p.nodeList, container.NewBorder(p.ask, nil, nil, nil, container.New(&detailFit{p: p}, detail)))
	split.Offset = listOffset
	p.split = split
	p.root = container.NewBorder(container.NewVBox(container.NewBorder(nil, nil, nil, container.NewHBox(p.recentBox, p.actions), p.header), p.note, p.reasonRow), nil, nil, nil, split)
	p.reset("")
	p.Flush()
	return p
}

// Object is the panel's widget tree.
func (p *Panel) Object() fyne.CanvasObject { return p.root }

// RunID is the run shown ("" for none).
func (p *Panel) RunID() string { return p.runID }

// Run returns the run as last shown.
func (p *Panel) Run() workrun.Run { return p.run }

// NodeRuns is every node record of the run shown, by node id, as last
// shown (a copy).
func (p *Panel) NodeRuns() map[string]workrun.NodeRun { return maps.Clone(p.nodes) }

// HasMessage reports whether the panel shows the stored message seq of the
// run shown (from the store or its event).
func (p *Panel) HasMessage(seq int64) bool { return p.seen[seq] }

func (p *Panel) reset(runID string) {
	changed := runID != p.runID
	p.runID = runID
	p.run = workrun.Run{ID: runID}
	p.nodes = map[string]workrun.NodeRun{}
	p.kinds = map[string]string{}
	p.msgs = map[string]*msgLog{}
	p.seen = map[int64]bool{}
	p.touched = map[string]bool{}
	p.order = nil
	p.sel, p.picked = "", false
	p.shown, p.shownN, p.shownRows = nil, 0, 0
	p.dirtyHeader, p.dirtyNodes, p.dirtyDetail = true, true, true
	if runID == "" && p.recent != nil {
		p.SetRecent(nil)
	}
	if changed && p.OnRunChanged != nil {
		p.OnRunChanged(runID)
	}
}

// SetNote shows a line under the header ("" hides it).
func (p *Panel) SetNote(text string) {
	p.note.SetText(text)
	p.note.Hidden = text == ""
	p.note.Refresh()
}

// Clear shows no run.
func (p *Panel) Clear() {
	p.reset("")
	p.Flush()
}

// Load shows a run from its records. When the panel already shows this run
// (started, then loaded from the store while events arrived), what events
// brought stays: records are only taken for nodes no event has touched, and
// messages are merged by sequence number.
func (p *Panel) Load(r workrun.Run, nrs []workrun.NodeRun, ms []workrun.Message) {
	if p.runID != r.ID {
		p.reset(r.ID)
	}
	if !p.touched[""] {
		p.setRun(r)
	} else if len(p.run.Workflow.Nodes) == 0 {
		p.run.Workflow = r.Workflow
		p.run.Inputs = r.Inputs
		p.setRun(p.run)
	}
	for _, n := range nrs {
		if !p.touched[n.NodeID] {
			p.setNode(n)
		}
	}
	// Stored lines that neither were shown already nor replace a live line
	// are merged in once per node, not inserted one by one.
	extra := map[string][]workrun.Message{}
	for _, m := range ms {
		if m.Seq == 0 {
			p.addMessage(m)
			continue
		}
		if p.seen[m.Seq] {
			continue
		}
		p.seen[m.Seq] = true
		if !p.log(m.NodeID).replaceLive(m) {
			extra[m.NodeID] = append(extra[m.NodeID], m)
		}
	}
	for id, l := range p.msgs {
		if len(extra[id]) > 0 {
			l.add(extra[id])
		} else {
			l.sortSeq()
		}
	}
	p.autoSelect()
	p.dirtyHeader, p.dirtyNodes, p.dirtyDetail = true, true, true
	p.Flush()
}

// Adopt shows what old shows (after the window was rebuilt, say for a new
// language): the same records, rendered again.
func (p *Panel) Adopt(old *Panel) {
	p.runID, p.run, p.nodes, p.kinds, p.msgs, p.seen = old.runID, old.run, old.nodes, old.kinds, old.msgs, old.seen
	p.order, p.touched, p.sel, p.picked = old.order, old.touched, old.sel, old.picked
	p.SetRecent(old.recentRuns) // named in the new language
	for id, n := range p.nodes {
		if p.OnStatus != nil {
			p.OnStatus(id, ShownStatus(n))
		}
	}
	p.dirtyHeader, p.dirtyNodes, p.dirtyDetail = true, true, true
	p.Flush()
}

// Start shows a run that has just been created from wf.
func (p *Panel) Start(runID string, wf workrun.Workflow) {
	p.reset(runID)
	p.setRun(workrun.Run{ID: runID, Workflow: wf, WorkflowName: wf.Name, Status: workrun.RunRunning, CreatedAt: time.Now()})
	p.autoSelect()
	p.Flush()
}

// Apply shows one engine event if it belongs to the run shown, and redraws
// at once.
func (p *Panel) Apply(ev workrun.Event) {
	if p.ApplyQuiet(ev) {
		p.flush(true)
	}
}

// ApplyQuiet takes one event into the model without redrawing; it reports
// whether the event belonged to the run shown. Call Flush after a batch.
func (p *Panel) ApplyQuiet(ev workrun.Event) bool {
	if ev.RunID != p.runID || p.runID == "" {
		return false
	}
	switch {
	case ev.Run != nil:
		p.touched[""] = true
		p.setRun(*ev.Run)
	case ev.Node != nil:
		p.touched[ev.Node.NodeID] = true
		p.setNode(*ev.Node)
	case ev.Message != nil:
		p.addMessage(*ev.Message)
	}
	p.autoSelect()
	return true
}

func (p *Panel) setRun(r workrun.Run) {
	if len(r.Workflow.Nodes) == 0 {
		r.Workflow = p.run.Workflow // run events may carry no snapshot
	}
	if r.Inputs == nil {
		r.Inputs = p.run.Inputs
	}
	if r.CreatedAt.IsZero() {
		r.CreatedAt = p.run.CreatedAt
	}
	if r.WorkflowName == "" {
		r.WorkflowName = p.run.WorkflowName
	}
	if r.WorkflowID == "" {
		r.WorkflowID = p.run.WorkflowID
	}
	p.run = r
	for _, n := range r.Workflow.Nodes {
		p.know(n.ID, n.Type)
	}
	p.dirtyHeader, p.dirtyNodes, p.dirtyDetail = true, true, true
}

func (p *Panel) setNode(n workrun.NodeRun) {
	p.nodes[n.NodeID] = n
	p.know(n.NodeID, n.Type)
	p.dirtyNodes = true
	if n.NodeID == p.sel {
		p.dirtyDetail = true
	}
	if p.OnStatus != nil {
		p.OnStatus(n.NodeID, ShownStatus(n))
	}
}

func (p *Panel) addMessage(m workrun.Message) {
	l := p.log(m.NodeID)
	switch {
	case m.Seq == 0:
		if l.storedAlready(m) {
			return // its stored copy came first (a store read overtook the event)
		}
		l.push(m)
	case p.seen[m.Seq]:
		return // already loaded from the store
	default:
		p.seen[m.Seq] = true
		switch {
		case l.replaceLive(m):
			// The stored copy of a line shown live before its commit
			// (a store read merged with live events) takes its place.
		case m.Seq > l.lastSeq:
			l.push(m)
		default:
			l.add([]workrun.Message{m}) // out of order: keep sequence order
		}
	}
	if m.NodeID == p.sel {
		p.dirtyMsgs = true
	}
}

// log is a node's message log, made on first use.
func (p *Panel) log(nodeID string) *msgLog {
	l := p.msgs[nodeID]
	if l == nil {
		l = newMsgLog()
		p.msgs[nodeID] = l
		p.know(nodeID, "")
	}
	return l
}

// sameWords reports whether two lines say the same thing.
func sameWords(a, b workrun.Message) bool {
	return a.Key == b.Key && a.Text == b.Text && slices.Equal(a.Args, b.Args)
}

func cmpSeq(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// know records a node id (and its kind, once known).
func (p *Panel) know(id, kind string) {
	if _, ok := p.kinds[id]; !ok {
		p.kinds[id] = kind
		p.order = append(p.order, id)
		p.dirtyNodes = true
	} else if p.kinds[id] == "" && kind != "" {
		p.kinds[id] = kind
	}
}

// autoSelect follows the run until the person picks a node: the node that
// failed, else one that waits for a person, else the last one running, else
// the last one that finished. A skipped node (a branch not taken) is never
// chosen: it has nothing to show, and the path the run took ends elsewhere.
func (p *Panel) autoSelect() {
	if p.picked || len(p.order) == 0 {
		return
	}
	best, rank := p.order[0], 0
	for _, id := range p.order {
		n := p.nodes[id]
		r := 0
		switch {
		case id == p.run.FailedNode && n.Status == workrun.NodeFailed:
			r = 5
		case n.Status == workrun.NodeInterrupted:
			r = 4
		case n.Status == workrun.NodeRunning:
			r = 3
		case n.Status == workrun.NodeFailed:
			r = 2
		case n.Status != "" && n.Status != workrun.NodePending && n.Status != workrun.NodeSkipped:
			r = 1
		}
		if r > 0 && r >= rank {
			best, rank = id, r
		}
	}
	if best != p.sel {
		p.selectNode(best)
	}
}

// Pick shows a node's inputs, outputs and messages, as a click would.
func (p *Panel) Pick(nodeID string) {
	p.picked = true
	p.selectNode(nodeID)
	p.Flush()
}

func (p *Panel) selectNode(id string) {
	p.sel = id
	p.dirtyDetail, p.dirtyNodes = true, true
}

// Selected is the node whose details are shown.
func (p *Panel) Selected() string { return p.sel }

// listEvery is the shortest time between two redraws of the message list
// while a run only adds lines to it. A stream changes every visible row of
// the list at each redraw, and the window then repaints whole: ten redraws
// a second keep a stream visibly moving for a sixth of the repaints.
const listEvery = 100 * time.Millisecond

// Flush redraws what changed since the last Flush. New lines of a running
// node are drawn at most every listEvery; those held back are drawn by the
// next Flush or Tick (or any other change of the node shown).
func (p *Panel) Flush() { p.flush(false) }

func (p *Panel) flush(now bool) {
	if p.dirtyHeader {
		p.dirtyHeader = false
		p.refreshHeader()
	}
	if p.dirtyNodes {
		p.dirtyNodes = false
		p.fitList()
		p.nodeList.Refresh()
		if i := slices.Index(p.order, p.sel); i >= 0 {
			p.nodeList.Select(i)
		} else {
			p.nodeList.UnselectAll()
		}
	}
	if p.dirtyDetail {
		p.dirtyDetail, p.dirtyMsgs = false, false
		p.refreshDetail()
	} else if p.dirtyMsgs && (now || !p.Active() || time.Since(p.listShown) >= listEvery) {
		p.dirtyMsgs = false
		p.refreshMessages()
	}
}

// Tick redraws the durations of running nodes and of the run; the app layer
// calls it about once a second while the run is active.
func (p *Panel) Tick() {
	if !p.Active() && p.run.Status != workrun.RunInterrupted {
		return
	}
	p.nodeList.Refresh()
	p.refreshHeaderText()
	if n, ok := p.nodes[p.sel]; ok && n.Status == workrun.NodeRunning {
		p.setTitle(p.sel)
	}
	p.flush(true) // lines held back by Flush
}

// nodeName is "Kind · Title (id)" or "Kind · id".
func (p *Panel) nodeName(id string) string {
	title := id
	for _, spec := range p.run.Workflow.Nodes {
		if spec.ID == id && spec.Title != "" && spec.Title != id {
			title = spec.Title + " (" + id + ")"
		}
	}
	if k := p.kinds[id]; k != "" {
		title = p.words.Kind(k) + " · " + title
	}
	return title
}

// NodeStatus says a node's status for people: a sibling stopped because
// another node failed says which one.
func (p *Panel) NodeStatus(id string) string {
	n, ok := p.nodes[id]
	if !ok || n.Status == "" {
		if p.run.Status.Terminal() {
			return notReached(p.loc)
		}
		return p.words.Status(string(workrun.NodePending))
	}
	s := p.words.Status(string(ShownStatus(n)))
	if n.Status == workrun.NodeStopped && p.run.Status == workrun.RunFailed && p.run.FailedNode != "" && p.run.FailedNode != id {
		s = fmt.Sprintf(p.loc.X("run.stopped_by_failure", "stopped because %s failed"), p.run.FailedNode)
	}
	// A node counts up only while its run goes on: one a crash left
	// "running" would otherwise count the time Workrun was closed. One
	// waiting for the person shows no time (the milliseconds it worked say
	// nothing then, as in the header); after a run that waited, a node's
	// figure is its time at work and says so, as the header's "4.8s, 27ms
	// of it at work" does.
	if d := nodeDuration(n); d > 0 && ShownStatus(n) != StatusWaiting && (n.EndedAt.IsZero() && p.Active() || !n.EndedAt.IsZero()) {
		took := p.words.Duration(d)
		if ran, _ := ranFor(p.nodes, p.Active(), time.Now()); waited(records.RunDuration(p.run), ran) {
			took = panelText(p.loc, msgAtWork, took)
		}
		s += aside(p.loc, took)
	}
	return s + failureNote(p.loc, p.words, p.run, n) // failure.go
}

// aside puts a figure in brackets after what it qualifies: Chinese takes
// the full-width brackets, with no space ("成功（运行 97ms）"), as the
// failure line does.
func aside(loc Localizer, s string) string {
	if workrun.IsChinese(loc.Language()) {
		return "（" + s + "）"
	}
	return " (" + s + ")"
}

func nodeDuration(n workrun.NodeRun) time.Duration {
	if n.StartedAt.IsZero() {
		return 0
	}
	end := n.EndedAt
	if end.IsZero() {
		if n.Status != workrun.NodeRunning {
			return 0
		}
		end = time.Now()
	}
	return end.Sub(n.StartedAt)
}

// NodeLine is node id's name and status, as the detail's header says
// them.
func (p *Panel) NodeLine(id string) string {
	return p.nodeName(id) + " — " + p.NodeStatus(id)
}

// NodeRow is node id's row in the node list: its line without the earlier
// failure a retry adds (the detail says it).
func (p *Panel) NodeRow(id string) string {
	line := p.NodeLine(id)
	if n, ok := p.nodes[id]; ok {
		line = strings.TrimSuffix(line, failureNote(p.loc, p.words, p.run, n)) + listNote(p.loc, p.words, p.run, n)
	}
	return line
}

// fitList moves the divider beside the node list so that its widest row
// shows whole, up to half the panel; the person's own drag lasts until
// another run is shown.
func (p *Panel) fitList() {
	total := p.split.Size().Width - 2*theme.Padding() // the split's divider
	if total <= 0 || len(p.order) == 0 {
		return
	}
	if p.listFitFor == p.runID && p.split.Offset != p.listFitOffset {
		return // the person dragged it for this run
	}
	var need float32
	for _, id := range p.order {
		need = max(need, fyne.MeasureText(p.NodeRow(id), theme.TextSize(), fyne.TextStyle{}).Width)
	}
	need += 2*theme.InnerPadding() + theme.ScrollBarSize()
	p.listFitFor, p.listFitOffset = p.runID, float64(max(listOffset, min(0.5, need/total)))
	p.split.SetOffset(p.listFitOffset)
}

// listOffset is the node list's least share of the panel's width.
const listOffset = 0.34

func (p *Panel) nodeTitle(id string) string {
	if id == "" {
		return ""
	}
	return p.NodeLine(id)
}

// setTitle shows node id's name and status in the header line and what a
// retry or a pin adds (failureNote) on the line below.
func (p *Panel) setTitle(id string) {
	line := p.nodeTitle(id)
	note := ""
	if n, ok := p.nodes[id]; ok && id != "" {
		if note = failureNote(p.loc, p.words, p.run, n); note != "" {
			line = strings.TrimSuffix(line, note)
			note = strings.TrimPrefix(note, " · ")
		}
	}
	p.title.SetText(line)
	p.titleNote.SetText(note)
	p.titleNote.Hidden = note == ""
	p.titleNote.Refresh()
}

func (p *Panel) refreshDetail() {
	id := p.sel
	p.setTitle(id)
	n := p.nodes[id]
	if n.Error != "" && (n.Status == workrun.NodeFailed || n.Status == workrun.NodeStopped || n.Status == workrun.NodeInterrupted) {
		text := p.words.Reason(n.Error)
		p.showErr(p.words.ShortIDs(attemptFailed(p.loc, p.run, n, text)), attemptFailed(p.loc, p.run, n, text), widget.DangerImportance)
	} else {
		p.hideErr()
	}
	p.showValues(id)
	p.refreshMessages()
	if p.shownN > 0 {
		p.msgList.ScrollToBottom() // the newest lines say how the node ended
	}
	p.refreshDecision(id)
	p.refreshRunFrom(id)
	p.fitDetail()
	// The buttons beside the title came or went: lay the row out again, or
	// the title keeps the whole width and the buttons are drawn past the
	// panel's edge (blank boxes at its border).
	p.titleRow.Refresh()
}

// refreshMessages shows the selected node's messages, following the newest
// while the run goes on.
func (p *Panel) refreshMessages() {
	p.listShown = time.Now()
	p.shown = p.msgs[p.sel]
	p.shownN, p.shownRows = p.shown.len(), p.shown.len()
	if p.shown != nil {
		p.shown.wraps.index(p.words, p.shown, p.wrapWidth(p.msgList.Size().Width), p.msgList.Theme())
		p.shownRows = p.shown.wraps.rows
	}
	p.msgList.Refresh()
	if p.shownN > 0 && p.Active() {
		p.msgList.ScrollToBottom()
	}
}

// showValues shows a node's inputs and outputs (docs/product.md W5).
func (p *Panel) showValues(id string) {
	p.vals.OnOpenFile, p.vals.OnSaveFile = p.OnOpenFile, p.OnSaveFile
	if id == "" {
		p.vals.Show(nil)
		return
	}
	n := p.nodes[id]
	pending := p.loc.X("run.outputs_pending", "not yet")
	outEmpty := "—"
	if n.Status == workrun.NodeRunning || n.Status == "" || n.Status == workrun.NodePending {
		outEmpty = pending
		if p.run.Status.Terminal() && n.Status != workrun.NodeRunning {
			outEmpty = notReached(p.loc) // it never will, in this run
		}
	}
	p.vals.Show(p.run.Workflow.State,
		ValuesSection{Title: p.loc.X("rec.inputs", "inputs"), Values: n.Inputs, Empty: "—"},
		ValuesSection{Title: p.loc.X("rec.outputs", "outputs"), Values: n.Outputs, Empty: outEmpty})
}

// KnowFiles hands the panel descriptions of the files it asked for.
func (p *Panel) KnowFiles(infos map[string]workrun.ArtifactInfo, failed map[string]error) {
	p.vals.KnowFiles(infos, failed)
}

// refreshDecision shows Approve/Reject or an answer box on a node waiting
// for a person (docs/product.md W7).
func (p *Panel) refreshDecision(id string) {
	p.refreshQuestion(id)                      // question.go
	p.nodeErrRow.Hidden = !p.nodeErr.Visible() // a question hides the node's reason
	p.decision.RemoveAll()
	n := p.nodes[id]
	waiting := n.Status == workrun.NodeInterrupted && p.run.Status == workrun.RunInterrupted && p.run.Interruption == workrun.InterruptedByHuman
	if p.readOnly || !waiting || p.OnDecide == nil {
		return
	}
	switch p.kinds[id] {
	case "human_review":
		p.decision.Add(widget.NewButton(p.loc.X("run.approve", "Approve"), func() {
			p.OnDecide(workrun.Decision{RunID: p.runID, NodeID: id, Approved: true, Time: time.Now()})
		}))
		p.decision.Add(widget.NewButton(p.loc.X("run.reject", "Reject"), func() {
			p.OnDecide(workrun.Decision{RunID: p.runID, NodeID: id, Approved: false, Time: time.Now()})
		}))
	case "ask_human":
		e := widget.NewEntry()
		e.SetPlaceHolder(p.loc.X("run.answer_hint", "Type your answer"))
		send := func() {
			if strings.TrimSpace(e.Text) != "" {
				p.OnDecide(workrun.Decision{RunID: p.runID, NodeID: id, Approved: true, Text: e.Text, Time: time.Now()})
			}
		}
		e.OnSubmitted = func(string) { send() }
		p.decision.Add(container.NewGridWrap(fyne.NewSize(260, e.MinSize().Height), e))
		p.decision.Add(widget.NewButton(p.loc.X("run.answer", "Answer"), send))
	}
}

// messageLine is a message as shown: "15:04:05  text", in the window's
// language.
func messageLine(words Wording, m workrun.Message) string {
	return m.Time.Local().Format("15:04:05") + "  " + words.Message(m)
}

// rowRunes is the most characters of a message the list shows, wrapped
// onto rows (wrap.go): a dozen lines at most, so a long agent
// message is not wrapped and shaped in full; selecting it shows it whole.
const rowRunes = 1000

// rowLine is a message cut to what one row of the list can show (the whole
// line is shown when the row is selected).
func rowLine(words Wording, m workrun.Message) string {
	s := words.ShortIDs(messageLine(words, m)) // selecting the row shows the ids whole
	if len(s) > 2*rowRunes {
		r := []rune(s)
		if len(r) > rowRunes {
			s = string(r[:rowRunes]) + "…"
		}
	}
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i] + " …"
	}
	return s
}

// MessageRowText is what row i of the message list shows: a message, or
// the part of a long one wrapped onto that row.
func (p *Panel) MessageRowText(i int) string {
	msg, _, line := p.shown.wraps.at(i)
	if line == "" {
		line = rowLine(p.words, *p.shown.at(msg))
	}
	return line
}

// MessageLines returns a node's messages as shown: "15:04:05  text".
func (p *Panel) MessageLines(nodeID string) []string {
	l := p.msgs[nodeID]
	out := make([]string, l.len())
	for i := range out {
		out[i] = messageLine(p.words, *l.at(i))
	}
	return out
}

// MessageCount is how many messages the panel holds for a node.
func (p *Panel) MessageCount(nodeID string) int { return p.msgs[nodeID].len() }

// NodeKind returns a node's type as known to the panel ("" if unknown).
func (p *Panel) NodeKind(id string) string { return p.kinds[id] }

// StatusOf returns a node's status as shown.
func (p *Panel) StatusOf(id string) workrun.NodeStatus { return p.nodes[id].Status }

// DetailTexts returns the selected node's title, error and inputs/outputs
// text as shown.
func (p *Panel) DetailTexts() (title, errText, io string) {
	e := ""
	if p.nodeErr.Visible() {
		e = p.nodeErr.Text
	}
	title = p.title.Text
	if p.titleNote.Visible() {
		title += " · " + p.titleNote.Text
	}
	return title, e, p.vals.text()
}

// SetCaller marks runID as started by a caller of a served workflow: text
// is calledByText's ("called by LABEL"); the header shows it with the run.
func (p *Panel) SetCaller(runID, text string) {
	p.callerRun, p.caller = runID, text
	p.refreshHeaderText()
}

// HeaderTexts returns the status line and the failure reason as shown.
func (p *Panel) HeaderTexts() (status, reason string) {
	r := ""
	if p.reason.Visible() {
		r = p.reason.Text
	}
	return p.header.Text, r
}

// Active reports whether the run shown is going on.
func (p *Panel) Active() bool {
	return p.runID != "" && (p.run.Status == workrun.RunRunning || p.run.Status == workrun.RunStopping)
}

// Stoppable reports whether Stop applies to the run shown: a run going on,
// or one interrupted (by an exit, a person to ask, or a remote agent asking
// for input) whose unfinished remote tasks still deserve their cancel.
func (p *Panel) Stoppable() bool {
	return p.runID != "" && (p.run.Status == workrun.RunRunning || p.run.Status == workrun.RunInterrupted)
}

// ActionLabels returns the labels of the run-level buttons shown.
func (p *Panel) ActionLabels() []string {
	var out []string
	for _, o := range p.actions.Objects {
		if b, ok := o.(*widget.Button); ok {
			out = append(out, b.Text)
		}
	}
	return out
}

// TapAction presses the run-level button with this label.
func (p *Panel) TapAction(label string) bool {
	for _, o := range p.actions.Objects {
		if b, ok := o.(*widget.Button); ok && b.Text == label && !b.Disabled() {
			b.OnTapped()
			return true
		}
	}
	return false
}

func (p *Panel) refreshHeaderText() {
	r := p.run
	if p.runID == "" {
		p.header.SetText(p.loc.X("run.none", "No run yet — Run (Ctrl+R) shows it here"))
		return
	}
	name := r.WorkflowName
	if name == "" {
		name = r.Workflow.Name
	}
	status := p.words.Status(string(r.Status))
	if r.Status == workrun.RunStopping {
		status = p.loc.X("run.stopping", "stopping…")
	}
	// The run's time from start to end, as Run records says it, and the
	// time its nodes were at work when that is much less (duration.go).
	ran, last := ranFor(p.nodes, p.Active(), time.Now())
	if r.Status == workrun.RunInterrupted && !last.IsZero() {
		status = fmt.Sprintf(p.loc.X("run.interrupted_at", "interrupted at %s"), last.Local().Format("15:04:05"))
	}
	// A run that waits on a question is not broken off: it waits for the
	// person, and the milliseconds its nodes worked say nothing then.
	waiting := r.Status == workrun.RunInterrupted && p.OpenQuestion() != nil
	if waiting {
		status = p.words.Waiting() // question.go
	}
	line := fmt.Sprintf("%s · %s · %s", name, p.words.ShortID(r.ID), status)
	if took := tookText(p.loc, p.words, records.RunDuration(r), ran); took != "" && !waiting {
		line += aside(p.loc, took)
	}
	if p.callerRun == r.ID && p.caller != "" {
		line += " · " + p.caller
	}
	p.header.SetText(line)
}

func (p *Panel) refreshHeader() {
	r := p.run
	p.refreshHeaderText()
	// With no run the panel is its one line: no empty list and detail.
	if p.split.Hidden != (p.runID == "") {
		p.split.Hidden = p.runID == ""
		p.root.Refresh() // lay the panel out with or without it
	}
	// A run that waits is not a failure: its reason is said in the
	// attention colour, a failed run's in the error colour.
	imp := widget.DangerImportance
	if r.Status == workrun.RunInterrupted {
		imp = widget.WarningImportance
	}
	if p.reason.Importance != imp {
		p.reason.Importance = imp
		p.reason.Refresh()
	}
	if p.runID == "" {
		p.reasonBox.Hide()
		p.reasonRow.Hide()
		p.actions.RemoveAll()
		return
	}
	switch {
	case r.Status == workrun.RunFailed && r.Reason != "":
		// Chinese takes full-width brackets and colon, as HumanError's.
		open, shut, colon := " (", ")", ": "
		if workrun.IsChinese(p.loc.Language()) {
			open, shut, colon = "（", "）", "："
		}
		node := ""
		if r.FailedNode != "" {
			// The attempt that failed, as the node's header says it
			// (failureNote): its task is the one the reason names.
			node = open + r.FailedNode + attemptNote(p.loc, r, p.nodes[r.FailedNode]) + shut
		}
		p.reasonFull = p.loc.X("run.failed_because", "Failed") + node + colon + p.words.Reason(r.Reason)
		p.reasonBox.Show(p.words.ShortIDs(p.reasonFull))
	case r.Status == workrun.RunInterrupted:
		text := interruptionText(p.loc, p.words, r)
		if q := p.OpenQuestion(); q != nil && r.Interruption == workrun.InterruptedByHuman {
			text = questionHeader(p.loc, p.words, *q) // question.go
		}
		p.reasonFull = text
		p.reasonBox.Show(p.words.ShortIDs(text))
	default:
		p.reasonBox.Hide()
	}
	p.reasonRow.Hidden = !p.reasonBox.box.Visible()
	p.reasonRow.Refresh()
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
		add(p.loc.X("run.stop", "Stop"), p.OnStop)
	case workrun.RunStopping:
		b := widget.NewButton(p.loc.X("run.stopping", "stopping…"), nil)
		b.Disable()
		p.actions.Add(b)
	case workrun.RunInterrupted:
		// R12, R13: an exit keeps the original resume path; a remote agent
		// asking for input or authentication cannot be answered here (docs/remote-agent.md R8):
		// Stop sends its task the cancel, Run again starts a new run. Every
		// interrupted run can be stopped.
		if r.Interruption == workrun.InterruptedBySignIn {
			add(p.loc.X("run.sign_in", "Sign in…"), p.OnSignIn)
		}
		if r.Interruption == workrun.InterruptedByExit || r.Interruption == workrun.InterruptedByUnreachable || r.Interruption == workrun.InterruptedBySignIn || r.Interruption == workrun.InterruptedByPush {
			add(p.loc.X("run.resume", "Resume"), p.OnResume)
		}
		add(p.loc.X("run.stop", "Stop"), p.OnStop)
		if r.Interruption == workrun.InterruptedByRemote || r.Interruption == workrun.InterruptedByHuman && p.OpenQuestion() != nil {
			add(p.loc.X("run.again", "Run again"), p.OnRunAgain)
		}
	case workrun.RunFailed, workrun.RunStopped, workrun.RunSucceeded:
		// R12: a failed or stopped run is never continued; it runs again as new.
		if r.Status == workrun.RunFailed && needsSignIn(r) {
			add(p.loc.X("run.sign_in", "Sign in…"), p.OnSignIn)
		}
		add(p.loc.X("run.again", "Run again"), p.OnRunAgain)
	}
	p.refreshDecision(p.sel)
}

func interruptionText(loc Localizer, words Wording, r workrun.Run) string {
	var s string
	switch r.Interruption {
	case workrun.InterruptedByExit:
		s = loc.X("run.int_exit", "Interrupted: the application exited while this run was going on. Resume continues it; Stop ends it and cancels its remote tasks.")
	case workrun.InterruptedByRemote:
		s = loc.X("run.int_remote2", "Workrun cannot answer the agent from here. Stop ends the run and sends the agent a cancel; Run again starts a new run.")
		if r.Reason != "" {
			s = words.Reason(r.Reason) + "\n" + s
		}
		return s
	case workrun.InterruptedByUnreachable:
		s = loc.X("run.int_unreachable", "Interrupted: a remote server stopped answering about a task it accepted; nothing was cancelled. Resume continues the same task once it is back; Stop ends the run and cancels its remote tasks.")
	case workrun.InterruptedBySignIn:
		s = loc.X("run.int_sign_in", "Interrupted: a remote task was accepted, but its credential needs you to sign in again; nothing was cancelled. Sign in (Credentials), then Resume follows the same task.")
	case workrun.InterruptedByPush:
		s = loc.X("run.int_push", "Waiting by push: the remote agent will say when its task is done; no connection is held. Resume reads the task once now; Stop ends the run and cancels the task.")
	case workrun.InterruptedByHuman:
		s = loc.X("run.int_human", "Waiting for a person: approve, reject or answer below.")
	default:
		s = loc.X("run.int", "Interrupted")
	}
	if r.Reason != "" && r.Interruption != workrun.InterruptedByHuman {
		s += " " + words.Reason(r.Reason)
	}
	return s
}

// detailWant is the height of the selected node's detail down to its
// first input and output rows: its header, what a retry adds, its reason.
func (p *Panel) detailWant() float32 {
	pad := theme.Padding()
	want := p.titleRow.MinSize().Height + pad
	for _, o := range []fyne.CanvasObject{p.titleNote, p.nodeErrRow} {
		if o.Visible() {
			want += o.MinSize().Height + pad
		}
	}
	return want + p.vals.firstRowsHeight() + 2*pad
}

// msgRowHeight is the height of one whole message row.
func (p *Panel) msgRowHeight() float32 {
	return newMsgRow().MinSize().Height + theme.Padding()
}

// fitDetail moves the divider between the node's detail and its messages
// so that the detail shows its header and its first input and output rows
// (docs/product.md "The window"), leaving the messages at least one whole
// row. The person's own drag lasts until another node is shown.
func (p *Panel) fitDetail() {
	total := p.detail.Size().Height
	if total <= 0 {
		return
	}
	want := p.detailWant()
	if p.fitFor == p.sel && p.detail.Offset != p.fitOffset {
		return // the person dragged it for this node
	}
	// The messages keep a whole row when there is room for one beside
	// the detail's first rows, else they give way: the rows come first.
	avail := total - 2*theme.Padding() // the split's divider
	top := want
	if want+p.msgRowHeight() > avail {
		top = min(want, avail)
	}
	p.fitFor, p.fitOffset = p.sel, float64(max(detailOffset, min(1, top/avail)))
	p.detail.SetOffset(p.fitOffset)
	if fit := p.FitHeight(); fit != p.fitHeight {
		p.fitHeight = fit
		if p.OnFitChanged != nil {
			p.OnFitChanged()
		}
	}
}

// detailFit lays the detail split out at its size and fits the panel's
// dividers again when that size changes.
type detailFit struct {
	p    *Panel
	size fyne.Size
}

func (l *detailFit) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objs {
		o.Resize(size)
	}
	if size != l.size {
		l.size = size
		l.p.fitList()
		l.p.fitDetail()
	}
}

func (l *detailFit) MinSize(objs []fyne.CanvasObject) fyne.Size { return objs[0].MinSize() }

// FitHeight is the height the panel needs to show its header, the selected
// node's detail down to its first input and output rows and one message
// row (0 with no run shown): the window gives it that much, up to its cap,
// without changing the height the person chose.
func (p *Panel) FitHeight() float32 {
	if p.runID == "" || p.sel == "" {
		return 0
	}
	// The panel's own minimum has the detail split at its smallest: add
	// what the detail and a message row need instead.
	return p.root.MinSize().Height - p.detail.MinSize().Height + p.detailWant() + 2*theme.Padding() + p.msgRowHeight()
}

// notReached says a node the run ended without reaching: not "pending",
// it will not run in this run.
func notReached(loc Localizer) string {
	return loc.X("run.not_reached", "not reached")
}
