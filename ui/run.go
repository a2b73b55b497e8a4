package ui

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/widget"

	"workrun/workrun"
)

// runState is what the app layer keeps about runs besides the widgets.
type runState struct {
	ticking    bool // a ticker goroutine redraws durations
	tasksBusy  bool // a remote task read is under way
	tasksAgain bool // read the remote tasks again when it ends
	recordsSeq int  // the newest run records read asked for
	// tasksShown, when set, is called after remote tasks were read and
	// shown (tests wait on it).
	tasksShown func(runID string)
	// creds is the credential list as last read (nil: not read yet).
	creds []Credential
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
	w.rs.mu.Unlock() //nolint:staticcheck // an empty critical section is the point: wait for the holder
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
	var tasks, run, records bool
	for _, ev := range evs {
		w.panel.ApplyQuiet(ev)
		if ev.RunID == runID && runID != "" {
			if ev.Node != nil && ev.Node.Type == "remote_agent" || ev.Run != nil || ev.Message != nil && w.panel.NodeKind(ev.NodeID) == "remote_agent" {
				tasks = true
			}
			run = run || ev.Run != nil
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
	}
	if records {
		w.records.Reload()
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
		w.setStatus(fmt.Sprintf("%s · %s", r.WorkflowName, StatusLabel(string(r.Status))))
	}
	w.startTicker()
}

// startTicker redraws the running durations once a second while the run
// shown is active; the goroutine ends when it no longer is.
func (w *Window) startTicker() {
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
	ctx := w.ctx
	go func() {
		start := time.Now()
		ts, files, err := w.readTasks(ctx, runID)
		if d := 250*time.Millisecond - time.Since(start); d > 0 {
			select {
			case <-time.After(d):
			case <-ctx.Done():
			}
		}
		w.do(func() {
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
	}()
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
	ctx := w.ctx
	go func() {
		r, nrs, ms, err := ReadRun(ctx, w.deps.Runs, runID)
		w.do(func() {
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
	}()
}

func (w *Window) launch(wf workrun.Workflow, vals workrun.Values) {
	if w.wfID == "" || w.doc.Dirty() {
		w.save()
	}
	id, err := w.deps.Engine.Start(w.ctx, w.wfID, wf, vals)
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
	w.setStatus(lang.X("run.stopping", "stopping…"))
	go func() {
		err := w.deps.Engine.Stop(context.WithoutCancel(w.ctx), id)
		if err != nil {
			w.do(func() {
				if w.panel.RunID() == id && w.panel.Run().Status == workrun.RunStopping {
					// The engine refused: show the run as it was.
					w.panel.Apply(Event{Type: "run", RunID: id, Run: &prev})
					w.updateRunButtons()
				}
				w.showError(fmt.Errorf("%s: %w", lang.X("run.stop_failed", "stop run"), err))
			})
		}
	}()
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
	wf := r.Workflow
	if len(wf.Nodes) == 0 {
		wf = w.doc.Workflow()
	}
	id, err := w.deps.Engine.Start(w.ctx, r.WorkflowID, wf, r.Inputs)
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

// InputsForm asks for a run's inputs, one row per State field. A file
// field's "Choose file…" is reported to chooseFile; the app layer imports
// the file and hands it back with addFile.
type InputsForm struct {
	state      map[string]workrun.FieldType
	chooseFile func(f *InputsForm, field string)
	names      []string
	text       map[string]*widget.Entry
	checks     map[string]*widget.Check
	files      map[string][]workrun.ArtifactInfo
	flabel     map[string]*widget.Label
	form       *widget.Form
}

// NewInputsForm builds the form; a file field's button calls chooseFile
// (docs/product.md W3), and is disabled when chooseFile is nil.
func NewInputsForm(state map[string]workrun.FieldType, chooseFile func(f *InputsForm, field string)) *InputsForm {
	f := &InputsForm{state: state, chooseFile: chooseFile, text: map[string]*widget.Entry{},
		checks: map[string]*widget.Check{}, files: map[string][]workrun.ArtifactInfo{}, flabel: map[string]*widget.Label{}}
	for n := range state {
		f.names = append(f.names, n)
	}
	slices.Sort(f.names)
	f.form = widget.NewForm()
	for _, n := range f.names {
		t := state[n]
		var o fyne.CanvasObject
		switch t {
		case workrun.FieldBoolean:
			c := widget.NewCheck("", nil)
			f.checks[n] = c
			o = c
		case workrun.FieldFile, workrun.FieldFiles:
			l := widget.NewLabel(lang.X("run.no_file", "no file"))
			f.flabel[n] = l
			b := widget.NewButton(lang.X("run.choose_file", "Choose file…"), func() { f.chooseFile(f, n) })
			if chooseFile == nil {
				b.Disable()
			}
			o = container.NewBorder(nil, nil, nil, b, l)
		case workrun.FieldJSON:
			e := widget.NewMultiLineEntry()
			e.SetPlaceHolder(`{"key": "value"}`)
			f.text[n] = e
			o = e
		default:
			e := widget.NewEntry()
			f.text[n] = e
			o = e
		}
		f.form.Append(fmt.Sprintf("%s (%s)", n, FieldTypeLabel(t)), o)
	}
	return f
}

// Object is the form's widget.
func (f *InputsForm) Object() fyne.CanvasObject { return f.form }

// SetText fills a text, number or JSON field (tests and defaults).
func (f *InputsForm) SetText(name, v string) {
	if e := f.text[name]; e != nil {
		e.SetText(v)
	}
}

// addFile sets (file) or appends to (files) a file field.
func (f *InputsForm) addFile(name string, info workrun.ArtifactInfo) {
	if f.state[name] == workrun.FieldFile {
		f.files[name] = []workrun.ArtifactInfo{info}
	} else {
		f.files[name] = append(f.files[name], info)
	}
	var names []string
	for _, a := range f.files[name] {
		names = append(names, fmt.Sprintf("%s (%s, %d B)", a.Name, a.MediaType, a.Size))
	}
	f.flabel[name].SetText(strings.Join(names, ", "))
}

// Values returns the inputs typed for each field; empty fields are left out.
func (f *InputsForm) Values() (workrun.Values, error) {
	v := workrun.Values{}
	for _, n := range f.names {
		switch t := f.state[n]; t {
		case workrun.FieldBoolean:
			v[n] = f.checks[n].Checked
		case workrun.FieldFile:
			if fs := f.files[n]; len(fs) > 0 {
				v[n] = fs[0].ID
			}
		case workrun.FieldFiles:
			if fs := f.files[n]; len(fs) > 0 {
				ids := make([]any, len(fs))
				for i, a := range fs {
					ids[i] = a.ID
				}
				v[n] = ids
			}
		case workrun.FieldNumber:
			s := strings.TrimSpace(f.text[n].Text)
			if s == "" {
				continue
			}
			x, err := strconv.ParseFloat(s, 64)
			if err != nil {
				return nil, fmt.Errorf(lang.X("run.bad_number", "%s: not a number"), n)
			}
			v[n] = x
		case workrun.FieldJSON:
			s := strings.TrimSpace(f.text[n].Text)
			if s == "" {
				continue
			}
			var x any
			if err := json.Unmarshal([]byte(s), &x); err != nil {
				return nil, fmt.Errorf(lang.X("run.bad_json", "%s: not valid JSON"), n)
			}
			v[n] = x
		default:
			if s := f.text[n].Text; s != "" {
				v[n] = s
			}
		}
	}
	return v, nil
}
