package ui

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"workrun/workrun"
)

// Inspector edits what is selected: a node's title and config keys, an
// edge's branch, or (with nothing selected) the workflow's name and State.
// Every edit applies as it is typed; the keystrokes of one field make one
// undo step. A value that cannot be applied (a timeout that is no number) is
// marked in place and kept as "pending" until it is fixed or discarded, so
// it is never dropped without a word.
type Inspector struct {
	w    *Window
	box  *fyne.Container
	root fyne.CanvasObject
	sig  string

	nodeID   string
	title    *widget.Entry
	widgets  map[string]fyne.CanvasObject // by config key
	collect  func() (Config, error)
	problems *widget.Label
	testOut  *widget.Label
	addCred  *widget.Button // offered when the agent wants a credential
	pending  string         // the value the form holds but could not apply, with why
	applying bool           // the form is writing to the document: do not rebuild it

	// testDone is called when a connection test finished (tests wait on it).
	testDone func()
	mcp      mcpState // the Remote MCP Tool form's tool lists (inspector_mcp.go)
}

// NewInspector makes the inspector of w.
func NewInspector(w *Window) *Inspector {
	in := &Inspector{w: w, box: container.NewVBox()}
	// widthFree: the form takes the pane's width instead of asking for its
	// widest row, so a long option or text never widens the window.
	in.root = container.New(widthFree{}, container.NewPadded(in.box))
	return in
}

// Object is the inspector's widget tree.
func (in *Inspector) Object() fyne.CanvasObject { return in.root }

// Show rebuilds the form for the current selection when it changed.
func (in *Inspector) Show() {
	d := in.w.doc
	sel := d.Selected()
	var sig string
	switch {
	case len(sel) == 1:
		n, _ := d.Node(sel[0])
		sig = "n:" + n.ID + n.Title + string(n.Config) + stateSig(d.wf.State)
	case len(sel) > 1:
		sig = fmt.Sprintf("m:%d", len(sel))
	case d.SelectedEdges() == 1:
		for k := range d.selEdges {
			sig = "e:" + k.From + ">" + k.To + d.wf.Edges[d.edgeIndex(k)].When
		}
	default:
		sig = "w:" + d.wf.Name + stateSig(d.wf.State)
	}
	// The form's closures hold the document: another document is another form.
	sig = fmt.Sprintf("%p|", d) + sig
	if in.applying {
		in.sig = sig // the form already shows this
		return
	}
	if sig == in.sig {
		return
	}
	if in.pending != "" {
		in.w.setStatus(fmt.Sprintf(lang.X("insp.dropped", "Not applied: %s"), in.pending))
		in.pending = ""
	}
	in.sig = sig
	in.unfocus()
	in.box.RemoveAll()
	in.nodeID = ""
	in.widgets = map[string]fyne.CanvasObject{}
	in.collect = nil
	switch {
	case len(sel) == 1:
		n, _ := d.Node(sel[0])
		in.showNode(n)
	case len(sel) > 1:
		in.box.Add(widget.NewLabel(fmt.Sprintf(lang.X("insp.multi", "%d nodes selected"), len(sel))))
	case d.SelectedEdges() == 1:
		for k := range d.selEdges {
			in.showEdge(k)
		}
	default:
		in.showWorkflow()
	}
}

func stateSig(s map[string]workrun.FieldType) string {
	names := fieldNames(s)
	var b strings.Builder
	for _, n := range names {
		b.WriteString(n + "=" + string(s[n]) + ";")
	}
	return b.String()
}

