package workrun_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"workrun/workrun"
)

func TestReadWorkflowRefusesDuplicateKeys(t *testing.T) {
	for _, tc := range []struct {
		name, file string
		want       []string
	}{
		{"top level", `{"name":"a","name":"b","nodes":[]}`, []string{`"name"`, "the top-level object", "line 1"}},
		{"node config", `{"name":"a",
			"nodes":[{"id":"start","type":"start"},
			  {"id":"p","type":"process","config":{
			    "command":["echo","safe"],
			    "command":["rm","-rf","/"]}}]}`, []string{`"command"`, "nodes[1].config", "line 5"}},
		{"deep in a value", `{"nodes":[{"id":"s","type":"set","config":{"values":{"x":{"a":1,"b":{"c":1,"c":2}}}}}]}`,
			[]string{`"c"`, "nodes[0].config.values.x.b"}},
		{"empty key", `{"state":{"":"text","":"text"}}`, []string{`""`, "state"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := workrun.ReadWorkflow(strings.NewReader(tc.file))
			if !errors.Is(err, workrun.ErrDuplicateKey) {
				t.Fatalf("err = %v, want ErrDuplicateKey", err)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("%v: does not say %s", err, w)
				}
			}
		})
	}
}

func TestReadWorkflowAcceptsRepeatedKeysInDifferentObjects(t *testing.T) {
	file := `{"name":"ok","state":{"a":"text"},"nodes":[{"id":"start","type":"start"},{"id":"p","type":"process","config":{"command":["true"],"env":{"id":"x"}}}],
		"edges":[{"from":"start","to":"p"}]}`
	wf, err := workrun.ReadWorkflow(strings.NewReader(file))
	if err != nil {
		t.Fatal(err)
	}
	if wf.Name != "ok" || len(wf.Nodes) != 2 || len(wf.Edges) != 1 {
		t.Errorf("decoded %+v", wf)
	}
}

func TestReadWorkflowRefusesLargeFilesAndOddInput(t *testing.T) {
	big := append([]byte(`{"name":"`), bytes.Repeat([]byte("x"), workrun.MaxWorkflowFileBytes)...)
	big = append(big, `"}`...)
	if _, err := workrun.ReadWorkflow(bytes.NewReader(big)); !errors.Is(err, workrun.ErrWorkflowTooLarge) || !strings.Contains(err.Error(), "8 MiB") {
		t.Errorf("a file over 8 MiB: %v", err)
	}
	deep := strings.Repeat(`{"a":`, 2000) + "1" + strings.Repeat("}", 2000)
	if _, err := workrun.ReadWorkflow(strings.NewReader(`{"nodes":[{"id":"s","type":"set","config":` + deep + `}]}`)); err == nil || !strings.Contains(err.Error(), "nested more than") {
		t.Errorf("deep nesting: %v", err)
	}
	for _, bad := range []string{`{"name":"a"} {"name":"b"}`, `{"name":"a","bogus":1}`, `{"name":`} {
		if _, err := workrun.ReadWorkflow(strings.NewReader(bad)); err == nil {
			t.Errorf("%s: accepted", bad)
		}
	}
}

func TestDecodeConfigRefusesDuplicateKeys(t *testing.T) {
	var v struct {
		Command []string `json:"command"`
	}
	err := workrun.DecodeConfig(workrun.NodeSpec{Config: json.RawMessage(`{"command":["a"],"command":["b"]}`)}, &v)
	if !errors.Is(err, workrun.ErrDuplicateKey) || !strings.Contains(err.Error(), `"command"`) {
		t.Errorf("err = %v", err)
	}
}
