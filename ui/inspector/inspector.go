package inspector

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"workrun/ui/credentials"
	"workrun/ui/document"
	"workrun/ui/tooltip"
	"workrun/workrun"
)

// Inspector edits what is selected: a node's title and config keys, an
// edge's branch, or (with nothing selected) the workflow's name and State.
// A node's form is built from its kind's description (workrun.KindInfo):
// one editor per config key, chosen by the key's value kind. Every edit
// applies as it is typed; the keystrokes of one field make one undo step. A
// value that cannot be applied (a timeout that is no number) is marked in
// place and kept as "pending" until it is fixed or discarded, so it is
// never dropped without a word.
//
// The inspector is a widget: it edits the document it is given and reports
// everything else through its On… callbacks; the app layer
// (ui/inspect_app.go) runs the connection tests and reads the credentials,
// and answers through the reply functions the callbacks carry, on the Fyne
// thread.
type Inspector struct {
	doc    func() *document.Document // the document shown (read only: edits are Edits)
	canvas fyne.Canvas               // the window's, for the keyboard focus
	tips   *tooltip.Layer

	// Edits receive what the person changed.
	Edits InspectorEdits

	// Check returns the engine's problems of a workflow; the form shows
	// those of its node as they are typed. Nil: no checks.
	Check func(workrun.Workflow) []workrun.Problem
	// Fields returns what each node of a workflow reads and writes; the
	// State list marks the run inputs with it. Nil: not known.
	Fields func(workrun.Workflow) map[string]workrun.NodeFields
	// OnStatus shows a line in the window's status bar.
	OnStatus func(text string)
	// OnStatusWhile shows a line that the bar drops once holds() is false.
	OnStatusWhile func(text string, holds func() bool)
	// OnTestAgent asks for the Remote Agent connection test of url with
	// the named credential (docs/remote-agent.md R3.4); show gets the
	// result. Nil: the test is not available.
	OnTestAgent func(url, credential string, show func(AgentReport, error))
	// OnTestMCP asks for the MCP connection test (tools/list); show gets
	// the tools. Nil: the test is not available.
	OnTestMCP func(url, credential string, show func([]MCPTool, error))
	// OnTestToolApp asks for the Tool App's connection test with the
	// node's config as the form holds it.
	OnTestToolApp func(config json.RawMessage, show func([]MCPTool, error))
	// OnCredentials asks for the saved credentials' names for a picker;
	// show gets them. Nil: the picker offers only the node's own.
	OnCredentials func(show func([]credentials.Credential, error))
	// OnTested is called after a connection test's result is shown.
	OnTested func()
	// OnCredentialsShown is called after a credential picker was filled
	// with the saved credentials' names.
	OnCredentialsShown func()
	// OnSubjectChanged is called after the form was built for another
	// node, edge, selection or workflow (the app scrolls it to the top).
	OnSubjectChanged func()
	subject          string
	// OnAddCredential asks to open the credentials dialog.
	OnAddCredential func()
	// OnSignIn asks for the Sign in dialog for url (kind SignInAgent or
	// SignInMCP); signedIn gets the new credential's name.
	OnSignIn func(url, kind string, signedIn func(name string))
	// Triggers serve the start node's Triggers section (triggers.go).
	Triggers TriggerHooks
	trig     *triggerForm

	box  *fyne.Container
	root fyne.CanvasObject
	sig  string

	nodeID   string
	info     workrun.KindInfo
	title    *widget.Entry
	widgets  map[string]fyne.CanvasObject // by config key
	readers  []fieldReader                // the form's config keys, in order
	problems *widget.Label
	testOut  *widget.Label
	// tested keeps each node's last connection test (node id → result), shown
	// again when the node is selected again.
	tested   map[string]testedResult
	addCred  *widget.Button // offered when the agent wants a credential
	signIn   *widget.Button // offered when the agent wants a sign-in (inspector_signin.go)
	pending  string         // the value the form holds but could not apply, with why
	applying bool           // the form is writing to the document: do not rebuild it
	building bool           // the form is being filled: its widgets' changes are no edits

	mcp      mcpState // the tool lists of MCP connection tests (inspector_mcp.go)
	mcpShown *mcpForm // the MCP tool picker of the form shown, if any
	// credLists counts the credential lists asked for each picker: lists are
	// read off the UI thread and may answer out of order, so only the latest
	// one asked fills the picker (an older one lacks a credential saved since).
	credLists map[*widget.Select]uint64 // the latest list asked per picker
	credAsked uint64                    // lists asked in all: each ask's number

	// stateShown are called after a field was created in the node's form
	// (inspector_template.go): its pickers and templates show the new State.
	stateShown []func()
	// inPlace return the problems shown beside their field, which the
	// list under the form does not repeat.
	inPlace []func() string
	// newFields are the form's new-field rows, by config key.
	newFields map[string]*newFieldRow

	loc   Localizer // the words, in the window's language
	words Wording
}

