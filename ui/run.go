package ui

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"

	"workrun/ui/runinputs"
	"workrun/workrun"
)

// runState is what the app layer keeps about runs besides the widgets.
type runState struct {
	ticking    bool // a ticker goroutine redraws durations
	tasksBusy  bool // a remote task read is under way
	tasksAgain bool // read the remote tasks again when it ends
	// recentBusy and recentAgain do the same for the run panel's recent
	// runs (app_runs.go); recentRead, when set, is told each list shown.
	recentBusy, recentAgain bool
	recentRead              func(runs []workrun.Run)
	recordsSeq              int // the newest run records read asked for
	// recordsRead, when set, is called on the UI thread after each run
	// records read ended, shown or not (tests wait on it).
	recordsRead func()
	// tasksShown, when set, is called after remote tasks were read and
	// shown (tests wait on it).
	tasksShown func(runID string)
	// going names the workflow of each run seen running or stopping.
	going map[string]string
	// quitTried is set once a quit saved (or tried to save) the workflow.
	quitTried bool
	// quit, when set, replaces app.Quit; quitAsked is told what the quit
	// dialog said (tests).
	quit      func()
	quitAsked func(msg string)
	// latestShown, when set, is called once a workflow's latest run was
	// shown on opening it (tests).
	latestShown func(runID string)
	// openShown, when set, is called after the Remote work list was read
	// and shown (tests).
	openShown func()
	// creds is the credential list as last read (nil: not read yet).
	creds []Credential
	// following is the run another process executes that the panel
	// follows from the store (run_follow in run.go); "" for none.
	following string
	// followed, when set, is told each time a followed run was read and
	// shown (tests).
	followed func(runID string)
	// mu is held by every function the app layer's goroutines hand to
	// fyne.Do. In a window those all run on the one UI thread anyway; the
	// test driver runs them on the calling goroutine, and this keeps two of
	// them from overlapping there.
	mu sync.Mutex
}

// do runs f on the Fyne thread (see runState.mu), unless the window was
// closed meanwhile.
func (w *Window) do(f func()) {
	if w.ctx.Err() != nil {
		return // the window is closing: the driver may be shutting down
	}
	fyne.Do(func() {
		if !w.loop.runs() {
			return // Fyne is shutting down and runs it inline (uithread.go)
		}
		w.rs.mu.Lock()
		defer w.rs.mu.Unlock()
		if w.ctx.Err() == nil {
			f()
		}
	})
}

// quiesce returns once no function handed to do is running; after the
// window's context is canceled none starts again.
func (w *Window) quiesce() {
	w.rs.mu.Lock()
	//lint:ignore SA2001 an empty critical section is the point: wait for the holder
	w.rs.mu.Unlock()
}

// background runs work off the UI thread, then then on it (unless the
// window closed meanwhile). work derives its contexts from w.ctx.
func (w *Window) background(work, then func()) {
	go func() {
		work()
		w.do(then)
	}()
}

// frame is the shortest time between two redraws caused by engine events:
// a stream of thousands of events a second is shown as one batch per frame.
const frame = 16 * time.Millisecond

// subscribe starts the one goroutine that receives engine events and hands
// them to the widgets through fyne.Do, a batch at a time.
func (w *Window) subscribe() {
	if w.deps.Engine == nil {
		return
	}
	events, cancel := w.deps.Engine.Subscribe()
	w.unsub = cancel
	w.pumpDone = make(chan struct{})
	go w.pump(events)
	w.loadCredentials()
}

// pump collects the events that arrive within a frame and applies them in
// one fyne.Do, waiting for it to finish before taking the next batch: the
// window redraws at most once per frame however fast the engine publishes,
// and a busy UI thread makes the batches larger instead of queueing work.
func (w *Window) pump(events <-chan Event) {
	defer close(w.pumpDone)
	var last time.Time
	for {
		ev, ok := <-events
		if !ok {
			return
		}
		batch := []Event{ev}
		open := true
		if wait := time.Until(last.Add(frame)); wait > 0 {
			t := time.NewTimer(wait)
		collect:
			for {
				select {
				case ev, ok := <-events:
					if !ok {
						open = false
						break collect
					}
					batch = append(batch, ev)
				case <-t.C:
					break collect
				}
			}
			t.Stop()
		}
	more:
		for open {
			select {
			case ev, ok := <-events:
				if !ok {
					open = false
					break more
				}
				batch = append(batch, ev)
			default:
				break more
			}
		}
		done := make(chan struct{})
		w.do(func() {
			defer close(done)
			w.applyBatch(batch)
		})
		select {
		case <-done:
		case <-w.ctx.Done():
			return
		}
		last = time.Now()
		if !open {
			return
		}
	}
}

