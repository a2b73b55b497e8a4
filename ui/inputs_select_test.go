package ui

import (
	"testing"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"workrun/workrun"
)

// TestRunInputs_LastValueSelected: the Run dialog prefills the last run's
// value selected, so what is typed replaces it instead of gluing onto it.
func TestRunInputs_LastValueSelected(t *testing.T) {
	w := newTestWindow(t, Deps{Engine: &fakeEngine{}})
	wf := workrun.Workflow{Name: "Ask", State: map[string]workrun.FieldType{"question": workrun.FieldText}}
	onUI(w, func() { w.showInputs(wf, workrun.Values{"question": "echo old question"}) })
	e, ok := w.win.Canvas().Focused().(*widget.Entry)
	if !ok {
		t.Fatalf("focused %T, want the question's entry", w.win.Canvas().Focused())
	}
	if e.SelectedText() != "echo old question" {
		t.Fatalf("selected %q, want the whole last value", e.SelectedText())
	}
	test.Type(e, "new")
	if e.Text != "new" {
		t.Errorf("after typing the field holds %q, want %q", e.Text, "new")
	}
}
