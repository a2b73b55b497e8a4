package store_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"workrun/store/storetest"
	"workrun/workrun"
)

// valueKind is a node kind whose steps are functions, by node id.
type valueKind map[string]valueStep

type valueStep struct {
	reads, writes []string
	entry         bool
	run           func(ctx context.Context, nc workrun.NodeContext) (workrun.Values, error)
}

func (valueKind) Type() string { return "value" }
func (k valueKind) Compile(spec workrun.NodeSpec, _ workrun.Workflow) (workrun.Step, error) {
	if s := k[spec.ID]; s.entry {
		return valueEntry{s}, nil
	}
	return k[spec.ID], nil
}
func (s valueStep) Reads() []string  { return s.reads }
func (s valueStep) Writes() []string { return s.writes }
func (s valueStep) Run(ctx context.Context, nc workrun.NodeContext) (workrun.Values, error) {
	if s.run == nil {
		return nil, nil
	}
	return s.run(ctx, nc)
}

type valueEntry struct{ valueStep }

func (valueEntry) Entry() {}

// TestLargeValuesStoredOnce: a node's text and JSON outputs past
// workrun.InlineValueLimit are kept once, as artifacts; State, the node's
// outputs and the next node's inputs hold references in the database, and
// the next node (which does not read references) gets the values
// themselves. Resume reads them back as references.
func TestLargeValuesStoredOnce(t *testing.T) {
	_, st, arts := storetest.Open(t, "")
	big := strings.Repeat("long answer ", workrun.InlineValueLimit/10)
	bigJSON := map[string]any{"rows": []any{strings.Repeat("r", workrun.InlineValueLimit+1)}}
	var gotText string
	var gotJSON any
	kind := valueKind{
		"start": {entry: true},
		"make": {writes: []string{"answer", "data"}, run: func(context.Context, workrun.NodeContext) (workrun.Values, error) {
			return workrun.Values{"answer": big, "data": bigJSON}, nil
		}},
		"use": {reads: []string{"answer", "data"}, run: func(_ context.Context, nc workrun.NodeContext) (workrun.Values, error) {
			gotText, _ = nc.Inputs()["answer"].(string)
			gotJSON = nc.Inputs()["data"]
			return nil, nil
		}},
	}
	eng := workrun.NewEngine(st, arts, kind)
	wf := workrun.Workflow{Name: "large", State: map[string]workrun.FieldType{"answer": workrun.FieldText, "data": workrun.FieldJSON},
		Nodes: []workrun.NodeSpec{{ID: "start", Type: "value"}, {ID: "make", Type: "value"}, {ID: "use", Type: "value"}},
		Edges: []workrun.Edge{{From: "start", To: "make"}, {From: "make", To: "use"}}}
	r := storetest.Run(t, eng, wf, nil, 20*time.Second)
	if r.Status != workrun.RunSucceeded {
		t.Fatalf("run %s: %s", r.Status, r.Reason)
	}
	if gotText != big {
		t.Errorf("the next node got %d bytes of text, want the value (%d bytes)", len(gotText), len(big))
	}
	if b, _ := json.Marshal(gotJSON); !strings.Contains(string(b), `"rows"`) {
		t.Errorf("the next node got %.100s, want the JSON value", b)
	}
	saved, err := st.GetRun(t.Context(), r.ID)
	if err != nil {
		t.Fatal(err)
	}
	ref, ok := saved.State["answer"].(workrun.ValueRef)
	if !ok || ref.Size != int64(len(big)) || ref.Type != workrun.FieldText {
		t.Fatalf("State answer is %T %v, want a text reference of %d bytes", saved.State["answer"], saved.State["answer"], len(big))
	}
	if jref, ok := saved.State["data"].(workrun.ValueRef); !ok || jref.Type != workrun.FieldJSON {
		t.Errorf("State data is %T, want a JSON reference", saved.State["data"])
	}
	recs, err := st.NodeRuns(t.Context(), r.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range recs {
		vals := map[string]workrun.Values{"make": n.Outputs, "use": n.Inputs}[n.NodeID]
		if vals == nil {
			continue
		}
		if got, ok := vals["answer"].(workrun.ValueRef); !ok || got != ref {
			t.Errorf("%s record holds %T, want the same reference %v", n.NodeID, vals["answer"], ref)
		}
	}
	v, err := workrun.ResolveValue(t.Context(), arts, ref)
	if err != nil || v != big {
		t.Errorf("the artifact holds %d bytes (%v), want the value", len(v.(string)), err)
	}
	all, err := st.ArtifactsForRun(t.Context(), r.ID)
	if err != nil || len(all) != 2 {
		t.Errorf("artifacts of the run: %d (%v), want 2 (the text and the JSON, once each)", len(all), err)
	}
}