// InspectorEdits are the changes the inspector reports. as names the undo
// step an edit joins (the keystrokes of one field make one step); "" is a
// step of its own.
type InspectorEdits struct {
	Name            func(name, as string)
	Field           func(name string, t workrun.FieldType) // t "": remove the field
	EdgeWhen        func(k document.EdgeKey, when string)
	DeleteSelection func()
	Title           func(nodeID, title, as string)
	Config          func(nodeID string, config json.RawMessage, as string)
	// NewField adds State field name of type t and sets node nodeID's
	// config to config (which uses it) as one undo step.
	NewField func(name string, t workrun.FieldType, nodeID string, config json.RawMessage)
	// Policy and EdgePort edit failure handling (inspector_policy.go).
	Policy   func(nodeID string, p document.NodePolicy)
	EdgePort func(k document.EdgeKey, port string)
}

func (e InspectorEdits) name(s, as string) {
	if e.Name != nil {
		e.Name(s, as)
	}
}

func (e InspectorEdits) field(n string, t workrun.FieldType) {
	if e.Field != nil {
		e.Field(n, t)
	}
}

func (e InspectorEdits) edgeWhen(k document.EdgeKey, when string) {
	if e.EdgeWhen != nil {
		e.EdgeWhen(k, when)
	}
}

func (e InspectorEdits) deleteSelection() {
	if e.DeleteSelection != nil {
		e.DeleteSelection()
	}
}

func (e InspectorEdits) title(id, title, as string) {
	if e.Title != nil {
		e.Title(id, title, as)
	}
}

func (e InspectorEdits) newField(name string, t workrun.FieldType, id string, cfg json.RawMessage) {
	if e.NewField != nil {
		e.NewField(name, t, id, cfg)
	}
}

func (e InspectorEdits) config(id string, cfg json.RawMessage, as string) {
	if e.Config != nil {
		e.Config(id, cfg, as)
	}
}

// fieldReader reads one config key from the form: its value, whether the
// key is set at all, or why what is typed is no value.
type fieldReader struct {
	key  string
	read func() (any, bool, error)
}

// NewInspector makes an inspector of the document doc returns; canvas is
// the window's and tips its tooltip layer.
func NewInspector(loc Localizer, words Wording, doc func() *document.Document, canvas fyne.Canvas, tips *tooltip.Layer) *Inspector {
	in := &Inspector{loc: loc, words: words, doc: doc, canvas: canvas, tips: tips, box: container.NewVBox()}
	// widthFree: the form takes the pane's width instead of asking for its
	// widest row, so a long option or text never widens the window.
	in.root = container.New(widthFree{}, container.NewPadded(in.box))
	return in
}

// Object is the inspector's widget tree.
func (in *Inspector) Object() fyne.CanvasObject { return in.root }

func (in *Inspector) status(text string) {
	if in.OnStatus != nil {
		in.OnStatus(text)
	}
}

// Show rebuilds the form for the current selection when it changed.
func (in *Inspector) Show() {
	d := in.doc()
	sel := d.Selected()
	var sig, subject string
	switch {
	case len(sel) == 1:
		n, _ := d.Node(sel[0])
		sig = "n:" + n.ID + n.Title + string(n.Config) + stateSig(d.State())
		subject = "n:" + n.ID
	case len(sel) > 1:
		sig = fmt.Sprintf("m:%d", len(sel))
		subject = sig
	case d.SelectedEdges() == 1:
		for _, k := range d.SelectedEdgeKeys() {
			e, _ := d.Edge(k)
			sig = "e:" + k.From + ">" + k.To + e.When
			subject = "e:" + k.From + ">" + k.To
		}
	default:
		sig = "w:" + d.Name() + stateSig(d.State())
		subject = "w"
	}
	subject = fmt.Sprintf("%p|", d) + subject
	// The form's closures hold the document: another document is another form.
	sig = fmt.Sprintf("%p|", d) + sig
	if in.applying {
		in.sig = sig // the form already shows this
		return
	}
	if sig == in.sig {
		if in.nodeID != "" {
			// Another part of the workflow changed (an edge, another
			// node): what the engine says of this node may have too.
			if n, ok := d.Node(in.nodeID); ok {
				in.recheck(n)
			}
		}
		return
	}
	if in.pending != "" {
		in.dropped() // status.go
		in.pending = ""
	}
	in.sig = sig
	if subject != in.subject {
		// Another thing is shown: its form starts at its top, not at the
		// offset the last one was scrolled to (which may be past its end).
		in.subject = subject
		if in.OnSubjectChanged != nil {
			defer in.OnSubjectChanged()
		}
	}
	in.unfocus()
	in.box.RemoveAll()
	in.nodeID = ""
	in.widgets = map[string]fyne.CanvasObject{}
	in.readers = nil
	in.stateShown, in.inPlace, in.newFields = nil, nil, map[string]*newFieldRow{}
	in.testOut, in.addCred, in.mcpShown = nil, nil, nil
	switch {
	case len(sel) == 1:
		n, _ := d.Node(sel[0])
		in.showNode(d, n)
	case len(sel) > 1:
		in.box.Add(widget.NewLabel(fmt.Sprintf(in.loc.X("insp.multi", "%d nodes selected"), len(sel))))
	case d.SelectedEdges() == 1:
		for _, k := range d.SelectedEdgeKeys() {
			in.showEdge(d, k)
		}
	default:
		in.showWorkflow(d)
	}
}

