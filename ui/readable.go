package ui

import (
	"encoding/json"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"workrun/workrun"
)

// Readable, not raw (docs/product.md W5): the window shows a long id by
// its first characters and JSON in words; the record keeps both whole, and
// a Copy beside the text puts the whole of it on the clipboard. The run
// panel (ui/runpanel) is handed these through its Wording
// (runPanelWording): the remote task panel and the run record's window
// use them too.

// longIDRE matches what the window shortens in a rendered line: a UUID
// (task, context, run ids) or a long run of hex digits (an MCP session).
var longIDRE = regexp.MustCompile(`(?i)\b(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{24,})\b`)

// shortIDLen is how many characters of a long id the window shows.
const shortIDLen = 8

// shortIDs shortens every long id in s to its first characters and "…".
func shortIDs(s string) string {
	return longIDRE.ReplaceAllStringFunc(s, func(id string) string { return id[:shortIDLen] + "…" })
}

// shortField shortens an id the remote gave (a task, context or session
// id of any shape) when it is longer than 20 characters; a short id such
// as "task-874a06bb-1" reads whole.
func shortField(id string) string {
	r := []rune(id)
	if len(r) <= 20 {
		return id
	}
	return string(r[:shortIDLen]) + "…"
}

// copyFullButton puts what full returns (the text with its ids whole) on
// the clipboard.
func copyFullButton(label string, full func() string) *widget.Button {
	return widget.NewButtonWithIcon(label, theme.ContentCopyIcon(), func() {
		fyne.CurrentApp().Clipboard().SetContent(full())
	})
}

// readableArgs renders the JSON objects and lists among a message's
// arguments in words (readableJSON); the others stay as they are.
func readableArgs(loc workrun.Localizer, args []string) []string {
	var out []string
	for i, a := range args {
		if r, ok := readableJSON(loc, a); ok {
			if out == nil {
				out = slices.Clone(args)
			}
			out[i] = r
		}
	}
	if out == nil {
		return args
	}
	return out
}

// readableJSON renders a JSON object as "key: value · key: value" and a
// list as its items, strings without quotes, a nested object in brackets:
// {"topic":"tides","findings":["a","b"]} reads "findings: a, b · topic:
// tides". ok is false when s is not a JSON object or list.
func readableJSON(loc workrun.Localizer, s string) (string, bool) {
	t := strings.TrimSpace(s)
	if t == "" || t[0] != '{' && t[0] != '[' {
		return s, false
	}
	d := json.NewDecoder(strings.NewReader(t))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil || d.More() {
		return s, false
	}
	return readableValue(loc, v, 0), true
}

// readableValue renders v at depth (0: the whole value): a list shows
// brackets only inside a list or a nested object.
func readableValue(loc workrun.Localizer, v any, depth int) string {
	zh := workrun.IsChinese(loc.Messages())
	colon, comma, open, shut := ": ", ", ", "(", ")"
	if zh {
		colon, comma, open, shut = "：", "，", "（", "）"
	}
	switch x := v.(type) {
	case map[string]any:
		if len(x) == 0 {
			return "—"
		}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = k + colon + readableValue(loc, x[k], depth+1)
		}
		if depth == 0 {
			return strings.Join(parts, " · ")
		}
		return open + strings.Join(parts, comma) + shut
	case []any:
		if len(x) == 0 {
			return "—"
		}
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = readableValue(loc, e, depth+2)
		}
		if depth <= 1 {
			return strings.Join(parts, comma)
		}
		return "[" + strings.Join(parts, comma) + "]"
	case string:
		return x
	case json.Number:
		return x.String()
	case bool:
		return strconv.FormatBool(x)
	case nil:
		return "—"
	}
	return ""
}

// shortID is a run id's first characters, as the window names a run.
func shortID(id string) string {
	if len(id) > 8 {
		return id[:8]
	}
	return id
}

// MessageText renders a node message in the window's language: a
// catalogue key with its arguments, or a line stored before keys existed.
func MessageText(loc workrun.Localizer, m workrun.Message) string {
	m.Args = readableArgs(loc, m.Args) // the record keeps the JSON (readableArgs)
	s := m.In(loc.Messages())
	if m.Key == "" {
		s = LocalizeMessage(loc, s)
	}
	return s
}

// R11 messages as the engine wrote them (English) before messages were
// catalogue keys, and their translation keys, so an old record reads in the
// window's language too.
var r11 = []struct{ key, en string }{
	{"r11.requesting", "Remote task: requesting cancellation…"},
	{"r11.canceled", "Remote task: canceled"},
	{"r11.unconfirmed", "Cancel result unconfirmed: the request failed or timed out; it will not be retried automatically."},
	{"r11.unknown", "Remote task: submission result unknown"},
}

// LocalizeMessage translates a legacy node message when it is one of the
// fixed R11 lines (or starts with one); any other text is shown as written.
func LocalizeMessage(loc workrun.Localizer, text string) string {
	for _, m := range r11 {
		if rest, ok := strings.CutPrefix(text, m.en); ok {
			return loc.X(m.key, m.en) + rest
		}
	}
	return text
}

// clipRunes cuts s to n characters, marking the cut with "…".
func clipRunes(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
