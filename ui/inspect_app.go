package ui

import (
	"context"
	"encoding/json"
	"time"

	"workrun/workrun"
)

// newInspector makes the window's inspector and answers its requests: the
// app layer runs the connection tests and reads the credentials off the
// Fyne thread, on contexts that end when the window closes, and hands the
// results back on the Fyne thread (docs/conventions.md §6).
func (w *Window) newInspector() *Inspector {
	in := NewInspector(func() *Document { return w.doc }, w.win.Canvas(), w.tips)
	// The edits go to the open document (w.doc changes when another
	// workflow is opened).
	in.Edits = InspectorEdits{
		Name:            func(name, as string) { w.doc.EditName(name, as) },
		Field:           func(name string, t workrun.FieldType) { w.doc.SetField(name, t) },
		EdgeWhen:        func(k EdgeKey, when string) { w.doc.SetEdgeWhen(k, when) },
		DeleteSelection: func() { w.doc.DeleteSelection() },
		Title:           func(id, title, as string) { w.doc.EditTitle(id, title, as) },
		Config:          func(id string, cfg json.RawMessage, as string) { w.doc.EditConfig(id, cfg, as) },
	}
	in.OnStatus = w.setStatus
	in.OnAddCredential = w.showCredentials
	if e := w.deps.Engine; e != nil {
		in.Check = e.Validate
		in.Fields = e.Fields
	}
	if check := w.deps.CheckAgent; check != nil {
		in.OnTestAgent = func(url, credential string, show func(AgentReport, error)) {
			w.goThen(30*time.Second, func(ctx context.Context) func() {
				rep, err := check(ctx, url, credential)
				return func() { show(rep, err) }
			})
		}
	}
	if check := w.deps.CheckMCP; check != nil {
		in.OnTestMCP = func(url, credential string, show func([]MCPTool, error)) {
			w.goThen(30*time.Second, func(ctx context.Context) func() {
				tools, err := check(ctx, url, credential)
				return func() { show(tools, err) }
			})
		}
	}
	if mgr := w.deps.Credentials; mgr != nil {
		in.OnCredentials = func(show func([]Credential, error)) {
			w.goThen(10*time.Second, func(ctx context.Context) func() {
				cs, err := mgr.List(ctx)
				return func() { show(cs, err) }
			})
		}
	}
	return in
}

// goThen runs work off the Fyne thread on a context bounded by d and
// canceled when the window closes, then runs what work returns on the
// Fyne thread.
func (w *Window) goThen(d time.Duration, work func(ctx context.Context) func()) {
	parent := w.ctx
	go func() {
		ctx, cancel := context.WithTimeout(parent, d)
		defer cancel()
		show := work(ctx)
		w.do(show)
	}()
}

// runInputNames are the fields the Run dialog asks for: those no node
// provides before they are read, as the engine compiles the nodes.
func (w *Window) runInputNames(wf workrun.Workflow) []string {
	var fields map[string]workrun.NodeFields
	if w.deps.Engine != nil {
		fields = w.deps.Engine.Fields(cloneWorkflow(wf))
	}
	return workflowInputs(wf, fields)
}