func stateSig(s map[string]workrun.FieldType) string {
	names := document.FieldNames(s)
	var b strings.Builder
	for _, n := range names {
		b.WriteString(n + "=" + string(s[n]) + ";")
	}
	return b.String()
}

// --- workflow ---

func (in *Inspector) showWorkflow(d *document.Document) {
	in.box.Add(heading(in.loc.X("insp.workflow", "Workflow")))
	name := widget.NewEntry()
	name.SetText(d.Name())
	name.Validator = func(s string) error {
		if strings.TrimSpace(s) == "" {
			return errors.New(in.loc.X("insp.name_empty", "a workflow needs a name"))
		}
		return nil
	}
	name.OnChanged = func(s string) {
		if strings.TrimSpace(s) == "" {
			in.pending = in.loc.X("wf.name", "Name") + ": " + in.loc.X("insp.name_empty", "a workflow needs a name")
			return
		}
		in.pending = ""
		in.apply(func() { in.Edits.name(s, "name") })
	}
	in.widgets["name"] = name
	in.box.Add(caption(in.loc.X("wf.name", "Name")))
	in.box.Add(name)
	in.box.Add(widget.NewSeparator())
	in.box.Add(heading(in.loc.X("insp.state", "State fields")))
	wf := d.Workflow()
	ins := document.WorkflowInputs(wf, in.fields(wf))
	for _, n := range document.FieldNames(wf.State) {
		rm := tooltip.NewButton(in.tips, "", theme.DeleteIcon(), fmt.Sprintf(in.loc.X("insp.remove_field", "Remove the field %s"), n), func() { in.Edits.field(n, "") })
		role := in.loc.X("insp.role_inner", "set by a node")
		if slices.Contains(ins, n) {
			role = in.loc.X("insp.role_input", "run input")
		}
		l := widget.NewLabel(n + " : " + FieldTypeLabel(in.loc, wf.State[n]) + "  (" + role + ")")
		l.Truncation = fyne.TextTruncateEllipsis
		in.box.Add(container.NewBorder(nil, nil, nil, rm, l))
	}
	fname := widget.NewEntry()
	fname.SetPlaceHolder(in.loc.X("insp.field_name", "field name"))
	ftype := FieldTypeSelect(in.loc)
	in.widgets["field_name"], in.widgets["field_type"] = fname, ftype
	addField := func() {
		if n := strings.TrimSpace(fname.Text); n != "" {
			in.Edits.field(n, SelectedFieldType(ftype))
			if in.canvas != nil {
				in.canvas.Focus(in.widgets["field_name"].(*widget.Entry))
			}
		}
	}
	fname.OnSubmitted = func(string) { addField() } // Enter adds the field
	add := widget.NewButtonWithIcon(in.loc.X("insp.add_field", "Add field"), theme.ContentAddIcon(), addField)
	in.box.Add(container.NewGridWithColumns(2, fname, ftype))
	in.box.Add(add)
	in.box.Add(widget.NewSeparator())
	hint := newBreakingLabel(in.words.Wrap, in.loc.X("insp.hint2", "Add nodes from the palette (click, or drag onto the canvas); drag from a node's right dot to another node to connect them. Edits apply as you type. Ctrl+Z undo, Ctrl+Shift+Z redo, Ctrl+C/V copy and paste, Ctrl+D duplicate, Delete removes."))
	hint.Wrapping = fyne.TextWrapWord
	in.widgets["hint"] = hint
	in.box.Add(hint)
}

// fields is what each node of wf reads and writes (nil when unknown).
func (in *Inspector) fields(wf workrun.Workflow) map[string]workrun.NodeFields {
	if in.Fields == nil {
		return nil
	}
	return in.Fields(document.CloneWorkflow(wf))
}

// --- edge ---

func (in *Inspector) showEdge(d *document.Document, k document.EdgeKey) {
	in.box.Add(heading(in.loc.X("insp.edge", "Edge")))
	in.box.Add(widget.NewLabel(k.From + " → " + k.To))
	from, _ := d.Node(k.From)
	in.addEdgePort(d, k) // inspector_policy.go
	if info, _ := in.words.Kind(from.Type); len(info.Branches) > 0 {
		sel := NewSelect(in.loc, info.Branches, func(s string) { in.Edits.edgeWhen(k, s) })
		e, _ := d.Edge(k)
		sel.Selected = e.When
		in.widgets["when"] = sel
		in.box.Add(widget.NewForm(widget.NewFormItem(in.loc.X("insp.when", "Branch"), sel)))
	}
	in.box.Add(widget.NewButtonWithIcon(in.loc.X("edit.delete", "Delete"), theme.DeleteIcon(), in.Edits.deleteSelection))
}