// applyBatch shows a batch of events with one redraw; it runs on the Fyne
// thread and reads no store: the remote task records are read off it.
func (w *Window) applyBatch(evs []Event) {
	runID := w.panel.RunID()
	var tasks, run, records, asked bool
	for _, ev := range evs {
		w.panel.ApplyQuiet(ev)
		if ev.Run != nil {
			w.noteRun(ev.Run)
		}
		if ev.RunID == runID && runID != "" {
			if ev.Node != nil && callsRemote(ev.Node.Type) || ev.Run != nil || ev.Message != nil && callsRemote(w.panel.NodeKind(ev.NodeID)) {
				tasks = true
			}
			run = run || ev.Run != nil
			asked = asked || ev.Node != nil // a question asked or answered: the status bar says it
		}
		records = records || ev.Run != nil && ev.Run.Status.Terminal()
	}
	w.panel.Flush()
	if tasks {
		w.refreshTasks(runID)
	}
	w.updateRunButtons()
	if run {
		w.updateTitle()
		w.runStatusChanged()
	} else if asked {
		w.runStatusChanged()
	}
	if records {
		w.records.Reload()
		if w.tabs.Selected() == w.tabs.Items[4] {
			w.openWork.Reload()
		}
	}
	if w.applied != nil {
		for _, ev := range evs {
			w.applied(ev)
		}
	}
}

// runStatusChanged keeps the status bar current and the clock ticking while
// the run shown goes on.
func (w *Window) runStatusChanged() {
	r := w.panel.Run()
	if r.Status != "" {
		// A run waiting for the person's answer says only that (who asks
		// what), never "interrupted": it waits, nothing broke.
		s := fmt.Sprintf("%s · %s", r.WorkflowName, statusLabel(w.loc, string(r.Status)))
		if q := w.panel.OpenQuestion(); q != nil { // question.go
			s = fmt.Sprintf("%s · %s", r.WorkflowName, questionLine(w.loc, *q))
		}
		w.setStatus(s)
	}
	w.refreshRecent()
	w.startTicker()
}

// startTicker redraws the running durations once a second while the run
// shown is active; the goroutine ends when it no longer is.
func (w *Window) startTicker() {
	w.followRun()
	if w.rs.ticking || !w.panel.Active() {
		return
	}
	w.rs.ticking = true
	go func() {
		t := time.NewTicker(time.Second)
		defer t.Stop()
		for {
			select {
			case <-w.ctx.Done():
				return
			case <-t.C:
			}
			still := make(chan bool, 1)
			w.do(func() {
				w.panel.Tick()
				if !w.panel.Active() {
					w.rs.ticking = false
				}
				still <- w.rs.ticking
			})
			select {
			case ok := <-still:
				if !ok {
					return
				}
			case <-w.ctx.Done():
				return
			}
		}
	}()
}

// refreshTasks reads the run's remote task records off the Fyne thread and
// shows them; while a read is under way, further requests make one more read
// after it, at most four a second.
func (w *Window) refreshTasks(runID string) {
	if runID == "" || w.deps.RemoteCalls == nil {
		w.tasks.ShowTasks(nil, nil)
		return
	}
	if w.rs.tasksBusy {
		w.rs.tasksAgain = true
		return
	}
	w.rs.tasksBusy = true
	var ts []workrun.RemoteCall
	var files map[string][]workrun.ArtifactInfo
	var err error
	w.background(func() {
		start := time.Now()
		ts, files, err = w.readTasks(w.ctx, runID)
		if d := 250*time.Millisecond - time.Since(start); d > 0 {
			select {
			case <-time.After(d):
			case <-w.ctx.Done():
			}
		}
	}, func() {
		w.rs.tasksBusy = false
		if runID == w.panel.RunID() {
			w.tasks.ShowResult(ts, files, err)
		}
		if w.rs.tasksAgain {
			w.rs.tasksAgain = false
			w.refreshTasks(w.panel.RunID())
		}
		if w.rs.tasksShown != nil {
			w.rs.tasksShown(runID)
		}
	})
}

