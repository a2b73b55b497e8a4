package ui

import (
	"context"
	"testing"

	"fyne.io/fyne/v2/test"

	"workrun/workrun"
)

// TestRestart_OpensTheLastWorkflow: a window opened again on the same app
// (its preferences) opens the saved workflow the person opened last, not
// "Untitled workflow" (issue 40); one deleted since gives a new workflow.
func TestRestart_OpensTheLastWorkflow(t *testing.T) {
	a := test.NewTempApp(t)
	SetupLanguage("en")
	wfs := newMemWorkflows()
	ctx := context.Background()
	if _, err := wfs.SaveWorkflow(ctx, "", SampleRemote(langNow(), "http://127.0.0.1:41241")); err != nil {
		t.Fatal(err)
	}
	second, err := wfs.SaveWorkflow(ctx, "", SampleParallel(langNow(), "http://127.0.0.1:41241"))
	if err != nil {
		t.Fatal(err)
	}
	d := Deps{Workflows: wfs, Kinds: workrun.Describe(realKinds()...)}
	w := NewWindow(a, d)
	if w.wfID != "" {
		t.Fatalf("a first start opened %q, want a new workflow", w.wfID)
	}
	for i, r := range w.recs {
		if r.ID == second.ID {
			w.list.Select(i)
		}
	}
	if w.wfID != second.ID {
		t.Fatalf("selecting the second workflow opened %q", w.wfID)
	}
	w.Close()
	w.win.Close()

	w = NewWindow(a, d)
	if w.wfID != second.ID || w.doc.Workflow().Name != second.Workflow.Name {
		t.Errorf("after a restart: open %q (%q), want the last one %q (%q)", w.wfID, w.doc.Workflow().Name, second.ID, second.Workflow.Name)
	}
	w.Close()
	w.win.Close()

	if err := wfs.DeleteWorkflow(ctx, second.ID); err != nil {
		t.Fatal(err)
	}
	w = NewWindow(a, d)
	defer func() { w.Close(); w.win.Close() }()
	if w.wfID != "" || w.doc.Workflow().Name != "Untitled workflow" {
		t.Errorf("the last workflow deleted: open %q (%q), want a new one", w.wfID, w.doc.Workflow().Name)
	}
}
