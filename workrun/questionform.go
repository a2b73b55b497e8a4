package workrun

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/mail"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// An MCP elicitation's requestedSchema is a flat object of primitive
// properties (docs/engine.md "Answer forms"): string (with minLength,
// maxLength and format email, uri, date or date-time), number, integer
// (minimum, maximum), boolean, single-select enums — untitled (enum),
// titled (oneOf const/title) or legacy titled (enum + enumNames) — and
// multi-select enums (type array, items enum or anyOf const/title,
// minItems, maxItems), per SEP-1330; each may carry a default (SEP-1034).
// ParseForm reads it into a Form that the window and the CLI build their
// input from and that checks an answer before it is sent.

// FormKind is the kind of input a form field needs.
type FormKind string

const (
	FormString  FormKind = "string"
	FormNumber  FormKind = "number"
	FormInteger FormKind = "integer"
	FormBoolean FormKind = "boolean"
	FormChoice  FormKind = "choice" // one of Options
	FormChoices FormKind = "multi"  // any of Options
)

// FormOption is one value of an enum field and the title shown for it.
type FormOption struct {
	Value string `json:"value"`
	Title string `json:"title,omitempty"`
}

// Label is the option's title, else its value.
func (o FormOption) Label() string {
	if o.Title != "" {
		return o.Title
	}
	return o.Value
}

// FormField is one property of a form, in the schema's order.
type FormField struct {
	Name        string       `json:"name"`
	Title       string       `json:"title,omitempty"`
	Description string       `json:"description,omitempty"`
	Kind        FormKind     `json:"kind"`
	Format      string       `json:"format,omitempty"`
	Required    bool         `json:"required,omitempty"`
	Secret      bool         `json:"secret,omitempty"` // format "password" or writeOnly
	Options     []FormOption `json:"options,omitempty"`
	MinLength   *int         `json:"min_length,omitempty"`
	MaxLength   *int         `json:"max_length,omitempty"`
	Minimum     *float64     `json:"minimum,omitempty"`
	Maximum     *float64     `json:"maximum,omitempty"`
	MinItems    *int         `json:"min_items,omitempty"`
	MaxItems    *int         `json:"max_items,omitempty"`
	// Default is the schema's default (SEP-1034): string, float64, bool or
	// []string for a multi-select; nil when there is none.
	Default any `json:"default,omitempty"`
}

// Label is the field's title, else its name.
func (f FormField) Label() string {
	if f.Title != "" {
		return f.Title
	}
	return f.Name
}

// Form is a parsed requestedSchema.
type Form struct {
	Fields []FormField `json:"fields"`
}

// Field returns the field called name.
func (f Form) Field(name string) (FormField, bool) {
	i := slices.IndexFunc(f.Fields, func(fd FormField) bool { return fd.Name == name })
	if i < 0 {
		return FormField{}, false
	}
	return f.Fields[i], true
}

// schemaProp is the JSON of one property.
type schemaProp struct {
	Type        string          `json:"type"`
	Title       string          `json:"title"`
	Description string          `json:"description"`
	Format      string          `json:"format"`
	WriteOnly   bool            `json:"writeOnly"`
	Enum        []any           `json:"enum"`
	EnumNames   []string        `json:"enumNames"`
	OneOf       []schemaConst   `json:"oneOf"`
	AnyOf       []schemaConst   `json:"anyOf"`
	Items       *schemaProp     `json:"items"`
	MinLength   *int            `json:"minLength"`
	MaxLength   *int            `json:"maxLength"`
	Minimum     *float64        `json:"minimum"`
	Maximum     *float64        `json:"maximum"`
	MinItems    *int            `json:"minItems"`
	MaxItems    *int            `json:"maxItems"`
	Default     json.RawMessage `json:"default"`
}

type schemaConst struct {
	Const any    `json:"const"`
	Title string `json:"title"`
}

