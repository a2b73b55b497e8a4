package inspector

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"workrun/ui/document"
	"workrun/ui/tooltip"
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
}

// mcpForm is the Remote MCP Tool form being shown.
type mcpForm struct {
	in      *Inspector
	n       workrun.NodeSpec
	state   map[string]workrun.FieldType
	url     *widget.Entry
	tool    *widget.SelectEntry
	status  *widget.Label
	signIn  *widget.Button    // offered when the server wants a sign-in
	list    *fyne.Container   // the tools of the last test
	tools   *widget.Accordion // the list, folded once a tool is chosen
	args    *fyne.Container   // one row per argument
	missing *widget.Label     // required arguments left empty
	params  []*mcpParam       // the rows of args, in order
	shown   string            // the tool whose schema the rows follow ("": none known)

	toolKey, argsKey string // the config keys of the tool and its arguments
	// stdio: the server is the program of the node's command (Tool App);
	// url then holds the tested command, the key of its tool list.
	stdio bool

	loc Localizer // the words, in the window's language
}

// mcpParam is one argument row.
type mcpParam struct {
	name     string
	types    []string // JSON Schema types; empty when unknown
	required bool
	inSchema bool
	entry    *TemplateEntry
}

// newMCPForm starts the MCP tool picker of node n (docs/remote-mcp.md M1):
// the URL entry and its connection test, the tool entry and the argument
// rows, which the inspector places where the kind's description puts the
// URL, the ValueTool and the ValueToolArguments keys.
func (in *Inspector) newMCPForm(n workrun.NodeSpec, state map[string]workrun.FieldType) *mcpForm {
	if in.mcp.tools == nil {
		in.mcp.tools = map[string][]MCPTool{}
	}
	f := &mcpForm{loc: in.loc, in: in, n: n, state: state}
	in.mcpShown = f
	f.url = widget.NewEntry()

	f.status = widget.NewLabel("")
	f.status.Wrapping = fyne.TextWrapWord
	f.status.Hide()
	in.testOut = f.status
	f.list = container.NewVBox()
	f.tools = widget.NewAccordion(widget.NewAccordionItem("", f.list))
	f.tools.Hide()
	in.widgets["tools"] = f.tools

	f.tool = widget.NewSelectEntry(nil)

	f.args = container.NewVBox()
	f.missing = widget.NewLabel("")
	f.missing.Wrapping = fyne.TextWrapWord
	f.missing.Importance = widget.WarningImportance
	f.missing.Hide()
	return f
}

// testRow is the Test connection button, its status and the tools found.
func (f *mcpForm) testRow() fyne.CanvasObject {
	testB := widget.NewButtonWithIcon(f.loc.X("insp.test", "Test connection"), theme.SearchIcon(), f.test)
	if (f.stdio && f.in.OnTestToolApp == nil) || (!f.stdio && f.in.OnTestMCP == nil) {
		testB.Disable()
	}
	f.in.widgets["test"] = testB
	f.signIn = f.in.signInButton(SignInMCP, func() string { return strings.TrimSpace(f.url.Text) })
	return container.NewVBox(testB, f.signIn, f.status, f.tools)
}

// argsBox is the argument rows under a line naming the fields a template
// can read.
func (f *mcpForm) argsBox() fyne.CanvasObject {
	return container.NewVBox(f.readable(f.state), f.args, f.missing)
}

// finish fills the form from the saved config once every part is placed:
// the tools the URL listed at its last test, and the argument rows.
func (f *mcpForm) finish(cfg map[string]json.RawMessage) {
	url := strings.TrimSpace(f.url.Text)
	if tools, ok := f.in.mcp.tools[url]; ok {
		f.showTools(tools, nil)
	}
	args := map[string]any{}
	for k, raw := range document.ConfigMap(cfg[f.argsKey]) {
		var v any
		if json.Unmarshal(raw, &v) == nil {
			args[k] = v
		}
	}
	f.setRows(strings.TrimSpace(f.tool.Text), args)
	f.tool.OnChanged = func(s string) {
		if name := f.schemaTool(strings.TrimSpace(s)); name != f.shown {
			// Another listed tool: its own arguments only (the other
			// tool's values would be refused by it; undo brings them back).
			f.setRows(strings.TrimSpace(s), f.valuesFor(name))
		}
		f.markChosen()
		f.in.edit(f.n, f.toolKey)
	}
}

// readable lists the State fields an argument template can name.
func (f *mcpForm) readable(state map[string]workrun.FieldType) fyne.CanvasObject {
	var refs []string
	for _, name := range document.FieldNames(state) {
		refs = append(refs, "{{"+name+"}}")
	}
	text := f.loc.X("insp.mcp_no_readable", "Each value is a template; the workflow has no State fields to name yet.")
	if len(refs) > 0 {
		text = fmt.Sprintf(f.loc.X("insp.mcp_readable", "Each value is a template over State fields: %s"), strings.Join(refs, " "))
	}
	return caption(text)
}

func mcpSupportLabel(loc Localizer, s string) string {
	switch s {
	case "forbidden", "":
		return loc.X("insp.mcp_support_forbidden", "no tasks (plain call)")
	case "optional":
		return loc.X("insp.mcp_support_optional", "task optional")
	case "required":
		return loc.X("insp.mcp_support_required", "task required")
	}
	return s
}

// current reports whether this form is still the one shown.
func (f *mcpForm) current() bool {
	return f.in.nodeID == f.n.ID && f.in.mcpShown == f
}

