package mcp

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// ErrBadAnswer: form content that does not fit the elicitation's
// requestedSchema (a required field missing, a wrong type, a value outside
// its enum or limits). Nothing is sent.
var ErrBadAnswer = errors.New("mcp: the answer does not fit the requested form")

// FormSchema is an elicitation's requestedSchema: a flat object whose
// properties are strings, numbers, integers, booleans, single-select enums
// (enum, or titled oneOf) and multi-select arrays of them (SEP-1330).
type FormSchema struct {
	Properties map[string]FormField `json:"properties"`
	Required   []string             `json:"required,omitempty"`
}

// FormField is one property of a FormSchema.
type FormField struct {
	Type        string   `json:"type"`
	Title       string   `json:"title,omitempty"`
	Description string   `json:"description,omitempty"`
	Default     any      `json:"default,omitempty"`
	Format      string   `json:"format,omitempty"`
	WriteOnly   bool     `json:"writeOnly,omitempty"`
	Enum        []string `json:"enum,omitempty"`
	EnumNames   []string `json:"enumNames,omitempty"`
	OneOf       []Choice `json:"oneOf,omitempty"`
	MinLength   *int     `json:"minLength,omitempty"`
	MaxLength   *int     `json:"maxLength,omitempty"`
	Minimum     *float64 `json:"minimum,omitempty"`
	Maximum     *float64 `json:"maximum,omitempty"`
	MinItems    *int     `json:"minItems,omitempty"`
	MaxItems    *int     `json:"maxItems,omitempty"`
	Items       *struct {
		Type  string   `json:"type,omitempty"`
		Enum  []string `json:"enum,omitempty"`
		AnyOf []Choice `json:"anyOf,omitempty"`
	} `json:"items,omitempty"`
}

// Choice is a titled enum value (oneOf / anyOf {const, title}).
type Choice struct {
	Const string `json:"const"`
	Title string `json:"title,omitempty"`
}

// Choices returns the values a single- or multi-select field allows (nil
// for a free field).
func (f FormField) Choices() []Choice {
	var out []Choice
	add := func(vals []string, names []string, titled []Choice) {
		for i, v := range vals {
			c := Choice{Const: v}
			if i < len(names) {
				c.Title = names[i]
			}
			out = append(out, c)
		}
		out = append(out, titled...)
	}
	if f.Type == "array" && f.Items != nil {
		add(f.Items.Enum, nil, f.Items.AnyOf)
	} else {
		add(f.Enum, f.EnumNames, f.OneOf)
	}
	return out
}

// Secret reports whether the field holds a secret (format password, or
// writeOnly): its value is never kept.
func (f FormField) Secret() bool { return f.WriteOnly || f.Format == "password" }

// ParseFormSchema reads a requestedSchema; an empty one has no fields.
func ParseFormSchema(raw json.RawMessage) (*FormSchema, error) {
	s := &FormSchema{}
	if len(raw) == 0 || string(raw) == "null" {
		return s, nil
	}
	if err := json.Unmarshal(raw, s); err != nil {
		return nil, fmt.Errorf("%w: requestedSchema: %v", ErrProtocol, err)
	}
	for name, f := range s.Properties {
		switch f.Type {
		case "string", "number", "integer", "boolean", "array":
		default:
			return nil, fmt.Errorf("%w: requestedSchema property %q has type %q (a form has only strings, numbers, integers, booleans and multi-select arrays)", ErrProtocol, clipString(name, 60), clipString(f.Type, 20))
		}
	}
	return s, nil
}

// Names returns the property names, sorted.
func (s *FormSchema) Names() []string {
	return slices.Sorted(keysOf(s.Properties))
}

// Fill returns content with every absent property that has a default set
// to it (SEP-1034: defaults apply where the person gave no value).
func (s *FormSchema) Fill(content map[string]any) map[string]any {
	out := make(map[string]any, len(s.Properties))
	for k, v := range content {
		out[k] = v
	}
	for name, f := range s.Properties {
		if _, ok := out[name]; !ok && f.Default != nil {
			out[name] = f.Default
		}
	}
	return out
}

// Coerce turns a value given as text (a pre-answer template, a --field
// k=v) into the property's type; a value already of the type is kept.
// Unknown properties are refused.
func (s *FormSchema) Coerce(name string, v any) (any, error) {
	f, ok := s.Properties[name]
	if !ok {
		return nil, fmt.Errorf("%w: the form has no field %q (it has %s)", ErrBadAnswer, clipString(name, 60), strings.Join(s.Names(), ", "))
	}
	text, isText := v.(string)
	if !isText {
		return v, nil
	}
	text = strings.TrimSpace(text)
	switch f.Type {
	case "integer", "number":
		n, err := strconv.ParseFloat(text, 64)
		if err != nil {
			return nil, fmt.Errorf("%w: field %q wants a number, not %q", ErrBadAnswer, name, clipString(text, 60))
		}
		return n, nil
	case "boolean":
		b, err := strconv.ParseBool(text)
		if err != nil {
			return nil, fmt.Errorf("%w: field %q wants true or false, not %q", ErrBadAnswer, name, clipString(text, 60))
		}
		return b, nil
	case "array":
		var list []string
		if json.Unmarshal([]byte(text), &list) == nil {
			return list, nil
		}
		for _, p := range strings.Split(text, ",") {
			if p = strings.TrimSpace(p); p != "" {
				list = append(list, p)
			}
		}
		return list, nil
	}
	return v, nil
}

