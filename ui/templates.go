package ui

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"

	"fyne.io/fyne/v2"

	"workrun/workrun"
)

// template is one shipped example workflow (Deps.Templates).
type template struct {
	file  string // e.g. "remote-mcp.json"
	title string // the menu label, in the window's language
}

// templateTitles label the shipped examples in both languages; an example
// without an entry is labelled by its workflow's name.
func templateTitle(loc workrun.Localizer, file, name string) string {
	switch strings.TrimSuffix(file, ".json") {
	case "hello":
		return loc.X("tmpl.hello", "Hello: set a field and show it")
	case "branches":
		return loc.X("tmpl.branches", "A condition, a parallel branch and a join")
	case "failing-process":
		return loc.X("tmpl.failing_process", "A local command that fails")
	case "remote-agent":
		return loc.X("tmpl.remote_agent", "Remote Agent (A2A) call")
	case "remote-mcp":
		return loc.X("tmpl.remote_mcp", "Remote MCP Tool call (a task)")
	case "review":
		return loc.X("tmpl.review", "Human review before going on")
	case "tool-app":
		return loc.X("tmpl.tool_app", "Tool App (an MCP server on this machine)")
	}
	return name
}

// templates lists the shipped examples, sorted by file name; a file that
// is not a workflow is an error (the examples are built in).
func (w *Window) templates() ([]template, error) {
	if w.deps.Templates == nil {
		return nil, nil
	}
	names, err := fs.Glob(w.deps.Templates, "*.json")
	if err != nil {
		return nil, fmt.Errorf("list templates: %w", err)
	}
	slices.Sort(names)
	out := make([]template, 0, len(names))
	for _, n := range names {
		wf, err := w.readTemplate(n)
		if err != nil {
			return nil, err
		}
		out = append(out, template{file: n, title: templateTitle(w.loc, n, wf.Name)})
	}
	return out, nil
}

// readTemplate decodes the example file name.
func (w *Window) readTemplate(name string) (workrun.Workflow, error) {
	b, err := fs.ReadFile(w.deps.Templates, path.Clean(name))
	if err != nil {
		return workrun.Workflow{}, fmt.Errorf("read template %s: %w", name, err)
	}
	wf, err := ImportWorkflow(b)
	if err != nil {
		return workrun.Workflow{}, fmt.Errorf("template %s: %w", name, err)
	}
	return wf, nil
}

// templatesItem is File → New from template: a submenu with one item per
// shipped example (disabled when the build has none).
func (w *Window) templatesItem() *fyne.MenuItem {
	m := fyne.NewMenuItem(w.loc.X("wf.new_from_template", "New from template"), nil)
	ts, err := w.templates()
	if err != nil {
		fyne.LogError("templates", err) // a broken build: the menu says so by having none
	}
	var items []*fyne.MenuItem
	for _, t := range ts {
		items = append(items, fyne.NewMenuItem(t.title, func() { w.newFromTemplate(t.file) }))
	}
	if len(items) == 0 {
		m.Disabled = true
		return m
	}
	m.ChildMenu = fyne.NewMenu("", items...)
	return m
}

// newFromTemplate opens the example file as a new, unsaved workflow: it
// gets a fresh id when it is saved and never replaces a saved one (not even
// an earlier copy of the same template).
func (w *Window) newFromTemplate(file string) {
	wf, err := w.readTemplate(file)
	if err != nil {
		w.showError(err)
		return
	}
	if len(wf.Nodes) == 0 {
		w.showError(errors.New(file + ": " + w.loc.X("tmpl.empty", "the template has no nodes")))
		return
	}
	wf = localExample(w.loc, file, wf) // new_names.go
	w.leave(func() {
		w.OpenWorkflow("", wf)
		w.doc.MarkUnsaved() // unsaved until Save (or leaving it saves it)
		w.docChanged()
		w.selectListed("")
		w.setStatus(fmt.Sprintf(w.loc.X("tmpl.opened", "New workflow from the template %q — not saved yet"), templateTitle(w.loc, file, wf.Name)))
	})
}
