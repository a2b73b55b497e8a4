package workrun_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"workrun/workrun"
)

// policyFile is a workflow file with node "n" (type typ, extra keys) after
// start, node "h" after it and extra edges.
func policyFile(typ, keys, extraEdges string) string {
	return `{"name":"p","state":{"why":"text","count":"number"},
	"nodes":[{"id":"start","type":"start"},{"id":"n","type":"` + typ + `"` + keys + `},{"id":"h","type":"join"}],
	"edges":[{"from":"start","to":"n"}` + extraEdges + `]}`
}

// The failure handling keys are checked like any other: bad ranges,
// unknown keys, an error edge from a node without on_error: branch, a
// deadline on a local node — each a problem on its node or edge, in both
// languages.
func TestValidate_FailureHandlingKeys(t *testing.T) {
	rk := remoteKind{"n": {}}
	e, _ := newPolicyEngine(t, fakeKind{"n": {}}, rk)
	toH := `,{"from":"n","to":"h"}`
	errH := `,{"from":"n","to":"h","port":"error"}`
	for _, c := range []struct {
		name, file string
		node       string
		edge       int
		want, zh   string
	}{
		{"no attempts", policyFile("fake", `,"retry":{"max_attempts":0}`, toH), "n", -1, "retry: max_attempts must be 1–10 (got 0)", "重试：max_attempts 须在 1–10 之间"},
		{"too many attempts", policyFile("fake", `,"retry":{"max_attempts":11}`, toH), "n", -1, "max_attempts must be 1–10 (got 11)", ""},
		{"negative wait", policyFile("fake", `,"retry":{"max_attempts":2,"wait_seconds":-1}`, toH), "n", -1, "retry: wait_seconds must be 0–3600 (got -1)", ""},
		{"unknown backoff", policyFile("fake", `,"retry":{"max_attempts":2,"backoff":"linear"}`, toH), "n", -1, `backoff must be fixed or exponential (got "linear")`, ""},
		{"unknown on_error", policyFile("fake", `,"on_error":"ignore"`, toH), "n", -1, `on_error must be fail, continue or branch (got "ignore")`, "on_error 须为"},
		{"error field without handling", policyFile("fake", `,"error_field":"why"`, toH), "n", -1, `error_field "why" needs on_error: continue or branch`, ""},
		{"error field undeclared", policyFile("fake", `,"on_error":"continue","error_field":"nope"`, toH), "n", -1, `error_field "nope" is not declared in State`, ""},
		{"error field not text", policyFile("fake", `,"on_error":"continue","error_field":"count"`, toH), "n", -1, `error_field "count" must be a text field (it is number)`, ""},
		{"deadline on a local node", policyFile("fake", `,"deadline_seconds":5`, toH), "n", -1, "deadline_seconds is only for remote nodes", "只适用于远程节点"},
		{"deadline out of range", policyFile("remote", `,"deadline_seconds":-3`, toH), "n", -1, "deadline_seconds must be 1–604800 (got -3)", ""},
		{"error edge without branch", policyFile("fake", ``, errH), "n", 1, `edge n → h leaves the error port of n, which needs on_error: branch`, "须设 on_error: branch"},
		{"error edge with when", policyFile("fake", `,"on_error":"branch"`, `,{"from":"n","to":"h","port":"error","when":"true"}`), "n", 1, "leaves the error port and takes no when", ""},
		{"unknown port", policyFile("fake", ``, `,{"from":"n","to":"h","port":"oops"}`), "n", 1, `port must be "error" or left out (got "oops")`, ""},
		{"branch without error edge", policyFile("fake", `,"on_error":"branch"`, toH), "n", -1, "on_error: branch needs at least one edge from this node's error port", ""},
		{"error edge closing a cycle", policyFile("fake", `,"on_error":"branch"`, errH+`,{"from":"h","to":"n"}`), "h", 2, "makes a cycle", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			wf, err := workrun.DecodeWorkflow([]byte(c.file))
			if err != nil {
				t.Fatal(err)
			}
			var found *workrun.Problem
			for _, p := range e.Validate(wf) {
				if p.NodeID == c.node && p.EdgeIndex == c.edge && strings.Contains(p.Message, c.want) {
					found = &p
				}
			}
			if found == nil {
				t.Fatalf("want %q at node %s edge %d among %v", c.want, c.node, c.edge, e.Validate(wf))
			}
			if c.zh != "" && !strings.Contains(found.In("zh"), c.zh) {
				t.Errorf("Chinese %q lacks %q", found.In("zh"), c.zh)
			}
		})
	}
	for _, ok := range []string{
		policyFile("fake", `,"retry":{"max_attempts":3,"wait_seconds":1.5,"backoff":"exponential"},"on_error":"continue","error_field":"why"`, toH),
		policyFile("remote", `,"retry":{"max_attempts":2},"deadline_seconds":30,"on_error":"branch"`, errH),
		policyFile("fake", `,"on_error":"fail"`, toH),
	} {
		wf, err := workrun.DecodeWorkflow([]byte(ok))
		if err != nil {
			t.Fatal(err)
		}
		if probs := e.Validate(wf); len(probs) > 0 {
			t.Errorf("%s: %v", ok, probs)
		}
	}
	// Unknown keys inside retry are refused when the file is read.
	if _, err := workrun.DecodeWorkflow([]byte(policyFile("fake", `,"retry":{"max_attempt":3}`, toH))); err == nil || !strings.Contains(err.Error(), `unknown field "max_attempt"`) {
		t.Errorf("unknown retry key: %v", err)
	}
}

