package ui

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/url"
	"regexp"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/theme"

	"workrun/workrun"
)

// Kinds lists the node kinds of the palette, in palette order (docs/product.md
// W7): the agents first, because handing work to them is what Workrun is for.
var Kinds = []string{"remote_agent", "remote_mcp", "start", "set", "condition", "join", "output", "human_review", "ask_human", "process"}

// Palette groups, in palette order.
const (
	GroupAgents = "agents"
	GroupLogic  = "logic"
	GroupPeople = "people"
	GroupLocal  = "local"
)

// KindGroup is the palette group of a kind; a kind this list does not know
// goes to Agents when it calls something remote, else to Logic.
func KindGroup(kind string) string {
	switch kind {
	case "start", "set", "condition", "join", "output":
		return GroupLogic
	case "human_review", "ask_human":
		return GroupPeople
	case "process":
		return GroupLocal
	case "remote_agent":
		return GroupAgents
	}
	if strings.HasPrefix(kind, "remote_") {
		return GroupAgents
	}
	return GroupLogic
}

// PaletteGroup is one heading of the palette and its kinds in order.
type PaletteGroup struct {
	Name, Label string
	Kinds       []string
}

// KindGroups returns the palette's groups with the kinds of Kinds in each.
func KindGroups() []PaletteGroup {
	gs := []PaletteGroup{
		{Name: GroupAgents, Label: lang.X("palette.agents", "Agents")},
		{Name: GroupLogic, Label: lang.X("palette.logic", "Logic")},
		{Name: GroupPeople, Label: lang.X("palette.people", "People")},
		{Name: GroupLocal, Label: lang.X("palette.local", "Local")},
	}
	for _, k := range Kinds {
		for i := range gs {
			if gs[i].Name == KindGroup(k) {
				gs[i].Kinds = append(gs[i].Kinds, k)
			}
		}
	}
	return gs
}

// KindLabel is the translated palette name of a kind.
func KindLabel(kind string) string {
	switch kind {
	case "start":
		return lang.X("kind.start", "Start")
	case "set":
		return lang.X("kind.set", "Set")
	case "condition":
		return lang.X("kind.condition", "Condition")
	case "join":
		return lang.X("kind.join", "Join")
	case "output":
		return lang.X("kind.output", "Output")
	case "human_review":
		return lang.X("kind.human_review", "Human Review")
	case "ask_human":
		return lang.X("kind.ask_human", "Ask Human")
	case "process":
		return lang.X("kind.process", "Process")
	case "remote_agent":
		return lang.X("kind.remote_agent", "Remote Agent")
	case "remote_mcp":
		return lang.X("kind.remote_mcp", "Remote MCP Tool")
	}
	return kind
}

// KindIcon is the icon drawn on a node of this kind.
func KindIcon(kind string) fyne.Resource {
	switch kind {
	case "start":
		return theme.MediaPlayIcon()
	case "set":
		return theme.DocumentCreateIcon()
	case "condition":
		return theme.QuestionIcon()
	case "join":
		return theme.MenuExpandIcon()
	case "output":
		return theme.LogoutIcon()
	case "human_review":
		return theme.VisibilityIcon()
	case "ask_human":
		return theme.MailReplyIcon()
	case "process":
		return theme.ComputerIcon()
	case "remote_agent":
		return theme.StorageIcon()
	case "remote_mcp":
		return theme.SettingsIcon()
	}
	return theme.ErrorIcon()
}