// --- node ---

func (in *Inspector) showNode(d *document.Document, n workrun.NodeSpec) {
	in.nodeID = n.ID
	info, described := in.words.Kind(n.Type)
	in.info = info
	cfg := document.ConfigMap(n.Config)
	state := d.State()
	in.box.Add(container.NewHBox(widget.NewIcon(in.words.KindIcon(n.Type)), heading(in.words.KindLabel(n.Type))))
	in.title = widget.NewEntry()
	in.widgets["title"] = in.title
	in.title.SetText(n.Title)
	in.title.SetPlaceHolder(n.ID)
	// Labels above their fields, wrapping: the inspector is as narrow as
	// its pane, never wider.
	form := container.NewVBox(caption("ID: "+n.ID), caption(in.loc.X("insp.title", "Title")), in.title)
	in.problems = widget.NewLabel("")
	in.problems.Wrapping = fyne.TextWrapWord
	in.problems.Importance = widget.DangerImportance
	item := func(label string, o fyne.CanvasObject) {
		if label != "" {
			form.Add(caption(label))
		}
		form.Add(o)
	}
	if !described {
		item("", caption(fmt.Sprintf(in.loc.X("insp.kind_unknown", "This version of Workrun does not know nodes of type %q; their config is kept as it is."), n.Type)))
	}
	var mf *mcpForm // the MCP tool picker, when the kind has one
	mcpFor := func() *mcpForm {
		if mf == nil {
			mf = in.newMCPForm(n, state)
		}
		return mf
	}
	in.building = true
	for _, f := range info.Fields {
		in.addField(n, f, cfg[f.Key], state, item, mcpFor)
	}
	if mf != nil {
		mf.finish(cfg)
	}
	in.building = false
	in.building = true
	in.addPolicy(n, state, form) // inspector_policy.go
	in.building = false
	in.addTriggers(n, form) // triggers.go
	in.title.OnChanged = func(string) { in.edit(n, "title") }
	// The problems go under the form: appearing and going as a value is
	// typed, they never move the field being typed in.
	in.box.Add(form)
	in.box.Add(in.problems)
	in.recheck(n)
}

