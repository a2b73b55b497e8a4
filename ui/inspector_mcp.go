package ui

import (
	"bytes"
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

// MCPTool is one tool as the Remote MCP Tool's connection test lists it.
type MCPTool struct {
	Name        string
	Title       string
	Description string
	// TaskSupport is the tool's execution.taskSupport: "forbidden",
	// "optional" or "required".
	TaskSupport string
	// InputSchema is the JSON Schema of the tool's arguments (may be empty).
	InputSchema json.RawMessage
}

// mcpState is what the inspector keeps across rebuilds of a Remote MCP Tool
// form: the tools each URL listed at its last successful test, so choosing
// another node and coming back (or an undo) keeps the argument form.
type mcpState struct {
	tools map[string][]MCPTool // by URL as tested
	// credsShown, when set, is called after the credential picker was
	// filled (tests wait on it).
	credsShown func()
}

// mcpTaskModes are the task config values, in the picker's order.
var mcpTaskModes = []string{"auto", "always", "never"}

// checkMCP runs the MCP connection test off the Fyne thread (the app layer
// owns the goroutine and the context) and hands the result to show on the
// Fyne thread.
func (w *Window) checkMCP(url, credential string, show func([]MCPTool, error)) {
	check := w.deps.CheckMCP
	if check == nil {
		show(nil, errors.New(lang.X("insp.mcp_no_check", "connection tests are not available here")))
		return
	}
	parent := w.ctx
	go func() {
		ctx, cancel := context.WithTimeout(parent, 30*time.Second)
		defer cancel()
		tools, err := check(ctx, url, credential)
		w.do(func() { show(tools, err) })
	}()
}

// listCredentials reads the saved credentials' names off the Fyne thread
// and hands them to show on it; without a credential manager show is not
// called.
func (w *Window) listCredentials(show func([]Credential, error)) {
	mgr := w.deps.Credentials
	if mgr == nil {
		return
	}
	parent := w.ctx
	go func() {
		ctx, cancel := context.WithTimeout(parent, 10*time.Second)
		defer cancel()
		cs, err := mgr.List(ctx)
		w.do(func() { show(cs, err) })
	}()
}

// mcpForm is the Remote MCP Tool form being shown.
type mcpForm struct {
	in      *Inspector
	n       workrun.NodeSpec
	url     *widget.Entry
	tool    *widget.SelectEntry
	cred    *widget.Select
	status  *widget.Label
	list    *fyne.Container   // the tools of the last test
	tools   *widget.Accordion // the list, folded once a tool is chosen
	args    *fyne.Container   // one row per argument
	missing *widget.Label     // required arguments left empty
	params  []*mcpParam       // the rows of args, in order
	shown   string            // the tool whose schema the rows follow ("": none known)
}

// mcpParam is one argument row.
type mcpParam struct {
	name     string
	types    []string // JSON Schema types; empty when unknown
	required bool
	inSchema bool
	entry    *widget.Entry
}

// showRemoteMCP builds the Remote MCP Tool form (docs/remote-mcp.md M1) and
// returns its collect function. item adds a captioned row to the form.
func (in *Inspector) showRemoteMCP(n workrun.NodeSpec, c Config, item func(string, fyne.CanvasObject)) func() (Config, error) {
	if in.mcp.tools == nil {
		in.mcp.tools = map[string][]MCPTool{}
	}
	state := in.w.doc.wf.State
	f := &mcpForm{in: in, n: n}
	changed := func(key string) func(string) { return func(string) { in.edit(n, key) } }

	f.url = widget.NewEntry()
	f.url.SetText(c.URL)
	f.url.SetPlaceHolder("http://127.0.0.1:41251/mcp")
	f.url.OnChanged = changed("url")
	in.widgets["url"] = f.url
	item(lang.X("insp.mcp_url", "MCP server URL"), f.url)

	f.status = widget.NewLabel("")
	f.status.Wrapping = fyne.TextWrapWord
	f.status.Hide()
	in.testOut = f.status
	f.list = container.NewVBox()
	f.tools = widget.NewAccordion(widget.NewAccordionItem("", f.list))
	f.tools.Hide()
	in.widgets["tools"] = f.tools
	testB := widget.NewButtonWithIcon(lang.X("insp.test", "Test connection"), theme.SearchIcon(), f.test)
	if in.w.deps.CheckMCP == nil {
		testB.Disable()
	}
	in.widgets["test"] = testB
	item("", container.NewVBox(testB, f.status, f.tools))

	f.tool = widget.NewSelectEntry(nil)
	f.tool.SetText(c.Tool)
	f.tool.SetPlaceHolder(lang.X("insp.mcp_tool_hint", "test the connection, then choose"))
	in.widgets["tool"] = f.tool
	item(lang.X("insp.mcp_tool", "Tool"), f.tool)

	f.args = container.NewVBox()
	f.missing = widget.NewLabel("")
	f.missing.Wrapping = fyne.TextWrapWord
	f.missing.Importance = widget.WarningImportance
	f.missing.Hide()
	item(lang.X("insp.mcp_args", "Arguments"), container.NewVBox(f.readable(state), f.args, f.missing))

	item(lang.X("insp.mcp_output", "Text result into field"), f.pick("output", c.Output, fieldNames(state, workrun.FieldText)))
	item(lang.X("insp.mcp_output_json", "Structured result into field"), f.pick("output_json", c.OutputJSON, fieldNames(state, workrun.FieldJSON)))
	item(lang.X("insp.output_files", "Result files into field"), f.pick("output_files", c.OutputFiles, fieldNames(state, workrun.FieldFiles)))
	f.cred = f.pick("credential", c.Credential, nil)
	if c.Credential != "" {
		f.cred.Options = append(f.cred.Options, c.Credential)
	}
	in.w.listCredentials(func(cs []Credential, err error) {
		opts := []string{""}
		for _, cr := range cs {
			opts = append(opts, cr.Name)
		}
		if c.Credential != "" && !slices.Contains(opts, c.Credential) {
			opts = append(opts, c.Credential)
		}
		f.cred.Options = opts
		f.cred.Refresh()
		if err != nil && f.current() {
			f.status.SetText(KeyringErrorText(err))
			f.status.Show()
		}
		if in.mcp.credsShown != nil {
			in.mcp.credsShown()
		}
	})
	item(lang.X("insp.credential", "Credential"), f.cred)

	if c.TimeoutSeconds == 0 {
		c.TimeoutSeconds = DefaultTimeout
	}
	timeout := widget.NewEntry()
	timeout.SetText(strconv.Itoa(c.TimeoutSeconds))
	timeout.SetPlaceHolder(strconv.Itoa(DefaultTimeout))
	timeout.Validator = func(s string) error { _, err := mcpTimeout(s); return err }
	timeout.OnChanged = changed("timeout_seconds")
	in.widgets["timeout_seconds"] = timeout
	item(lang.X("insp.timeout_ra", "Request timeout (1–600 s)"), timeout)

	labels := make([]string, len(mcpTaskModes))
	for i, m := range mcpTaskModes {
		labels[i] = mcpTaskLabel(m)
	}
	task := newSelect(labels, func(string) { in.edit(n, "task") })
	task.Selected = mcpTaskLabel(cmpOr(c.Task, "auto"))
	in.widgets["task"] = task
	item(lang.X("insp.mcp_task", "Run as a task"), task)

	if tools, ok := in.mcp.tools[c.URL]; ok {
		f.showTools(tools, nil)
	}
	f.setRows(c.Tool, c.Arguments)
	f.tool.OnChanged = func(s string) {
		if name := f.schemaTool(strings.TrimSpace(s)); name != f.shown {
			// Another listed tool: its own arguments only (the other
			// tool's values would be refused by it; undo brings them back).
			f.setRows(strings.TrimSpace(s), f.valuesFor(name))
		}
		f.markChosen()
		in.edit(n, "tool")
	}

	return func() (Config, error) {
		secs, err := mcpTimeout(timeout.Text)
		if err != nil {
			return Config{}, err
		}
		args, err := f.arguments()
		if err != nil {
			return Config{}, err
		}
		mode := "auto"
		if i := slices.Index(labels, task.Selected); i >= 0 {
			mode = mcpTaskModes[i]
		}
		return Config{URL: strings.TrimSpace(f.url.Text), Tool: strings.TrimSpace(f.tool.Text), Arguments: args,
			Output: in.widgets["output"].(*widget.Select).Selected, OutputJSON: in.widgets["output_json"].(*widget.Select).Selected,
			OutputFiles: in.widgets["output_files"].(*widget.Select).Selected, Credential: f.cred.Selected,
			TimeoutSeconds: secs, Task: mode}, nil
	}
}

func cmpOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// pick is a field picker with a "none" choice that applies as it changes.
func (f *mcpForm) pick(key, val string, opts []string) *widget.Select {
	s := newSelect(append([]string{""}, opts...), func(string) { f.in.edit(f.n, key) })
	s.Selected = val
	f.in.widgets[key] = s
	return s
}

// readable lists the State fields an argument template can name.
func (f *mcpForm) readable(state map[string]workrun.FieldType) fyne.CanvasObject {
	var refs []string
	for _, name := range fieldNames(state) {
		refs = append(refs, "{{"+name+"}}")
	}
	text := lang.X("insp.mcp_no_readable", "Each value is a template; the workflow has no State fields to name yet.")
	if len(refs) > 0 {
		text = fmt.Sprintf(lang.X("insp.mcp_readable", "Each value is a template over State fields: %s"), strings.Join(refs, " "))
	}
	return caption(text)
}

// mcpTimeout reads the timeout entry: empty is the default.
func mcpTimeout(s string) (int, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, nil
	}
	t, err := strconv.Atoi(s)
	if err != nil {
		return 0, fmt.Errorf(lang.X("insp.bad_timeout", "timeout: %q is not a whole number of seconds"), s)
	}
	if t < MinTimeout || t > MaxTimeout {
		return 0, fmt.Errorf(lang.X("insp.timeout_range", "timeout: %d is outside %d–%d s"), t, MinTimeout, MaxTimeout)
	}
	return t, nil
}