// Config is the union of the config keys of every kind (docs/workflow-format.md). Each
// kind uses its own subset; encoding omits the rest.
type Config struct {
	// set
	Values map[string]string `json:"values,omitempty"`
	// condition
	Field string `json:"field,omitempty"` // also ask_human
	Op    string `json:"op,omitempty"`
	Value any    `json:"value,omitempty"`
	// output
	Fields []string `json:"fields,omitempty"`
	// human_review, ask_human
	Prompt string `json:"prompt,omitempty"`
	// process
	Command []string          `json:"command,omitempty"`
	Env     map[string]string `json:"env,omitempty"`
	Stdout  string            `json:"stdout,omitempty"`
	Cleanup []string          `json:"cleanup,omitempty"`
	// remote_agent (docs/remote-agent.md R3)
	URL         string   `json:"url,omitempty"`
	Inputs      []string `json:"inputs,omitempty"`
	Attachments []string `json:"attachments,omitempty"`
	Output      string   `json:"output,omitempty"`
	OutputFiles string   `json:"output_files,omitempty"`
	Credential  string   `json:"credential,omitempty"`
	// remote_mcp (docs/remote-mcp.md; also url, output, output_files,
	// credential): each argument value is a template over State fields.
	Tool       string         `json:"tool,omitempty"`
	Arguments  map[string]any `json:"arguments,omitempty"`
	OutputJSON string         `json:"output_json,omitempty"`
	Task       string         `json:"task,omitempty"` // auto (default), always, never
	// process, remote_agent, remote_mcp
	TimeoutSeconds int `json:"timeout_seconds,omitempty"`
}

// Condition operators.
var Ops = []string{"eq", "ne", "gt", "lt", "contains"}

// Remote Agent timeout bounds in seconds (docs/remote-agent.md R3.5).
const (
	MinTimeout     = workrun.RemoteTimeoutMinSeconds
	MaxTimeout     = workrun.RemoteTimeoutMaxSeconds
	DefaultTimeout = workrun.RemoteTimeoutDefaultSeconds
)

// DefaultConfig is the config a new node of kind starts with.
func DefaultConfig(kind string) json.RawMessage {
	var c Config
	switch kind {
	case "condition":
		c.Op = "eq"
	case "human_review":
		c.Prompt = "Approve?"
	case "process":
		c.TimeoutSeconds = 60
	case "remote_agent":
		c.TimeoutSeconds = DefaultTimeout
	case "remote_mcp":
		c.TimeoutSeconds, c.Task = DefaultTimeout, "auto"
	}
	return EncodeConfig(c)
}

// DecodeConfig reads a node's config; a missing config is the zero Config.
func DecodeConfig(raw json.RawMessage) (Config, error) {
	var c Config
	if len(raw) == 0 {
		return c, nil
	}
	if err := json.Unmarshal(raw, &c); err != nil {
		return c, fmt.Errorf("config: %w", err)
	}
	return c, nil
}

// EncodeConfig writes a config; "{}" when empty.
func EncodeConfig(c Config) json.RawMessage {
	b, err := json.Marshal(c)
	if err != nil {
		return json.RawMessage("{}")
	}
	return b
}

// configKeys are the keys Config knows; MergeConfig keeps any others.
var configKeys = []string{"values", "field", "op", "value", "fields", "prompt", "command", "env", "stdout", "cleanup",
	"url", "inputs", "attachments", "output", "output_files", "credential", "timeout_seconds",
	"tool", "arguments", "output_json", "task"}

// MergeConfig writes c over orig, keeping keys of orig that Config does not
// know (a newer engine's), so the inspector never drops them.
func MergeConfig(orig json.RawMessage, c Config) json.RawMessage {
	var m map[string]json.RawMessage
	if len(orig) == 0 || json.Unmarshal(orig, &m) != nil || m == nil {
		return EncodeConfig(c)
	}
	for _, k := range configKeys {
		delete(m, k)
	}
	var known map[string]json.RawMessage
	if err := json.Unmarshal(EncodeConfig(c), &known); err != nil {
		return EncodeConfig(c)
	}
	for k, v := range known {
		m[k] = v
	}
	b, err := json.Marshal(m)
	if err != nil {
		return EncodeConfig(c)
	}
	return b
}

