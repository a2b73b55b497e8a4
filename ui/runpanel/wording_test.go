package runpanel

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"workrun/workrun"
)

// langNow is the tests' language (English unless setLanguage says
// otherwise); the app layer's tests run the panel with the window's own
// wording.
func langNow() workrun.Localizer { return workrun.NewLocalizer(testLang) }

// newPanel makes a panel worded by testWording.
func newPanel(loc Localizer, readOnly bool) *Panel {
	return New(loc, testWording(loc), readOnly)
}

// testWording stands in for the app layer's wording (package ui words a
// run as the rest of the window does): plain forms that keep what the
// panel does with them visible — a reason, status or kind as given, a
// message in loc's language, a duration as Go prints it, ids cut to 8
// characters, lines wrapped at spaces.
func testWording(loc Localizer) Wording {
	return Wording{
		Reason:  func(saved string) string { return saved },
		Status:  func(status string) string { return status },
		Waiting: func() string { return "waiting for you" },
		Remote:  func() string { return "The remote" },
		Kind:    func(kind string) string { return kind },
		Message: func(m workrun.Message) string { return m.In(loc.Messages()) },
		Duration: func(d time.Duration) string {
			return d.String()
		},
		Count: func(n int, _, one, other string) string {
			if n == 1 {
				return fmt.Sprintf(one, n)
			}
			return fmt.Sprintf(other, n)
		},
		ShortID:  func(id string) string { return id[:min(len(id), 8)] },
		ShortIDs: func(s string) string { return s },
		Clip: func(s string, n int) string {
			if r := []rune(s); len(r) > n {
				return string(r[:n]) + "…"
			}
			return s
		},
		JSON: func(v any) string {
			b, _ := json.Marshal(v)
			return string(b)
		},
		Wrap: func(s string, width, size float32) []string {
			var lines []string
			line := ""
			for _, w := range strings.Fields(s) {
				if line != "" && fyne.MeasureText(line+" "+w, size, fyne.TextStyle{}).Width > width {
					lines = append(lines, line)
					line = ""
				}
				if line != "" {
					line += " "
				}
				line += w
			}
			return append(lines, line)
		},
		CopyButton: func(label string, full func() string) *widget.Button {
			return widget.NewButtonWithIcon(label, theme.ContentCopyIcon(), func() {
				fyne.CurrentApp().Clipboard().SetContent(full())
			})
		},
		RunFrom: func(only bool) string {
			if only {
				return "Test this node"
			}
			return "Run from here"
		},
	}
}

// testLang is the language langNow gives (setLanguage).
var testLang = "en"

// setLanguage makes langNow give code's language.
func setLanguage(code string) { testLang = code }

func nodeEv(run, node, kind string, s workrun.NodeStatus, errText string) workrun.Event {
	return workrun.Event{Type: "node", RunID: run, NodeID: node, Node: &workrun.NodeRun{RunID: run, NodeID: node, Type: kind, Status: s, Error: errText}}
}

func runEv(r workrun.Run) workrun.Event { return workrun.Event{Type: "run", RunID: r.ID, Run: &r} }

// drawnTexts returns every string drawn in o: the canvas.Text objects the
// renderers made, the options and placeholder of selects, the placeholder
// of entries.
func drawnTexts(o fyne.CanvasObject) []string {
	var out []string
	for _, x := range test.LaidOutObjects(o) {
		switch t := x.(type) {
		case *canvas.Text:
			if t.Visible() {
				out = append(out, t.Text)
			}
		case *widget.Select:
			if t.Selected == "" {
				out = append(out, t.PlaceHolder)
			}
			out = append(out, t.Options...)
		case *widget.Entry:
			out = append(out, t.PlaceHolder)
		}
	}
	return out
}

// TestPanelWords_Complete: every label of the panel's catalogue has its
// English and its Chinese.
func TestPanelWords_Complete(t *testing.T) {
	for k, w := range panelWords {
		if w[0] == "" || w[1] == "" {
			t.Errorf("%s: %q / %q", k, w[0], w[1])
		}
	}
}
