package ui

import (
	"embed"
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/widget"
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
	return fyne.NewMenu(lang.X("menu.help", "Help"),
		item(lang.X("help.getting_started", "Getting started"), w.showGettingStarted),
		item(lang.X("help.shortcuts", "Keyboard shortcuts"), w.showShortcuts),
		fyne.NewMenuItemSeparator(),
		item(lang.X("help.sample_remote", "Sample: Remote Agent demo"), func() { w.openSample(SampleRemote) }),
		item(lang.X("help.sample_mcp", "Sample: Remote MCP demo"), w.openMCPSample),
		item(lang.X("help.sample_parallel", "Sample: parallel branches with a failure"), func() { w.openSample(SampleParallel) }),
		item(lang.X("help.sample_tool_app", "Sample: Tool App (an MCP server on this machine)"), func() { w.openSample(SampleToolApp) }),
		item(lang.X("help.demo", "Start demo agent"), w.startDemo),
		item(lang.X("help.demo_words", "What the demo agent understands"), w.showDemoWords),
		fyne.NewMenuItemSeparator(),
		item(lang.X("about.format_doc", "Workflow file format"), w.showFormatDoc),
		item(lang.X("help.about", "About Workrun"), w.showAbout),
	)
}

// helpPage returns the page name in the window's language (English when
// it has no translation).
func helpPage(name string) string {
	for _, code := range []string{CurrentLanguage(), "en"} {
		if b, err := helpPages.ReadFile("help/" + name + "." + code + ".md"); err == nil {
			return string(b)
		}
	}
	panic("ui: no help page " + name) // the pages are embedded: a test reads each
}

// showGettingStarted opens the short getting-started page.
func (w *Window) showGettingStarted() {
	w.showMarkdown(lang.X("help.getting_started", "Getting started"), helpPage("getting-started"))
}

// showShortcuts opens the list of keyboard shortcuts, written from the
// table the window binds (help_keys.go).
func (w *Window) showShortcuts() {
	w.showMarkdown(lang.X("help.shortcuts", "Keyboard shortcuts"), w.shortcutsMarkdown())
}

// shortcutsMarkdown is the shortcut list as Markdown: one item per
// binding, then the keys bound outside the main window.
func (w *Window) shortcutsMarkdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "## %s\n\n", lang.X("keys.main_window", "In the main window"))
	for _, k := range w.keyBindings() {
		fmt.Fprintf(&b, "- **%s** — %s\n", markdownText(k.keysText()), markdownText(k.label))
	}
	fmt.Fprintf(&b, "\n## %s\n\n", lang.X("keys.elsewhere", "Elsewhere"))
	for _, k := range otherKeys() {
		fmt.Fprintf(&b, "- **%s** — %s\n", markdownText(k[1]), markdownText(k[0]))
	}
	fmt.Fprintf(&b, "\n%s\n", lang.X("keys.entry_note", "While you type in a field, Ctrl+C, Ctrl+V, Ctrl+A and Ctrl+Z act on the field's text, not on the nodes."))
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
