package ui

import (
	"encoding/json"
	"slices"
	"testing"

	"workrun/workrun"
)

// TestSampleRemote_KeepsTheAgentsFiles: the shipped Remote Agent sample
// keeps the files the demo agent answers with (its "file" word) in a files
// field the Output shows, instead of "not kept" (issue 40); it validates
// with the real kinds and still asks only for the question.
func TestSampleRemote_KeepsTheAgentsFiles(t *testing.T) {
	wf := SampleRemote(langNow(), "http://127.0.0.1:41241")
	var cfg struct {
		OutputFiles string `json:"output_files"`
	}
	if err := json.Unmarshal(wf.Nodes[1].Config, &cfg); err != nil {
		t.Fatal(err)
	}
	if cfg.OutputFiles == "" || wf.State[cfg.OutputFiles] != workrun.FieldFiles {
		t.Fatalf("the agent node's output_files is %q (State type %q), want a files field", cfg.OutputFiles, wf.State[cfg.OutputFiles])
	}
	eng := kindsEngine()
	if probs := eng.Validate(wf); len(probs) > 0 {
		t.Fatalf("the sample does not validate: %v", probs)
	}
	if w := eng.Fields(wf)["ask"].Writes; !slices.Contains(w, cfg.OutputFiles) {
		t.Errorf("the agent node writes %v, want %s among them", w, cfg.OutputFiles)
	}
	var out struct{ Fields []string }
	if err := json.Unmarshal(wf.Nodes[2].Config, &out); err != nil || !slices.Contains(out.Fields, cfg.OutputFiles) {
		t.Errorf("the Output shows %v (%v), want the files among them", out.Fields, err)
	}
}