// ParseForm reads an elicitation's requestedSchema. An empty schema is a
// form with no fields. A property of a type the form cannot ask for is an
// error wrapping ErrBadAnswer (the remote's request cannot be answered as
// asked).
func ParseForm(schema json.RawMessage) (Form, error) {
	var form Form
	if len(bytes.TrimSpace(schema)) == 0 || string(bytes.TrimSpace(schema)) == "null" {
		return form, nil
	}
	var top struct {
		Type       string          `json:"type"`
		Properties json.RawMessage `json:"properties"`
		Required   []string        `json:"required"`
	}
	if err := json.Unmarshal(schema, &top); err != nil {
		return form, questionTexts.Fail(ErrBadAnswer, msgSchemaBad, err)
	}
	names, props, err := orderedProps(top.Properties)
	if err != nil {
		return form, questionTexts.Fail(ErrBadAnswer, msgSchemaBad, err)
	}
	for i, name := range names {
		fd, err := parseField(name, props[i])
		if err != nil {
			return Form{}, err
		}
		fd.Required = slices.Contains(top.Required, name)
		form.Fields = append(form.Fields, fd)
	}
	return form, nil
}

// orderedProps decodes "properties" keeping the order the remote wrote.
func orderedProps(raw json.RawMessage) ([]string, []schemaProp, error) {
	if len(bytes.TrimSpace(raw)) == 0 || string(bytes.TrimSpace(raw)) == "null" {
		return nil, nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, nil, errors.New("properties is not an object")
	}
	var names []string
	var props []schemaProp
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, nil, err
		}
		name, _ := t.(string)
		var p schemaProp
		if err := dec.Decode(&p); err != nil {
			return nil, nil, fmt.Errorf("property %q: %w", name, err)
		}
		if slices.Contains(names, name) {
			return nil, nil, fmt.Errorf("property %q appears twice", name)
		}
		names, props = append(names, name), append(props, p)
	}
	return names, props, nil
}

func parseField(name string, p schemaProp) (FormField, error) {
	fd := FormField{Name: name, Title: p.Title, Description: p.Description, Format: p.Format,
		Secret: p.Format == "password" || p.WriteOnly, MinLength: p.MinLength, MaxLength: p.MaxLength,
		Minimum: p.Minimum, Maximum: p.Maximum, MinItems: p.MinItems, MaxItems: p.MaxItems}
	switch {
	case p.Type == "string" && len(p.OneOf) > 0:
		fd.Kind = FormChoice
		for _, c := range p.OneOf {
			fd.Options = append(fd.Options, FormOption{Value: fmt.Sprint(c.Const), Title: c.Title})
		}
	case p.Type == "string" && len(p.Enum) > 0:
		fd.Kind = FormChoice
		for i, v := range p.Enum {
			o := FormOption{Value: fmt.Sprint(v)}
			if i < len(p.EnumNames) {
				o.Title = p.EnumNames[i]
			}
			fd.Options = append(fd.Options, o)
		}
	case p.Type == "string":
		fd.Kind = FormString
	case p.Type == "number":
		fd.Kind = FormNumber
	case p.Type == "integer":
		fd.Kind = FormInteger
	case p.Type == "boolean":
		fd.Kind = FormBoolean
	case p.Type == "array" && p.Items != nil && (len(p.Items.Enum) > 0 || len(p.Items.AnyOf) > 0):
		fd.Kind = FormChoices
		for _, v := range p.Items.Enum {
			fd.Options = append(fd.Options, FormOption{Value: fmt.Sprint(v)})
		}
		for _, c := range p.Items.AnyOf {
			fd.Options = append(fd.Options, FormOption{Value: fmt.Sprint(c.Const), Title: c.Title})
		}
	default:
		return fd, questionTexts.Fail(ErrBadAnswer, msgSchemaType, name, p.Type)
	}
	if len(p.Default) > 0 && string(p.Default) != "null" {
		var v any
		if err := json.Unmarshal(p.Default, &v); err != nil {
			return fd, questionTexts.Fail(ErrBadAnswer, msgSchemaBad, err)
		}
		if fd.Kind == FormChoices {
			list, _ := v.([]any)
			strs := make([]string, 0, len(list))
			for _, x := range list {
				strs = append(strs, fmt.Sprint(x))
			}
			v = strs
		}
		fd.Default = v
	}
	return fd, nil
}

