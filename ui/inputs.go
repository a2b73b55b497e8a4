package ui

import (
	"context"
	"encoding/json"
	"fmt"
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

// RunInputs is the Run dialog's form: one row per workflow input (a field
// no node writes before it is read), in the order the workflow reads them,
// each with its type, filled with what the last run of this workflow got
// (or the sample's question).
type RunInputs struct {
	Names []string
	forms []*InputsForm
	box   *fyne.Container
}

// newRunInputs builds the form for wf; last holds the previous run's
// inputs; chooseFile is each file field's picker (see NewInputsForm).
func newRunInputs(wf workrun.Workflow, last workrun.Values, chooseFile func(f *InputsForm, field string)) *RunInputs {
	ri := &RunInputs{Names: workflowInputs(wf), box: container.NewVBox()}
	if usesDemo(wf) || SampleInputs[wf.Name] != nil {
		hint := widget.NewLabel(DemoWords())
		hint.Wrapping = fyne.TextWrapWord
		hint.Importance = widget.LowImportance
		ri.box.Add(hint)
	}
	for _, n := range ri.Names {
		t := wf.State[n]
		// One single-field form per input keeps the order and reuses the
		// widgets (and file picking) of InputsForm.
		f := NewInputsForm(map[string]workrun.FieldType{n: t}, chooseFile)
		v, ok := last[n]
		if !ok {
			if s, ok2 := SampleInputs[wf.Name][n]; ok2 {
				v, ok = s, true
			}
		}
		if ok {
			switch t {
			case workrun.FieldBoolean:
				if b, isBool := v.(bool); isBool && f.checks[n] != nil {
					f.checks[n].SetChecked(b)
				}
			case workrun.FieldJSON:
				if b, err := json.Marshal(v); err == nil {
					f.SetText(n, string(b))
				}
			case workrun.FieldNumber:
				if x, isNum := v.(float64); isNum {
					f.SetText(n, strconv.FormatFloat(x, 'f', -1, 64))
				} else {
					f.SetText(n, fmt.Sprint(v))
				}
			case workrun.FieldFile, workrun.FieldFiles:
				// Files are chosen again for each run.
			default:
				if s, isStr := v.(string); isStr {
					f.SetText(n, s)
				}
			}
		}
		ri.forms = append(ri.forms, f)
		ri.box.Add(f.Object())
	}
	return ri
}

// Object is the form's widget tree.
func (ri *RunInputs) Object() fyne.CanvasObject { return ri.box }

// text returns what the entry of field name holds.
func (ri *RunInputs) text(name string) string {
	for _, f := range ri.forms {
		if e := f.text[name]; e != nil {
			return e.Text
		}
	}
	return ""
}

// Values returns every input typed.
func (ri *RunInputs) Values() (workrun.Values, error) {
	out := workrun.Values{}
	for _, f := range ri.forms {
		v, err := f.Values()
		if err != nil {
			return nil, err
		}
		for k, x := range v {
			out[k] = x
		}
	}
	return out, nil
}

// lastInputs returns the inputs of the newest run of the open workflow.
func (w *Window) lastInputs() workrun.Values {
	if w.deps.Runs == nil || w.wfID == "" {
		return nil
	}
	rs, err := w.deps.Runs.ListRuns(w.ctx, workrun.RunFilter{WorkflowID: w.wfID, Limit: 1})
	if err != nil || len(rs) == 0 {
		return nil
	}
	return rs[0].Inputs
}

// askInputs shows the Run dialog for the open workflow and starts the run
// when confirmed; a workflow without inputs starts at once.
func (w *Window) askInputs() {
	if w.deps.Engine == nil || len(w.probs) > 0 {
		return
	}
	wf := w.doc.Workflow()
	if missing := w.missingCredentials(wf); len(missing) > 0 {
		w.showError(fmt.Errorf(lang.X("run.missing_credentials", "Cannot run: these credentials are not in the keyring: %s. Add them under Settings → Credentials…"), strings.Join(missing, ", ")))
		return
	}
	ri := newRunInputs(wf, w.lastInputs(), w.fileChooser())
	w.runInputs = ri
	if len(ri.Names) == 0 {
		w.launch(wf, workrun.Values{})
		return
	}
	d := dialog.NewCustomConfirm(lang.X("run.inputs", "Run inputs"), lang.X("run.run", "Run"), lang.X("cancel", "Cancel"),
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
	var first *widget.Entry
	for i, f := range ri.forms {
		if e := f.text[ri.Names[i]]; e != nil && !e.MultiLine {
			e.OnSubmitted = func(string) { d.Confirm() }
			if first == nil {
				first = e
			}
		}
	}
	if first != nil {
		w.win.Canvas().Focus(first)
	}
}

// fileChooser is the run inputs' file picker: it imports the chosen file
// into the artifact store off the UI thread (nil without an artifact
// store).
func (w *Window) fileChooser() func(f *InputsForm, field string) {
	if w.deps.Artifacts == nil {
		return nil
	}
	return func(f *InputsForm, field string) {
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
				f.addFile(field, info)
			})
		}, w.win)
	}
}
