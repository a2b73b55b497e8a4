package serve

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"workrun/workrun"
)

// Field is one input or output field of a publication.
type Field struct {
	Name string
	Type workrun.FieldType
}

// Publication is a workflow as served: its agent name, description, the
// State fields a caller fills and those it gets back (docs/serve.md S4).
type Publication struct {
	// ID names the publication in URLs (/a2a/ID): letters, digits, - and _.
	ID          string
	WorkflowID  string // the saved workflow's id; "" for a file
	Workflow    workrun.Workflow
	Name        string
	Description string
	Inputs      []Field
	// TextInput is the text field a plain text message fills; "" none.
	TextInput string
	Outputs   []Field
}

var idChars = regexp.MustCompile(`[^A-Za-z0-9_-]+`)

// Slug makes a publication id from a name.
func Slug(name string) string {
	s := strings.Trim(idChars.ReplaceAllString(strings.ToLower(name), "-"), "-")
	if s == "" {
		return "workflow"
	}
	return s
}

// NewPublication reads wf's publish settings (an unpublished workflow is
// served with none of its fields: it takes no input and returns nothing).
func NewPublication(id, workflowID string, wf workrun.Workflow) (Publication, error) {
	var set workrun.Publish
	if wf.Publish != nil {
		set = *wf.Publish
	}
	p := Publication{ID: id, WorkflowID: workflowID, Workflow: wf, Name: set.Name, Description: set.Description}
	if p.Name == "" {
		p.Name = wf.Name
	}
	if p.ID == "" {
		p.ID = Slug(p.Name)
	}
	field := func(role, name string) (Field, error) {
		t, ok := wf.State[name]
		if !ok {
			return Field{}, fmt.Errorf("publish %s: %s field %q is not a State field", p.Name, role, name)
		}
		return Field{Name: name, Type: t}, nil
	}
	for _, n := range set.Inputs {
		f, err := field("input", n)
		if err != nil {
			return Publication{}, err
		}
		p.Inputs = append(p.Inputs, f)
	}
	for _, n := range set.Outputs {
		f, err := field("output", n)
		if err != nil {
			return Publication{}, err
		}
		p.Outputs = append(p.Outputs, f)
	}
	switch {
	case set.TextInput != "":
		f, err := field("text input", set.TextInput)
		if err != nil {
			return Publication{}, err
		}
		if f.Type != workrun.FieldText {
			return Publication{}, fmt.Errorf("publish %s: text input %q is a %s field", p.Name, f.Name, f.Type)
		}
		if !slices.Contains(set.Inputs, f.Name) {
			p.Inputs = append(p.Inputs, f)
		}
		p.TextInput = f.Name
	default:
		var texts []string
		for _, f := range p.Inputs {
			if f.Type == workrun.FieldText {
				texts = append(texts, f.Name)
			}
		}
		if len(texts) == 1 {
			p.TextInput = texts[0]
		}
	}
	return p, nil
}

// Input returns the input field named name.
func (p Publication) Input(name string) (Field, bool) {
	i := slices.IndexFunc(p.Inputs, func(f Field) bool { return f.Name == name })
	if i < 0 {
		return Field{}, false
	}
	return p.Inputs[i], true
}

// CheckInputs refuses a value for a field the caller may not fill, or of
// the wrong type, naming the field; nothing is started then (S4).
func (p Publication) CheckInputs(in workrun.Values) (workrun.Values, error) {
	out := workrun.Values{}
	for name, v := range in {
		f, ok := p.Input(name)
		if !ok {
			return nil, fmt.Errorf("%w: %q is not an input of %s", ErrBadInput, name, p.Name)
		}
		if !fits(f.Type, v) {
			return nil, fmt.Errorf("%w: %q takes a %s value", ErrBadInput, name, f.Type)
		}
		out[name] = v
	}
	return out, nil
}

func fits(t workrun.FieldType, v any) bool {
	switch t {
	case workrun.FieldText, workrun.FieldFile:
		_, ok := v.(string)
		return ok
	case workrun.FieldNumber:
		_, ok := v.(float64)
		return ok
	case workrun.FieldBoolean:
		_, ok := v.(bool)
		return ok
	case workrun.FieldFiles:
		l, ok := v.([]any)
		if !ok {
			return false
		}
		for _, x := range l {
			if _, ok := x.(string); !ok {
				return false
			}
		}
		return true
	}
	return true // json: anything
}

// promptOf reads a Human Review or Ask Human node's prompt and answer field.
func promptOf(spec workrun.NodeSpec) (prompt, field string) {
	var c struct {
		Prompt string `json:"prompt"`
		Field  string `json:"field"`
	}
	if len(spec.Config) > 0 && json.Unmarshal(spec.Config, &c) == nil {
		return c.Prompt, c.Field
	}
	return "", ""
}