// Defaults is the answer the form starts with: every field's default
// (SEP-1034), nothing for a field without one.
func (f Form) Defaults() map[string]any {
	out := map[string]any{}
	for _, fd := range f.Fields {
		if fd.Default != nil {
			out[fd.Name] = fd.Default
		}
	}
	return out
}

// Fill returns values with every field that has no value set to its
// default (SEP-1034: defaults apply where no value was given).
func (f Form) Fill(values map[string]any) map[string]any {
	out := make(map[string]any, len(values)+len(f.Fields))
	for k, v := range values {
		out[k] = v
	}
	for k, v := range f.Defaults() {
		if _, given := out[k]; !given {
			out[k] = v
		}
	}
	return out
}

// Answer is the content an accept answer to f sends: values, where text
// given for a field that is not text is read as that field's value
// (FormField.Parse), with defaults for the rest (Fill), checked (Validate;
// a field the form does not have is a problem).
func (f Form) Answer(values map[string]any) (map[string]any, error) {
	given := make(map[string]any, len(values))
	for k, v := range values {
		if fd, ok := f.Field(k); ok && fd.Kind != FormString {
			if s, isText := v.(string); isText {
				pv, err := fd.Parse(s)
				if err != nil {
					return nil, err
				}
				if pv == nil {
					continue // empty text: no value
				}
				v = pv
			}
		}
		given[k] = v
	}
	content := f.Fill(given)
	if err := f.Validate(content); err != nil {
		return nil, err
	}
	return content, nil
}

// FieldProblem is why one field's value does not fit (Field "" for the
// answer as a whole).
type FieldProblem struct {
	Field string
	Text  Text
}

// Check lists what is wrong with values as an answer to f: a required
// field missing, a field the form does not have, a value of the wrong
// type or outside its limits or options.
func (f Form) Check(values map[string]any) []FieldProblem {
	var probs []FieldProblem
	add := func(field string, id msgID, args ...any) {
		probs = append(probs, FieldProblem{Field: field, Text: questionTexts.Msg(id, args...)})
	}
	for _, fd := range f.Fields {
		v, ok := values[fd.Name]
		if !ok || isEmptyValue(v) {
			if fd.Required {
				add(fd.Name, msgFieldRequired, fd.Label())
			}
			continue
		}
		if id, args := fd.check(v); id != "" {
			add(fd.Name, id, append([]any{fd.Label()}, args...)...)
		}
	}
	var unknown []string
	for k := range values {
		if _, ok := f.Field(k); !ok {
			unknown = append(unknown, k)
		}
	}
	slices.Sort(unknown)
	for _, k := range unknown {
		add(k, msgFieldUnknown, k)
	}
	return probs
}

func isEmptyValue(v any) bool {
	switch v := v.(type) {
	case nil:
		return true
	case string:
		return v == ""
	case []any:
		return len(v) == 0
	case []string:
		return len(v) == 0
	}
	return false
}

// Validate is Check as an error: nil when values fit, else one *TextError
// per problem (joined), each wrapping ErrBadAnswer.
func (f Form) Validate(values map[string]any) error {
	probs := f.Check(values)
	if len(probs) == 0 {
		return nil
	}
	errs := make([]error, len(probs))
	for i, p := range probs {
		errs[i] = &TextError{Text: p.Text, Err: ErrBadAnswer}
	}
	return errors.Join(errs...)
}

