package ui

import (
	"encoding/json"
	"regexp"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/lang"
	"github.com/jeandeaual/go-locale"

	"workrun/workrun"
)

// Languages offered by the language switch.
var Languages = []string{"en", "zh-Hans"}

// SetupLanguage sets the process-wide parts of language code ("en",
// "zh-Hans"; "" is the system's): the language the engine writes new
// failure reasons in (workrun.SetLanguage) and Fyne's own words (a
// dialog's OK, Cancel: fyneLanguage). The window's own words do not come
// from here but from its localizer (Window.loc), made from an explicit
// language (docs/conventions.md §9). Run calls it once at start and
// Window.SetLanguage on a switch.
func SetupLanguage(code string) {
	if code == "" {
		code = SystemLanguage()
	}
	code = workrun.NewLocalizer(code).Language()
	current = code
	workrun.SetLanguage(code)
	fyneLanguage(code)
}

// current is the language SetupLanguage set last.
var current = "en"

// CurrentLanguage is the process's language as SetupLanguage set it last:
// "en" or "zh-Hans" (what served requests answer in; a window's own
// language is its localizer's).
func CurrentLanguage() string { return current }

// fyneLanguage makes Fyne's own words (its dialogs' buttons, the file
// picker) follow code. Fyne 2.7 has no call that sets its language: it
// takes the locales of go-locale each time translations are added. Our
// patched go-locale (third_party/go-locale, PATCHED.md) lets us name them
// (SetLocales), so this is the one place Fyne's language is chosen, and no
// environment variable is written. The translations added are the
// window's catalogue (windowWords); adding them makes Fyne pick its
// language again.
func fyneLanguage(code string) {
	locale.SetLocales(code)
	for i, l := range []string{"en", "zh-Hans"} {
		words := make(map[string]string, len(windowWords))
		for k, w := range windowWords {
			words[k] = w[i]
		}
		data, err := json.Marshal(words)
		if err == nil {
			err = lang.AddTranslationsForLocale(data, fyne.Locale(l))
		}
		if err != nil {
			fyne.LogError("load translations", err)
		}
	}
}

// SystemLanguage is the offered language closest to the system's locale:
// Chinese for any zh locale, English otherwise (a C or POSIX locale, LANG=C
// or C.UTF-8, means English). Fyne has its own strings in more languages;
// left to itself it would pick e.g. German.
func SystemLanguage() string {
	if strings.HasPrefix(lang.SystemLocale().LanguageString(), "zh") {
		return "zh-Hans"
	}
	return "en"
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
func HumanError(loc workrun.Localizer, s string) string {
	zh := loc.Messages() == "zh"
	for _, f := range fixedReasons {
		from, to := f[1], f[0]
		if zh {
			from, to = f[0], f[1]
		}
		if s == from {
			return to
		}
	}
	s = strings.ReplaceAll(s, "context canceled", loc.X("err.canceled", "stopped before it finished"))
	s = strings.ReplaceAll(s, "context deadline exceeded", loc.X("err.deadline", "took too long and was stopped"))
	s = exitStatusRE.ReplaceAllStringFunc(s, func(m string) string {
		code := exitStatusRE.FindStringSubmatch(m)[1]
		return workrun.Text{Key: "process.exit", Args: []string{code}}.In(loc.Messages())
	})
	s = taskStateRE.ReplaceAllStringFunc(s, func(st string) string { return RemoteStateLabel(loc, st) })
	return netWords(loc, s)
}

// RemoteStateLabel names an A2A task state for people ("TASK_STATE_INPUT_REQUIRED",
// "input-required" or "input_required" → "waiting for input").
func RemoteStateLabel(loc workrun.Localizer, state string) string {
	k := strings.ToLower(strings.TrimPrefix(state, "TASK_STATE_"))
	k = strings.ReplaceAll(k, "-", "_")
	if k == "cancelled" {
		k = "canceled"
	}
	if k == "" || k == "unspecified" {
		return loc.X("remote.state.unknown", "unknown")
	}
	en, ok := remoteStates[k]
	if !ok {
		return strings.ReplaceAll(k, "_", " ")
	}
	return loc.X("remote.state."+k, en)
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

// langItem is a Settings menu item that switches to language code; the
// current language is checked.
func (w *Window) langItem(label, code string) *fyne.MenuItem {
	it := fyne.NewMenuItem(label, func() { w.SetLanguage(code) })
	it.Checked = w.loc.Language() == code
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
	w.setStatus(w.loc.X("lang.now", "Language: English"))
}