func mcpTaskLabel(mode string) string {
	switch mode {
	case "auto":
		return lang.X("insp.mcp_task_auto", "auto (a task where supported)")
	case "always":
		return lang.X("insp.mcp_task_always", "always")
	case "never":
		return lang.X("insp.mcp_task_never", "never (a plain call)")
	}
	return mode
}

func mcpSupportLabel(s string) string {
	switch s {
	case "forbidden", "":
		return lang.X("insp.mcp_support_forbidden", "no tasks (plain call)")
	case "optional":
		return lang.X("insp.mcp_support_optional", "task optional")
	case "required":
		return lang.X("insp.mcp_support_required", "task required")
	}
	return s
}

// current reports whether this form is still the one shown.
func (f *mcpForm) current() bool {
	return f.in.nodeID == f.n.ID && f.in.widgets["url"] == f.url
}

// test runs the connection test with the typed URL and chosen credential;
// it lists the tools and never calls one.
func (f *mcpForm) test() {
	u := strings.TrimSpace(f.url.Text)
	f.status.SetText(lang.X("insp.testing", "Testing…"))
	f.status.Show()
	f.tools.Hide()
	in := f.in
	done := in.testDone
	in.w.checkMCP(u, f.cred.Selected, func(tools []MCPTool, err error) {
		if err == nil {
			in.mcp.tools[u] = tools
		}
		if f.current() {
			f.showTools(tools, err)
			if f.schemaTool(strings.TrimSpace(f.tool.Text)) != f.shown {
				f.setRows(strings.TrimSpace(f.tool.Text), f.values())
			}
		}
		if done != nil {
			done()
		}
	})
}

