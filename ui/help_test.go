package ui

import (
	"context"
	"os"
	"regexp"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"github.com/google/go-cmp/cmp"

	"workrun/ui/document"
	"workrun/workrun"
)

// menuItemNamed finds the item labelled label in the window's menus
// (submenus too).
func menuItemNamed(w *Window, label string) *fyne.MenuItem {
	var find func(items []*fyne.MenuItem) *fyne.MenuItem
	find = func(items []*fyne.MenuItem) *fyne.MenuItem {
		for _, it := range items {
			if it.Label == label {
				return it
			}
			if it.ChildMenu != nil {
				if f := find(it.ChildMenu.Items); f != nil {
					return f
				}
			}
		}
		return nil
	}
	for _, m := range w.win.MainMenu().Items {
		if it := find(m.Items); it != nil {
			return it
		}
	}
	return nil
}

// windowNamed is the open window with this title (nil when none).
func windowNamed(title string) fyne.Window {
	var found fyne.Window
	fyne.DoAndWait(func() {
		for _, win := range fyne.CurrentApp().Driver().AllWindows() {
			if win.Title() == title {
				found = win
			}
		}
	})
	return found
}

// shownText is what a help window draws: every canvas text, in order.
func shownText(win fyne.Window) string {
	var out []string
	fyne.DoAndWait(func() { out = texts(win.Content()) })
	return strings.Join(out, "\n")
}

// openHelpItem chooses the menu item labelled title (in the window's
// language, code) and returns the window it opens: renderedWindow.
func openHelpItem(t *testing.T, w *Window, code, title string) (fyne.Window, string) {
	t.Helper()
	item := menuItemNamed(w, title)
	if item == nil {
		t.Fatalf("%s: Help has no %q item", code, title)
	}
	fyne.DoAndWait(item.Action)
	return renderedWindow(t, code, title)
}

// renderedWindow is the open window titled title and what it shows; the
// test fails when there is none, and is marked failed when it shows raw
// Markdown.
func renderedWindow(t *testing.T, code, title string) (fyne.Window, string) {
	t.Helper()
	win := windowNamed(title)
	if win == nil {
		t.Fatalf("%s: no %q window", code, title)
	}
	shown := shownText(win)
	if m := rawMarkdown.FindString(shown); m != "" {
		t.Errorf("%s: %q shows raw Markdown %q:\n%.2000s", code, title, m, shown)
	}
	return win, shown
}

// rawMarkdown is Markdown a person must not see: pipes of a table row,
// emphasis stars, heading hashes, escapes.
var rawMarkdown = regexp.MustCompile(`(^|\n)\s*(\||#)|\*\*|\\[*_|#]`)

// TestHelp_ShortcutsListEveryBinding: Help → Keyboard shortcuts lists every
// key the window binds — each menu item's shortcut and each canvas binding
// — with its keys and what it does, rendered (no raw Markdown), in English
// and Chinese; and each listed key does what the list says.
func TestHelp_ShortcutsListEveryBinding(t *testing.T) {
	w := newTestWindow(t, Deps{})
	t.Cleanup(func() { SetupLanguage("en") })
	for _, tt := range []struct{ code, title, zoomIn string }{
		{"en", "Keyboard shortcuts", "Zoom in"},
		{"zh-Hans", "键盘快捷键", "放大"},
	} {
		w.SetLanguage(tt.code)
		win, shown := openHelpItem(t, w, tt.code, tt.title)
		// Every shortcut a menu item carries is listed, beside its label.
		for _, m := range w.win.MainMenu().Items {
			for _, it := range m.Items {
				if it.Shortcut == nil {
					continue
				}
				keys := shortcutText(it.Shortcut)
				if !strings.Contains(shown, keys) || !strings.Contains(shown, it.Label) {
					t.Errorf("%s: menu item %q (%s) is not in the list:\n%s", tt.code, it.Label, keys, shown)
				}
			}
		}
		for _, want := range []string{"Ctrl+Shift+Z", "Ctrl+D", "Ctrl+Q", "Ctrl+=", "Delete / BackSpace", "Esc / Ctrl+W", tt.zoomIn} {
			if !strings.Contains(shown, want) {
				t.Errorf("%s: the list lacks %q:\n%s", tt.code, want, shown)
			}
		}
		fyne.DoAndWait(win.Close)
	}
	// The list is the table the canvas binds: typing a listed key does it.
	w.SetLanguage("en")
	w.OpenWorkflow("", SampleRemote(langNow(), "http://127.0.0.1:1"))
	before := w.cv.Zoom()
	for _, b := range w.keyBindings() {
		if b.id == "zoom_in" {
			fyne.DoAndWait(func() { w.win.Canvas().(fyne.Shortcutable).TypedShortcut(b.keys[0]) })
		}
	}
	if w.cv.Zoom() <= before {
		t.Errorf("Ctrl+= left the zoom at %v (was %v)", w.cv.Zoom(), before)
	}
	n := len(w.doc.Workflow().Nodes)
	w.doc.Select("ask", false)
	fyne.DoAndWait(func() {
		w.win.Canvas().(fyne.Shortcutable).TypedShortcut(w.binding("duplicate").keys[0])
	})
	if len(w.doc.Workflow().Nodes) != n+1 {
		t.Errorf("Ctrl+D: %d nodes, want %d", len(w.doc.Workflow().Nodes), n+1)
	}
}

