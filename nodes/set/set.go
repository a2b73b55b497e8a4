package set

import (
	"context"
	"slices"

	"workrun/workrun"
)

// Kind is the "set" node kind.
type Kind struct{}

func (Kind) Type() string { return "set" }

type config struct {
	Values map[string]any `json:"values"`
}

type assignment struct {
	field string
	typ   workrun.FieldType
	lit   any    // literal, when tmpl == ""
	tmpl  string // template text
	copy  string // "{{field}}" alone: copied with its type
	isTpl bool
}

// Compile checks every assigned field and every field a template names.
func (Kind) Compile(spec workrun.NodeSpec, wf workrun.Workflow) (workrun.Step, error) {
	var c config
	if err := workrun.DecodeConfig(spec, &c); err != nil {
		return nil, err
	}
	if len(c.Values) == 0 {
		return nil, texts.Fail(nil, msgCfgValuesEmpty)
	}
	s := &step{}
	names := make([]string, 0, len(c.Values))
	for k := range c.Values {
		names = append(names, k)
	}
	slices.Sort(names)
	for _, f := range names {
		t, ok := wf.State[f]
		if !ok {
			return nil, texts.Fail(nil, msgCfgAssignsUndeclared, f)
		}
		a := assignment{field: f, typ: t}
		v := c.Values[f]
		if str, ok := v.(string); ok && len(workrun.TemplateFields(str)) > 0 {
			a.isTpl, a.tmpl = true, str
			for _, r := range workrun.TemplateFields(str) {
				rt, ok := wf.State[r]
				if !ok {
					return nil, texts.Fail(nil, msgCfgReadsUndeclared, f, r)
				}
				if !slices.Contains(s.reads, r) {
					s.reads = append(s.reads, r)
				}
				if single, ok := workrun.TemplateSingleField(str); ok && single == r {
					if rt != t && t != workrun.FieldText {
						return nil, texts.Fail(nil, msgCfgCopyType, f, t, r, rt)
					}
					if rt == t {
						a.copy = r
					}
				}
			}
			if a.copy == "" && t != workrun.FieldText {
				return nil, texts.Fail(nil, msgCfgTemplateType, f, t)
			}
		} else {
			nv, err := workrun.NormalizeValue(t, v)
			if err != nil {
				return nil, texts.Fail(err, msgCfgValueType, f, err)
			}
			a.lit = nv
		}
		s.assign = append(s.assign, a)
		s.writes = append(s.writes, f)
	}
	slices.Sort(s.reads)
	return s, nil
}

type step struct {
	assign []assignment
	reads  []string
	writes []string
}

func (s *step) Reads() []string  { return s.reads }
func (s *step) Writes() []string { return s.writes }

func (s *step) Run(ctx context.Context, nc workrun.NodeContext) (workrun.Values, error) {
	in := nc.Inputs()
	out := workrun.Values{}
	var set []string
	for _, a := range s.assign {
		switch {
		case a.copy != "":
			if v, ok := in[a.copy]; ok {
				out[a.field] = v
			}
		case a.isTpl:
			out[a.field] = workrun.ExpandTemplate(a.tmpl, in)
		default:
			out[a.field] = a.lit
		}
		if _, ok := out[a.field]; ok {
			set = append(set, a.field)
		}
	}
	nc.Log(texts.Msg(msgSet, workrun.JoinList(set)))
	return out, nil
}

// Pure implements workrun.PureStep: the node has no effect outside the
// process, so its record and lines are written behind (docs/engine.md).
func (*step) Pure() {}
