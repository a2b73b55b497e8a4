package ui

import (
	"os"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/lang"

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