// TestHelp_GettingStartedInBothLanguages: Help → Getting started opens a
// rendered page in the window's language that names the samples and New
// from template as the menus call them.
func TestHelp_GettingStartedInBothLanguages(t *testing.T) {
	w := newTestWindow(t, Deps{})
	t.Cleanup(func() { SetupLanguage("en") })
	for _, tt := range []struct{ code, title string }{{"en", "Getting started"}, {"zh-Hans", "入门"}} {
		w.SetLanguage(tt.code)
		win, shown := openHelpItem(t, w, tt.code, tt.title)
		for _, label := range []string{menuLabel(w, "help.sample_remote"), menuLabel(w, "help.sample_mcp"), menuLabel(w, "wf.new_from_template"), menuLabel(w, "help.shortcuts")} {
			if !strings.Contains(strings.Join(strings.Fields(shown), " "), label) {
				t.Errorf("%s: the page does not name the menu item %q", tt.code, label)
			}
		}
		if tt.code == "zh-Hans" {
			if m := englishPhrase.FindString(shown); m != "" {
				t.Errorf("zh: English left on the page: %q", m)
			}
		}
		fyne.DoAndWait(win.Close)
	}
}

// menuLabel is a menu label key in the current language.
func menuLabel(w *Window, key string) string { return w.loc.X(key, key) }

// TestHelp_FormatDocRendersTables: Help → Workflow file format shows the
// shipped document's tables as readable rows, never as lines of pipes.
func TestHelp_FormatDocRendersTables(t *testing.T) {
	doc, err := os.ReadFile("../docs/workflow-format.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(doc), "\n| `name` |") {
		t.Fatal("docs/workflow-format.md has no table to check any more; pick another row")
	}
	w := newTestWindow(t, Deps{About: AboutInfo{FormatDoc: string(doc)}})
	fyne.DoAndWait(w.showFormatDoc)
	_, shown := renderedWindow(t, "en", "Workflow file format")
	if !strings.Contains(shown, "shown in the window and the run records") {
		t.Errorf("the name row is missing:\n%.2000s", shown)
	}
}

// TestSample_RemoteMCP: Help → Sample: Remote MCP demo starts the demo MCP
// server once, opens a saved workflow pointing at it, and Run runs it at
// once with the sample's topic; the inputs dialog explains the demo server,
// not the demo agent. Closing the window stops the server.
func TestSample_RemoteMCP(t *testing.T) {
	var gotURL string
	var gotIn workrun.Values
	eng := &fakeEngine{StartFunc: func(_ context.Context, _ string, wf workrun.Workflow, in workrun.Values) (string, error) {
		gotURL, gotIn = document.ConfigString(wf.Nodes[1].Config, "url"), in
		return "run-1", nil
	}}
	started, stopped := 0, false
	w := newTestWindow(t, Deps{Engine: eng, StartDemoMCP: func() (string, func(), error) {
		started++
		return "http://127.0.0.1:5556/mcp", func() { stopped = true }, nil
	}})
	item := menuItemNamed(w, "Sample: Remote MCP demo")
	if item == nil {
		t.Fatal("Help has no Sample: Remote MCP demo")
	}
	fyne.DoAndWait(item.Action)
	first := w.wfID
	if first == "" || w.doc.Dirty() {
		t.Fatalf("sample not saved (id %q, dirty %v)", first, w.doc.Dirty())
	}
	w.newWorkflow()
	fyne.DoAndWait(item.Action)
	if w.wfID != first || len(w.recs) != 2 || started != 1 { // the sample and the new workflow (New saves it)
		t.Fatalf("second open: id %q (first %q), %d saved, server started %d times; want one of each", w.wfID, first, len(w.recs), started)
	}
	w.runClicked()
	texts, _ := waitOverlay(t, w)
	all := strings.Join(texts, "\n")
	if !strings.Contains(all, "research tool") || strings.Contains(all, "demo agent") {
		t.Errorf("inputs dialog says %q; want the demo MCP server's hint", all)
	}
	confirmDialog(t, w)
	if gotURL != "http://127.0.0.1:5556/mcp" {
		t.Errorf("sample ran against %q", gotURL)
	}
	if diff := cmp.Diff(workrun.Values{"topic": "solar panels on flat roofs"}, gotIn); diff != "" {
		t.Errorf("inputs (-want +got):\n%s", diff)
	}
	w.Close()
	if !stopped {
		t.Error("closing the window left the demo MCP server running")
	}
}

