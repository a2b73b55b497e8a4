package ui

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// overlayTexts returns the texts of the labels and buttons in the window's
// top overlay (an open dialog), or nil when there is none.
func overlayTexts(w *Window) (texts []string, buttons map[string]*widget.Button) {
	buttons = map[string]*widget.Button{}
	fyne.DoAndWait(func() {
		top := w.win.Canvas().Overlays().Top()
		if top == nil {
			return
		}
		for _, o := range test.LaidOutObjects(top) {
			switch o := o.(type) {
			case *widget.Label:
				texts = append(texts, o.Text)
			case *widget.Button:
				texts = append(texts, o.Text)
				buttons[o.Text] = o
			}
		}
	})
	return texts, buttons
}

// waitOverlay waits until a dialog is shown and returns its texts.
func waitOverlay(t *testing.T, w *Window) ([]string, map[string]*widget.Button) {
	t.Helper()
	for range 200 {
		if texts, buttons := overlayTexts(w); texts != nil {
			return texts, buttons
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("no dialog shown")
	return nil, nil
}

// gatedKeyringCheck returns a check that waits for release before it
// answers err, and a channel closed once its result was shown: the test
// driver runs fyne.Do on the calling goroutine, so the window must be left
// alone while the check's goroutine shows its result.
func gatedKeyringCheck(t *testing.T, err error) (check func() error, release, shown chan struct{}) {
	release, shown = make(chan struct{}), make(chan struct{})
	keyringCheckDone = func() { close(shown) }
	t.Cleanup(func() { keyringCheckDone = nil })
	return func() error { <-release; return err }, release, shown
}

func TestMissingKeyringIsExplainedInTheWindow(t *testing.T) {
	check, release, shown := gatedKeyringCheck(t, fmt.Errorf("%w: dbus: no session bus", errors.New("no OS keyring available")))
	w := newTestWindow(t, Deps{About: AboutInfo{CheckKeyring: check}})
	close(release)
	<-shown
	texts, _ := overlayTexts(w)
	all := strings.Join(texts, "\n")
	for _, want := range []string{"No OS keyring is available", "the samples and the demo agent work", "dbus: no session bus"} {
		if !strings.Contains(all, want) {
			t.Errorf("dialog %q does not contain %q", all, want)
		}
	}
	var status string
	fyne.DoAndWait(func() { status = w.status.Text })
	if !strings.Contains(status, "No OS keyring") {
		t.Errorf("status line %q does not mention the keyring", status)
	}
}

func TestWorkingKeyringShowsNothing(t *testing.T) {
	check, release, shown := gatedKeyringCheck(t, nil)
	w := newTestWindow(t, Deps{About: AboutInfo{CheckKeyring: check}})
	close(release)
	<-shown
	if texts, _ := overlayTexts(w); texts != nil {
		t.Errorf("a dialog was shown although the keyring works: %q", texts)
	}
}

func TestAboutShowsVersionDataDirLicencesAndFormatDoc(t *testing.T) {
	var opened []*url.URL
	about := AboutInfo{
		Version:   "1.2.3-test",
		DataDir:   "/home/someone/.config/workrun",
		Licenses:  "Workrun includes the following third-party software.\nfyne.io/fyne/v2 v2.7.1\nBSD 3-Clause",
		FormatDoc: "# Workflow file format\n\nA workflow is a JSON object.",
		Open:      func(u *url.URL) error { opened = append(opened, u); return nil },
	}
	w := newTestWindow(t, Deps{About: about})

	// Help → About, through the menu item as a user picks it.
	var aboutItem, formatItem *fyne.MenuItem
	for _, m := range w.menu().Items {
		for _, it := range m.Items {
			switch it.Label {
			case "About Workrun":
				aboutItem = it
			case "Workflow file format":
				formatItem = it
			}
		}
	}
	if aboutItem == nil || formatItem == nil {
		t.Fatal("the menu has no About Workrun or Workflow file format item")
	}
	fyne.DoAndWait(aboutItem.Action)
	texts, buttons := waitOverlay(t, w)
	all := strings.Join(texts, "\n")
	for _, want := range []string{"Version: 1.2.3-test", "Data directory: /home/someone/.config/workrun"} {
		if !strings.Contains(all, want) {
			t.Errorf("About %q does not contain %q", all, want)
		}
	}

	open := buttons["Open data directory"]
	if open == nil {
		t.Fatalf("no Open data directory button in %q", texts)
	}
	fyne.DoAndWait(func() { test.Tap(open) })
	if len(opened) != 1 || opened[0].Scheme != "file" || opened[0].Path != about.DataDir {
		t.Errorf("opened %v, want file://%s", opened, about.DataDir)
	}

	windowWith := func(title string) fyne.Window {
		t.Helper()
		var found fyne.Window
		fyne.DoAndWait(func() {
			for _, win := range fyne.CurrentApp().Driver().AllWindows() {
				if win.Title() == title {
					found = win
				}
			}
		})
		if found == nil {
			t.Fatalf("no window %q", title)
		}
		return found
	}

	fyne.DoAndWait(func() { test.Tap(buttons["Third-party licences"]) })
	lic := windowWith("Third-party licences")
	list, ok := lic.Content().(*widget.List)
	if !ok || list.Length() != 3 {
		t.Fatalf("licences window content %T, want a list of the 3 lines", lic.Content())
	}
	var line string
	fyne.DoAndWait(func() {
		for _, o := range test.LaidOutObjects(list) {
			if l, ok := o.(*widget.Label); ok && strings.HasPrefix(l.Text, "fyne.io/fyne/v2") {
				line = l.Text
			}
		}
	})
	if line != "fyne.io/fyne/v2 v2.7.1" {
		t.Errorf("licence list does not show the module line, got %q", line)
	}

	fyne.DoAndWait(formatItem.Action)
	doc := windowWith("Workflow file format")
	var docText string
	fyne.DoAndWait(func() {
		for _, o := range test.LaidOutObjects(doc.Content()) {
			if rt, ok := o.(*widget.RichText); ok {
				docText = rt.String()
			}
		}
	})
	if !strings.Contains(docText, "Workflow file format") || !strings.Contains(docText, "A workflow is a JSON object.") {
		t.Errorf("format window shows %q", docText)
	}
}
