package ui

import (
	"context"
	"encoding/json"
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
// Changes are typed into the form and applied as one undoable command.
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
	applyB   *widget.Button

	// testDone is called when a connection test finished (tests wait on it).
	testDone func()
}

// NewInspector makes the inspector of w.
func NewInspector(w *Window) *Inspector {
	in := &Inspector{w: w, box: container.NewVBox()}
	in.root = container.NewPadded(in.box)
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
	if sig == in.sig {
		return
	}
	in.sig = sig
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
	name.OnSubmitted = func(s string) { d.SetName(s) }
	in.widgets["name"] = name
	in.box.Add(widget.NewForm(widget.NewFormItem(lang.X("wf.name", "Name"), name)))
	in.box.Add(widget.NewButton(lang.X("insp.apply", "Apply"), func() { d.SetName(name.Text) }))
	in.box.Add(widget.NewSeparator())
	in.box.Add(heading(lang.X("insp.state", "State fields")))
	for _, n := range fieldNames(d.wf.State) {
		rm := widget.NewButtonWithIcon("", theme.DeleteIcon(), func() { d.SetField(n, "") })
		in.box.Add(container.NewBorder(nil, nil, nil, rm, widget.NewLabel(n+" : "+FieldTypeLabel(d.wf.State[n]))))
	}
	fname := widget.NewEntry()
	fname.SetPlaceHolder(lang.X("insp.field_name", "field name"))
	ftype := fieldTypeSelect()
	in.widgets["field_name"], in.widgets["field_type"] = fname, ftype
	add := widget.NewButtonWithIcon(lang.X("insp.add_field", "Add field"), theme.ContentAddIcon(), func() {
		if n := strings.TrimSpace(fname.Text); n != "" {
			d.SetField(n, SelectedFieldType(ftype))
		}
	})
	in.box.Add(container.NewGridWithColumns(2, fname, ftype))
	in.box.Add(add)
	in.box.Add(widget.NewSeparator())
	hint := widget.NewLabel(lang.X("insp.hint", "Add nodes from the palette; drag from a node's dot to another node to connect them. Ctrl+Z undo, Ctrl+Shift+Z redo, Ctrl+C/V copy and paste, Ctrl+D duplicate, Delete removes."))
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
	form := widget.NewForm(
		widget.NewFormItem("ID", widget.NewLabel(n.ID)),
		widget.NewFormItem(lang.X("insp.title", "Title"), in.title),
	)
	in.problems = widget.NewLabel("")
	in.problems.Wrapping = fyne.TextWrapWord
	in.problems.Importance = widget.DangerImportance
	changed := func() { in.recheck(n) }

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
		e.OnChanged = func(string) { changed() }
		in.widgets[key] = e
		return e
	}
	pickOne := func(key, val string, opts []string, allowNone bool) *widget.Select {
		if allowNone {
			opts = append([]string{""}, opts...)
		}
		s := newSelect(opts, func(string) { changed() })
		s.Selected = val
		in.widgets[key] = s
		return s
	}
	pickMany := func(key string, vals, opts []string) fyne.CanvasObject {
		g := widget.NewCheckGroup(opts, func([]string) { changed() })
		g.Selected = slices.Clone(vals)
		in.widgets[key] = g
		if len(opts) == 0 {
			return widget.NewLabel(lang.X("insp.no_fields", "(no suitable State fields; add them to the workflow)"))
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
	item := func(label string, o fyne.CanvasObject) { form.Append(label, o) }

	switch n.Type {
	case "set":
		var lines []string
		for _, k := range sortedKeys(c.Values) {
			lines = append(lines, k+" = "+c.Values[k])
		}
		item(lang.X("insp.values", "Values"), entry("values", strings.Join(lines, "\n"), "msg = hello {{name}}", true))
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
		item("", container.NewVBox(testB, in.testOut))
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
		in.collect = func() (Config, error) {
			t, err := timeout()
			return Config{URL: strings.TrimSpace(text("url")), Inputs: many("inputs"), Attachments: many("attachments"),
				Output: sel("output"), OutputFiles: sel("output_files"), Credential: sel("credential"), TimeoutSeconds: t}, err
		}
	default:
		in.collect = func() (Config, error) { return c, nil }
	}
	if in.collect == nil {
		in.collect = func() (Config, error) { return Config{}, nil }
	}
	in.title.OnChanged = func(string) { changed() }
	in.box.Add(form)
	in.applyB = widget.NewButtonWithIcon(lang.X("insp.apply", "Apply"), theme.ConfirmIcon(), in.Apply)
	in.applyB.Importance = widget.HighImportance
	in.box.Add(in.applyB)
	in.box.Add(in.problems)
	in.recheck(n)
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

// Apply writes the form into the document as one undoable change.
func (in *Inspector) Apply() {
	if in.nodeID == "" || in.collect == nil {
		return
	}
	c, err := in.collect()
	if err != nil {
		in.problems.SetText("⚠ " + err.Error())
		in.problems.Show()
		return
	}
	id := in.nodeID
	d := in.w.doc
	n, _ := d.Node(id)
	d.SetTitle(id, strings.TrimSpace(in.title.Text))
	d.SetConfig(id, MergeConfig(n.Config, c))
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
		fyne.Do(func() {
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
// the chosen credential (R3.4); it never submits a business task.
func (in *Inspector) TestConnection() {
	check := in.w.deps.CheckAgent
	if check == nil || in.testOut == nil {
		return
	}
	u := strings.TrimSpace(in.widgets["url"].(*widget.Entry).Text)
	cred := in.widgets["credential"].(*widget.Select).Selected
	out := in.testOut
	out.SetText(lang.X("insp.testing", "Testing…"))
	done := in.testDone
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		rep, err := check(ctx, u, cred)
		fyne.Do(func() {
			out.SetText(ReportText(rep, err, cred != ""))
			if done != nil {
				done()
			}
		})
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
	if err != nil {
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
	if r.Note != "" {
		lines = append(lines, r.Note)
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
