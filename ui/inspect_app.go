package ui

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"workrun/ui/document"
	"workrun/ui/inspector"
	"workrun/workrun"
)

// newInspector makes the window's inspector and answers its requests: the
// app layer runs the connection tests and reads the credentials off the
// Fyne thread (Window.background), on contexts that end when the window
// closes, and hands the results back on the Fyne thread
// (docs/conventions.md §6).
func (w *Window) newInspector() *inspector.Inspector {
	in := inspector.NewInspector(w.loc, inspectorWording(w.loc), func() *document.Document { return w.doc }, w.win.Canvas(), w.tips)
	// The edits go to the open document (w.doc changes when another
	// workflow is opened).
	in.Edits = inspector.InspectorEdits{
		Name:            func(name, as string) { w.doc.EditName(name, as) },
		Field:           func(name string, t workrun.FieldType) { w.doc.SetField(name, t) },
		EdgeWhen:        func(k document.EdgeKey, when string) { w.doc.SetEdgeWhen(k, when) },
		DeleteSelection: func() { w.doc.DeleteSelection() },
		Title:           func(id, title, as string) { w.doc.EditTitle(id, title, as) },
		Config:          func(id string, cfg json.RawMessage, as string) { w.doc.EditConfig(id, cfg, as) },
		NewField: func(name string, t workrun.FieldType, id string, cfg json.RawMessage) {
			w.doc.CreateField(name, t, id, cfg)
		},
		Policy:   func(id string, p document.NodePolicy) { w.doc.SetPolicy(id, p) },
		EdgePort: func(k document.EdgeKey, port string) { w.doc.SetEdgePort(k, port) },
	}
	in.OnStatus = w.setStatus
	in.OnStatusWhile = w.setStatusWhile
	in.OnAddCredential = w.showCredentials
	in.Triggers = w.triggerHooks() // triggers_app.go
	if w.deps.OAuth != nil {
		in.OnSignIn = w.showSignIn
	}
	if e := w.deps.Engine; e != nil {
		in.Check = e.Validate
		in.Fields = e.Fields
	}
	if check := w.deps.CheckAgent; check != nil {
		in.OnTestAgent = connectionTest(w, check)
	}
	if check := w.deps.CheckMCP; check != nil {
		in.OnTestMCP = connectionTest(w, check)
	}
	if check := w.deps.CheckToolApp; check != nil {
		in.OnTestToolApp = func(cfg json.RawMessage, show func([]MCPTool, error)) {
			connectionTest(w, func(ctx context.Context, _, _ string) ([]MCPTool, error) { return check(ctx, cfg) })("", "", show)
		}
	}
	if mgr := w.deps.Credentials; mgr != nil {
		in.OnCredentials = func(show func([]Credential, error)) {
			var cs []Credential
			var err error
			w.background(func() {
				ctx, cancel := context.WithTimeout(w.ctx, 10*time.Second)
				defer cancel()
				cs, err = mgr.List(ctx)
			}, func() { show(cs, err) })
		}
	}
	return in
}

// inspectorWording is how the inspector words the node kinds (Deps.Kinds'
// descriptions), errors, counts and line breaks in loc's language, as the
// rest of the window does.
func inspectorWording(loc workrun.Localizer) inspector.Wording {
	return inspector.Wording{
		Kind:      kindInfo,
		KindLabel: func(kind string) string { return KindLabel(loc, kind) },
		KindIcon:  KindIcon,
		Reason:    func(saved string) string { return HumanError(loc, saved) },
		Keyring:   func(err error) string { return KeyringErrorText(loc, err) },
		Wants:     connectionWants,
		Count:     func(n int, key, one, other string) string { return countText(loc, n, key, one, other) },
		Clip:      clipRunes,
		Wrap:      wrapText,
	}
}

// connectionWants reads what a connection test's error asks of the person
// from the sentinels the test's adapter wraps (ErrNeedsSignIn,
// ErrNeedsCredential, ErrCredentialRefused).
func connectionWants(err error) inspector.Want {
	switch {
	case errors.Is(err, ErrNeedsSignIn):
		return inspector.WantSignIn
	case errors.Is(err, ErrNeedsCredential):
		return inspector.WantCredential
	case errors.Is(err, ErrCredentialRefused):
		return inspector.WantOtherCredential
	}
	return inspector.WantNothing
}

// runInputNames are the fields the Run dialog asks for: those no node
// provides before they are read, as the engine compiles the nodes.
func (w *Window) runInputNames(wf workrun.Workflow) []string {
	var fields map[string]workrun.NodeFields
	if w.deps.Engine != nil {
		fields = w.deps.Engine.Fields(document.CloneWorkflow(wf))
	}
	return document.WorkflowInputs(wf, fields)
}

// connectionTest runs a connection test off the UI thread, bounded and cut
// when the window closes, and shows its answer on the UI thread.
func connectionTest[T any](w *Window, check func(ctx context.Context, url, credential string) (T, error)) func(url, credential string, show func(T, error)) {
	return func(url, credential string, show func(T, error)) {
		var got T
		var err error
		w.background(func() {
			ctx, cancel := context.WithTimeout(w.ctx, 30*time.Second)
			defer cancel()
			got, err = check(ctx, url, credential)
		}, func() { show(got, err) })
	}
}
