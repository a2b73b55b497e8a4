package inspector

import (
	"maps"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// What the form shows, read as a person reads it: the window's tests check
// the inspector through these, as they check the other widget packages.

// Widget is the form's editor of the config key key, or the control named
// key: "title", "name" (the workflow's), "test", "sign_in",
// "add_credential", "tools", "use:<tool>", "arguments.<name>", "policy.…",
// "when", "port", "hint", a picker's "<key>+new" button and its
// new-field row ("<key>+new.row", ".name", ".type", ".error"), the
// Triggers section's "trigger_note", "trigger_error" and each trigger's
// "trigger_<i>_<field>" (its "_next" line and "_fires" list too). Nil when the form shows none.
func (in *Inspector) Widget(key string) fyne.CanvasObject { return in.widgets[key] }

// Keys are the keys Widget answers for the form shown, sorted.
func (in *Inspector) Keys() []string { return slices.Sorted(maps.Keys(in.widgets)) }

// Problems are the problems listed under the form for what is typed (not
// those said beside their field: ProblemsInPlace).
func (in *Inspector) Problems() []string {
	if in.problems == nil || !in.problems.Visible() {
		return nil
	}
	return strings.Split(strings.TrimPrefix(in.problems.Text, "⚠ "), "\n⚠ ")
}

// ProblemsInPlace are the problems said beside their field (under a
// template's entry).
func (in *Inspector) ProblemsInPlace() []string {
	var out []string
	for _, f := range in.inPlace {
		if p := f(); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// TestResult is the text the Remote Agent connection test shows.
func (in *Inspector) TestResult() string {
	if in.testOut == nil {
		return ""
	}
	return in.testOut.Text
}

// Completions are the lines of the entry's completion list, nil while it
// is hidden.
func (e *TemplateEntry) Completions() []*widget.Button {
	c := e.completion
	if c == nil || !c.shown() {
		return nil
	}
	out := make([]*widget.Button, len(c.items))
	for i, it := range c.items {
		out[i] = it.button
	}
	return out
}

// Marked is the line of the completion list Enter takes.
func (e *TemplateEntry) Marked() int {
	if e.completion == nil {
		return -1
	}
	return e.completion.sel
}
