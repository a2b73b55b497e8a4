package ui

import (
	"embed"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/lang"
)

// editorTranslations holds the editor's own strings (canvas, inspector,
// palette, layout), one file per language as fyne.io/fyne/v2/lang expects;
// they are added to the app's catalogue next to assets/translations.
//
//go:embed translations
var editorTranslations embed.FS

// loadEditorTranslations adds the editor's strings in every language.
func loadEditorTranslations() {
	if err := lang.AddTranslationsFS(editorTranslations, "translations"); err != nil {
		fyne.LogError("load editor translations", err)
	}
}