// addField adds the editor of one config key, chosen by its value kind,
// and its reader.
func (in *Inspector) addField(n workrun.NodeSpec, f workrun.ConfigField, raw json.RawMessage, state map[string]workrun.FieldType,
	item func(string, fyne.CanvasObject), mcpFor func() *mcpForm) {
	label := f.Label.In(in.loc.Messages())
	hint := f.Hint.In(in.loc.Messages())
	changed := func() { in.edit(n, f.Key) }
	reader := func(read func() (any, bool, error)) {
		in.readers = append(in.readers, fieldReader{key: f.Key, read: read})
	}
	var str string
	if len(raw) > 0 && json.Unmarshal(raw, &str) != nil {
		str = string(raw) // not a string: shown as the JSON it is
	}
	entry := func(text string, multi bool) *widget.Entry {
		var e *widget.Entry
		if multi {
			e = widget.NewMultiLineEntry()
			e.SetMinRowsVisible(3)
		} else {
			e = widget.NewEntry()
		}
		e.SetText(text)
		e.SetPlaceHolder(hint)
		e.OnChanged = func(string) { changed() }
		in.widgets[f.Key] = e
		return e
	}
	trimmed := func(e *widget.Entry) func() (any, bool, error) {
		return func() (any, bool, error) {
			s := strings.TrimSpace(e.Text)
			return s, s != "", nil
		}
	}
	switch f.Value {
	case workrun.ValueText:
		e := entry(str, false)
		item(label, e)
		reader(trimmed(e))
	case workrun.ValueLongText:
		e := entry(str, true)
		item(label, e)
		reader(func() (any, bool, error) { return e.Text, e.Text != "", nil })
	case workrun.ValueTemplate:
		item(label, in.addTemplate(n, f, str, hint, changed)) // inspector_template.go
		e := in.widgets[f.Key].(*TemplateEntry)
		reader(func() (any, bool, error) { return e.Text, strings.TrimSpace(e.Text) != "", nil })
	case workrun.ValueURL:
		if f.Protocol == workrun.ProtocolMCP {
			mf := mcpFor()
			mf.url.SetText(str)
			mf.url.SetPlaceHolder(hint)
			mf.url.OnChanged = func(string) { changed() }
			in.widgets[f.Key] = mf.url
			item(label, mf.url)
			item("", mf.testRow())
			reader(trimmed(mf.url))
			return
		}
		e := entry(str, false)
		item(label, e)
		reader(trimmed(e))
		if f.Protocol == workrun.ProtocolA2A {
			item("", in.agentTestRow())
		}
	case workrun.ValueInt:
		if str == "" && f.Default != nil {
			str = fmt.Sprint(f.Default)
		}
		e := entry(str, false)
		if hint == "" && f.Default != nil {
			e.SetPlaceHolder(fmt.Sprint(f.Default))
		}
		e.Validator = func(s string) error {
			v, set, err := readInt(in.loc, s, label)
			if err == nil && set && (v < f.Min || v > f.Max) {
				err = fmt.Errorf(in.loc.X("insp.int_range", "%s: %d is outside %d–%d"), label, v, f.Min, f.Max)
			}
			return err
		}
		item(label, e)
		reader(func() (any, bool, error) {
			v, set, err := readInt(in.loc, e.Text, label)
			return v, set, err
		})
	case workrun.ValueChoice:
		labels := make([]string, len(f.Options))
		for i, o := range f.Options {
			labels[i] = o.Label.In(in.loc.Messages())
		}
		if !f.Required && f.Default == nil {
			labels = append([]string{""}, labels...)
		}
		cur := str
		if raw == nil && f.Default != nil {
			cur = fmt.Sprint(f.Default)
		}
		s := NewSelect(in.loc, labels, func(string) { changed() })
		s.Selected = cur
		if i := slices.IndexFunc(f.Options, func(o workrun.Choice) bool { return o.Value == cur }); i >= 0 {
			s.Selected = f.Options[i].Label.In(in.loc.Messages())
		}
		in.widgets[f.Key] = s
		item(label, s)
		reader(func() (any, bool, error) {
			for _, o := range f.Options {
				if o.Label.In(in.loc.Messages()) == s.Selected {
					return o.Value, true, nil
				}
			}
			return s.Selected, s.Selected != "", nil // a value this version has no option for
		})
	case workrun.ValueJSON, workrun.ValueJSONObject:
		text := ""
		if len(raw) > 0 {
			text = string(raw)
		}
		e := entry(text, false)
		item(label, e)
		reader(func() (any, bool, error) {
			s := strings.TrimSpace(e.Text)
			var v any
			if err := json.Unmarshal([]byte(s), &v); err != nil {
				v = s // plain text is a string
			}
			return v, s != "", in.checkJSONObject(f, v, s) // inspector_policy.go
		})
	case workrun.ValueField, workrun.ValueCredential:
		var opts []string
		if f.Value == workrun.ValueField {
			opts = document.FieldNames(state, f.FieldTypes...)
		} else if str != "" {
			opts = []string{str}
		}
		// The empty choice is named: a blank first entry read as broken.
		none := noField(in.loc)
		if f.Value == workrun.ValueCredential {
			none = noCredential(in.loc)
		}
		if !f.Required {
			opts = append([]string{none}, opts...)
		}
		s := NewSelect(in.loc, opts, func(string) { changed() })
		s.Selected = str
		if str == "" {
			s.Selected = none
		}
		in.widgets[f.Key] = s
		reader(func() (any, bool, error) {
			if s.Selected == none {
				return "", false, nil
			}
			return s.Selected, s.Selected != "", nil
		})
		if f.Value == workrun.ValueCredential {
			item(label, s)
			in.loadCredentials(s, str)
			break
		}
		options := func() []string {
			o := document.FieldNames(in.doc().State(), f.FieldTypes...)
			if !f.Required {
				o = append([]string{none}, o...)
			}
			return o
		}
		in.stateShown = append(in.stateShown, func() { s.Options = options(); s.Refresh() })
		item(label, in.addFieldPicker(n, f, s, func(name string) { // inspector_template.go
			s.Options = append(options(), name)
			s.Selected = name
			s.Refresh()
		}))
	case workrun.ValueFields:
		var vals []string
		_ = json.Unmarshal(raw, &vals) // not a list: none ticked; the engine names the problem
		opts := document.FieldNames(state, f.FieldTypes...)
		g := widget.NewCheckGroup(opts, func([]string) { changed() })
		g.Selected = vals
		in.widgets[f.Key] = g
		none := widget.NewLabel(in.loc.X("insp.no_fields", "(no suitable State fields; add them to the workflow)"))
		none.Wrapping = fyne.TextWrapWord
		shown := func() {
			g.Options = document.FieldNames(in.doc().State(), f.FieldTypes...)
			g.Hidden, none.Hidden = len(g.Options) == 0, len(g.Options) > 0
			g.Refresh()
			none.Refresh()
		}
		g.Hidden, none.Hidden = len(opts) == 0, len(opts) > 0
		in.stateShown = append(in.stateShown, shown)
		item(label, in.addFieldPicker(n, f, container.NewVBox(none, g), func(name string) { // inspector_template.go
			g.Options = append(g.Options, name)
			g.Selected = append(slices.Clone(g.Selected), name)
			g.Hidden, none.Hidden = false, true
			g.Refresh()
		}))
		reader(func() (any, bool, error) { return slices.Clone(g.Selected), len(g.Selected) > 0, nil })
	case workrun.ValueAssignments, workrun.ValueEnv:
		sep := " = "
		if f.Value == workrun.ValueEnv {
			sep = "="
		}
		m := document.ConfigMap(raw)
		var ls []string
		for _, k := range slices.Sorted(maps.Keys(m)) {
			var s string
			if json.Unmarshal(m[k], &s) != nil {
				s = string(m[k])
			}
			ls = append(ls, k+sep+s)
		}
		e := entry(strings.Join(ls, "\n"), true)
		item(label, e)
		reader(func() (any, bool, error) {
			out := map[string]string{}
			for _, l := range lines(e.Text) {
				k, v, ok := strings.Cut(l, "=")
				if !ok && f.Value == workrun.ValueAssignments {
					return nil, false, fmt.Errorf(in.loc.X("insp.bad_value", "write each value as field = template: %q"), l)
				}
				out[strings.TrimSpace(k)] = strings.TrimSpace(v)
			}
			return out, len(out) > 0, nil
		})
	case workrun.ValueCommand:
		var args []string
		_ = json.Unmarshal(raw, &args) // not a list: empty; the engine names the problem
		e := entry(strings.Join(args, "\n"), true)
		item(label, e)
		reader(func() (any, bool, error) { ls := lines(e.Text); return ls, len(ls) > 0, nil })
		if f.Protocol == workrun.ProtocolMCPStdio {
			// The program is the MCP server: its test starts it.
			mf := mcpFor()
			mf.stdio = true
			item("", mf.testRow())
		}
	case workrun.ValueTool:
		mf := mcpFor()
		mf.toolKey = f.Key
		mf.tool.SetText(str)
		mf.tool.SetPlaceHolder(hint)
		in.widgets[f.Key] = mf.tool
		item(label, mf.tool)
		reader(trimmed(&mf.tool.Entry))
	case workrun.ValueToolArguments:
		mf := mcpFor()
		mf.argsKey = f.Key
		item(label, mf.argsBox())
		reader(func() (any, bool, error) {
			args, err := mf.arguments()
			return args, len(args) > 0, err
		})
	default:
		// A value kind this version cannot edit: shown, kept as it is.
		if len(raw) > 0 {
			item(label, caption(string(raw)))
			keep := raw
			reader(func() (any, bool, error) { return keep, true, nil })
		}
	}
}

