package ui

import (
	"testing"

	"workrun/ui/document"
	"workrun/workrun"
)

// FuzzImportWorkflow feeds arbitrary workflow files through import, the
// editor's checks and the editing commands: nothing may panic, and a
// document never gains an edge that the editor refuses (self link, cycle).
func FuzzImportWorkflow(f *testing.F) {
	for _, wf := range []workrun.Workflow{SampleRemote(langNow(), "http://127.0.0.1:1"), SampleParallel(langNow(), "http://127.0.0.1:1"), bigWorkflow(12, 18)} {
		b, err := ExportWorkflow(wf)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(`{"nodes":[{"id":"a","type":"start"},{"id":"a","type":"set","config":"x"}],"edges":[{"from":"a","to":"a"},{"from":"q","to":"a"}]}`))
	f.Add([]byte(`{"nodes":[{"id":"c","type":"condition","config":{"value":[1,{"x":null}]}}],"state":{"":"file"}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		wf, err := ImportWorkflow(b)
		if err != nil {
			return
		}
		eng := kindsEngine() // the checks the window shows
		_ = eng.Validate(wf)
		_ = document.WorkflowInputs(wf, eng.Fields(wf))
		d := document.NewDocument(wf)
		d.SelectAll()
		d.Copy()
		d.Paste()
		ids := nodeIDs(d)
		for i := 0; i+1 < len(ids) && i < 20; i++ {
			_ = d.Connect(ids[i], ids[i+1])
			_ = d.Connect(ids[i+1], ids[i])
		}
		for _, e := range d.Workflow().Edges[len(wf.Edges):] {
			if e.From == e.To {
				t.Fatalf("editor added a self link on %s", e.From)
			}
		}
		if len(ids) > 0 {
			d.Select(ids[0], false)
			d.DeleteSelection()
		}
		for d.Undo() {
		}
		_ = eng.Validate(d.Workflow())
		_ = document.WorkflowInputs(d.Workflow(), eng.Fields(d.Workflow()))
	})
}