// test runs the connection test with the typed URL and chosen credential;
// it lists the tools and never calls one.
func (f *mcpForm) test() {
	in := f.in
	test := func(show func([]MCPTool, error)) { in.OnTestMCP(strings.TrimSpace(f.url.Text), in.credential(), show) }
	if f.stdio {
		if in.OnTestToolApp == nil {
			return
		}
		cfg, err := f.config()
		if err != nil {
			f.showTools(nil, err)
			return
		}
		var c struct {
			Command []string `json:"command"`
		}
		_ = json.Unmarshal(cfg, &c) // a config the form built; no command is an empty key
		f.url.SetText(strings.Join(c.Command, "\n"))
		test = func(show func([]MCPTool, error)) { in.OnTestToolApp(cfg, show) }
	} else if in.OnTestMCP == nil {
		return
	}
	u := strings.TrimSpace(f.url.Text)
	f.status.SetText(f.loc.X("insp.testing", "Testing…"))
	f.status.Show()
	f.tools.Hide()
	if f.signIn != nil {
		f.signIn.Hide()
	}
	done := in.OnTested
	cred := in.credential()
	test(func(tools []MCPTool, err error) {
		if err == nil {
			in.mcp.tools[u] = tools
		}
		if f.current() {
			f.showTools(tools, err)
			if in.wants(err) == WantSignIn && !f.stdio && f.signIn != nil {
				f.status.SetText("✗ " + signInNeededText(f.loc, err))
				f.signIn.Show()
			}
			if !f.stdio { // a Tool App sends no credential
				f.status.SetText(strings.TrimSpace(f.status.Text + "\n" + testedWith(f.loc, cred)))
				f.status.Show()
			}
			if f.schemaTool(strings.TrimSpace(f.tool.Text)) != f.shown {
				f.setRows(strings.TrimSpace(f.tool.Text), f.values())
			}
		}
		if done != nil {
			done()
		}
	})
}

// config is the node's config as the form holds it (a Tool App's test
// starts the program typed, applied or not).
func (f *mcpForm) config() (json.RawMessage, error) {
	vals, err := f.in.collect()
	if err != nil {
		return nil, err
	}
	cur := f.n.Config
	if n, ok := f.in.doc().Node(f.n.ID); ok {
		cur = n.Config
	}
	return document.MergeConfig(cur, f.in.info, vals), nil
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
		f.status.SetText("✗ " + f.in.words.Reason(err.Error()))
		f.status.Show()
		f.tools.Hide()
		return
	}
	f.status.SetText("")
	f.status.Hide()
	f.tools.Items[0].Title = "✓ " + f.in.words.Count(len(tools), "insp.mcp_tools_found", "%d tool", "%d tools")
	names := make([]string, 0, len(tools))
	for _, t := range tools {
		names = append(names, t.Name)
		head := t.Name
		if t.Title != "" && t.Title != t.Name {
			head += " — " + t.Title
		}
		name := widget.NewLabelWithStyle(head, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
		name.Wrapping = fyne.TextWrapWord
		about := mcpSupportLabel(f.loc, t.TaskSupport)
		if t.Description != "" {
			about += " · " + t.Description
		}
		use := tooltip.NewButton(f.in.tips, f.loc.X("insp.mcp_use_short", "Use"), nil, fmt.Sprintf(f.loc.X("insp.mcp_use", "Use the tool %s"), t.Name), func() {
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
				o.(*tooltip.Button).Disable()
			} else {
				o.(*tooltip.Button).Enable()
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
		if strings.HasPrefix(k, f.argsKey+".") {
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
	for _, k := range slices.Sorted(maps.Keys(vals)) {
		if !slices.ContainsFunc(props, func(p mcpProperty) bool { return p.name == k }) {
			var types []string
			if _, isText := vals[k].(string); !isText {
				types = []string{"json"}
			}
			f.addRow(&mcpParam{name: k, types: types}, "", vals[k])
		}
	}
	if len(f.params) == 0 {
		text := f.loc.X("insp.mcp_no_args", "The tool takes no arguments.")
		if !known {
			text = f.loc.X("insp.mcp_args_unknown", "Test the connection and choose a tool to fill in its arguments.")
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
		label += " *  " + f.loc.X("insp.mcp_required", "required")
	} else if !p.inSchema && f.shown != "" {
		label += "  " + f.loc.X("insp.mcp_not_in_schema", "(not in the tool's schema)")
	}
	f.args.Add(widget.NewLabelWithStyle(label, fyne.TextAlignLeading, fyne.TextStyle{Bold: p.required}))
	if description != "" {
		f.args.Add(caption(description))
	}
	// A value is a template over State fields: "{{" completes their names
	// as in the Remote Agent's message (inspector_template.go).
	p.entry = newTemplateEntry(false)
	p.entry.SetText(argText(val))
	p.entry.SetPlaceHolder("{{…}}")
	c := &fieldCompletion{in: f.in, entry: p.entry, box: container.NewVBox()}
	c.box.Hide()
	p.entry.completion = c
	key := f.argsKey + "." + p.name
	p.entry.OnChanged = func(string) {
		c.update()
		f.checkRequired()
		f.in.edit(f.n, key)
	}
	f.in.widgets[key] = p.entry
	f.args.Add(p.entry)
	f.args.Add(c.box)
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
	f.missing.SetText("⚠ " + fmt.Sprintf(f.loc.X("insp.mcp_missing", "required arguments left empty: %s"), strings.Join(empty, ", ")))
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
			return nil, fmt.Errorf(f.loc.X("insp.mcp_bad_arg", "argument %s: %q is not %s; write one, or a template such as %s"),
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