// showTools shows a test's result: each tool with its title, task support
// and description, and a button that chooses it.
func (f *mcpForm) showTools(tools []MCPTool, err error) {
	f.list.RemoveAll()
	for k := range f.in.widgets {
		if strings.HasPrefix(k, "use:") {
			delete(f.in.widgets, k)
		}
	}
	if err != nil {
		f.status.SetText("✗ " + err.Error())
		f.status.Show()
		f.tools.Hide()
		return
	}
	f.status.SetText("")
	f.status.Hide()
	f.tools.Items[0].Title = "✓ " + fmt.Sprintf(lang.X("insp.mcp_tools_found", "%d tools"), len(tools))
	names := make([]string, 0, len(tools))
	for _, t := range tools {
		names = append(names, t.Name)
		head := t.Name
		if t.Title != "" && t.Title != t.Name {
			head += " — " + t.Title
		}
		name := widget.NewLabelWithStyle(head, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
		name.Wrapping = fyne.TextWrapWord
		about := mcpSupportLabel(t.TaskSupport)
		if t.Description != "" {
			about += " · " + t.Description
		}
		use := newTipButton(f.in.w.tips, lang.X("insp.mcp_use_short", "Use"), nil, fmt.Sprintf(lang.X("insp.mcp_use", "Use the tool %s"), t.Name), func() {
			f.tool.SetText(t.Name)
			f.tools.Close(0)
		})
		f.in.widgets["use:"+t.Name] = use
		f.list.Add(container.NewBorder(nil, nil, nil, container.NewCenter(use), container.NewVBox(name, caption(about))))
	}
	f.tool.SetOptions(names)
	f.markChosen()
	// Open while no listed tool is chosen; folded, it keeps the chosen
	// tool's arguments in view.
	if slices.Contains(names, strings.TrimSpace(f.tool.Text)) {
		f.tools.Close(0)
	} else {
		f.tools.Open(0)
	}
	f.tools.Show()
	f.tools.Refresh()
}

// markChosen disables the Use button of the tool already chosen.
func (f *mcpForm) markChosen() {
	for k, o := range f.in.widgets {
		if name, ok := strings.CutPrefix(k, "use:"); ok {
			if name == strings.TrimSpace(f.tool.Text) {
				o.(*tipButton).Disable()
			} else {
				o.(*tipButton).Enable()
			}
		}
	}
}

// schemaTool is name when the last test of the typed URL listed a tool of
// that name, else "".
func (f *mcpForm) schemaTool(name string) string {
	if _, ok := f.lookup(name); ok {
		return name
	}
	return ""
}

func (f *mcpForm) lookup(name string) (MCPTool, bool) {
	for _, t := range f.in.mcp.tools[strings.TrimSpace(f.url.Text)] {
		if t.Name == name && name != "" {
			return t, true
		}
	}
	return MCPTool{}, false
}

// valuesFor are the values of the rows that tool's schema names too; every
// value while no listed tool is named (a name being typed).
func (f *mcpForm) valuesFor(tool string) map[string]any {
	vals := f.values()
	t, ok := f.lookup(tool)
	if !ok {
		return vals
	}
	props := schemaProperties(t.InputSchema)
	for k := range vals {
		if !slices.ContainsFunc(props, func(p mcpProperty) bool { return p.name == k }) {
			delete(vals, k)
		}
	}
	return vals
}

// values are the arguments as the rows hold them now (as typed, when a
// value does not fit its type yet).
func (f *mcpForm) values() map[string]any {
	if args, err := f.arguments(); err == nil {
		return args
	}
	out := map[string]any{}
	for _, p := range f.params {
		if p.entry.Text != "" {
			out[p.name] = p.entry.Text
		}
	}
	return out
}

// setRows rebuilds the argument rows for tool: one per property of its
// input schema (required ones first and marked), then one per
// value in vals the schema does not name, so nothing typed is hidden. A
// tool whose schema is not known (no test yet) shows the values alone.
func (f *mcpForm) setRows(tool string, vals map[string]any) {
	for k := range f.in.widgets {
		if strings.HasPrefix(k, "arguments.") {
			delete(f.in.widgets, k)
		}
	}
	f.args.RemoveAll()
	f.params = nil
	f.shown = f.schemaTool(tool)
	t, known := f.lookup(tool)
	var props []mcpProperty
	if known {
		props = schemaProperties(t.InputSchema)
	}
	for _, p := range props {
		f.addRow(&mcpParam{name: p.name, types: p.types, required: p.required, inSchema: true}, p.description, vals[p.name])
	}
	for _, k := range sortedAnyKeys(vals) {
		if !slices.ContainsFunc(props, func(p mcpProperty) bool { return p.name == k }) {
			var types []string
			if _, isText := vals[k].(string); !isText {
				types = []string{"json"}
			}
			f.addRow(&mcpParam{name: k, types: types}, "", vals[k])
		}
	}
	if len(f.params) == 0 {
		text := lang.X("insp.mcp_no_args", "The tool takes no arguments.")
		if !known {
			text = lang.X("insp.mcp_args_unknown", "Test the connection and choose a tool to fill in its arguments.")
		}
		f.args.Add(caption(text))
	}
	f.checkRequired()
}

// addRow adds one argument's caption, description and value entry.
func (f *mcpForm) addRow(p *mcpParam, description string, val any) {
	label := p.name
	if len(p.types) > 0 && p.inSchema {
		label += " (" + strings.Join(p.types, " | ") + ")"
	}
	if p.required {
		label += " *  " + lang.X("insp.mcp_required", "required")
	} else if !p.inSchema && f.shown != "" {
		label += "  " + lang.X("insp.mcp_not_in_schema", "(not in the tool's schema)")
	}
	f.args.Add(widget.NewLabelWithStyle(label, fyne.TextAlignLeading, fyne.TextStyle{Bold: p.required}))
	if description != "" {
		f.args.Add(caption(description))
	}
	p.entry = widget.NewEntry()
	p.entry.SetText(argText(val))
	p.entry.SetPlaceHolder("{{…}}")
	key := "arguments." + p.name
	p.entry.OnChanged = func(string) {
		f.checkRequired()
		f.in.edit(f.n, key)
	}
	f.in.widgets[key] = p.entry
	f.args.Add(p.entry)
	f.params = append(f.params, p)
}

// checkRequired names the required arguments left empty (the server would
// refuse the call; the workflow may still be saved).
func (f *mcpForm) checkRequired() {
	var empty []string
	for _, p := range f.params {
		if p.required && strings.TrimSpace(p.entry.Text) == "" {
			empty = append(empty, p.name)
		}
	}
	if len(empty) == 0 {
		f.missing.SetText("")
		f.missing.Hide()
		return
	}
	f.missing.SetText("⚠ " + fmt.Sprintf(lang.X("insp.mcp_missing", "required arguments left empty: %s"), strings.Join(empty, ", ")))
	f.missing.Show()
}

// arguments reads the rows into the arguments config, which the node reads
// as docs/remote-mcp.md M1 says: a value for a text property is kept
// verbatim as a template; for a number, integer, boolean, object or array
// property it is that JSON value (sent as written) or else a template such
// as "{{n}}" (the field's value is sent with its type); anything else is
// refused here, before the server would refuse it. Empty values are left out.
func (f *mcpForm) arguments() (map[string]any, error) {
	out := map[string]any{}
	for _, p := range f.params {
		s := p.entry.Text
		if strings.TrimSpace(s) == "" {
			continue
		}
		if len(p.types) == 0 || slices.Contains(p.types, "string") {
			out[p.name] = s
			continue
		}
		v, err := jsonOf(s, p.types)
		if err != nil {
			if strings.Contains(s, "{{") || slices.Contains(p.types, "json") {
				out[p.name] = s // a template, or a value the schema does not type
				continue
			}
			return nil, fmt.Errorf(lang.X("insp.mcp_bad_arg", "argument %s: %q is not %s; write one, or a template such as %s"),
				p.name, s, strings.Join(p.types, " | "), "{{field}}")
		}
		out[p.name] = v
	}
	if len(out) == 0 {
		return nil, nil
	}
	return out, nil
}

// jsonOf parses s as one JSON value of one of types.
func jsonOf(s string, types []string) (any, error) {
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, errors.New("more than one value")
	}
	var kind string
	switch x := v.(type) {
	case json.Number:
		kind = "number"
		if _, err := x.Int64(); err == nil {
			kind = "integer"
		}
	case bool:
		kind = "boolean"
	case map[string]any:
		kind = "object"
	case []any:
		kind = "array"
	case nil:
		kind = "null"
	case string:
		kind = "string"
	}
	if slices.Contains(types, "json") || slices.Contains(types, kind) || kind == "integer" && slices.Contains(types, "number") {
		return v, nil
	}
	return nil, errors.New("wrong type")
}