// TestSample_RemoteMCPRunStartsTheServer: a saved workflow calling the
// demo MCP server's fixed address starts it on Run (after a restart).
func TestSample_RemoteMCPRunStartsTheServer(t *testing.T) {
	wfs := newMemWorkflows()
	r, err := wfs.SaveWorkflow(context.Background(), "", SampleMCP(langNow(), DemoMCPURL))
	if err != nil {
		t.Fatal(err)
	}
	started := 0
	eng := &fakeEngine{StartFunc: func(context.Context, string, workrun.Workflow, workrun.Values) (string, error) { return "run-1", nil }}
	w := newTestWindow(t, Deps{Engine: eng, Workflows: wfs, StartDemoMCP: func() (string, func(), error) {
		started++
		return DemoMCPURL, func() {}, nil
	}})
	w.reloadList("")
	w.open(r)
	w.runClicked()
	if started != 1 {
		t.Errorf("Run started the demo MCP server %d times, want 1", started)
	}
}

// TestNewFromTemplate: File → New from template lists every shipped example
// (labelled in the window's language) and opens one as a new, unsaved
// workflow: saving it makes a new record and never replaces a saved one,
// not even an earlier copy of the same template.
func TestNewFromTemplate(t *testing.T) {
	examples := os.DirFS("../examples")
	files, err := os.ReadDir("../examples")
	if err != nil {
		t.Fatal(err)
	}
	w := newTestWindow(t, Deps{Templates: examples})
	t.Cleanup(func() { SetupLanguage("en") })
	menu := menuItemNamed(w, "New from template")
	if menu == nil || menu.ChildMenu == nil {
		t.Fatal("File has no New from template submenu")
	}
	if len(menu.ChildMenu.Items) != len(files) {
		t.Errorf("%d templates, want the %d shipped examples", len(menu.ChildMenu.Items), len(files))
	}
	w.SetLanguage("zh-Hans")
	zh := menuItemNamed(w, "从模板新建")
	if zh == nil || zh.ChildMenu == nil {
		t.Fatal("zh: no 从模板新建 submenu")
	}
	for _, it := range zh.ChildMenu.Items {
		if m := englishPhrase.FindString(it.Label); m != "" {
			t.Errorf("zh: template label %q is English", it.Label)
		}
	}
	w.SetLanguage("en")

	// A saved workflow of the same name is never overwritten.
	b, _ := os.ReadFile("../examples/remote-mcp.json")
	want, err := ImportWorkflow(b)
	if err != nil {
		t.Fatal(err)
	}
	saved, err := w.wfs.SaveWorkflow(context.Background(), "", want)
	if err != nil {
		t.Fatal(err)
	}
	w.reloadList(saved.ID)
	w.open(saved)
	item := menuItemNamed(w, "Remote MCP Tool call (a task)")
	if item == nil {
		t.Fatal("no Remote MCP template")
	}
	for round := 1; round <= 2; round++ {
		fyne.DoAndWait(item.Action)
		if w.wfID != "" || !w.doc.Dirty() {
			t.Fatalf("round %d: the template opened as id %q, dirty %v; want a new unsaved workflow", round, w.wfID, w.doc.Dirty())
		}
		if !strings.HasSuffix(w.win.Title(), " •") {
			t.Errorf("round %d: title %q does not mark it unsaved", round, w.win.Title())
		}
		if diff := cmp.Diff(want.Nodes, w.doc.Workflow().Nodes); diff != "" {
			t.Errorf("round %d: nodes (-want +got):\n%s", round, diff)
		}
		if !w.saveNow() {
			t.Fatal("save failed")
		}
		if w.wfID == saved.ID {
			t.Fatalf("round %d: saving the template replaced the saved workflow %s", round, saved.ID)
		}
	}
	recs, err := w.wfs.ListWorkflows(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 3 {
		t.Errorf("%d workflows saved, want 3 (the first and two from the template)", len(recs))
	}
	for _, r := range recs {
		if r.ID == saved.ID && r.Revision != saved.Revision {
			t.Errorf("the saved workflow got revision %d", r.Revision)
		}
	}
}
