package ui

import (
	"os"
	"regexp"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/widget"

	"workrun/assets"
	"workrun/workrun"
)

// Languages offered by the language switch.
var Languages = []string{"en", "zh-Hans"}

// SetupLanguage loads the embedded translations and picks the language:
// code ("en", "zh-Hans") or, when empty, the one closest to the system's
// (a C or POSIX locale, LANG=C or C.UTF-8, means English, quietly).
func SetupLanguage(code string) {
	if code == "" {
		code = systemLanguage()
	}
	current = code
	if code != "" {
		// go-locale reads LANGUAGE unless LC_ALL/LC_MESSAGES/LANG names the
		// C locale (C, C.UTF-8, POSIX), which it reads as English; for another
		// language that variable has to name it.
		os.Setenv("LANGUAGE", code)
		for _, k := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
			if v := os.Getenv(k); v != "" {
				if isCLocale(v) && code != "en" {
					os.Setenv(k, strings.ReplaceAll(code, "-", "_")+".UTF-8")
				}
				break
			}
		}
	}
	if err := lang.AddTranslationsFS(assets.Translations, "translations"); err != nil {
		fyne.LogError("load translations", err)
	}
}

// current is the language SetupLanguage picked last.
var current = "en"

// CurrentLanguage is the window's language: "en" or "zh-Hans".
func CurrentLanguage() string { return current }

// msgLang is the language node messages are rendered in ("en" or "zh").
func msgLang() string {
	if workrun.IsChinese(current) {
		return "zh"
	}
	return "en"
}

// systemLanguage picks the offered language closest to the system's:
// Chinese for any zh locale, English otherwise. Fyne has its own strings in
// more languages; left to itself it would pick e.g. German and then log a
// translation failure for every Workrun string.
func systemLanguage() string {
	if strings.HasPrefix(lang.SystemLocale().LanguageString(), "zh") {
		return "zh-Hans"
	}
	return "en"
}

func isCLocale(v string) bool {
	base, _, _ := strings.Cut(v, ".")
	return base == "C" || base == "POSIX"
}

// Words of internals that reach a failure reason or a node's error as
// text (Go's context errors, an exit status): HumanError says them for
// people, in the window's language.
var (
	exitStatusRE = regexp.MustCompile(`command failed: exit status (-?\d+)`)
	taskStateRE  = regexp.MustCompile(`TASK_STATE_[A-Z_]+`)
)

// fixedReasons are the engine's argument-free reasons, in both languages, as
// they may have been saved: shown in the window's language whichever it was.
var fixedReasons = [][2]string{
	{"stopped by the user", "已被用户停止"},
	{"the application exited while the run was going on", "运行期间应用程序已退出"},
	{"the application exited", "应用程序已退出"},
}

// HumanError rewrites a saved error or reason for people: "context canceled"
// becomes "stopped before it finished", "TASK_STATE_CANCELED" "canceled", an
// exit status and the transport words of a connection error (i18n_net.go)
// read in the window's language. Other text is kept as is.
func HumanError(s string) string {
	zh := msgLang() == "zh"
	for _, f := range fixedReasons {
		from, to := f[1], f[0]
		if zh {
			from, to = f[0], f[1]
		}
		if s == from {
			return to
		}
	}
	s = strings.ReplaceAll(s, "context canceled", lang.X("err.canceled", "stopped before it finished"))
	s = strings.ReplaceAll(s, "context deadline exceeded", lang.X("err.deadline", "took too long and was stopped"))
	s = exitStatusRE.ReplaceAllStringFunc(s, func(m string) string {
		code := exitStatusRE.FindStringSubmatch(m)[1]
		return workrun.Text{Key: "process.exit", Args: []string{code}}.In(msgLang())
	})
	s = taskStateRE.ReplaceAllStringFunc(s, RemoteStateLabel)
	return netWords(s)
}

// RemoteStateLabel names an A2A task state for people ("TASK_STATE_INPUT_REQUIRED",
// "input-required" or "input_required" → "waiting for input").
func RemoteStateLabel(state string) string {
	k := strings.ToLower(strings.TrimPrefix(state, "TASK_STATE_"))
	k = strings.ReplaceAll(k, "-", "_")
	if k == "cancelled" {
		k = "canceled"
	}
	if k == "" || k == "unspecified" {
		return lang.X("remote.state.unknown", "unknown")
	}
	en, ok := remoteStates[k]
	if !ok {
		return strings.ReplaceAll(k, "_", " ")
	}
	return lang.X("remote.state."+k, en)
}

var remoteStates = map[string]string{
	"submitted":      "submitted",
	"working":        "working",
	"input_required": "waiting for input",
	"auth_required":  "waiting for authentication",
	"completed":      "completed",
	"failed":         "failed",
	"canceled":       "canceled",
	"rejected":       "rejected",
	"unknown":        "unknown",
}

// FieldTypeLabel names a State field type for people.
func FieldTypeLabel(t workrun.FieldType) string {
	return lang.X("type."+string(t), string(t))
}

// newSelect is a widget.Select whose placeholder is in the window's
// language (Fyne's own "(Select one)" has no translation).
func newSelect(options []string, changed func(string)) *widget.Select {
	s := widget.NewSelect(options, changed)
	s.PlaceHolder = lang.X("select.one", "(Select one)")
	return s
}

var fieldTypes = []workrun.FieldType{workrun.FieldText, workrun.FieldNumber, workrun.FieldBoolean, workrun.FieldJSON, workrun.FieldFile, workrun.FieldFiles}

// fieldTypeSelect picks a State field type by its translated name; text
// is selected. SelectedFieldType reads the choice.
func fieldTypeSelect() *widget.Select {
	opts := make([]string, len(fieldTypes))
	for i, t := range fieldTypes {
		opts[i] = FieldTypeLabel(t)
	}
	s := newSelect(opts, nil)
	s.SetSelectedIndex(0)
	return s
}

// SelectedFieldType is the field type chosen in a fieldTypeSelect.
func SelectedFieldType(s *widget.Select) workrun.FieldType {
	if i := s.SelectedIndex(); i >= 0 && i < len(fieldTypes) {
		return fieldTypes[i]
	}
	return workrun.FieldText
}

// langItem is a Settings menu item that switches to language code; the
// current language is checked.
func (w *Window) langItem(label, code string) *fyne.MenuItem {
	it := fyne.NewMenuItem(label, func() { w.SetLanguage(code) })
	it.Checked = CurrentLanguage() == code
	return it
}

// rebuildKeeping rebuilds the window's widgets in the language just set,
// keeping the run shown (its messages re-rendered in the new language from
// their catalogue keys, with no store read), the canvas zoom and the
// selection, and says in the status bar which language is on.
func (w *Window) rebuildKeeping(build func()) {
	old, zoom := w.panel, w.cv.Zoom()
	view := w.keepView() // language_switch.go
	build()
	w.cv.SetZoom(zoom)
	if old.RunID() != "" {
		w.panel.Adopt(old)
		w.refreshTasks(old.RunID())
		w.updateRunButtons()
		w.updateTitle()
	}
	w.restoreView(view)
	w.setStatus(lang.X("lang.now", "Language: English"))
}