// readInt reads a whole number typed into an entry; empty is no value.
func readInt(loc Localizer, s, label string) (int, bool, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, false, nil
	}
	v, err := strconv.Atoi(s)
	if err != nil {
		return 0, false, fmt.Errorf(loc.X("insp.bad_int", "%s: %q is not a whole number"), label, s)
	}
	return v, true, nil
}

// collect reads the form's config values.
func (in *Inspector) collect() (map[string]any, error) {
	vals := map[string]any{}
	for _, r := range in.readers {
		v, ok, err := r.read()
		if err != nil {
			return nil, err
		}
		if ok {
			vals[r.key] = v
		}
	}
	return vals, nil
}

// caption is a field's label above it; it wraps rather than widening the pane.
func caption(text string) *widget.Label {
	l := widget.NewLabel(text)
	l.Wrapping = fyne.TextWrapWord
	l.SizeName = theme.SizeNameCaptionText
	return l
}

// edit applies the form to node n after its field key changed: the title
// and the config each join the undo step of the same field typed before.
// A value that cannot be read stays in the form, marked, and is pending.
func (in *Inspector) edit(n workrun.NodeSpec, key string) {
	if in.nodeID != n.ID || in.building {
		return // a widget of a form no longer shown (it may keep the focus), or one being filled
	}
	in.recheck(n)
	vals, err := in.collect()
	if err != nil {
		in.pending = err.Error()
		return
	}
	in.pending = ""
	d := in.doc()
	cur, ok := d.Node(n.ID)
	if !ok {
		return
	}
	in.apply(func() {
		if key == "title" {
			in.Edits.title(n.ID, strings.TrimSpace(in.title.Text), "title:"+n.ID)
			return
		}
		in.Edits.config(n.ID, document.MergeConfig(cur.Config, in.info, vals), "cfg:"+n.ID+":"+key)
	})
}

// apply runs f, a change the form itself made, without rebuilding the form
// (the field being typed in keeps its focus and cursor).
func (in *Inspector) apply(f func()) {
	in.applying = true
	defer func() { in.applying = false }()
	f()
}

// Pending returns the value the form holds but could not apply, with the
// reason ("" when everything typed is applied).
func (in *Inspector) Pending() string { return in.pending }

// Discard drops the pending value and shows the document's value again.
func (in *Inspector) Discard() {
	in.pending = ""
	in.sig = ""
	in.Show()
}

// unfocus takes the keyboard focus from a field of the form about to go,
// so that keys typed next do not go to a widget no longer shown.
func (in *Inspector) unfocus() {
	if in.canvas == nil {
		return
	}
	c := in.canvas
	f := c.Focused()
	if f == nil {
		return
	}
	if t, ok := f.(*widget.Entry); ok && t == in.title {
		c.Unfocus()
		return
	}
	for _, o := range in.widgets {
		if fo, ok := o.(fyne.Focusable); ok && fo == f {
			c.Unfocus()
			return
		}
	}
}

