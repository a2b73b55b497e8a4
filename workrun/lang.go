package workrun

import (
	"fmt"
	"os"
	"strings"
)

// LanguageTag reads the language from the environment the way gettext does
// (LANGUAGE, then LC_ALL, LC_MESSAGES, LANG) and returns the first one set,
// as is ("zh_CN.UTF-8", "zh_CN:en", "en"); "en" when none is. The GUI's
// language switch sets LANGUAGE, so node messages follow it, and the headless
// runner follows the user's locale (issue 7: messages in English and Chinese).
func LanguageTag() string {
	for _, k := range []string{"LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"} {
		if v := os.Getenv(k); v != "" {
			return v
		}
	}
	return "en"
}

// Language returns the language node messages and failure reasons are written
// in now: "zh" (Simplified Chinese) when LanguageTag starts with "zh", else "en".
func Language() string {
	if IsChinese(LanguageTag()) {
		return "zh"
	}
	return "en"
}

// IsChinese reports whether a language tag ("zh", "zh-Hans", "zh_CN.UTF-8")
// names Chinese.
func IsChinese(tag string) bool {
	return strings.HasPrefix(strings.ToLower(tag), "zh")
}

// Catalog holds each message's English [0] and Simplified Chinese [1] wording,
// keyed by the package's own message ids. Texts are fmt formats when the
// message takes arguments. A message is stored as text in the language in
// force when it is written; a missing Chinese wording falls back to English.
type Catalog[K comparable] map[K][2]string

// Text returns message id in the current Language, formatted with args.
func (c Catalog[K]) Text(id K, args ...any) string {
	return c.In(Language(), id, args...)
}

// In returns message id in lang ("en" or "zh"), formatted with args.
func (c Catalog[K]) In(lang string, id K, args ...any) string {
	t := c[id]
	s := t[0]
	if IsChinese(lang) && t[1] != "" {
		s = t[1]
	}
	if len(args) == 0 {
		return s
	}
	return fmt.Sprintf(s, args...)
}

// Error returns an error whose text is message id in the current Language and
// which wraps cause (may be nil), so errors.Is and errors.As still see the
// sentinel or context error behind a translated failure reason.
func (c Catalog[K]) Error(cause error, id K, args ...any) error {
	return &textError{msg: c.Text(id, args...), cause: cause}
}

type textError struct {
	msg   string
	cause error
}

func (e *textError) Error() string { return e.msg }
func (e *textError) Unwrap() error { return e.cause }

// JoinList joins names (State fields, say) the way the current Language
// lists them: "a, b" in English, "a、b" in Chinese.
func JoinList(names []string) string {
	if Language() == "zh" {
		return strings.Join(names, "、")
	}
	return strings.Join(names, ", ")
}
