package ui

import (
	"mime"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"workrun/artifacts"
	"workrun/store"
	"workrun/workrun"
)

// TestValues_ReadableAndFiles: a node's values read as a person needs
// them (issue 23 item 5 and "inputs and outputs a person can read"): a file
// field shows the file's name, type and size — read from the real artifact
// store — never its artifact id, with Open (a copy handed to the desktop)
// and Save…; JSON is a tree whose first level is open and whose deeper
// objects open when tapped; text and JSON have Copy (the whole value,
// indented for JSON). The Output node's inputs (what it outputs) show the
// same way.
func TestValues_ReadableAndFiles(t *testing.T) {
	ctx := t.Context()
	dir := t.TempDir()
	st, err := store.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	arts, err := artifacts.New(dir, st)
	if err != nil {
		t.Fatal(err)
	}
	a, err := arts.Put(ctx, "report.txt", "text/plain", strings.NewReader(strings.Repeat("quarterly numbers\n", 100)), "r", "ask")
	if err != nil {
		t.Fatal(err)
	}
	w := newTestWindow(t, Deps{Artifacts: arts})
	var opened []*url.URL
	w.openURL = func(u *url.URL) error { opened = append(opened, u); return nil }

	wf := workrun.Workflow{Name: "wf", State: map[string]workrun.FieldType{"report": workrun.FieldFile, "facts": workrun.FieldJSON, "answer": workrun.FieldText},
		Nodes: []workrun.NodeSpec{{ID: "ask", Type: "remote_agent"}, {ID: "end", Type: "output"}}}
	facts := map[string]any{"city": "Oslo", "nested": map[string]any{"deep": "value"}, "list": []any{1.0, 2.0}}
	outs := workrun.Values{"report": a.ID, "facts": facts, "answer": "line one\nline two"}
	onUI(w, func() {
		w.panel.Load(workrun.Run{ID: "r", Workflow: wf, Status: workrun.RunSucceeded}, []workrun.NodeRun{
			{RunID: "r", NodeID: "ask", Type: "remote_agent", Status: workrun.NodeSucceeded, Outputs: outs},
			{RunID: "r", NodeID: "end", Type: "output", Status: workrun.NodeSucceeded, Inputs: outs},
		}, nil)
		w.panel.Pick("ask")
	})
	shown := func() string {
		var s string
		onUI(w, func() { _, _, s = w.panel.DetailTexts() })
		return s
	}
	mt, _, _ := mime.ParseMediaType(a.MediaType) // the type without its parameters
	want := "report: 📄 report.txt (" + mt + ", 1.8 KiB)"
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(shown(), want) {
		if time.Now().After(deadline) {
			t.Fatalf("the file never showed by name; the panel shows:\n%s", shown())
		}
		time.Sleep(20 * time.Millisecond)
	}
	io := shown()
	if strings.Contains(io, a.ID) || strings.Contains(io, shortID(a.ID)) {
		t.Errorf("the artifact id shows:\n%s", io)
	}
	for _, s := range []string{"outputs:", "answer:\n  line one…", "facts:\n  {\"city\":\"Oslo\""} {
		if !strings.Contains(io, s) {
			t.Errorf("the panel lacks %q:\n%s", s, io)
		}
	}

	// What the widgets show: the tree's first level open, "nested" closed
	// until tapped; Copy, Open and Save… buttons.
	buttons := map[string]*widget.Button{}
	labels := func() string {
		var ls []string
		for _, o := range test.LaidOutObjects(w.panel.Parts().Values.Object()) {
			switch x := o.(type) {
			case *widget.Label:
				if x.Visible() {
					ls = append(ls, x.Text)
				}
			case *widget.Button:
				buttons[strings.TrimSpace(x.Text)] = x
				if x.Visible() {
					ls = append(ls, "["+x.Text+"]")
				}
			}
		}
		return strings.Join(ls, "\n")
	}
	got := labels()
	for _, s := range []string{"▾ {3}", `city: "Oslo"`, "nested: ▸ {1}", "list: ▸ [2]", "line one\nline two", "[Copy]", "[Open]", "[Save…]"} {
		if !strings.Contains(got, s) {
			t.Errorf("the values view lacks %q:\n%s", s, got)
		}
	}
	if strings.Contains(got, `deep: "value"`) {
		t.Errorf("a second-level object is open before it is tapped:\n%s", got)
	}
	onUI(w, func() { test.Tap(buttons["nested: ▸ {1}"]) })
	if got := labels(); !strings.Contains(got, `deep: "value"`) || !strings.Contains(got, "nested: ▾ {1}") {
		t.Errorf("tapping nested did not open it:\n%s", got)
	}
	onUI(w, func() {
		for _, o := range test.LaidOutObjects(w.panel.Parts().Values.Object()) {
			if b, ok := o.(*widget.Button); ok && b.Text == "Copy" {
				test.Tap(b) // the last Copy wins: facts is listed after answer
			}
		}
	})
	if clip := fyne.CurrentApp().Clipboard().Content(); !strings.Contains(clip, "\n  \"city\": \"Oslo\"") {
		t.Errorf("Copy put %q on the clipboard, want facts indented", clip)
	}

	// Open hands a copy of the file's bytes to the desktop.
	onUI(w, func() { test.Tap(buttons["Open"]) })
	// opened is written inside the window's fyne.Do (under its lock): read it there too.
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); {
		n := 0
		onUI(w, func() { n = len(opened) })
		if n > 0 {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if len(opened) != 1 || opened[0].Scheme != "file" || !strings.HasSuffix(opened[0].Path, "/report.txt") {
		t.Fatalf("Open handed %v to the desktop, want one file URL ending in report.txt", opened)
	}
	if b, err := os.ReadFile(opened[0].Path); err != nil || string(b) != strings.Repeat("quarterly numbers\n", 100) {
		t.Errorf("the opened copy holds %d bytes (%v), want the artifact's", len(b), err)
	}
	os.RemoveAll(strings.TrimSuffix(opened[0].Path, "/report.txt"))

	// The Output node's inputs show the same way.
	onUI(w, func() { w.panel.Pick("end") })
	if io := shown(); !strings.Contains(io, "inputs:\n"+"answer:") || !strings.Contains(io, want) {
		t.Errorf("the Output node shows:\n%s", io)
	}
}