// loadRun reads a run's records off the Fyne thread and merges them into
// the panel (events that arrived meanwhile stay); then is called on the
// Fyne thread after, with the load's error.
func (w *Window) loadRun(runID string, then func(error)) {
	if w.deps.Runs == nil {
		if then != nil {
			then(nil)
		}
		return
	}
	w.readRun(runID, func(r workrun.Run, nrs []workrun.NodeRun, ms []workrun.Message, err error) {
		if err == nil && w.panel.RunID() == runID {
			w.panel.Load(r, nrs, ms)
			w.updateRunButtons()
			w.updateTitle()
			w.startTicker()
		}
		if then != nil {
			then(err)
		}
	})
}

// readRun reads a run's records off the UI thread and hands them to then
// on it.
func (w *Window) readRun(runID string, then func(workrun.Run, []workrun.NodeRun, []workrun.Message, error)) {
	var r workrun.Run
	var nrs []workrun.NodeRun
	var ms []workrun.Message
	var err error
	w.background(func() {
		r, nrs, ms, err = readRunRecords(w.ctx, w.deps.Runs, runID)
	}, func() { then(r, nrs, ms, err) })
}

func (w *Window) launch(wf workrun.Workflow, vals workrun.Values) {
	if w.wfID == "" || w.doc.Dirty() {
		w.save()
	}
	id, err := w.deps.Engine.Start(byPerson(w.ctx), w.wfID, wf, vals)
	if err != nil {
		w.showError(fmt.Errorf("start run: %w", err))
		return
	}
	w.cv.ClearStatus()
	w.panel.Start(id, wf)
	// Events committed before the subscription saw this run are in the store.
	w.loadRun(id, func(err error) {
		if err != nil && !errors.Is(err, workrun.ErrNotFound) {
			w.setStatus(err.Error())
		}
	})
	w.tabs.SelectIndex(0)
	w.updateRunButtons()
	w.updateTitle()
	w.runStatusChanged()
}

// stopRun asks the engine to stop; the panel shows "stopping…" until the
// engine reports the run stopped, after its abort hooks finished. An
// interrupted run is stopped too: its unfinished remote tasks get their
// cancel.
func (w *Window) stopRun() {
	id := w.panel.RunID()
	if id == "" || w.deps.Engine == nil || !w.panel.Stoppable() {
		return
	}
	r := w.panel.Run()
	prev := r
	r.Status = workrun.RunStopping
	w.panel.Apply(Event{Type: "run", RunID: id, Run: &r})
	w.updateRunButtons()
	w.setStatus(w.loc.X("run.stopping", "stopping…"))
	// Stop goes on when the window closes meanwhile: the engine bounds
	// the abort hooks it waits for.
	var err error
	w.background(func() {
		err = w.deps.Engine.Stop(context.WithoutCancel(w.ctx), id)
	}, func() {
		if err == nil {
			return
		}
		var pending *workrun.StopPendingError
		if errors.As(err, &pending) {
			// Asked of the process that runs it, which has not ended it
			// yet: the panel goes on following the run from the store.
			w.showError(fmt.Errorf(w.loc.X("run.stop_pending", "Stop was asked of process %d, which runs this run; it has not ended the run within %s."), pending.PID, pending.Waited.Round(time.Second)))
			return
		}
		if w.panel.RunID() == id && w.panel.Run().Status == workrun.RunStopping {
			// The engine refused: show the run as it was.
			w.panel.Apply(Event{Type: "run", RunID: id, Run: &prev})
			w.updateRunButtons()
		}
		w.showError(fmt.Errorf("%s: %w", w.loc.X("run.stop_failed", "stop run"), err))
	})
}

func (w *Window) resumeRun() {
	id := w.panel.RunID()
	if id == "" || w.deps.Engine == nil {
		return
	}
	if err := w.deps.Engine.Resume(w.ctx, id); err != nil {
		w.showError(fmt.Errorf("resume run: %w", err))
		return
	}
	r := w.panel.Run()
	r.Status, r.Interruption, r.Reason = workrun.RunRunning, "", ""
	w.panel.Apply(Event{Type: "run", RunID: id, Run: &r})
	w.updateRunButtons()
	w.runStatusChanged()
}