// CheckWorkflow finds the problems the editor can see by itself: the shape
// of the graph and each node's config against the State fields. The engine's
// Validate is authoritative; the window shows both.
func CheckWorkflow(wf workrun.Workflow) []Problem {
	var ps []Problem
	add := func(node string, edge int, format string, args ...any) {
		ps = append(ps, Problem{NodeID: node, EdgeIndex: edge, Message: fmt.Sprintf(format, args...)})
	}
	ids := map[string]string{}
	starts := 0
	for _, n := range wf.Nodes {
		if _, dup := ids[n.ID]; dup {
			add(n.ID, -1, lang.X("problem.dup_id", "duplicate node id %q"), n.ID)
		}
		ids[n.ID] = n.Type
		if n.Type == "start" {
			starts++
		}
	}
	if starts != 1 {
		add("", -1, lang.X("problem.one_start", "a workflow needs exactly one start node (it has %d)"), starts)
	}
	for i, e := range wf.Edges {
		if _, ok := ids[e.From]; !ok {
			add("", i, lang.X("problem.edge_missing", "edge %d leads from missing node %q"), i, e.From)
		}
		if _, ok := ids[e.To]; !ok {
			add("", i, lang.X("problem.edge_missing_to", "edge %d leads to missing node %q"), i, e.To)
		}
		if ids[e.From] == "condition" && e.When != "true" && e.When != "false" {
			add(e.From, i, "%s", lang.X("problem.when", "edges leaving a condition must be marked true or false"))
		}
	}
	if id := cycleAt(wf); id != "" {
		add(id, -1, "%s", lang.X("problem.cycle", "the edges make a cycle through this node"))
	}
	reach := reachable(wf)
	for _, n := range wf.Nodes {
		if starts == 1 && !reach[n.ID] {
			add(n.ID, -1, "%s", lang.X("problem.unreachable", "not reachable from the start node"))
		}
		for _, text := range checkNode(n, wf.State) {
			add(n.ID, -1, "%s", text)
		}
	}
	return ps
}

// cycleAt returns a node on a cycle, or "".
func cycleAt(wf workrun.Workflow) string {
	succ := map[string][]string{}
	for _, e := range wf.Edges {
		succ[e.From] = append(succ[e.From], e.To)
	}
	const (
		grey  = 1
		black = 2
	)
	colour := map[string]int{}
	var visit func(id string) string
	visit = func(id string) string {
		colour[id] = grey
		for _, n := range succ[id] {
			switch colour[n] {
			case grey:
				return n
			case 0:
				if c := visit(n); c != "" {
					return c
				}
			}
		}
		colour[id] = black
		return ""
	}
	for _, n := range wf.Nodes {
		if colour[n.ID] == 0 {
			if c := visit(n.ID); c != "" {
				return c
			}
		}
	}
	return ""
}

func reachable(wf workrun.Workflow) map[string]bool {
	seen := map[string]bool{}
	var stack []string
	for _, n := range wf.Nodes {
		if n.Type == "start" {
			stack = append(stack, n.ID)
		}
	}
	for len(stack) > 0 {
		id := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[id] {
			continue
		}
		seen[id] = true
		for _, e := range wf.Edges {
			if e.From == id {
				stack = append(stack, e.To)
			}
		}
	}
	return seen
}

