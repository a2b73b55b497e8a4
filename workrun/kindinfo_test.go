package workrun_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"workrun/workrun"
)

// TestEngineFields: what each node reads and writes comes from its
// compiled step; a node that does not compile is left out.
func TestEngineFields(t *testing.T) {
	e, _ := newEngine(t, fakeKind{})
	wf := workrun.Workflow{
		State: map[string]workrun.FieldType{"name": workrun.FieldText, "greeting": workrun.FieldText, "n": workrun.FieldNumber},
		Nodes: []workrun.NodeSpec{
			node("start", "start", ""),
			node("set", "set", `{"values":{"greeting":"hello {{name}}"}}`),
			node("end", "output", `{"fields":["greeting","n"]}`),
			node("bad", "output", `{"fields":["nope"]}`),
			node("odd", "warp", ``),
		},
	}
	want := map[string]workrun.NodeFields{
		"start": {},
		"set":   {Reads: []string{"name"}, Writes: []string{"greeting"}},
		"end":   {Reads: []string{"greeting", "n"}},
	}
	if diff := cmp.Diff(want, e.Fields(wf), cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("fields (-want +got):\n%s", diff)
	}
}

type describedKind struct{ info workrun.KindInfo }

func (k describedKind) Type() string { return k.info.Type }
func (describedKind) Compile(workrun.NodeSpec, workrun.Workflow) (workrun.Step, error) {
	return nil, nil
}
func (k describedKind) Describe() workrun.KindInfo { return k.info }

// TestKindInfo: Describe keeps the order of the kinds that describe
// themselves; a new node's config holds each field's default.
func TestKindInfo(t *testing.T) {
	a := workrun.KindInfo{Type: "a", Group: workrun.GroupAgents, Fields: []workrun.ConfigField{
		{Key: "url", Value: workrun.ValueURL},
		{Key: "timeout_seconds", Value: workrun.ValueInt, Default: workrun.RemoteTimeoutDefaultSeconds, Min: 1, Max: 600},
		{Key: "mode", Value: workrun.ValueChoice, Default: "auto", Options: []workrun.Choice{{Value: "auto"}, {Value: "never"}}},
	}}
	b := workrun.KindInfo{Type: "b"}
	got := workrun.Describe(describedKind{b}, fakeKind{}, describedKind{a})
	if len(got) != 2 || got[0].Type != "b" || got[1].Type != "a" {
		t.Fatalf("described %v", got)
	}
	if s := string(a.DefaultConfig()); s != `{"mode":"auto","timeout_seconds":120}` {
		t.Errorf("default config %s", s)
	}
	if s := string(b.DefaultConfig()); s != `{}` {
		t.Errorf("default config of a kind without fields %s", s)
	}
	if f, ok := a.Field("timeout_seconds"); !ok || f.Max != 600 {
		t.Errorf("Field: %+v %v", f, ok)
	}
	if _, ok := a.Field("nope"); ok {
		t.Error("Field found a key not described")
	}
}