// check says why v does not fit fd ("" when it does).
func (fd FormField) check(v any) (msgID, []any) {
	switch fd.Kind {
	case FormString:
		s, ok := v.(string)
		if !ok {
			return msgFieldWantText, nil
		}
		n := utf8.RuneCountInString(s)
		if fd.MinLength != nil && n < *fd.MinLength {
			return msgFieldTooShort, []any{*fd.MinLength}
		}
		if fd.MaxLength != nil && n > *fd.MaxLength {
			return msgFieldTooLong, []any{*fd.MaxLength}
		}
		if !formatOK(fd.Format, s) {
			return msgFieldFormat, []any{fd.Format}
		}
	case FormNumber, FormInteger:
		x, ok := v.(float64)
		if !ok {
			return msgFieldWantNumber, nil
		}
		if fd.Kind == FormInteger && x != math.Trunc(x) {
			return msgFieldWantInteger, nil
		}
		if fd.Minimum != nil && x < *fd.Minimum {
			return msgFieldBelow, []any{FormatValue(*fd.Minimum)}
		}
		if fd.Maximum != nil && x > *fd.Maximum {
			return msgFieldAbove, []any{FormatValue(*fd.Maximum)}
		}
	case FormBoolean:
		if _, ok := v.(bool); !ok {
			return msgFieldWantBoolean, nil
		}
	case FormChoice:
		s, ok := v.(string)
		if !ok || !fd.hasOption(s) {
			return msgFieldNotOption, []any{fd.optionList()}
		}
	case FormChoices:
		list, ok := v.([]any)
		if !ok {
			if ss, ok2 := v.([]string); ok2 {
				for _, s := range ss {
					list = append(list, s)
				}
				ok = true
			}
		}
		if !ok {
			return msgFieldWantList, nil
		}
		seen := map[string]bool{}
		for _, it := range list {
			s, ok := it.(string)
			if !ok || !fd.hasOption(s) {
				return msgFieldNotOption, []any{fd.optionList()}
			}
			if seen[s] {
				return msgFieldTwice, []any{s}
			}
			seen[s] = true
		}
		if fd.MinItems != nil && len(list) < *fd.MinItems {
			return msgFieldFewItems, []any{*fd.MinItems}
		}
		if fd.MaxItems != nil && len(list) > *fd.MaxItems {
			return msgFieldManyItems, []any{*fd.MaxItems}
		}
	}
	return "", nil
}

func (fd FormField) hasOption(s string) bool {
	return slices.ContainsFunc(fd.Options, func(o FormOption) bool { return o.Value == s })
}

func (fd FormField) optionList() string {
	vs := make([]string, len(fd.Options))
	for i, o := range fd.Options {
		vs[i] = o.Value
	}
	return strings.Join(vs, ", ")
}

// formatOK checks the string formats the elicitation schema names.
func formatOK(format, s string) bool {
	switch format {
	case "email":
		a, err := mail.ParseAddress(s)
		return err == nil && a.Address == s
	case "uri":
		u, err := url.Parse(s)
		return err == nil && u.Scheme != "" && (u.Host != "" || u.Opaque != "")
	case "date":
		_, err := time.Parse(time.DateOnly, s)
		return err == nil
	case "date-time":
		_, err := time.Parse(time.RFC3339, s)
		return err == nil
	}
	return true
}