// Check validates content against the schema: required fields present,
// each value of its type, within its enum and limits, no unknown fields.
func (s *FormSchema) Check(content map[string]any) error {
	var problems []string
	for _, name := range s.Required {
		if _, ok := content[name]; !ok {
			problems = append(problems, fmt.Sprintf("%q is required", name))
		}
	}
	for _, name := range slices.Sorted(keysOf(content)) {
		f, ok := s.Properties[name]
		if !ok {
			problems = append(problems, fmt.Sprintf("%q is not a field of the form", clipString(name, 60)))
			continue
		}
		if p := f.check(content[name]); p != "" {
			problems = append(problems, fmt.Sprintf("%q %s", name, p))
		}
	}
	if len(problems) > 0 {
		return fmt.Errorf("%w: %s", ErrBadAnswer, strings.Join(problems, "; "))
	}
	return nil
}

func (f FormField) check(v any) string {
	allowed := func(s string) bool {
		cs := f.Choices()
		return len(cs) == 0 || slices.ContainsFunc(cs, func(c Choice) bool { return c.Const == s })
	}
	switch f.Type {
	case "string":
		s, ok := v.(string)
		if !ok {
			return "must be text"
		}
		n := utf8.RuneCountInString(s)
		switch {
		case f.MinLength != nil && n < *f.MinLength:
			return fmt.Sprintf("must be at least %d characters", *f.MinLength)
		case f.MaxLength != nil && n > *f.MaxLength:
			return fmt.Sprintf("must be at most %d characters", *f.MaxLength)
		case !allowed(s):
			return "is not one of the choices"
		}
	case "number", "integer":
		n, ok := number(v)
		switch {
		case !ok:
			return "must be a number"
		case f.Type == "integer" && n != math.Trunc(n):
			return "must be a whole number"
		case f.Minimum != nil && n < *f.Minimum:
			return fmt.Sprintf("must be at least %v", *f.Minimum)
		case f.Maximum != nil && n > *f.Maximum:
			return fmt.Sprintf("must be at most %v", *f.Maximum)
		}
	case "boolean":
		if _, ok := v.(bool); !ok {
			return "must be true or false"
		}
	case "array":
		list, ok := stringList(v)
		switch {
		case !ok:
			return "must be a list of choices"
		case f.MinItems != nil && len(list) < *f.MinItems:
			return fmt.Sprintf("needs at least %d choices", *f.MinItems)
		case f.MaxItems != nil && len(list) > *f.MaxItems:
			return fmt.Sprintf("takes at most %d choices", *f.MaxItems)
		}
		for _, s := range list {
			if !allowed(s) {
				return fmt.Sprintf("has %q, which is not one of the choices", clipString(s, 60))
			}
		}
	}
	return ""
}

func number(v any) (float64, bool) {
	switch n := v.(type) {
	case float64:
		return n, true
	case int:
		return float64(n), true
	case int64:
		return float64(n), true
	case json.Number:
		f, err := n.Float64()
		return f, err == nil
	}
	return 0, false
}

func stringList(v any) ([]string, bool) {
	switch l := v.(type) {
	case []string:
		return l, true
	case []any:
		out := make([]string, 0, len(l))
		for _, e := range l {
			s, ok := e.(string)
			if !ok {
				return nil, false
			}
			out = append(out, s)
		}
		return out, true
	}
	return nil, false
}

// Answer is the content of an accept answer built from values (field →
// value; text is coerced to each field's type) and the form's defaults
// (SEP-1034) for the rest. Values for fields the form does not have are
// left out (one set of pre-answers may serve several forms). It fails with
// ErrBadAnswer when the content does not fit, e.g. a required field has
// neither a value nor a default.
func (s *FormSchema) Answer(values map[string]any) (map[string]any, error) {
	content := map[string]any{}
	for k, v := range values {
		if _, ok := s.Properties[k]; !ok {
			continue
		}
		cv, err := s.Coerce(k, v)
		if err != nil {
			return nil, err
		}
		content[k] = cv
	}
	content = s.Fill(content)
	if err := s.Check(content); err != nil {
		return nil, err
	}
	return content, nil
}
