package runinputs

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"
	"github.com/google/go-cmp/cmp"

	"workrun/workrun"
)

// TestFields_Types reads typed run inputs per State field type (docs/product.md W2, W3).
func TestFields_Types(t *testing.T) {
	test.NewTempApp(t)
	state := map[string]workrun.FieldType{"q": workrun.FieldText, "n": workrun.FieldNumber, "ok": workrun.FieldBoolean,
		"j": workrun.FieldJSON, "doc": workrun.FieldFile, "docs": workrun.FieldFiles, "unset": workrun.FieldText}
	f := NewFields(workrun.NewLocalizer("en"), state, func(*Fields, string) {})
	f.SetText("q", "hello")
	f.SetText("n", "2.5")
	f.SetText("j", `{"a": [1, 2]}`)
	f.checks["ok"].SetChecked(true)
	f.AddFile("doc", workrun.ArtifactInfo{ID: "a1", Name: "x.pdf"})
	f.AddFile("doc", workrun.ArtifactInfo{ID: "a2", Name: "y.pdf"}) // a file field holds one
	f.AddFile("docs", workrun.ArtifactInfo{ID: "b1"})
	f.AddFile("docs", workrun.ArtifactInfo{ID: "b2"})
	got, err := f.Values()
	if err != nil {
		t.Fatal(err)
	}
	want := workrun.Values{"q": "hello", "n": 2.5, "ok": true, "j": map[string]any{"a": []any{1.0, 2.0}}, "doc": "a2", "docs": []any{"b1", "b2"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("values (-want +got):\n%s", diff)
	}
	f.SetText("n", "two")
	if _, err := f.Values(); err == nil || !strings.Contains(err.Error(), "not a number") {
		t.Errorf("bad number accepted: %v", err)
	}
}