// recheck shows the problems of the config as typed, before it is
// applied: what cannot be read, then what the node's kind says of it
// (the engine's check of the workflow with this config).
func (in *Inspector) recheck(n workrun.NodeSpec) {
	vals, err := in.collect()
	var ps []string
	if err != nil {
		ps = append(ps, err.Error())
	} else if in.Check != nil {
		wf := in.doc().Workflow()
		for i := range wf.Nodes {
			if wf.Nodes[i].ID == n.ID {
				wf.Nodes[i].Config = document.MergeConfig(wf.Nodes[i].Config, in.info, vals)
			}
		}
		var beside []string
		for _, f := range in.inPlace {
			if t := f(); t != "" {
				beside = append(beside, t)
			}
		}
		for _, p := range in.Check(wf) {
			if p.NodeID != n.ID || p.EdgeIndex >= 0 {
				continue
			}
			t := p.In(in.loc.Messages())
			if slices.ContainsFunc(beside, func(b string) bool { return strings.HasSuffix(t, b) }) {
				continue // shown beside its field
			}
			ps = append(ps, t)
		}
	}
	if len(ps) == 0 {
		in.problems.SetText("")
		in.problems.Hide()
		return
	}
	in.problems.SetText("⚠ " + strings.Join(ps, "\n⚠ "))
	in.problems.Show()
}

// loadCredentials fills a credential picker with the saved credentials'
// names (names only), keeping the node's own.
func (in *Inspector) loadCredentials(s *widget.Select, current string) {
	if in.OnCredentials == nil {
		return
	}
	id := in.nodeID
	if in.credLists == nil {
		in.credLists = map[*widget.Select]uint64{}
	}
	in.credAsked++
	asked := in.credAsked
	in.credLists[s] = asked
	in.OnCredentials(func(cs []credentials.Credential, err error) {
		if in.credLists[s] != asked {
			return // a list asked for later fills the picker
		}
		delete(in.credLists, s)
		opts := []string{noCredential(in.loc)}
		for _, c := range cs {
			opts = append(opts, c.Name)
		}
		if current != "" && !slices.Contains(opts, current) {
			opts = append(opts, current)
		}
		s.Options = opts
		s.Refresh()
		if err != nil && in.nodeID == id && in.testOut != nil {
			in.testOut.SetText(in.words.Keyring(err))
			in.testOut.Show()
		}
		if in.OnCredentialsShown != nil {
			in.OnCredentialsShown()
		}
	})
}

// credential is the credential chosen in the form ("" for none).
func (in *Inspector) credential() string {
	for _, f := range in.info.Fields {
		if f.Value == workrun.ValueCredential {
			if s, ok := in.widgets[f.Key].(*widget.Select); ok && s.Selected != noCredential(in.loc) {
				return s.Selected
			}
		}
	}
	return ""
}

// noCredential is the credential picker's first entry: the node sends no
// credential.
func noCredential(loc Localizer) string {
	return loc.X("insp.no_credential", "No authentication")
}

// RefreshCredentials reads the credential list again into the pickers of
// the form shown (a credential was added or deleted in Settings), keeping
// what each has chosen.
func (in *Inspector) RefreshCredentials() {
	for _, f := range in.info.Fields {
		if f.Value != workrun.ValueCredential {
			continue
		}
		if s, ok := in.widgets[f.Key].(*widget.Select); ok {
			cur := s.Selected
			if cur == noCredential(in.loc) {
				cur = ""
			}
			in.loadCredentials(s, cur)
		}
	}
}

// agentURL is the URL typed for an A2A agent.
func (in *Inspector) agentURL() string {
	for _, f := range in.info.Fields {
		if f.Value == workrun.ValueURL && f.Protocol == workrun.ProtocolA2A {
			if e, ok := in.widgets[f.Key].(*widget.Entry); ok {
				return strings.TrimSpace(e.Text)
			}
		}
	}
	return ""
}

// agentTestRow is the Test connection button of an A2A URL, its result and
// the Add a credential button it offers.
func (in *Inspector) agentTestRow() fyne.CanvasObject {
	in.testOut = widget.NewLabel("")
	in.testOut.Wrapping = fyne.TextWrapWord
	testB := widget.NewButtonWithIcon(in.loc.X("insp.test", "Test connection"), theme.SearchIcon(), in.testConnection)
	if in.OnTestAgent == nil {
		testB.Disable()
	}
	in.addCred = widget.NewButtonWithIcon(in.loc.X("insp.add_credential", "Add a credential…"), theme.ContentAddIcon(), func() {
		if in.OnAddCredential != nil {
			in.OnAddCredential()
		}
	})
	in.addCred.Hide()
	in.signIn = in.signInButton(SignInAgent, in.agentURL)
	// The node's last result shows again when it is selected again, as
	// long as it was for the URL and credential the form holds.
	if r, ok := in.tested[in.nodeID]; ok && r.url == in.agentURL() && r.cred == in.credential() {
		in.testOut.SetText(r.text)
		in.addCred.Hidden = !r.add
		in.signIn.Hidden = !r.sign
	}
	in.widgets["test"], in.widgets["add_credential"], in.widgets["sign_in"] = testB, in.addCred, in.signIn
	return container.NewVBox(testB, in.signIn, in.testOut, in.addCred)
}