// argText shows a saved argument value in its entry.
func argText(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

func sortedAnyKeys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// mcpProperty is one property of a tool's input schema.
type mcpProperty struct {
	name, description string
	types             []string
	required          bool
}

// schemaProperties reads the top-level properties of an input schema, the
// required ones first, each group in the order the server wrote them. A
// schema that cannot be read has none.
func schemaProperties(raw json.RawMessage) []mcpProperty {
	var s struct {
		Properties json.RawMessage `json:"properties"`
		Required   []string        `json:"required"`
	}
	if len(raw) == 0 || json.Unmarshal(raw, &s) != nil || len(s.Properties) == 0 {
		return nil
	}
	var props map[string]struct {
		Type        json.RawMessage `json:"type"`
		Description string          `json:"description"`
		Title       string          `json:"title"`
	}
	if json.Unmarshal(s.Properties, &props) != nil {
		return nil
	}
	var out []mcpProperty
	for _, name := range objectKeys(s.Properties) {
		p := props[name]
		var types []string
		var one string
		if json.Unmarshal(p.Type, &one) == nil && one != "" {
			types = []string{one}
		} else if json.Unmarshal(p.Type, &types) != nil {
			types = nil
		}
		desc := p.Description
		if desc == "" {
			desc = p.Title
		}
		out = append(out, mcpProperty{name: name, description: desc, types: types, required: slices.Contains(s.Required, name)})
	}
	// The required ones first: a form is filled from the top.
	slices.SortStableFunc(out, func(a, b mcpProperty) int {
		switch {
		case a.required == b.required:
			return 0
		case a.required:
			return -1
		}
		return 1
	})
	return out
}

// objectKeys returns the keys of a JSON object in the order written.
func objectKeys(raw json.RawMessage) []string {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	var keys []string
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return keys
		}
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return keys
		}
		if k, ok := t.(string); ok && !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
	}
	return keys
}
