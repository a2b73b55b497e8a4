package credentials

import (
	"encoding/json"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"workrun/assets"
)

// catalogue words the view from one of the shipped translation files.
type catalogue map[string]string

func (c catalogue) X(key, fallback string) string {
	if s, ok := c[key]; ok {
		return s
	}
	return fallback
}

func loadCatalogue(t *testing.T, file string) catalogue {
	t.Helper()
	b, err := assets.Translations.ReadFile("translations/" + file)
	if err != nil {
		t.Fatal(err)
	}
	c := catalogue{}
	if err := json.Unmarshal(b, &c); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return c
}

// shownText reports whether a label reading text is visible with a size
// in the laid-out view.
func shownText(root fyne.CanvasObject, text string) bool {
	for _, o := range test.LaidOutObjects(root) {
		if l, ok := o.(*widget.Label); ok && l.Text == text && l.Visible() && l.Size().Height > 0 {
			return true
		}
	}
	return false
}

// TestCredentialsView_EmptySaysSo: with no credentials the list's area
// says so and where to add one (English and Chinese) instead of staying a
// blank box; the words go once a credential is saved and come back when
// the last one is deleted.
func TestCredentialsView_EmptySaysSo(t *testing.T) {
	for _, tt := range []struct{ file, want string }{
		{"en.json", "No credentials yet: add one below."},
		{"zh-Hans.json", "还没有凭据：请在下方添加。"},
	} {
		t.Run(tt.file, func(t *testing.T) {
			a := test.NewTempApp(t)
			win := a.NewWindow("credentials")
			v := New(win, loadCatalogue(t, tt.file))
			stored := []Credential{}
			v.CheckOrigin = func(raw string) (string, error) { return raw, nil }
			v.OnSave = func(c Credential, _ string) { stored = append(stored, c); v.Saved(c.Name, stored); v.Finished() }
			v.OnDelete = func(name string) { stored = nil; v.Deleted(name, stored); v.Finished() }
			win.SetContent(v.Object())
			win.Resize(fyne.NewSize(640, 560))
			v.SetList(nil)
			if !shownText(v.Object(), tt.want) {
				t.Fatalf("with no credentials the list area does not say %q", tt.want)
			}
			v.fill(Credential{Name: "demo", Origin: "http://127.0.0.1:41241", Kind: SchemeBearer}, "tok")
			v.save()
			if len(stored) != 1 || shownText(v.Object(), tt.want) {
				t.Errorf("after saving (%d stored) the list still says %q", len(stored), tt.want)
			}
			v.Deleted("demo", nil)
			if !shownText(v.Object(), tt.want) {
				t.Errorf("after deleting the last credential the list does not say %q", tt.want)
			}
		})
	}
}
