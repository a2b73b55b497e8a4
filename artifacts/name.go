package artifacts

import (
	"path"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxNameBytes bounds a cleaned name, in UTF-8 bytes.
const MaxNameBytes = 120

// maxOriginalBytes bounds the original name kept for display.
const maxOriginalBytes = 1024

// maxExtBytes is the longest extension CleanName keeps when it must shorten
// a name; a longer "extension" is treated as part of the stem.
const maxExtBytes = 16

// CleanName turns a name from outside into a safe file name: its last path
// element only (both / and \ separate), without control characters, NUL or
// characters Windows forbids, without trailing dots or spaces, not a
// reserved Windows device name (CON, aux.txt, …), at most MaxNameBytes
// bytes of valid UTF-8 with the extension kept. An empty or dots-only
// result becomes "file".
func CleanName(original string) string {
	s := strings.ToValidUTF8(original, "_")
	s = strings.ReplaceAll(s, `\`, "/")
	s = strings.TrimPrefix(path.Base("/"+s), "/") // last element; "" for "", "/", ".."
	s = strings.Map(func(r rune) rune {
		switch {
		case unicode.IsControl(r): // NUL included
			return -1
		case strings.ContainsRune(`<>:"/|?*`, r):
			return '_'
		case unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp):
			return -1 // bidi overrides and line separators disguise names
		}
		return r
	}, s)
	s = strings.TrimLeft(s, " ")
	s = strings.TrimRight(s, ". ")
	if strings.Trim(s, ".") == "" {
		return "file"
	}
	if reservedDevice(s) {
		s = "_" + s
	}
	return truncateName(s)
}

// reservedDevice reports whether Windows treats the name as a device, which
// it does whatever the extension: "aux.txt" opens AUX.
func reservedDevice(name string) bool {
	stem, _, _ := strings.Cut(name, ".")
	stem = strings.ToUpper(strings.TrimRight(stem, " "))
	switch stem {
	case "CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$":
		return true
	}
	if len(stem) == 4 && (strings.HasPrefix(stem, "COM") || strings.HasPrefix(stem, "LPT")) {
		return stem[3] >= '0' && stem[3] <= '9'
	}
	if (strings.HasPrefix(stem, "COM") || strings.HasPrefix(stem, "LPT")) && len(stem) > 3 {
		switch stem[3:] { // superscript digits are devices too
		case "¹", "²", "³":
			return true
		}
	}
	return false
}

func truncateName(s string) string {
	if len(s) <= MaxNameBytes {
		return s
	}
	ext := path.Ext(s)
	if len(ext) > maxExtBytes || len(ext) == len(s) {
		ext = ""
	}
	stem := cutUTF8(s[:len(s)-len(ext)], MaxNameBytes-len(ext))
	return strings.TrimRight(stem, ". ") + ext
}

// cutUTF8 returns the longest prefix of s of at most n bytes that does not
// split a rune.
func cutUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// keepOriginal bounds the name as received, kept for display only.
func keepOriginal(s string) string {
	return cutUTF8(strings.ToValidUTF8(s, "\uFFFD"), maxOriginalBytes)
}
