package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"workrun/ui/document"
	"workrun/ui/runinputs"
)

// TestRunInputs_WordListIsNotGrey: the demo agent's word list in the run
// inputs dialog is drawn as ordinary text, not in the grey of disabled
// text (issue 40).
func TestRunInputs_WordListIsNotGrey(t *testing.T) {
	newTestWindow(t, Deps{})
	wf := SampleRemote(langNow(), "http://127.0.0.1:41241")
	ri := runinputs.New(langNow(), runinputs.Inputs{Workflow: wf, Names: document.WorkflowInputs(wf, kindsEngine().Fields(wf)),
		Defaults: SampleInputs[wf.Name], Hint: sampleHint(langNow(), wf)}, nil)
	found := false
	for _, o := range ri.Object().(*fyne.Container).Objects {
		if l, ok := o.(*widget.Label); ok && strings.Contains(l.Text, "echo TEXT") {
			found = true
			if l.Importance == widget.LowImportance {
				t.Errorf("the word list is drawn grey (low importance)")
			}
		}
	}
	if !found {
		t.Fatal("the run inputs of the sample show no word list")
	}
}
