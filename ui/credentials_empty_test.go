package ui

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"workrun/ui/credentials"
)

// shownLabel reports whether a visible label reading text is laid out in
// root.
func shownLabel(root fyne.CanvasObject, text string) bool {
	for _, o := range test.LaidOutObjects(root) {
		if l, ok := o.(*widget.Label); ok && l.Text == text && l.Visible() && l.Size().Height > 0 {
			return true
		}
	}
	return false
}

// labelWidth is the width text's label is laid out at (0 when none is).
func labelWidth(root fyne.CanvasObject, text string) float32 {
	for _, o := range test.LaidOutObjects(root) {
		if l, ok := o.(*widget.Label); ok && l.Text == text && l.Visible() {
			return l.Size().Width
		}
	}
	return 0
}

// TestCredentialsView_EmptySaysSo: with no credentials the dialog's list
// area says so and where to add one (English and Chinese) instead of
// staying a blank box; the words go once there is a credential and come
// back when the last one is deleted.
func TestCredentialsView_EmptySaysSo(t *testing.T) {
	w := newTestWindow(t, Deps{})
	for _, tt := range []struct{ lng, want string }{
		{"en", "No credentials yet: add one below."},
		{"zh-Hans", "还没有凭据：请在下方添加。"},
	} {
		t.Run(tt.lng, func(t *testing.T) {
			var none, one, again bool
			var width, need float32
			fyne.DoAndWait(func() {
				w.SetLanguage(tt.lng)
				v := w.newCredentialsView()
				test.NewWindow(v.Object()).Resize(fyne.NewSize(640, 560))
				v.SetList(nil)
				none = shownLabel(v.Object(), tt.want)
				width = labelWidth(v.Object(), tt.want)
				need = fyne.MeasureText(tt.want, theme.TextSize(), fyne.TextStyle{}).Width
				v.Saved("demo", []credentials.Credential{{Name: "demo", Origin: "http://127.0.0.1:41241", Kind: credentials.SchemeBearer}})
				one = shownLabel(v.Object(), tt.want)
				v.Deleted("demo", nil)
				again = shownLabel(v.Object(), tt.want)
			})
			// The real window showed it one letter a line (a wrapping
			// label centred gets no width) and the dialog past the screen.
			if width < need {
				t.Errorf("the list area's words are laid out %.0f px wide, %.0f needed on one line in a 640 px dialog", width, need)
			}
			if !none || one || !again {
				t.Errorf("the list area says %q: with none %v, with one %v, after deleting it %v; want true, false, true", tt.want, none, one, again)
			}
		})
	}
	fyne.DoAndWait(func() { w.SetLanguage("en") })
}
