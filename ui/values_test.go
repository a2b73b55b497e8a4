package ui

import (
	"net/url"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
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
		w.panel.pick("ask")
	})
	shown := func() string {
		var s string
		onUI(w, func() { _, _, s = w.panel.detailTexts() })
		return s
	}
	want := "report: 📄 report.txt (" + mediaEssence(a.MediaType) + ", 1.8 KiB)"
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
		for _, o := range test.LaidOutObjects(w.panel.vals.Object()) {
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
		for _, o := range test.LaidOutObjects(w.panel.vals.Object()) {
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
	onUI(w, func() { w.panel.pick("end") })
	if io := shown(); !strings.Contains(io, "inputs:\n"+"answer:") || !strings.Contains(io, want) {
		t.Errorf("the Output node shows:\n%s", io)
	}
}

// TestValues_FileLineWholeInHalfADetail: in the half of the detail a
// node's outputs get in a 1024×700 window (about 330 px; 220 px when the
// person narrows it), a file's line keeps its name, media type and size
// whole — wrapped, never cut with "…" — and Open and Save… keep their
// full size inside the column. Beside the buttons the line was cut to
// "docs: demo.txt (t…" (issue 40), in English and Chinese.
func TestValues_FileLineWholeInHalfADetail(t *testing.T) {
	for _, lng := range []string{"en", "zh-Hans"} {
		for _, width := range []float32{330, 220} {
			a := test.NewTempApp(t)
			SetupLanguage(lng)
			v := NewValuesView(langNow())
			v.OnOpenFile, v.OnSaveFile = func(string) {}, func(string) {}
			id := "0b7e3c5e-8a51-4f0e-9c1d-2f3a4b5c6d7e"
			v.KnowFiles(map[string]workrun.ArtifactInfo{id: {ID: id, Name: "demo.txt", MediaType: "text/plain; charset=utf-8", Size: 34}}, nil)
			v.Show(map[string]workrun.FieldType{"docs": workrun.FieldFiles, "answer": workrun.FieldText},
				ValuesSection{Title: "inputs", Values: workrun.Values{"answer": "file"}},
				ValuesSection{Title: "outputs", Values: workrun.Values{"docs": []any{id}}})
			win := a.NewWindow("values")
			win.SetContent(v.Object())
			win.Resize(fyne.NewSize(2*width, 400))
			win.Show()

			var lines []string
			buttons := map[string]*widget.Button{}
			for _, o := range test.LaidOutObjects(v.Object()) {
				switch x := o.(type) {
				case *canvas.Text:
					if x.Visible() && x.Text != "" {
						lines = append(lines, x.Text)
					}
				case *widget.Button:
					buttons[x.Text] = x
				}
			}
			// Each on one line (the size not split "34" / "B)").
			drawn := strings.Join(lines, " ")
			for _, want := range []string{"demo.txt", "text/plain", "34 B"} {
				if !slices.ContainsFunc(lines, func(l string) bool { return strings.Contains(l, want) }) {
					t.Errorf("%s, column %.0f px: %q is not drawn whole on a line; drawn: %q", lng, width, want, lines)
				}
			}
			if width >= 330 && !slices.ContainsFunc(lines, func(l string) bool { return strings.Contains(l, "demo.txt (text/plain, 34 B)") }) {
				t.Errorf("%s, column %.0f px: the file's name, type and size are not on one line; drawn: %q", lng, width, lines)
			}
			if strings.Contains(drawn, "…") && !strings.Contains(drawn, langNow().X("remote.save", "Save…")) {
				t.Errorf("%s, column %.0f px: a line is cut: %q", lng, width, lines)
			}
			for _, name := range []string{langNow().X("values.open", "Open"), langNow().X("remote.save", "Save…")} {
				b := buttons[name]
				if b == nil {
					t.Fatalf("%s: no %q button; buttons: %v", lng, name, buttons)
				}
				pos := fyne.CurrentApp().Driver().AbsolutePositionForObject(b)
				if b.Size().Width < b.MinSize().Width || pos.X+b.Size().Width > 2*width {
					t.Errorf("%s, column %.0f px: %q is %v at %v, its min size %v: cut or outside the window", lng, width, name, b.Size(), pos, b.MinSize())
				}
			}
			win.Close()
		}
	}
	SetupLanguage("en")
}