// checkNode checks one node's config (the inspector shows the same texts).
func checkNode(n workrun.NodeSpec, state map[string]workrun.FieldType) []string {
	c, err := DecodeConfig(n.Config)
	if err != nil {
		return []string{err.Error()}
	}
	var out []string
	need := func(field string, types ...workrun.FieldType) {
		t, ok := state[field]
		switch {
		case field == "":
			out = append(out, lang.X("problem.field_empty", "choose a State field"))
		case !ok:
			out = append(out, fmt.Sprintf(lang.X("problem.field_unknown", "unknown State field %q"), field))
		case len(types) > 0 && !slices.Contains(types, t):
			out = append(out, fmt.Sprintf(lang.X("problem.field_type", "field %q is %s, expected %v"), field, t, types))
		}
	}
	switch n.Type {
	case "start", "join":
	case "set":
		if len(c.Values) == 0 {
			out = append(out, lang.X("problem.set_empty", "set at least one field"))
		}
		for f := range c.Values {
			need(f)
		}
	case "condition":
		need(c.Field)
		if !slices.Contains(Ops, c.Op) {
			out = append(out, fmt.Sprintf(lang.X("problem.op", "unknown operator %q"), c.Op))
		}
	case "output":
		if len(c.Fields) == 0 {
			out = append(out, lang.X("problem.output_empty", "choose the fields to output"))
		}
		for _, f := range c.Fields {
			need(f)
		}
	case "human_review":
		if c.Prompt == "" {
			out = append(out, lang.X("problem.prompt", "write a prompt"))
		}
	case "ask_human":
		if c.Prompt == "" {
			out = append(out, lang.X("problem.prompt", "write a prompt"))
		}
		need(c.Field, workrun.FieldText)
	case "process":
		if len(c.Command) == 0 || c.Command[0] == "" {
			out = append(out, lang.X("problem.command", "enter a command"))
		}
		if c.TimeoutSeconds < 0 {
			out = append(out, lang.X("problem.timeout_neg", "the timeout cannot be negative"))
		}
		if c.Stdout != "" {
			need(c.Stdout, workrun.FieldText, workrun.FieldJSON)
		}
	case "remote_agent":
		out = append(out, checkRemoteAgent(c, state)...)
		for _, f := range c.Inputs {
			need(f)
		}
		for _, f := range c.Attachments {
			need(f, workrun.FieldFile, workrun.FieldFiles)
		}
		if c.Output != "" {
			need(c.Output, workrun.FieldText, workrun.FieldJSON)
		}
		if c.OutputFiles != "" {
			need(c.OutputFiles, workrun.FieldFiles, workrun.FieldFile)
		}
	case "remote_mcp":
		out = append(out, checkRemoteMCP(c)...)
		for _, v := range c.Arguments {
			if s, ok := v.(string); ok {
				for _, f := range workrun.TemplateFields(s) {
					need(f)
				}
			}
		}
		if c.Output != "" {
			need(c.Output, workrun.FieldText)
		}
		if c.OutputJSON != "" {
			need(c.OutputJSON, workrun.FieldJSON)
		}
		if c.OutputFiles != "" {
			need(c.OutputFiles, workrun.FieldFiles)
		}
	default:
		out = append(out, fmt.Sprintf(lang.X("problem.kind", "unknown node type %q"), n.Type))
	}
	return out
}

// checkRemoteMCP checks the Remote MCP Tool configuration that needs no State.
func checkRemoteMCP(c Config) []string {
	var out []string
	u, err := url.Parse(c.URL)
	switch {
	case c.URL == "":
		out = append(out, lang.X("problem.mcp_url_empty", "enter the MCP server URL"))
	case err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "":
		out = append(out, lang.X("problem.url", "the URL must start with http:// or https:// and name a host"))
	}
	if strings.TrimSpace(c.Tool) == "" {
		out = append(out, lang.X("problem.mcp_tool", "name the tool to call"))
	}
	if c.Task != "" && c.Task != "auto" && c.Task != "always" && c.Task != "never" {
		out = append(out, lang.X("problem.mcp_task", "task must be auto, always or never"))
	}
	if c.TimeoutSeconds != 0 && (c.TimeoutSeconds < MinTimeout || c.TimeoutSeconds > MaxTimeout) {
		out = append(out, fmt.Sprintf(lang.X("problem.timeout", "the timeout must be %d–%d seconds"), MinTimeout, MaxTimeout))
	}
	return out
}

