package assets

import "embed"

//go:generate go run gen_icon.go

// Icon is the app icon (PNG), also named by FyneApp.toml.
//
//go:embed icon.png
var Icon []byte

// Translations holds translations/*.json, one file per language, named as
// fyne.io/fyne/v2/lang expects ("en.json", "zh-Hans.json").
//
//go:embed translations
var Translations embed.FS