// Parse turns what a person typed for fd (a CLI --field value, a window
// entry) into its value: a number, a boolean (true/false/yes/no/是/否), an
// option's value (its value or title), or for a multi-select a
// comma-separated list. An empty text is no value (nil).
func (fd FormField) Parse(s string) (any, error) {
	s = strings.TrimSpace(s)
	if s == "" && fd.Kind != FormString {
		return nil, nil
	}
	switch fd.Kind {
	case FormNumber, FormInteger:
		x, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsInf(x, 0) || math.IsNaN(x) {
			return nil, questionTexts.Fail(ErrBadAnswer, msgFieldWantNumber, fd.Label())
		}
		return x, nil
	case FormBoolean:
		switch strings.ToLower(s) {
		case "true", "yes", "y", "1", "on", "是":
			return true, nil
		case "false", "no", "n", "0", "off", "否":
			return false, nil
		}
		return nil, questionTexts.Fail(ErrBadAnswer, msgFieldWantBoolean, fd.Label())
	case FormChoice:
		return fd.option(s)
	case FormChoices:
		var out []any
		for _, part := range strings.Split(s, ",") {
			if part = strings.TrimSpace(part); part == "" {
				continue
			}
			v, err := fd.option(part)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	}
	return s, nil
}

func (fd FormField) option(s string) (any, error) {
	for _, o := range fd.Options {
		if o.Value == s {
			return o.Value, nil
		}
	}
	for _, o := range fd.Options {
		if o.Title != "" && strings.EqualFold(o.Title, s) {
			return o.Value, nil
		}
	}
	return nil, questionTexts.Fail(ErrBadAnswer, msgFieldNotOption, fd.Label(), fd.optionList())
}

const (
	msgSchemaBad        msgID = "workrun.form_schema_bad"
	msgSchemaType       msgID = "workrun.form_schema_type"
	msgFieldRequired    msgID = "workrun.form_field_required"
	msgFieldUnknown     msgID = "workrun.form_field_unknown"
	msgFieldWantText    msgID = "workrun.form_field_want_text"
	msgFieldTooShort    msgID = "workrun.form_field_too_short"
	msgFieldTooLong     msgID = "workrun.form_field_too_long"
	msgFieldFormat      msgID = "workrun.form_field_format"
	msgFieldWantNumber  msgID = "workrun.form_field_want_number"
	msgFieldWantInteger msgID = "workrun.form_field_want_integer"
	msgFieldBelow       msgID = "workrun.form_field_below"
	msgFieldAbove       msgID = "workrun.form_field_above"
	msgFieldWantBoolean msgID = "workrun.form_field_want_boolean"
	msgFieldNotOption   msgID = "workrun.form_field_not_option"
	msgFieldWantList    msgID = "workrun.form_field_want_list"
	msgFieldTwice       msgID = "workrun.form_field_twice"
	msgFieldFewItems    msgID = "workrun.form_field_few_items"
	msgFieldManyItems   msgID = "workrun.form_field_many_items"
)

var _ = NewCatalog(map[msgID][2]string{
	msgSchemaBad:        {"the remote's form cannot be read: %v", "无法读取远程方的表单：%v"},
	msgSchemaType:       {"the remote's form asks for %q of type %q, which a form cannot take", "远程方的表单要求字段 %q 为 %q 类型，表单无法填写这种类型"},
	msgFieldRequired:    {"%s: a value is required", "%s：必须填写"},
	msgFieldUnknown:     {"%s: the form has no such field", "%s：表单中没有这个字段"},
	msgFieldWantText:    {"%s: want text", "%s：应为文本"},
	msgFieldTooShort:    {"%s: at least %d characters", "%s：至少 %d 个字符"},
	msgFieldTooLong:     {"%s: at most %d characters", "%s：最多 %d 个字符"},
	msgFieldFormat:      {"%s: not a valid %s", "%s：不是有效的 %s"},
	msgFieldWantNumber:  {"%s: want a number", "%s：应为数字"},
	msgFieldWantInteger: {"%s: want a whole number", "%s：应为整数"},
	msgFieldBelow:       {"%s: at least %s", "%s：不能小于 %s"},
	msgFieldAbove:       {"%s: at most %s", "%s：不能大于 %s"},
	msgFieldWantBoolean: {"%s: want yes or no", "%s：应为“是”或“否”"},
	msgFieldNotOption:   {"%s: pick one of %s", "%s：请从 %s 中选择"},
	msgFieldWantList:    {"%s: want a list of choices", "%s：应为选项列表"},
	msgFieldTwice:       {"%s: %q is picked twice", "%s：%q 被选了两次"},
	msgFieldFewItems:    {"%s: pick at least %d", "%s：至少选择 %d 项"},
	msgFieldManyItems:   {"%s: pick at most %d", "%s：最多选择 %d 项"},
})
