package workruntest

import (
	"fmt"
	"os"
	"testing"
)

// MainInEnglish is a whole TestMain: it runs the package's tests with
// LANGUAGE=en, whatever the developer's locale, because the tests assert the
// English wording. A test of another language sets its own with t.Setenv.
//
//	func TestMain(m *testing.M) { workruntest.MainInEnglish(m) }
func MainInEnglish(m *testing.M) {
	if err := os.Setenv("LANGUAGE", "en"); err != nil {
		fmt.Fprintln(os.Stderr, "workruntest: set LANGUAGE:", err)
		os.Exit(2)
	}
	os.Exit(m.Run())
}
