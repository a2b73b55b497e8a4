package workrun_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"workrun/workrun"
)

// FuzzValidate feeds arbitrary workflow files to Validate: it must never
// panic, must be deterministic, and every problem must point at a node or
// edge that exists (or at none).
func FuzzValidate(f *testing.F) {
	examples, _ := filepath.Glob(filepath.Join("..", "examples", "*.json"))
	for _, p := range examples {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(`{"state":{"a":"text"},"nodes":[{"id":"s","type":"start"},{"id":"c","type":"condition","config":{"field":"a","op":"eq","value":"x"}}],"edges":[{"from":"s","to":"c"},{"from":"c","to":"s","when":"true"}]}`))
	e, _ := newEngine(f, fakeKind{})
	f.Fuzz(func(t *testing.T, data []byte) {
		var wf workrun.Workflow
		if json.Unmarshal(data, &wf) != nil {
			return
		}
		first := e.Validate(wf)
		if diff := cmp.Diff(first, e.Validate(wf)); diff != "" {
			t.Fatalf("not deterministic:\n%s", diff)
		}
		ids := map[string]bool{}
		for _, n := range wf.Nodes {
			ids[n.ID] = true
		}
		for _, p := range first {
			if p.NodeID != "" && !ids[p.NodeID] {
				t.Errorf("problem on unknown node: %+v", p)
			}
			if p.EdgeIndex < -1 || p.EdgeIndex >= len(wf.Edges) {
				t.Errorf("problem on unknown edge: %+v", p)
			}
			if p.Message == "" {
				t.Errorf("problem without a message: %+v", p)
			}
		}
	})
}