// runAgain starts a new run of the same workflow revision with the same
// inputs: a new business execution, never a continuation (docs/remote-agent.md R12).
func (w *Window) runAgain() {
	r := w.panel.Run()
	if w.deps.Engine == nil || r.ID == "" {
		return
	}
	wf, ok := w.runAgainWorkflow(r)
	if !ok {
		return
	}
	id, err := w.deps.Engine.Start(byPerson(w.ctx), r.WorkflowID, wf, r.Inputs)
	if err != nil {
		w.showError(fmt.Errorf("run again: %w", err))
		return
	}
	w.cv.ClearStatus()
	w.panel.Start(id, wf)
	w.updateRunButtons()
	w.runStatusChanged()
}

func (w *Window) decide(d workrun.Decision) {
	if w.deps.Engine == nil {
		return
	}
	if err := w.deps.Engine.Decide(w.ctx, d); err != nil {
		w.showError(fmt.Errorf("decide: %w", err))
	}
}

// askInputs shows the Run dialog for the open workflow, filled with the
// inputs of its newest run (read off the UI thread), and starts the run
// when confirmed; a workflow without inputs starts at once.
func (w *Window) askInputs() {
	if w.deps.Engine == nil || len(w.probs) > 0 {
		return
	}
	wf := w.doc.Workflow()
	if missing := w.missingCredentials(wf); len(missing) > 0 {
		w.showError(fmt.Errorf(w.loc.X("run.missing_credentials", "Cannot run: these credentials are not in the keyring: %s. Add them under Settings → Credentials…"), strings.Join(missing, ", ")))
		return
	}
	if w.deps.Runs == nil || w.wfID == "" {
		w.showInputs(wf, nil)
		return
	}
	doc, wfID := w.doc, w.wfID
	var rs []workrun.Run
	var err error
	w.background(func() {
		rs, err = w.deps.Runs.ListRuns(w.ctx, workrun.RunFilter{WorkflowID: wfID, Limit: 1})
	}, func() {
		if w.doc != doc {
			return // another workflow was opened meanwhile
		}
		var last workrun.Values
		if err != nil {
			// The dialog still opens, only not prefilled.
			w.setStatus(fmt.Sprintf("%s: %s", w.loc.X("run.last_inputs_failed", "Could not read the last run's inputs"), HumanError(w.loc, err.Error())))
		} else if len(rs) > 0 {
			last = rs[0].Inputs
		}
		w.showInputs(wf, last)
	})
}

// showInputs shows the Run dialog for wf, prefilled with last.
func (w *Window) showInputs(wf workrun.Workflow, last workrun.Values) {
	ri := runinputs.New(w.loc, runinputs.Inputs{Workflow: wf, Names: w.runInputNames(wf), Last: last,
		Defaults: SampleInputs[wf.Name], Hint: sampleHint(w.loc, wf)}, w.fileChooser())
	if len(ri.Names) == 0 {
		w.launch(wf, workrun.Values{})
		return
	}
	d := dialog.NewCustomConfirm(w.loc.X("run.inputs", "Run inputs"), w.loc.X("run.run", "Run"), w.loc.X("cancel", "Cancel"),
		container.NewVScroll(ri.Object()), func(ok bool) {
			if !ok {
				return
			}
			vals, err := ri.Values()
			if err != nil {
				w.showError(err)
				return
			}
			w.launch(wf, vals)
		}, w.win)
	s := w.win.Canvas().Size()
	d.Resize(fyne.NewSize(min(560, s.Width-40), min(460, s.Height-40)))
	d.Show()
	// Enter in a one-line field runs, as the Run button does; the first
	// field has the focus, so Ctrl+R then Enter runs with the inputs shown.
	if first := ri.SubmitOnEnter(d.Confirm); first != nil {
		w.win.Canvas().Focus(first)
		// The last run's value is selected, so typing replaces it rather
		// than gluing onto it.
		first.TypedShortcut(&fyne.ShortcutSelectAll{})
	}
}