// AgentReport is the result of a Remote Agent connection test (OnTestAgent).
type AgentReport struct {
	CardName           string
	InterfaceURL       string
	Streaming          bool
	SecuritySchemes    []string
	CredentialAccepted bool // false when no credential was sent or it was refused
}

// testedResult is a node's last connection test as shown.
type testedResult struct {
	url, cred, text string
	add, sign       bool // Add a credential…, Sign in offered
}

// testConnection checks discovery and authentication of the typed URL with
// the chosen credential (docs/remote-agent.md R3.4); it never submits a
// business task. The app layer runs the check; the inspector only shows it.
func (in *Inspector) testConnection() {
	if in.OnTestAgent == nil || in.testOut == nil {
		return
	}
	cred := in.credential()
	out, add, sign := in.testOut, in.addCred, in.signIn
	out.SetText(in.loc.X("insp.testing", "Testing…"))
	add.Hide()
	sign.Hide()
	done := in.OnTested
	id, url := in.nodeID, in.agentURL()
	in.OnTestAgent(url, cred, func(rep AgentReport, err error) {
		r := testedResult{url: url, cred: cred, text: in.reportText(rep, err, cred != "") + "\n" + testedWith(in.loc, cred)}
		out.SetText(r.text)
		switch in.wants(err) {
		case WantSignIn:
			sign.Show()
			r.sign = true
		case WantCredential, WantOtherCredential:
			add.Show()
			r.add = true
		}
		if in.tested == nil {
			in.tested = map[string]testedResult{}
		}
		in.tested[id] = r
		if done != nil {
			done()
		}
	})
}

// reportText renders a connection test result.
func (in *Inspector) reportText(r AgentReport, err error, withCred bool) string {
	loc := in.loc
	switch want := in.wants(err); {
	case want == WantSignIn:
		return "✗ " + signInNeededText(loc, err)
	case want == WantCredential:
		return "✗ " + loc.X("insp.needs_credential", "The agent wants a credential: add one for this agent's address, choose it under Credential and test again.")
	case want == WantOtherCredential:
		return "✗ " + loc.X("insp.credential_refused", "The agent refused this credential: check its secret, or add another one for this agent's address.")
	case err != nil:
		return "✗ " + in.words.Reason(err.Error())
	}
	yes, no := loc.X("yes", "yes"), loc.X("no", "no")
	yn := func(b bool) string {
		if b {
			return yes
		}
		return no
	}
	schemes := strings.Join(r.SecuritySchemes, ", ")
	if schemes == "" {
		schemes = loc.X("insp.none", "none")
	}
	lines := []string{
		"✓ " + loc.X("insp.card", "Agent card") + ": " + r.CardName,
		loc.X("insp.interface", "JSON-RPC interface") + ": " + r.InterfaceURL,
		loc.X("insp.streaming", "Streaming") + ": " + yn(r.Streaming),
		loc.X("insp.schemes", "Security schemes") + ": " + schemes,
	}
	if withCred {
		lines = append(lines, loc.X("insp.cred_ok", "Credential accepted")+": "+yn(r.CredentialAccepted))
	}
	return strings.Join(lines, "\n")
}

// testedWith says which credential a connection test sent, so a result
// is never read as that of another one.
func testedWith(loc Localizer, cred string) string {
	if cred == "" {
		return loc.X("insp.tested_without", "Tested without a credential.")
	}
	return fmt.Sprintf(loc.X("insp.tested_with", "Tested with the credential %s."), cred)
}

func lines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// noField is an optional field picker's empty choice.
func noField(loc Localizer) string { return loc.X("insp.no_field", "(none: not kept)") }

func heading(text string) *widget.Label {
	return widget.NewLabelWithStyle(text, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
}

// dropped reports that the pending value was left unapplied (the selection
// moved on) for as long as that is news: until the node — or, for the
// workflow form, the workflow's name — it was typed for changes, or another
// workflow opens.
func (in *Inspector) dropped() {
	text := fmt.Sprintf(in.loc.X("insp.dropped", "Not applied: %s"), in.pending)
	if in.OnStatusWhile == nil {
		in.status(text)
		return
	}
	d, id := in.doc(), in.nodeID
	was, _ := d.Node(id)
	name := d.Name()
	in.OnStatusWhile(text, func() bool {
		if in.doc() != d {
			return false
		}
		if id == "" {
			return d.Name() == name
		}
		n, ok := d.Node(id)
		return ok && n.Title == was.Title && bytes.Equal(n.Config, was.Config)
	})
}
