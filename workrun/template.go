package workrun

import (
	"encoding/json"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

var templateField = regexp.MustCompile(`\{\{\s*([^{}\s]+)\s*\}\}`)

// TemplateFields returns the State fields a "{{field}}" template names, in
// order of first appearance.
func TemplateFields(tmpl string) []string {
	var out []string
	seen := map[string]bool{}
	for _, m := range templateField.FindAllStringSubmatch(tmpl, -1) {
		if !seen[m[1]] {
			seen[m[1]] = true
			out = append(out, m[1])
		}
	}
	return out
}

// IsFieldName reports whether name can name a State field that a template
// references: not empty, without braces or white space (docs/workflow-format.md
// "Templates").
func IsFieldName(name string) bool {
	if name == "" || strings.ContainsAny(name, "{}") {
		return false
	}
	if _, bad := invisibleRune(name); bad {
		return false
	}
	return !strings.ContainsFunc(name, unicode.IsSpace)
}

// CheckTemplate checks that every field the template tmpl of config key
// key names is in state and, when types are given, of one of them. The
// error (a *TextError, rendered in the reader's language) names the key
// and the first field that is not; Compile returns it wrapped in the
// kind's config error, so Validate, the window and `workrun run` all
// refuse the template before anything is sent.
func CheckTemplate(key, tmpl string, state map[string]FieldType, types ...FieldType) error {
	for _, f := range TemplateFields(tmpl) {
		t, ok := state[f]
		if !ok {
			return templateTexts.Fail(nil, msgTemplateNoField, key, f)
		}
		if len(types) > 0 && !slices.Contains(types, t) {
			names := make([]string, len(types))
			for i, a := range types {
				names[i] = string(a)
			}
			return templateTexts.Fail(nil, msgTemplateFieldType, key, f, t, strings.Join(names, "/"))
		}
	}
	return nil
}

const (
	msgTemplateNoField   msgID = "workrun.template_no_field"
	msgTemplateFieldType msgID = "workrun.template_field_type"
)

var templateTexts = NewCatalog(map[msgID][2]string{
	msgTemplateNoField: {"%s: {{%s}} is not a State field: add it to the workflow's State or correct the name",
		"%s：{{%s}} 不是状态字段：请把它加入工作流的状态字段，或改正名称"},
	msgTemplateFieldType: {"%s: {{%s}} is a %s field; this text can name only %s fields",
		"%s：{{%s}} 是 %s 字段；这段文字只能引用 %s 字段"},
})

// TemplateSingleField reports the field when tmpl is exactly one "{{field}}".
func TemplateSingleField(tmpl string) (string, bool) {
	m := templateField.FindStringSubmatchIndex(tmpl)
	if m == nil || m[0] != 0 || m[1] != len(tmpl) {
		return "", false
	}
	return tmpl[m[2]:m[3]], true
}

// ExpandTemplate replaces every "{{field}}" with the text form of its value
// (FormatValue); an unset field becomes the empty string.
func ExpandTemplate(tmpl string, v Values) string {
	return templateField.ReplaceAllStringFunc(tmpl, func(s string) string {
		name := templateField.FindStringSubmatch(s)[1]
		return FormatValue(v[name])
	})
}

// FormatValue is the text form of a State value: text as is, numbers in
// shortest form, booleans as true/false, lists of files joined with ", ",
// JSON as compact JSON, unset as "".
func FormatValue(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case ValueRef:
		return x.String()
	case string:
		return x
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(x)
	case []any:
		parts := make([]string, 0, len(x))
		allText := true
		for _, e := range x {
			s, ok := e.(string)
			if !ok {
				allText = false
				break
			}
			parts = append(parts, s)
		}
		if allText {
			return strings.Join(parts, ", ")
		}
	}
	b, err := json.Marshal(v)
	if err != nil {
		return ""
	}
	return string(b)
}