// checkRemoteAgent checks the R3 configuration that needs no State.
func checkRemoteAgent(c Config, _ map[string]workrun.FieldType) []string {
	var out []string
	u, err := url.Parse(c.URL)
	switch {
	case c.URL == "":
		out = append(out, lang.X("problem.url_empty", "enter the A2A service URL"))
	case err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "":
		out = append(out, lang.X("problem.url", "the URL must start with http:// or https:// and name a host"))
	}
	if len(c.Inputs) == 0 {
		out = append(out, lang.X("problem.inputs", "choose at least one input field"))
	}
	if c.TimeoutSeconds < MinTimeout || c.TimeoutSeconds > MaxTimeout {
		out = append(out, fmt.Sprintf(lang.X("problem.timeout", "the timeout must be %d–%d seconds"), MinTimeout, MaxTimeout))
	}
	return out
}

// templateRef finds the "{{field}}" references of a template.
var templateRef = regexp.MustCompile(`\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}`)

func templateFields(ss ...string) []string {
	var out []string
	for _, s := range ss {
		for _, m := range templateRef.FindAllStringSubmatch(s, -1) {
			out = append(out, m[1])
		}
	}
	return out
}

// readsWrites returns the State fields a node reads and writes, as its
// kind declares them to the engine (docs/product.md W2).
func readsWrites(n workrun.NodeSpec) (reads, writes []string) {
	c, err := DecodeConfig(n.Config)
	if err != nil {
		return nil, nil
	}
	nonEmpty := func(ss ...string) []string {
		var out []string
		for _, s := range ss {
			if s != "" {
				out = append(out, s)
			}
		}
		return out
	}
	switch n.Type {
	case "set":
		for _, k := range sortedKeys(c.Values) {
			writes = append(writes, k)
			reads = append(reads, templateFields(c.Values[k])...)
		}
	case "condition":
		reads = nonEmpty(c.Field)
	case "output", "human_review":
		reads = c.Fields
	case "ask_human":
		writes = nonEmpty(c.Field)
	case "process":
		reads = templateFields(append(slices.Clone(c.Command), slices.Collect(maps.Values(c.Env))...)...)
		writes = nonEmpty(c.Stdout)
	case "remote_agent":
		reads = append(slices.Clone(c.Inputs), c.Attachments...)
		writes = nonEmpty(c.Output, c.OutputFiles)
	}
	return reads, writes
}

// workflowInputs returns the State fields a run must be given: those no
// node writes before a node reads them, and those no node writes at all.
// They come in the order the workflow first reads them (nodes in list
// order), then the unread ones by name.
func workflowInputs(wf workrun.Workflow) []string {
	preds := map[string][]string{}
	for _, e := range wf.Edges {
		preds[e.To] = append(preds[e.To], e.From)
	}
	written := map[string]bool{}
	writes := map[string][]string{}
	reads := map[string][]string{}
	for _, n := range wf.Nodes {
		r, w := readsWrites(n)
		reads[n.ID], writes[n.ID] = r, w
		for _, f := range w {
			written[f] = true
		}
	}
	// upstreamWrites: does a node before id (on some path) write f?
	upstreamWrites := func(id, f string) bool {
		seen := map[string]bool{}
		stack := slices.Clone(preds[id])
		for len(stack) > 0 {
			p := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if seen[p] {
				continue
			}
			seen[p] = true
			if slices.Contains(writes[p], f) {
				return true
			}
			stack = append(stack, preds[p]...)
		}
		return false
	}
	var out []string
	for _, n := range wf.Nodes {
		for _, f := range reads[n.ID] {
			if _, ok := wf.State[f]; !ok || slices.Contains(out, f) {
				continue
			}
			if !written[f] || !upstreamWrites(n.ID, f) {
				out = append(out, f)
			}
		}
	}
	for _, f := range fieldNames(wf.State) {
		if !written[f] && !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	return out
}

// WorkflowInputs is workflowInputs for the run dialog: the fields to ask
// for, in order, with their types.
func WorkflowInputs(wf workrun.Workflow) []string { return workflowInputs(wf) }
