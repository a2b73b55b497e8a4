package ui

import (
	"fmt"
	"net/url"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/widget"

	"workrun/workrun"
)

// AboutInfo is what Help → About and Help → Workflow file format show, and
// the keyring check made when the window opens.
type AboutInfo struct {
	Version string
	DataDir string
	// Licenses is the generated licence text of the bundled dependencies;
	// "" when the build did not generate it.
	Licenses string
	// FormatDoc is the workflow file format document (Markdown) shipped
	// inside the binary.
	FormatDoc string
	// CheckKeyring says whether the OS keyring can be used (an error
	// wrapping ErrNoKeyring when not). It may block on D-Bus, so it runs
	// off the UI goroutine; nil skips the check.
	CheckKeyring func() error
	// Open shows a file or folder URL with the desktop's own application;
	// nil means the app's OpenURL.
	Open func(*url.URL) error
}

// aboutText is the body of the About dialog.
func aboutText(loc workrun.Localizer, a AboutInfo) string {
	v := a.Version
	if v == "" {
		v = "?"
	}
	return loc.X("help.about_text", "Workrun runs workflows on your machine and hands work to remote agents over A2A.") +
		"\n\n" + loc.X("about.version", "Version") + ": " + v +
		"\n" + loc.X("about.data_dir", "Data directory") + ": " + a.DataDir
}

// showAbout opens the About dialog: version, data directory (with a button
// that opens it), licences and the workflow format document.
func (w *Window) showAbout() {
	a := w.deps.About
	body := widget.NewLabel(aboutText(w.loc, a))
	body.Wrapping = fyne.TextWrapWord
	openDir := widget.NewButton(w.loc.X("about.open_data_dir", "Open data directory"), func() {
		if err := w.openPath(a.DataDir); err != nil {
			w.showError(err)
		}
	})
	if a.DataDir == "" {
		openDir.Disable()
	}
	licenses := widget.NewButton(w.loc.X("about.licenses", "Third-party licences"), w.showLicenses)
	format := widget.NewButton(w.loc.X("about.format_doc", "Workflow file format"), w.showFormatDoc)
	content := container.NewVBox(body, container.NewHBox(openDir, licenses, format))
	d := dialog.NewCustom(w.loc.X("help.about", "About Workrun"), w.loc.X("close", "Close"), content, w.win)
	d.Resize(fyne.NewSize(560, 0))
	d.Show()
}

// openPath opens a local folder or file with the desktop's file manager or
// viewer.
func (w *Window) openPath(path string) error {
	u, err := url.Parse(storage.NewFileURI(path).String())
	if err != nil {
		return fmt.Errorf("open %s: %w", path, err)
	}
	open := w.deps.About.Open
	if open == nil {
		open = w.app.OpenURL
	}
	if err := open(u); err != nil {
		return fmt.Errorf("open %s: %w", path, err)
	}
	return nil
}

// showLicenses opens a window with the licence texts, one list row per line
// so that the long text scrolls without laying all of it out.
func (w *Window) showLicenses() {
	text := w.deps.About.Licenses
	if text == "" {
		text = w.loc.X("about.no_licenses", "This build has no licence list: it was built without make (make build and make dist generate it).")
	}
	lines := strings.Split(text, "\n")
	list := widget.NewList(func() int { return len(lines) },
		func() fyne.CanvasObject { return widget.NewLabel("") },
		func(i widget.ListItemID, o fyne.CanvasObject) { o.(*widget.Label).SetText(lines[i]) })
	win := w.app.NewWindow(w.loc.X("about.licenses", "Third-party licences"))
	win.SetContent(list)
	win.Resize(w.fit(fyne.NewSize(760, 640)))
	win.Show()
}

// showFormatDoc opens the workflow file format document in a window.
func (w *Window) showFormatDoc() {
	doc := w.deps.About.FormatDoc
	if doc == "" {
		doc = w.loc.X("about.no_format_doc", "This build does not include the workflow file format document.")
	}
	rt := widget.NewRichTextFromMarkdown(readableMarkdown(doc))
	rt.Wrapping = fyne.TextWrapWord
	win := w.app.NewWindow(w.loc.X("about.format_doc", "Workflow file format"))
	win.SetContent(container.NewVScroll(rt))
	closeKeys(win)
	win.Resize(w.fit(fyne.NewSize(820, 700)))
	win.Show()
}

// checkKeyring asks, off the UI goroutine, whether the OS keyring can be
// used, and when not says so in the window: a menu start has no terminal
// that would show the error.
func (w *Window) checkKeyring() {
	check := w.deps.About.CheckKeyring
	if check == nil {
		return
	}
	done := keyringCheckDone
	var err error
	w.background(func() { err = check() }, func() {
		if err != nil {
			w.showNoKeyring(err)
		}
		if done != nil {
			done()
		}
	})
}

// keyringCheckDone, when set (tests), is called once the keyring check's
// result has been shown.
var keyringCheckDone func()

// showNoKeyring explains a missing keyring and what still works.
func (w *Window) showNoKeyring(err error) {
	msg := w.loc.X("about.no_keyring", "No OS keyring is available, so credentials for remote agents cannot be saved. Workflows, the samples and the demo agent work without it. To save credentials, start a Secret Service (for example gnome-keyring, or KeePassXC with Secret Service enabled) and restart Workrun.") +
		"\n\n" + w.loc.X("about.cause", "Cause") + ": " + err.Error()
	label := widget.NewLabel(msg)
	label.Wrapping = fyne.TextWrapWord
	d := dialog.NewCustom(w.loc.X("about.no_keyring_title", "No OS keyring"), w.loc.X("close", "Close"), label, w.win)
	d.Resize(fyne.NewSize(520, 0))
	d.Show()
	w.setStatus(w.loc.X("about.no_keyring_status", "No OS keyring: credentials cannot be saved"))
}
