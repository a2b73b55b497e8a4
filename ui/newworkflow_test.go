package ui

import (
	"context"
	"testing"
)

// TestNewWorkflow_ListedAtOnce: File → New puts the new workflow in the
// workflow list, selected, before any Save (it was missing until saved,
// issue 40).
func TestNewWorkflow_ListedAtOnce(t *testing.T) {
	wfs := newMemWorkflows()
	if _, err := wfs.SaveWorkflow(context.Background(), "", SampleRemote(langNow(), "http://127.0.0.1:41241")); err != nil {
		t.Fatal(err)
	}
	w := newTestWindow(t, Deps{Workflows: wfs})
	w.newWorkflow()
	if w.wfID == "" || w.doc.Dirty() {
		t.Fatalf("after New: id %q, dirty %v; want it saved", w.wfID, w.doc.Dirty())
	}
	if len(w.recs) != 2 {
		t.Fatalf("the list has %d workflows, want the sample and the new one", len(w.recs))
	}
	found := false
	for _, r := range w.recs {
		if r.ID == w.wfID && r.Workflow.Name == "Untitled workflow" {
			found = true
		}
	}
	if !found {
		t.Errorf("the new workflow %s is not listed: %+v", w.wfID, w.recs)
	}
}
