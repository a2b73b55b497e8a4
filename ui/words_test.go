package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"workrun/workrun"
)

// TestWords_ProblemsTabSaysNone: the Problems tab says there are none
// instead of staying blank.
func TestWords_ProblemsTabSaysNone(t *testing.T) {
	w := newTestWindow(t, Deps{})
	w.OpenWorkflow("", SampleRemote(langNow(), "http://127.0.0.1:41241"))
	if len(w.probs) != 0 {
		t.Fatalf("the sample has problems: %v", w.probs)
	}
	if n := w.probBox.Length(); n != 1 {
		t.Fatalf("the Problems list has %d rows with no problem, want the one that says so", n)
	}
	if !strings.Contains(visibleLabels(w.probBox), noProblems(langNow())) {
		t.Errorf("the Problems tab shows %q, want %q", visibleLabels(w.probBox), noProblems(langNow()))
	}
}

// TestWords_CredentialsTitle: the credentials dialog is titled
// "Credentials", not "Credentials…" (an ellipsis belongs to the menu item
// that opens it).
func TestWords_CredentialsTitle(t *testing.T) {
	test.NewTempApp(t)
	for _, lng := range []string{"en", "zh-Hans"} {
		SetupLanguage(lng)
		if s := credentialsTitle(langNow()); strings.HasSuffix(s, "…") || s == "" {
			t.Errorf("%s: the credentials dialog is titled %q", lng, s)
		}
	}
	SetupLanguage("en")
}

// TestWords_OptionalFieldPickerSaysNone: an optional "into field" picker
// names its empty choice ("(none: not kept)") instead of a blank first
// entry, and picking it keeps no field.
func TestWords_OptionalFieldPickerSaysNone(t *testing.T) {
	w := newTestWindow(t, Deps{})
	for _, kind := range []string{"remote_agent", "remote_mcp", "process"} {
		w.newWorkflow()
		id := w.doc.AddNode(kind, workrun.Position{X: 100, Y: 100})
		w.doc.Select(id, false)
		for _, key := range w.insp.Keys() {
			s, ok := w.insp.Widget(key).(*widget.Select)
			if !ok {
				continue
			}
			for _, opt := range s.Options {
				if strings.TrimSpace(opt) == "" {
					t.Errorf("%s: the picker %s has a blank choice in %q", kind, key, s.Options)
				}
			}
		}
	}
}
