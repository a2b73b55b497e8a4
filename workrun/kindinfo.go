package workrun

import (
	"encoding/json"
	"slices"
)

// Describer is implemented by a Kind that describes its config to editors.
// The window builds its palette and its node forms from these descriptions
// alone; what a config means and which values it refuses stays with
// Compile, which the editor runs through Engine.Validate.
type Describer interface {
	Describe() KindInfo
}

// KindInfo describes one node kind to an editor.
type KindInfo struct {
	// Type is the node type in workflow files (Kind.Type).
	Type string
	// Group is the palette heading the kind is listed under.
	Group KindGroup
	// Label is the kind's name as a person reads it, from the kind's own
	// catalogue.
	Label Text
	// Fields are the config keys the kind reads, in the order a form shows
	// them. A key not listed here is kept as it is by an editor.
	Fields []ConfigField
	// Branches are the values the When of an edge leaving a node of this
	// kind may take (its BranchingStep's Branches); none: every edge is
	// followed.
	Branches []string
}

// KindGroup is a palette heading.
type KindGroup string

// The palette's groups, in palette order (docs/product.md W7): the agents
// first, because handing work to them is what Workrun is for.
const (
	GroupAgents KindGroup = "agents"
	GroupLogic  KindGroup = "logic"
	GroupPeople KindGroup = "people"
	GroupLocal  KindGroup = "local"
)

// KindGroups lists the groups in palette order.
var KindGroups = []KindGroup{GroupAgents, GroupLogic, GroupPeople, GroupLocal}

// ValueKind says what a config value is, and so which editor it gets and
// how the value is written in the workflow file.
type ValueKind string

const (
	// ValueText is one line of text (a JSON string).
	ValueText ValueKind = "text"
	// ValueLongText is text of several lines (a JSON string).
	ValueLongText ValueKind = "long_text"
	// ValueTemplate is text of several lines in which "{{field}}" stands
	// for a State field of FieldTypes (any type when none), as
	// ExpandTemplate fills it in (a JSON string). An editor offers the
	// fields' names as one types "{{".
	ValueTemplate ValueKind = "template"
	// ValueURL is an absolute http(s) URL (a JSON string); Protocol names
	// what answers there, so an editor can test the connection.
	ValueURL ValueKind = "url"
	// ValueInt is a whole number from Min to Max (a JSON number).
	ValueInt ValueKind = "int"
	// ValueChoice is one of Options (a JSON string).
	ValueChoice ValueKind = "choice"
	// ValueJSON is any JSON value; text that is not JSON is a string.
	ValueJSON ValueKind = "json"
	// ValueJSONObject is a JSON object written by hand (e.g. a cleanup
	// tool's arguments, each value a template or a JSON value).
	ValueJSONObject ValueKind = "json_object"
	// ValueField names one State field of FieldTypes (a JSON string).
	ValueField ValueKind = "field"
	// ValueFields names State fields of FieldTypes (a JSON list of strings).
	ValueFields ValueKind = "fields"
	// ValueAssignments maps State fields to templates over State fields
	// (a JSON object).
	ValueAssignments ValueKind = "assignments"
	// ValueCommand is a program and its arguments, each a template (a
	// JSON list of strings).
	ValueCommand ValueKind = "command"
	// ValueEnv maps environment variable names to templates (a JSON
	// object of strings).
	ValueEnv ValueKind = "env"
	// ValueCredential names a saved credential (a JSON string).
	ValueCredential ValueKind = "credential"
	// ValueTool names a tool that the server at the kind's ValueURL field
	// lists (a JSON string).
	ValueTool ValueKind = "tool"
	// ValueToolArguments are the arguments of the kind's ValueTool, each a
	// template over State fields or a JSON value (a JSON object).
	ValueToolArguments ValueKind = "tool_arguments"
)

// Protocols a ValueURL field may name.
const (
	ProtocolA2A = "a2a"
	ProtocolMCP = "mcp"
	// ProtocolMCPStdio marks a ValueCommand that starts an MCP server
	// spoken to over its standard streams (the Tool App).
	ProtocolMCPStdio = "mcp-stdio"
)

// ConfigField describes one config key.
type ConfigField struct {
	Key   string
	Value ValueKind
	// Label names the value in a form; Hint is an example or a placeholder
	// (Plain when it is data, such as a URL).
	Label, Hint Text
	// Required: Compile refuses the node without the key.
	Required bool
	// Default is the value a new node starts with (nil: the key is left
	// out); a Text is words, written in the editor's language
	// (DefaultConfigIn). For an optional key it is also what the kind
	// uses when the key is left out.
	Default any
	// Min and Max bound a ValueInt.
	Min, Max int
	// Options are the values of a ValueChoice.
	Options []Choice
	// FieldTypes are the State field types a ValueField or ValueFields
	// accepts, or a ValueTemplate may name (none: any type).
	FieldTypes []FieldType
	// Protocol is what answers at a ValueURL (ProtocolA2A, ProtocolMCP) or
	// a ValueCommand (ProtocolMCPStdio).
	Protocol string
}

// Choice is one option of a ValueChoice.
type Choice struct {
	Value string
	Label Text
}

// Field returns the description of key.
func (k KindInfo) Field(key string) (ConfigField, bool) {
	i := slices.IndexFunc(k.Fields, func(f ConfigField) bool { return f.Key == key })
	if i < 0 {
		return ConfigField{}, false
	}
	return k.Fields[i], true
}

// DefaultConfig is the config a new node of the kind starts with: each
// field's Default; "{}" when none has one. Words (a Text Default) are in
// English; DefaultConfigIn gives them in an editor's language.
func (k KindInfo) DefaultConfig() json.RawMessage { return k.DefaultConfigIn("en") }

// DefaultConfigIn is DefaultConfig with a Text Default rendered in lang
// ("en" or "zh"): a node made in a Chinese window starts with Chinese
// words (a review's prompt).
func (k KindInfo) DefaultConfigIn(lang string) json.RawMessage {
	m := map[string]any{}
	for _, f := range k.Fields {
		switch d := f.Default.(type) {
		case nil:
		case Text:
			m[f.Key] = d.In(lang)
		default:
			m[f.Key] = d
		}
	}
	b, err := json.Marshal(m)
	if err != nil {
		// A Default that does not encode is a bug in the kind's Describe;
		// the node then starts empty and Compile says what is missing.
		return json.RawMessage("{}")
	}
	return b
}

// Describe returns the descriptions of the kinds that describe themselves
// (Describer), in the order given.
func Describe(kinds ...Kind) []KindInfo {
	var out []KindInfo
	for _, k := range kinds {
		if d, ok := k.(Describer); ok {
			out = append(out, d.Describe())
		}
	}
	return out
}

// NodeFields are the State fields one node reads and writes, as its
// compiled step declares them (docs/product.md W2).
type NodeFields struct {
	Reads, Writes []string
}

// Fields compiles each node of wf with its kind and returns, by node id,
// what each node that compiles reads and writes. A node that does not
// compile is left out (Validate says why).
func (e *Engine) Fields(wf Workflow) map[string]NodeFields {
	out := make(map[string]NodeFields, len(wf.Nodes))
	for _, n := range wf.Nodes {
		k, ok := e.kinds[n.Type]
		if !ok {
			continue
		}
		st, err := k.Compile(n, wf)
		if err != nil {
			continue
		}
		out[n.ID] = NodeFields{Reads: slices.Clone(st.Reads()), Writes: slices.Clone(st.Writes())}
	}
	return out
}