// fileChooser is the run inputs' file picker: it imports the chosen file
// into the artifact store off the UI thread (nil without an artifact
// store).
func (w *Window) fileChooser() func(f *runinputs.Fields, field string) {
	if w.deps.Artifacts == nil {
		return nil
	}
	return func(f *runinputs.Fields, field string) {
		dialog.ShowFileOpen(func(rc fyne.URIReadCloser, err error) {
			if err != nil {
				w.showError(err)
				return
			}
			if rc == nil {
				return // the person cancelled
			}
			var info workrun.ArtifactInfo
			w.background(func() {
				defer rc.Close() // a read-only file: closing loses nothing
				ctx, cancel := context.WithTimeout(w.ctx, time.Minute)
				defer cancel()
				info, err = w.deps.Artifacts.Put(ctx, rc.URI().Name(), rc.URI().MimeType(), rc, "", "")
			}, func() {
				if err != nil {
					w.showError(fmt.Errorf("import %s: %w", rc.URI().Name(), err))
					return
				}
				f.AddFile(field, info)
			})
		}, w.win)
	}
}

// byPerson marks a run the person starts in the window (Run.StartedBy).
func byPerson(ctx context.Context) context.Context {
	return workrun.WithStartedBy(ctx, workrun.StartedBy{Kind: workrun.StartedByPerson})
}

// followEvery and followIdleEvery are how often the panel reads a run
// another process executes: going on, and waiting (interrupted).
const (
	followEvery     = 500 * time.Millisecond
	followIdleEvery = 2 * time.Second
)

// followRun follows the run shown from the store while another process —
// `workrun serve`, a `workrun run` — executes it: this engine publishes no
// events for it, so its records, messages and status are read at a modest
// interval and shown as the events they are, until it ends or another
// run is shown (docs/serve.md S6). A run going on in this engine is not
// followed: its events arrive.
func (w *Window) followRun() {
	id := w.panel.RunID()
	if w.rs.following != "" || !w.followable(id) {
		return
	}
	w.rs.following = id
	w.followNext(id)
}

// followable says whether the run shown is one to follow from the store.
func (w *Window) followable(id string) bool {
	if id == "" || id != w.panel.RunID() || w.deps.Runs == nil || w.panel.Run().Status.Terminal() || w.panel.Run().Status == "" {
		return false
	}
	a, ok := w.deps.Engine.(interface{ Active(runID string) bool })
	return ok && !a.Active(id)
}

// followNext reads the followed run once more after the interval, off the
// UI thread, and shows what changed.
func (w *Window) followNext(id string) {
	every := followEvery
	if w.panel.Run().Status == workrun.RunInterrupted {
		every = followIdleEvery
	}
	var r workrun.Run
	var nrs []workrun.NodeRun
	var ms []workrun.Message
	var err error
	w.background(func() {
		select {
		case <-time.After(every):
		case <-w.ctx.Done():
			return
		}
		r, nrs, ms, err = readRunRecords(w.ctx, w.deps.Runs, id)
	}, func() {
		if !w.followable(id) {
			w.rs.following = ""
			w.followRun() // another run shown meanwhile may need it
			return
		}
		if err != nil {
			w.setStatus(HumanError(w.loc, err.Error()))
		} else {
			if evs := w.followEvents(r, nrs, ms); len(evs) > 0 {
				w.applyBatch(evs)
			}
			if w.rs.followed != nil {
				w.rs.followed(id)
			}
		}
		if w.followable(id) {
			w.followNext(id)
		} else {
			w.rs.following = ""
		}
	})
}

// followEvents are the changes between what the panel shows and the
// records read: the run's status, the node records that differ, and the
// messages not shown yet.
func (w *Window) followEvents(r workrun.Run, nrs []workrun.NodeRun, ms []workrun.Message) []Event {
	var evs []Event
	shown := w.panel.Run()
	// A Stop pressed here shows "stopping" until the other process saved
	// it; the run read just before that is not shown over it.
	if !(shown.Status == workrun.RunStopping && r.Status == workrun.RunRunning) &&
		(shown.Status != r.Status || shown.Reason != r.Reason || shown.Interruption != r.Interruption || !shown.EndedAt.Equal(r.EndedAt)) {
		evs = append(evs, Event{Type: "run", RunID: r.ID, Run: &r})
	}
	shownNodes := w.panel.NodeRuns()
	for i := range nrs {
		n := nrs[i]
		if old, ok := shownNodes[n.NodeID]; !ok || !reflect.DeepEqual(old, n) {
			evs = append(evs, Event{Type: "node", RunID: r.ID, NodeID: n.NodeID, Node: &n})
		}
	}
	for i := range ms {
		if m := ms[i]; !w.panel.HasMessage(m.Seq) {
			evs = append(evs, Event{Type: "message", RunID: r.ID, NodeID: m.NodeID, Message: &m})
		}
	}
	return evs
}
