package output

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"workrun/workrun"
	"workrun/workrun/workruntest"
)

func TestOutputLogsFields(t *testing.T) {
	wf := workrun.Workflow{State: map[string]workrun.FieldType{"a": "text", "n": "number", "fs": "files"}}
	st, err := Kind{}.Compile(workrun.NodeSpec{ID: "o", Config: json.RawMessage(`{"fields":["a","n","fs"]}`)}, wf)
	if err != nil {
		t.Fatal(err)
	}
	nc := &workruntest.NodeContext{In: workrun.Values{"a": "x", "fs": []any{"id1", "id2"}}}
	if _, err := st.Run(t.Context(), nc); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"a: x", "n: (not set)", "fs: id1, id2"}, nc.Logs()); diff != "" {
		t.Error(diff)
	}
	if _, err := (Kind{}).Compile(workrun.NodeSpec{ID: "o", Config: json.RawMessage(`{"fields":[]}`)}, wf); err == nil {
		t.Error("an output with no fields compiled")
	}
}

// statArts is an ArtifactStore fake that only describes files.
type statArts struct {
	workrun.ArtifactStore
	stat func(id string) (workrun.ArtifactInfo, error)
}

func (a statArts) Stat(_ context.Context, id string) (workrun.ArtifactInfo, error) { return a.stat(id) }

// TestOutputNamesFiles: a file or files field is shown by the files' names,
// media types and sizes, never by artifact ids (issue 23 item 5); a file
// that cannot be described keeps its id with the reason.
func TestOutputNamesFiles(t *testing.T) {
	wf := workrun.Workflow{State: map[string]workrun.FieldType{"doc": "file", "docs": "files", "none": "files"}}
	st, err := Kind{}.Compile(workrun.NodeSpec{ID: "o", Config: json.RawMessage(`{"fields":["doc","docs","none"]}`)}, wf)
	if err != nil {
		t.Fatal(err)
	}
	arts := statArts{stat: func(id string) (workrun.ArtifactInfo, error) {
		switch id {
		case "id1":
			return workrun.ArtifactInfo{ID: id, Name: "demo.txt", MediaType: "text/plain", Size: 34}, nil
		case "id2":
			return workrun.ArtifactInfo{ID: id, Name: "chart.png", MediaType: "image/png", Size: 2048}, nil
		}
		return workrun.ArtifactInfo{}, errors.New("no such artifact")
	}}
	nc := &workruntest.NodeContext{Arts: arts, In: workrun.Values{"doc": "id1", "docs": []any{"id2", "gone"}, "none": []any{}}}
	if _, err := st.Run(t.Context(), nc); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"doc: demo.txt (text/plain, 34 bytes)",
		"docs: chart.png (image/png, 2048 bytes), file gone (its description cannot be read: no such artifact)",
		"none: no files",
	}
	if diff := cmp.Diff(want, nc.Logs()); diff != "" {
		t.Error(diff)
	}
}