// Files written before failure handling existed load unchanged: the
// examples decode, and written back they have exactly the keys they had.
func TestOldWorkflowFilesLoadUnchanged(t *testing.T) {
	files, err := filepath.Glob("../examples/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("examples: %v %v", files, err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		wf, err := workrun.DecodeWorkflow(b)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		out, err := json.Marshal(wf)
		if err != nil {
			t.Fatal(err)
		}
		for _, key := range []string{"retry", "on_error", "error_field", "deadline_seconds", `"port"`} {
			if bytes.Contains(out, []byte(key)) {
				t.Errorf("%s written back gains %s: %s", f, key, out)
			}
		}
		var before, after any
		if err := json.Unmarshal(b, &before); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(out, &after); err != nil {
			t.Fatal(err)
		}
		if !jsonEqualIgnoringEmpty(before, after) {
			t.Errorf("%s changed when read and written back:\n%s\n%s", f, b, out)
		}
	}
}

// jsonEqualIgnoringEmpty compares two JSON values, where a key missing on
// one side equals an empty value on the other (omitempty).
func jsonEqualIgnoringEmpty(a, b any) bool {
	am, aok := a.(map[string]any)
	bm, bok := b.(map[string]any)
	if aok && bok {
		keys := map[string]bool{}
		for k := range am {
			keys[k] = true
		}
		for k := range bm {
			keys[k] = true
		}
		for k := range keys {
			if !jsonEqualIgnoringEmpty(am[k], bm[k]) {
				return false
			}
		}
		return true
	}
	as, aok := a.([]any)
	bs, bok := b.([]any)
	if aok && bok {
		if len(as) != len(bs) {
			return false
		}
		for i := range as {
			if !jsonEqualIgnoringEmpty(as[i], bs[i]) {
				return false
			}
		}
		return true
	}
	empty := func(v any) bool {
		switch v := v.(type) {
		case nil:
			return true
		case string:
			return v == ""
		case map[string]any:
			return len(v) == 0
		}
		return false
	}
	if empty(a) && empty(b) {
		return true
	}
	ab, _ := json.Marshal(a)
	bb, _ := json.Marshal(b)
	return bytes.Equal(ab, bb)
}
