package workrun

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
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
