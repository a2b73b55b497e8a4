package assets

import _ "embed" // go:embed of []byte

//go:generate go run gen_icon.go

// Icon is the app icon (PNG), also named by FyneApp.toml.
//
//go:embed icon.png
var Icon []byte

// CJKFont is a TrueType subset of WenQuanYi Micro Hei (Apache-2.0) holding
// the common Chinese characters and every one this program writes; the
// window draws Chinese with it when the system has no CJK font. See
// fonts/README.md and scripts/cjk-font.sh.
//
//go:embed fonts/cjk-subset.ttf
var CJKFont []byte
