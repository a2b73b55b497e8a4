package ui

import (
	"embed"
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"workrun/workrun"
)

// helpPages holds the Help pages too long for the label catalogue, one
// Markdown file per page and language: NAME.en.md, NAME.zh-Hans.md.
//
//go:embed help
var helpPages embed.FS

// helpMenu is the Help menu: the pages, the samples, the demo agent's
// words, the file format and About.
func (w *Window) helpMenu() *fyne.Menu {
	item := fyne.NewMenuItem
	return fyne.NewMenu(w.loc.X("menu.help", "Help"),
		item(w.loc.X("help.getting_started", "Getting started"), w.showGettingStarted),
		item(w.loc.X("help.shortcuts", "Keyboard shortcuts"), w.showShortcuts),
		fyne.NewMenuItemSeparator(),
		item(w.loc.X("help.sample_remote", "Sample: Remote Agent demo"), func() { w.openSample(SampleRemote) }),
		item(w.loc.X("help.sample_mcp", "Sample: Remote MCP demo"), w.openMCPSample),
		item(w.loc.X("help.sample_parallel", "Sample: parallel branches with a failure"), func() { w.openSample(SampleParallel) }),
		item(w.loc.X("help.sample_tool_app", "Sample: Tool App (an MCP server on this machine)"), func() { w.openSample(SampleToolApp) }),
		item(w.loc.X("help.demo", "Start demo agent"), w.startDemo),
		item(w.loc.X("help.demo_words", "What the demo agent understands"), w.showDemoWords),
		fyne.NewMenuItemSeparator(),
		item(w.loc.X("about.format_doc", "Workflow file format"), w.showFormatDoc),
		item(w.loc.X("help.about", "About Workrun"), w.showAbout),
	)
}

// helpPage returns the page name in the window's language (English when
// it has no translation).
func helpPage(loc workrun.Localizer, name string) string {
	for _, code := range []string{loc.Language(), "en"} {
		if b, err := helpPages.ReadFile("help/" + name + "." + code + ".md"); err == nil {
			return string(b)
		}
	}
	panic("ui: no help page " + name) // the pages are embedded: a test reads each
}

// showGettingStarted opens the short getting-started page.
func (w *Window) showGettingStarted() {
	w.showMarkdown(w.loc.X("help.getting_started", "Getting started"), helpPage(w.loc, "getting-started"))
}

// showShortcuts opens the list of keyboard shortcuts, written from the
// table the window binds (help_keys.go).
func (w *Window) showShortcuts() {
	w.showMarkdown(w.loc.X("help.shortcuts", "Keyboard shortcuts"), w.shortcutsMarkdown())
}

// shortcutsMarkdown is the shortcut list as Markdown: one item per
// binding, then the keys bound outside the main window.
func (w *Window) shortcutsMarkdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "## %s\n\n", w.loc.X("keys.main_window", "In the main window"))
	for _, k := range w.keyBindings() {
		fmt.Fprintf(&b, "- **%s** — %s\n", markdownText(k.keysText()), markdownText(k.label))
	}
	fmt.Fprintf(&b, "\n## %s\n\n", w.loc.X("keys.elsewhere", "Elsewhere"))
	for _, k := range otherKeys(w.loc) {
		fmt.Fprintf(&b, "- **%s** — %s\n", markdownText(k[1]), markdownText(k[0]))
	}
	fmt.Fprintf(&b, "\n%s\n", w.loc.X("keys.entry_note", "While you type in a field, Ctrl+C, Ctrl+V, Ctrl+A and Ctrl+Z act on the field's text, not on the nodes."))
	return b.String()
}

// markdownText escapes what Markdown would read as markup in a label.
func markdownText(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `*`, `\*`, `_`, `\_`, "`", "\\`", `[`, `\[`, `]`, `\]`, `#`, `\#`, `|`, `\|`)
	return r.Replace(s)
}

// showMarkdown opens a help window with md rendered (tables as lists, see
// markdown.go); Esc or Ctrl+W closes it.
func (w *Window) showMarkdown(title, md string) fyne.Window {
	rt := widget.NewRichTextFromMarkdown(readableMarkdown(md))
	rt.Wrapping = fyne.TextWrapWord
	win := w.app.NewWindow(title)
	win.SetContent(container.NewVScroll(rt))
	closeKeys(win)
	s := w.win.Canvas().Size()
	win.Resize(fyne.NewSize(min(720, max(s.Width-80, 480)), min(640, max(s.Height-60, 400))))
	win.Show()
	return win
}
