// Package assets holds the files the window embeds: the app icon (icon.png,
// drawn by gen_icon.go and named by FyneApp.toml) and the translations
// (translations/en.json and zh-Hans.json: the window's one catalogue, its
// editor strings included; docs/conventions.md §9) that package ui loads
// through fyne.io/fyne/v2/lang. Every key in en.json has a zh-Hans entry; the R11
// cancel messages use the Chinese wording of docs/remote-agent.md R11.
package assets
