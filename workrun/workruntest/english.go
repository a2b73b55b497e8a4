package workruntest

import (
	"fmt"
	"os"
	"testing"
	"workrun/workrun"
)

// MainInEnglish is a whole TestMain: it runs the package's tests in
// English (workrun.SetLanguage, and LANGUAGE=en for the programs they
// start), whatever the developer's locale, because the tests assert the
// English wording. A test of another language sets its own with InLanguage.
//
//	func TestMain(m *testing.M) { workruntest.MainInEnglish(m) }
func MainInEnglish(m *testing.M) {
	workrun.SetLanguage("en")
	if err := os.Setenv("LANGUAGE", "en"); err != nil {
		fmt.Fprintln(os.Stderr, "workruntest: set LANGUAGE:", err)
		os.Exit(2)
	}
	os.Exit(m.Run())
}

// InLanguage makes words written from now on in t be in lang ("en", "zh",
// "zh_CN.UTF-8": workrun.SetLanguage) and puts the language back after t.
// Tests using it do not run in parallel: the process has one language.
func InLanguage(t testing.TB, lang string) {
	t.Helper()
	was := workrun.Language()
	workrun.SetLanguage(lang)
	t.Cleanup(func() { workrun.SetLanguage(was) })
}
