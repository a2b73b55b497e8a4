package condition

import (
	"context"
	"fmt"
	"reflect"
	"strings"

	"workrun/workrun"
)

// Kind is the "condition" node kind.
type Kind struct{}

func (Kind) Type() string { return "condition" }

type config struct {
	Field string `json:"field"`
	Op    string `json:"op"`
	Value any    `json:"value"`
}

// Compile checks the field, the operator and the value's type.
func (Kind) Compile(spec workrun.NodeSpec, wf workrun.Workflow) (workrun.Step, error) {
	var c config
	if err := workrun.DecodeConfig(spec, &c); err != nil {
		return nil, err
	}
	if c.Field == "" {
		return nil, texts.Fail(nil, msgCfgFieldRequired)
	}
	t, ok := wf.State[c.Field]
	if !ok {
		return nil, texts.Fail(nil, msgCfgFieldUndeclared, c.Field)
	}
	s := &step{field: c.Field, op: c.Op, typ: t}
	switch c.Op {
	case "eq", "ne":
		v, err := workrun.NormalizeValue(t, c.Value)
		if err != nil || c.Value == nil {
			return nil, texts.Fail(nil, msgCfgValueType, c.Field, t, t)
		}
		s.value = v
	case "gt", "lt":
		if t != workrun.FieldNumber {
			return nil, texts.Fail(nil, msgCfgOpNumbers, c.Op, c.Field, t)
		}
		v, err := workrun.NormalizeValue(workrun.FieldNumber, c.Value)
		if err != nil || c.Value == nil {
			return nil, texts.Fail(nil, msgCfgOpNumberValue, c.Op)
		}
		s.value = v
	case "contains":
		switch t {
		case workrun.FieldText, workrun.FieldFiles:
			str, ok := c.Value.(string)
			if !ok {
				return nil, texts.Fail(nil, msgCfgContainsString, t)
			}
			s.value = str
		case workrun.FieldJSON:
			s.value = c.Value
		default:
			return nil, texts.Fail(nil, msgCfgContainsType, t, c.Field)
		}
	case "":
		return nil, texts.Fail(nil, msgCfgOpRequired)
	default:
		return nil, texts.Fail(nil, msgCfgOpUnknown, c.Op)
	}
	return s, nil
}

type step struct {
	field string
	op    string
	typ   workrun.FieldType
	value any
}

func (s *step) Reads() []string    { return []string{s.field} }
func (s *step) Writes() []string   { return nil }
func (s *step) Branches() []string { return []string{"true", "false"} }

func (s *step) Run(ctx context.Context, nc workrun.NodeContext) (workrun.Values, error) {
	v, set := nc.Inputs()[s.field]
	result := set && s.eval(v)
	if s.op == "ne" {
		result = !set || s.eval(v)
	}
	branch := fmt.Sprint(result)
	nc.SetBranch(branch)
	shown := texts.Text(msgNotSet)
	if set {
		shown = workrun.FormatValue(v)
	}
	nc.Log(texts.Msg(msgResult, s.field, shown, opName(s.op), workrun.FormatValue(s.value), branch))
	return nil, nil
}

func (s *step) eval(v any) bool {
	switch s.op {
	case "eq":
		return reflect.DeepEqual(v, s.value)
	case "ne":
		return !reflect.DeepEqual(v, s.value)
	case "gt", "lt":
		f, ok := v.(float64)
		if !ok {
			return false
		}
		if s.op == "gt" {
			return f > s.value.(float64)
		}
		return f < s.value.(float64)
	case "contains":
		switch x := v.(type) {
		case string:
			return strings.Contains(x, s.value.(string))
		case []any:
			for _, e := range x {
				if reflect.DeepEqual(e, s.value) {
					return true
				}
			}
		}
	}
	return false
}

// opName is op in the current language ("eq" reads 等于 in Chinese).
func opName(op string) string {
	if id, ok := opText[op]; ok {
		return texts.Text(id)
	}
	return op
}

// Pure implements workrun.PureStep: the node has no effect outside the
// process, so its record and lines are written behind (docs/engine.md).
func (*step) Pure() {}
