package workrun

import (
	"encoding/json"
	"fmt"
	"math"
)

// NormalizeValue checks v against a field type and returns it in the
// JSON-compatible form Values holds (Go integers become float64, a []string
// of files becomes []any). A nil value is always accepted: the field is unset.
func NormalizeValue(t FieldType, v any) (any, error) {
	if v == nil {
		return nil, nil
	}
	if r, ok := RefOf(v); ok {
		// A large value kept once as an artifact (valueref.go).
		if r.Type != t {
			return nil, refTexts.Error(nil, msgWantRefType, t, r.Type)
		}
		return r, nil
	}
	switch t {
	case FieldText, FieldFile:
		s, ok := v.(string)
		if !ok {
			return nil, texts.Error(nil, msgWantString, t, v)
		}
		return s, nil
	case FieldNumber:
		f, ok := toFloat(v)
		if !ok {
			return nil, texts.Error(nil, msgWantNumber, v)
		}
		return f, nil
	case FieldBoolean:
		b, ok := v.(bool)
		if !ok {
			return nil, texts.Error(nil, msgWantBoolean, v)
		}
		return b, nil
	case FieldFiles:
		switch l := v.(type) {
		case []string:
			out := make([]any, len(l))
			for i, s := range l {
				out[i] = s
			}
			return out, nil
		case []any:
			for _, x := range l {
				if _, ok := x.(string); !ok {
					return nil, texts.Error(nil, msgWantFilesItem, x)
				}
			}
			return l, nil
		}
		return nil, texts.Error(nil, msgWantFiles, v)
	case FieldJSON:
		if _, err := json.Marshal(v); err != nil {
			return nil, texts.Error(err, msgWantJSON, err)
		}
		return v, nil
	}
	return nil, texts.Error(nil, msgUnknownType, t)
}

func toFloat(v any) (float64, bool) {
	switch n := v.(type) {
	case float64:
		return n, !math.IsNaN(n) && !math.IsInf(n, 0)
	case float32:
		return float64(n), true
	case int:
		return float64(n), true
	case int64:
		return float64(n), true
	case int32:
		return float64(n), true
	case json.Number:
		f, err := n.Float64()
		return f, err == nil
	}
	return 0, false
}

// CheckInputs checks a run's inputs against the workflow's State and returns
// them normalized; an error wraps ErrBadInput and names the field.
func CheckInputs(wf Workflow, in Values) (Values, error) {
	out := make(Values, len(in))
	for name, v := range in {
		t, ok := wf.State[name]
		if !ok {
			return nil, fmt.Errorf("input %q: %w: no such State field", name, ErrBadInput)
		}
		nv, err := NormalizeValue(t, v)
		if err != nil {
			return nil, fmt.Errorf("input %q: %w: %v", name, ErrBadInput, err)
		}
		if nv != nil {
			out[name] = nv
		}
	}
	return out, nil
}
