package ui

import (
	"context"
	"strings"
	"testing"

	"fyne.io/fyne/v2/widget"

	"workrun/workrun"
)

// TestStatus_NotAppliedGoesWhenItNoLongerHolds: a value that could not be
// applied and was left behind says "Not applied" in the status bar — until
// the person types that node's value again; then the bar no longer says
// it. Edits elsewhere keep it (it still holds); another workflow clears it.
func TestStatus_NotAppliedGoesWhenItNoLongerHolds(t *testing.T) {
	w := newTestWindow(t, Deps{Engine: checkingEngine()})
	wf := workrun.Workflow{Name: "status", State: map[string]workrun.FieldType{"out": workrun.FieldText}}
	for _, id := range []string{"p1", "p2"} {
		wf.Nodes = append(wf.Nodes, workrun.NodeSpec{ID: id, Type: "process", Config: DefaultConfig(langNow(), "process")})
	}
	w.OpenWorkflow("", wf)
	timeout := func() *widget.Entry { return w.insp.Widget("timeout_seconds").(*widget.Entry) }
	notApplied := func() bool { return strings.Contains(w.status.Text, "Not applied") }

	w.doc.Select("p1", false)
	timeout().SetText("soon")
	if w.insp.Pending() == "" {
		t.Fatal("a timeout that is no number is not pending")
	}
	w.doc.Select("p2", false)
	if !notApplied() {
		t.Fatalf("status %q after leaving the bad value, want Not applied", w.status.Text)
	}
	timeout().SetText("45") // another node's edit: p1's value is still not applied
	if !notApplied() {
		t.Errorf("status %q after editing p2: the Not applied of p1 still holds", w.status.Text)
	}
	w.doc.Select("p1", false)
	timeout().SetText("30")
	if notApplied() {
		t.Errorf("status %q after p1's timeout was typed again: stale Not applied", w.status.Text)
	}

	// Another workflow: the line is about the old one.
	w.doc.Select("p1", false)
	timeout().SetText("later")
	w.doc.Select("p2", false)
	if !notApplied() {
		t.Fatalf("status %q, want Not applied", w.status.Text)
	}
	w.OpenWorkflow("", SampleRemote(langNow(), "http://127.0.0.1:1"))
	if notApplied() {
		t.Errorf("status %q after opening another workflow", w.status.Text)
	}
}

// TestStatus_FixFirstGoesOnceFixed: Run with a marked value says "Fix the
// marked value first"; once the value is fixed the bar no longer says so.
func TestStatus_FixFirstGoesOnceFixed(t *testing.T) {
	eng := checkingEngine()
	eng.StartFunc = func(context.Context, string, workrun.Workflow, workrun.Values) (string, error) { return "r1", nil }
	w := newTestWindow(t, Deps{Engine: eng})
	wf := workrun.Workflow{Name: "fix", State: map[string]workrun.FieldType{}}
	wf.Nodes = []workrun.NodeSpec{{ID: "p1", Type: "process", Config: DefaultConfig(langNow(), "process")}}
	w.OpenWorkflow("", wf)
	w.doc.Select("p1", false)
	e := w.insp.Widget("timeout_seconds").(*widget.Entry)
	e.SetText("soon")
	w.runClicked()
	if !strings.Contains(w.status.Text, "Fix the marked value first") {
		t.Fatalf("status %q after Run with a bad value", w.status.Text)
	}
	e.SetText("30")
	if strings.Contains(w.status.Text, "Fix the marked value first") {
		t.Errorf("status %q after the value was fixed: stale", w.status.Text)
	}
}
