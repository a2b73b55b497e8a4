package ui

import (
	"os"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/lang"

	"workrun/assets"
)

// Languages offered by the language switch.
var Languages = []string{"en", "zh-Hans"}

// SetupLanguage loads the embedded translations and picks the language:
// code ("en", "zh-Hans") or, when empty, the system's. A C or POSIX locale
// (LANG=C, C.UTF-8) means English, quietly: Fyne would otherwise log
// "Error parsing user locale C".
func SetupLanguage(code string) {
	if code == "" && cLocale() {
		code = "en"
	}
	if code != "" {
		// go-locale reads LANGUAGE unless LC_ALL/LC_MESSAGES/LANG is exactly
		// C or POSIX, which it reads as "no language" (English here).
		os.Setenv("LANGUAGE", code)
		for _, k := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
			if v := os.Getenv(k); v != "" {
				if (v == "C" || v == "POSIX") && code != "en" {
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

// cLocale reports whether the locale that applies is C or POSIX.
func cLocale() bool {
	for _, k := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		if v := os.Getenv(k); v != "" {
			return isCLocale(v)
		}
	}
	return false
}

func isCLocale(v string) bool {
	base, _, _ := strings.Cut(v, ".")
	return base == "C" || base == "POSIX"
}
