// Package assets holds the files the window embeds: the app icon (icon.png,
// drawn by gen_icon.go and named by FyneApp.toml) and the CJK font subset.
// The window's words are not here: they are a Go catalogue in package ui
// (ui/window_words.go), read through the window's localizer
// (docs/conventions.md §9).
package assets
