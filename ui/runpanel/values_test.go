package runpanel

import (
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"workrun/workrun"
)

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
			setLanguage(lng)
			v := NewValuesView(langNow(), testWording(langNow()))
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
	setLanguage("en")
}