func fieldNames(s map[string]workrun.FieldType, types ...workrun.FieldType) []string {
	var out []string
	for n, t := range s {
		if len(types) == 0 || slices.Contains(types, t) {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out
}

func heading(text string) *widget.Label {
	return widget.NewLabelWithStyle(text, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
}

// --- workflow ---

func (in *Inspector) showWorkflow() {
	d := in.w.doc
	in.box.Add(heading(lang.X("insp.workflow", "Workflow")))
	name := widget.NewEntry()
	name.SetText(d.wf.Name)
	name.Validator = func(s string) error {
		if strings.TrimSpace(s) == "" {
			return errors.New(lang.X("insp.name_empty", "a workflow needs a name"))
		}
		return nil
	}
	name.OnChanged = func(s string) {
		if strings.TrimSpace(s) == "" {
			in.pending = lang.X("wf.name", "Name") + ": " + lang.X("insp.name_empty", "a workflow needs a name")
			return
		}
		in.pending = ""
		in.apply(func() { d.EditName(s, "name") })
	}
	in.widgets["name"] = name
	in.box.Add(caption(lang.X("wf.name", "Name")))
	in.box.Add(name)
	in.box.Add(widget.NewSeparator())
	in.box.Add(heading(lang.X("insp.state", "State fields")))
	ins := workflowInputs(d.wf)
	for _, n := range fieldNames(d.wf.State) {
		rm := newTipButton(in.w.tips, "", theme.DeleteIcon(), fmt.Sprintf(lang.X("insp.remove_field", "Remove the field %s"), n), func() { d.SetField(n, "") })
		role := lang.X("insp.role_inner", "set by a node")
		if slices.Contains(ins, n) {
			role = lang.X("insp.role_input", "run input")
		}
		l := widget.NewLabel(n + " : " + FieldTypeLabel(d.wf.State[n]) + "  (" + role + ")")
		l.Truncation = fyne.TextTruncateEllipsis
		in.box.Add(container.NewBorder(nil, nil, nil, rm, l))
	}
	fname := widget.NewEntry()
	fname.SetPlaceHolder(lang.X("insp.field_name", "field name"))
	ftype := fieldTypeSelect()
	in.widgets["field_name"], in.widgets["field_type"] = fname, ftype
	addField := func() {
		if n := strings.TrimSpace(fname.Text); n != "" {
			d.SetField(n, SelectedFieldType(ftype))
			in.w.win.Canvas().Focus(in.widgets["field_name"].(*widget.Entry))
		}
	}
	fname.OnSubmitted = func(string) { addField() } // Enter adds the field
	add := widget.NewButtonWithIcon(lang.X("insp.add_field", "Add field"), theme.ContentAddIcon(), addField)
	in.box.Add(container.NewGridWithColumns(2, fname, ftype))
	in.box.Add(add)
	in.box.Add(widget.NewSeparator())
	hint := widget.NewLabel(lang.X("insp.hint2", "Add nodes from the palette (click, or drag onto the canvas); drag from a node's right dot to another node to connect them. Edits apply as you type. Ctrl+Z undo, Ctrl+Shift+Z redo, Ctrl+C/V copy and paste, Ctrl+D duplicate, Delete removes."))
	hint.Wrapping = fyne.TextWrapWord
	in.box.Add(hint)
}

// --- edge ---

func (in *Inspector) showEdge(k EdgeKey) {
	d := in.w.doc
	in.box.Add(heading(lang.X("insp.edge", "Edge")))
	in.box.Add(widget.NewLabel(k.From + " → " + k.To))
	from, _ := d.Node(k.From)
	if from.Type == "condition" {
		sel := newSelect([]string{"true", "false"}, func(s string) { d.SetEdgeWhen(k, s) })
		sel.Selected = d.wf.Edges[d.edgeIndex(k)].When
		in.widgets["when"] = sel
		in.box.Add(widget.NewForm(widget.NewFormItem(lang.X("insp.when", "Branch"), sel)))
	}
	in.box.Add(widget.NewButtonWithIcon(lang.X("edit.delete", "Delete"), theme.DeleteIcon(), func() { d.DeleteSelection() }))
}

// --- node ---

func (in *Inspector) showNode(n workrun.NodeSpec) {
	d := in.w.doc
	in.nodeID = n.ID
	c, err := DecodeConfig(n.Config)
	if err != nil {
		c = Config{}
	}
	state := d.wf.State
	in.box.Add(container.NewHBox(widget.NewIcon(KindIcon(n.Type)), heading(KindLabel(n.Type))))
	in.title = widget.NewEntry()
	in.title.SetText(n.Title)
	in.title.SetPlaceHolder(n.ID)
	// Labels above their fields, wrapping: the inspector is as narrow as
	// its pane, never wider.
	form := container.NewVBox(caption("ID: "+n.ID), caption(lang.X("insp.title", "Title")), in.title)
	in.problems = widget.NewLabel("")
	in.problems.Wrapping = fyne.TextWrapWord
	in.problems.Importance = widget.DangerImportance
	changed := func(key string) func() { return func() { in.edit(n, key) } }

	entry := func(key, val, hint string, multi bool) *widget.Entry {
		var e *widget.Entry
		if multi {
			e = widget.NewMultiLineEntry()
			e.SetMinRowsVisible(3)
		} else {
			e = widget.NewEntry()
		}
		e.SetText(val)
		e.SetPlaceHolder(hint)
		e.OnChanged = func(string) { changed(key)() }
		in.widgets[key] = e
		return e
	}
	pickOne := func(key, val string, opts []string, allowNone bool) *widget.Select {
		if allowNone {
			opts = append([]string{""}, opts...)
		}
		s := newSelect(opts, func(string) { changed(key)() })
		s.Selected = val
		in.widgets[key] = s
		return s
	}
	pickMany := func(key string, vals, opts []string) fyne.CanvasObject {
		g := widget.NewCheckGroup(opts, func([]string) { changed(key)() })
		g.Selected = slices.Clone(vals)
		in.widgets[key] = g
		if len(opts) == 0 {
			l := widget.NewLabel(lang.X("insp.no_fields", "(no suitable State fields; add them to the workflow)"))
			l.Wrapping = fyne.TextWrapWord
			return l
		}
		return g
	}
	text := func(key string) string { return in.widgets[key].(*widget.Entry).Text }
	sel := func(key string) string { return in.widgets[key].(*widget.Select).Selected }
	many := func(key string) []string { return slices.Clone(in.widgets[key].(*widget.CheckGroup).Selected) }
	timeout := func() (int, error) {
		s := strings.TrimSpace(text("timeout_seconds"))
		if s == "" {
			return 0, nil
		}
		t, err := strconv.Atoi(s)
		if err != nil {
			return 0, fmt.Errorf(lang.X("insp.bad_timeout", "timeout: %q is not a whole number of seconds"), s)
		}
		return t, nil
	}
	item := func(label string, o fyne.CanvasObject) {
		if label != "" {
			form.Add(caption(label))
		}
		form.Add(o)
	}
	validTimeout := func(lo, hi int) func(string) error {
		return func(s string) error {
			s = strings.TrimSpace(s)
			if s == "" {
				return nil
			}
			t, err := strconv.Atoi(s)
			if err != nil {
				return fmt.Errorf(lang.X("insp.bad_timeout", "timeout: %q is not a whole number of seconds"), s)
			}
			if t < lo || t > hi {
				return fmt.Errorf(lang.X("insp.timeout_range", "timeout: %d is outside %d–%d s"), t, lo, hi)
			}
			return nil
		}
	}

	switch n.Type {
	case "set":
		var lines []string
		for _, k := range sortedKeys(c.Values) {
			lines = append(lines, k+" = "+c.Values[k])
		}
		item(lang.X("insp.values", "Values (one field = template a line)"), entry("values", strings.Join(lines, "\n"), "msg = hello {{name}}", true))
		in.collect = func() (Config, error) {
			vals := map[string]string{}
			for _, l := range strings.Split(text("values"), "\n") {
				if strings.TrimSpace(l) == "" {
					continue
				}
				k, v, ok := strings.Cut(l, "=")
				if !ok {
					return Config{}, fmt.Errorf(lang.X("insp.bad_value", "write each value as field = template: %q"), l)
				}
				vals[strings.TrimSpace(k)] = strings.TrimSpace(v)
			}
			return Config{Values: vals}, nil
		}
	case "condition":
		item(lang.X("insp.field", "Field"), pickOne("field", c.Field, fieldNames(state), false))
		item(lang.X("insp.op", "Operator"), pickOne("op", c.Op, Ops, false))
		v := ""
		if c.Value != nil {
			b, _ := json.Marshal(c.Value)
			v = string(b)
		}
		item(lang.X("insp.value", "Value"), entry("value", v, `3, "text", true`, false))
		in.collect = func() (Config, error) {
			var val any
			s := strings.TrimSpace(text("value"))
			if err := json.Unmarshal([]byte(s), &val); err != nil {
				val = s // plain text compares as a string
			}
			return Config{Field: sel("field"), Op: sel("op"), Value: val}, nil
		}
	case "output":
		item(lang.X("insp.fields", "Fields"), pickMany("fields", c.Fields, fieldNames(state)))
		in.collect = func() (Config, error) { return Config{Fields: many("fields")}, nil }
	case "human_review":
		item(lang.X("insp.prompt", "Prompt"), entry("prompt", c.Prompt, "", true))
		in.collect = func() (Config, error) { return Config{Prompt: text("prompt")}, nil }
	case "ask_human":
		item(lang.X("insp.prompt", "Prompt"), entry("prompt", c.Prompt, "", true))
		item(lang.X("insp.answer_field", "Answer field"), pickOne("field", c.Field, fieldNames(state, workrun.FieldText), false))
		in.collect = func() (Config, error) { return Config{Prompt: text("prompt"), Field: sel("field")}, nil }
	case "process":
		item(lang.X("insp.command", "Command (one argument per line)"), entry("command", strings.Join(c.Command, "\n"), "sh\n-c\necho hi", true))
		var env []string
		for _, k := range sortedKeys(c.Env) {
			env = append(env, k+"="+c.Env[k])
		}
		item(lang.X("insp.env", "Environment (NAME=value)"), entry("env", strings.Join(env, "\n"), "", true))
		item(lang.X("insp.timeout", "Timeout (seconds)"), entry("timeout_seconds", itoa(c.TimeoutSeconds), "60", false))
		in.widgets["timeout_seconds"].(*widget.Entry).Validator = validTimeout(1, 1<<31-1)
		item(lang.X("insp.stdout", "Stdout into field"), pickOne("stdout", c.Stdout, fieldNames(state, workrun.FieldText, workrun.FieldJSON), true))
		item(lang.X("insp.cleanup", "Cleanup on failure (one argument per line)"), entry("cleanup", strings.Join(c.Cleanup, "\n"), "", true))
		in.collect = func() (Config, error) {
			t, err := timeout()
			env := map[string]string{}
			for _, l := range lines(text("env")) {
				k, v, _ := strings.Cut(l, "=")
				env[k] = v
			}
			if len(env) == 0 {
				env = nil
			}
			return Config{Command: lines(text("command")), Env: env, TimeoutSeconds: t, Stdout: sel("stdout"), Cleanup: lines(text("cleanup"))}, err
		}
	case "remote_agent":
		item(lang.X("insp.url", "A2A service URL"), entry("url", c.URL, "https://agent.example.com", false))
		in.testOut = widget.NewLabel("")
		in.testOut.Wrapping = fyne.TextWrapWord
		testB := widget.NewButtonWithIcon(lang.X("insp.test", "Test connection"), theme.SearchIcon(), in.TestConnection)
		if in.w.deps.CheckAgent == nil {
			testB.Disable()
		}
		in.addCred = widget.NewButtonWithIcon(lang.X("insp.add_credential", "Add a credential…"), theme.ContentAddIcon(), in.w.showCredentials)
		in.addCred.Hide()
		item("", container.NewVBox(testB, in.testOut, in.addCred))
		item(lang.X("insp.inputs", "Input fields (the instructions travel here)"), pickMany("inputs", c.Inputs, fieldNames(state)))
		item(lang.X("insp.attachments", "Attachments (file fields)"), pickMany("attachments", c.Attachments, fieldNames(state, workrun.FieldFile, workrun.FieldFiles)))
		item(lang.X("insp.output", "Answer into field"), pickOne("output", c.Output, fieldNames(state, workrun.FieldText, workrun.FieldJSON), true))
		item(lang.X("insp.output_files", "Result files into field"), pickOne("output_files", c.OutputFiles, fieldNames(state, workrun.FieldFile, workrun.FieldFiles), true))
		cred := pickOne("credential", c.Credential, nil, true)
		in.loadCredentials(cred, c.Credential)
		item(lang.X("insp.credential", "Credential"), cred)
		if c.TimeoutSeconds == 0 {
			c.TimeoutSeconds = DefaultTimeout
		}
		item(lang.X("insp.timeout_ra", "Request timeout (1–600 s)"), entry("timeout_seconds", itoa(c.TimeoutSeconds), "120", false))
		in.widgets["timeout_seconds"].(*widget.Entry).Validator = validTimeout(MinTimeout, MaxTimeout)
		in.collect = func() (Config, error) {
			t, err := timeout()
			return Config{URL: strings.TrimSpace(text("url")), Inputs: many("inputs"), Attachments: many("attachments"),
				Output: sel("output"), OutputFiles: sel("output_files"), Credential: sel("credential"), TimeoutSeconds: t}, err
		}
	case "remote_mcp":
		in.collect = in.showRemoteMCP(n, c, item)
	default:
		in.collect = func() (Config, error) { return c, nil }
	}
	if in.collect == nil {
		in.collect = func() (Config, error) { return Config{}, nil }
	}
	in.title.OnChanged = func(string) { changed("title")() }
	in.box.Add(in.problems)
	in.box.Add(form)
	in.recheck(n)
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
	if in.collect == nil || in.nodeID != n.ID {
		return // a widget of a form no longer shown (it may keep the focus)
	}
	in.recheck(n)
	c, err := in.collect()
	if err != nil {
		in.pending = err.Error()
		return
	}
	in.pending = ""
	d := in.w.doc
	cur, ok := d.Node(n.ID)
	if !ok {
		return
	}
	in.apply(func() {
		if key == "title" {
			d.EditTitle(n.ID, strings.TrimSpace(in.title.Text), "title:"+n.ID)
			return
		}
		d.EditConfig(n.ID, MergeConfig(cur.Config, c), "cfg:"+n.ID+":"+key)
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
	c := in.w.win.Canvas()
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

// recheck shows the problems of the config as typed, before it is applied.
func (in *Inspector) recheck(n workrun.NodeSpec) {
	c, err := in.collect()
	var ps []string
	if err != nil {
		ps = append(ps, err.Error())
	} else {
		n.Config = EncodeConfig(c)
		ps = append(ps, checkNode(n, in.w.doc.wf.State)...)
	}
	if len(ps) == 0 {
		in.problems.SetText("")
		in.problems.Hide()
		return
	}
	in.problems.SetText("⚠ " + strings.Join(ps, "\n⚠ "))
	in.problems.Show()
}

// Problems returns the problems the form shows for the typed config.
func (in *Inspector) Problems() []string {
	if in.problems == nil || !in.problems.Visible() {
		return nil
	}
	return strings.Split(strings.TrimPrefix(in.problems.Text, "⚠ "), "\n⚠ ")
}

// Apply writes the whole form into the document. Edits already apply as
// they are typed; Apply is for a caller that changed widgets directly.
func (in *Inspector) Apply() {
	if in.nodeID == "" || in.collect == nil {
		return
	}
	n, ok := in.w.doc.Node(in.nodeID)
	if !ok {
		return
	}
	in.edit(n, "title")
	in.edit(n, "config")
}

// loadCredentials fills the credential picker from the manager (names only).
func (in *Inspector) loadCredentials(s *widget.Select, current string) {
	if in.w.deps.Credentials == nil {
		if current != "" {
			s.Options = append(s.Options, current)
		}
		return
	}
	mgr := in.w.deps.Credentials
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		cs, err := mgr.List(ctx)
		in.w.do(func() {
			opts := []string{""}
			for _, c := range cs {
				opts = append(opts, c.Name)
			}
			if current != "" && !slices.Contains(opts, current) {
				opts = append(opts, current)
			}
			s.Options = opts
			s.Refresh()
			if err != nil {
				in.testOut.SetText(KeyringErrorText(err))
			}
		})
	}()
}

// TestConnection checks discovery and authentication of the typed URL with
// the chosen credential (docs/remote-agent.md R3.4); it never submits a
// business task. The window runs the check; the inspector only shows it.
func (in *Inspector) TestConnection() {
	if in.w.deps.CheckAgent == nil || in.testOut == nil {
		return
	}
	u := strings.TrimSpace(in.widgets["url"].(*widget.Entry).Text)
	cred := in.widgets["credential"].(*widget.Select).Selected
	out, add := in.testOut, in.addCred
	out.SetText(lang.X("insp.testing", "Testing…"))
	if add != nil {
		add.Hide()
	}
	done := in.testDone
	in.w.checkAgent(u, cred, func(rep AgentReport, err error) {
		out.SetText(ReportText(rep, err, cred != ""))
		if add != nil && (errors.Is(err, ErrNeedsCredential) || errors.Is(err, ErrCredentialRefused)) {
			add.Show()
		}
		if done != nil {
			done()
		}
	})
}

// checkAgent runs the Remote Agent connection test off the Fyne thread (the
// window owns the goroutine and its context) and hands the result to show
// on the Fyne thread.
func (w *Window) checkAgent(url, credential string, show func(AgentReport, error)) {
	check := w.deps.CheckAgent
	parent := w.ctx
	go func() {
		ctx, cancel := context.WithTimeout(parent, 30*time.Second)
		defer cancel()
		rep, err := check(ctx, url, credential)
		w.do(func() { show(rep, err) })
	}()
}

// TestResult returns the text the connection test shows.
func (in *Inspector) TestResult() string {
	if in.testOut == nil {
		return ""
	}
	return in.testOut.Text
}

// ReportText renders a connection test result.
func ReportText(r AgentReport, err error, withCred bool) string {
	switch {
	case errors.Is(err, ErrNeedsCredential):
		return "✗ " + lang.X("insp.needs_credential", "The agent wants a credential: add one for this agent's address, choose it under Credential and test again.")
	case errors.Is(err, ErrCredentialRefused):
		return "✗ " + lang.X("insp.credential_refused", "The agent refused this credential: check its secret, or add another one for this agent's address.")
	case err != nil:
		return "✗ " + err.Error()
	}
	yes, no := lang.X("yes", "yes"), lang.X("no", "no")
	yn := func(b bool) string {
		if b {
			return yes
		}
		return no
	}
	schemes := strings.Join(r.SecuritySchemes, ", ")
	if schemes == "" {
		schemes = lang.X("insp.none", "none")
	}
	lines := []string{
		"✓ " + lang.X("insp.card", "Agent card") + ": " + r.CardName,
		lang.X("insp.interface", "JSON-RPC interface") + ": " + r.InterfaceURL,
		lang.X("insp.streaming", "Streaming") + ": " + yn(r.Streaming),
		lang.X("insp.schemes", "Security schemes") + ": " + schemes,
	}
	if withCred {
		lines = append(lines, lang.X("insp.cred_ok", "Credential accepted")+": "+yn(r.CredentialAccepted))
	}
	return strings.Join(lines, "\n")
}

func sortedKeys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
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

func itoa(n int) string {
	if n == 0 {
		return ""
	}
	return strconv.Itoa(n)
}
