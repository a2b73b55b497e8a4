package ui

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/widget"

	"workrun/workrun"
)

// subscribe starts the one goroutine that receives engine events and hands
// them to the widgets through fyne.Do (STYLE §6).
func (w *Window) subscribe() {
	if w.deps.Engine == nil {
		return
	}
	events, cancel := w.deps.Engine.Subscribe()
	w.unsub = cancel
	w.pumpDone = make(chan struct{})
	go func() {
		defer close(w.pumpDone)
		for ev := range events {
			fyne.Do(func() {
				w.apply(ev)
				if w.applied != nil {
					w.applied(ev)
				}
			})
		}
	}()
}

// apply shows one event; it runs on the Fyne thread.
func (w *Window) apply(ev Event) {
	w.panel.Apply(ev)
	if ev.RunID == w.panel.RunID() {
		if ev.Node != nil && ev.Node.Type == "remote_agent" || ev.Run != nil || ev.Message != nil && w.panel.NodeKind(ev.NodeID) == "remote_agent" {
			w.tasks.Show(w.ctx, ev.RunID)
		}
		w.updateRunButtons()
		if ev.Run != nil {
			w.updateTitle()
		}
	}
	if ev.Run != nil && ev.Run.Status.Terminal() {
		w.records.Reload()
	}
}

// startRun asks for the run's inputs and starts it (SPEC W2, W3).
func (w *Window) startRun() {
	if w.deps.Engine == nil || len(w.probs) > 0 {
		return
	}
	wf := w.doc.Workflow()
	form := NewInputsForm(wf.State, w.deps.Artifacts, w.win)
	for k, v := range SampleInputs[wf.Name] {
		form.SetText(k, v)
	}
	if len(wf.State) == 0 {
		w.launch(wf, workrun.Values{})
		return
	}
	d := dialog.NewCustomConfirm(lang.X("run.inputs", "Run inputs"), lang.X("run.run", "Run"), lang.X("cancel", "Cancel"),
		container.NewVScroll(form.Object()), func(ok bool) {
			if !ok {
				return
			}
			vals, err := form.Values()
			if err != nil {
				w.showError(err)
				return
			}
			w.launch(wf, vals)
		}, w.win)
	d.Resize(fyne.NewSize(520, 420))
	d.Show()
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
	if w.deps.Runs != nil {
		// Events committed before the subscription saw this run are in the store.
		if err := w.panel.Show(w.ctx, id); err != nil {
			w.panel.Start(id, wf)
			if !errors.Is(err, workrun.ErrNotFound) {
				w.setStatus(err.Error())
			}
		}
	}
	w.tasks.Show(w.ctx, id)
	w.tabs.SelectIndex(0)
	w.updateRunButtons()
	w.updateTitle()
}

// stopRun asks the engine to stop; the panel shows "stopping…" until the
// engine reports the run stopped, after its abort hooks finished.
func (w *Window) stopRun() {
	id := w.panel.RunID()
	if id == "" || w.deps.Engine == nil || !w.panel.Stoppable() {
		return
	}
	r := w.panel.Run()
	r.Status = workrun.RunStopping
	w.panel.Apply(Event{Type: "run", RunID: id, Run: &r})
	w.updateRunButtons()
	go func() {
		err := w.deps.Engine.Stop(context.WithoutCancel(w.ctx), id)
		if err != nil {
			fyne.Do(func() { w.showError(fmt.Errorf("stop run: %w", err)) })
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
}

// runAgain starts a new run of the same workflow revision with the same
// inputs: a new business execution, never a continuation (R12).
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
	w.tasks.Show(w.ctx, id)
	w.updateRunButtons()
}

func (w *Window) decide(d workrun.Decision) {
	if w.deps.Engine == nil {
		return
	}
	if err := w.deps.Engine.Decide(w.ctx, d); err != nil {
		w.showError(fmt.Errorf("decide: %w", err))
	}
}

// InputsForm asks for a run's inputs, one row per State field.
type InputsForm struct {
	state  map[string]workrun.FieldType
	arts   workrun.ArtifactStore
	win    fyne.Window
	names  []string
	text   map[string]*widget.Entry
	checks map[string]*widget.Check
	files  map[string][]workrun.ArtifactInfo
	flabel map[string]*widget.Label
	form   *widget.Form
}

// NewInputsForm builds the form; file fields get a file picker that
// imports through the artifact store (SPEC W3).
func NewInputsForm(state map[string]workrun.FieldType, arts workrun.ArtifactStore, win fyne.Window) *InputsForm {
	f := &InputsForm{state: state, arts: arts, win: win, text: map[string]*widget.Entry{},
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
			b := widget.NewButton(lang.X("run.choose_file", "Choose file…"), func() { f.pick(n) })
			if arts == nil {
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
		f.form.Append(fmt.Sprintf("%s (%s)", n, t), o)
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

func (f *InputsForm) pick(name string) {
	dialog.ShowFileOpen(func(rc fyne.URIReadCloser, err error) {
		if err != nil || rc == nil {
			if err != nil {
				dialog.ShowError(err, f.win)
			}
			return
		}
		defer rc.Close()
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		info, err := f.arts.Put(ctx, rc.URI().Name(), rc.URI().MimeType(), rc, "", "")
		if err != nil {
			dialog.ShowError(fmt.Errorf("import %s: %w", rc.URI().Name(), err), f.win)
			return
		}
		f.AddFile(name, info)
	}, f.win)
}

// AddFile sets (file) or appends to (files) a file field.
func (f *InputsForm) AddFile(name string, info workrun.ArtifactInfo) {
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
