package workrun

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
)

// DetectLanguage reads the user's locale the way gettext does (LANGUAGE,
// then LC_ALL, LC_MESSAGES, LANG; the first one set wins) and returns "zh"
// when it names Chinese, else "en" (a C or POSIX locale is English). A
// process calls it once, at start, and hands the result to SetLanguage;
// nothing reads the environment per message (docs/conventions.md §9).
func DetectLanguage(getenv func(string) string) string {
	for _, k := range []string{"LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"} {
		if v := getenv(k); v != "" {
			if IsChinese(v) {
				return "zh"
			}
			return "en"
		}
	}
	return "en"
}

// processLanguage is the language words are written in when they are made
// (Catalog.Text and Error, JoinList, Text.String): "en" or "zh".
var processLanguage atomic.Value

// SetLanguage sets the language the engine and the node kinds write the
// words they make now in (a failure reason is saved as text): "zh" for any
// Chinese tag, else "en". main sets it once at start (from --lang or
// DetectLanguage); the window sets it again when the person switches
// language, so new reasons follow the window. Words rendered for a reader
// (node messages, problems) take the reader's language explicitly instead:
// Text.In, Localizer.
func SetLanguage(lang string) {
	if IsChinese(lang) {
		processLanguage.Store("zh")
	} else {
		processLanguage.Store("en")
	}
}

// Language returns the language words made now are written in: "zh"
// (Simplified Chinese) or "en", as SetLanguage last set it ("en" before).
func Language() string {
	if l, ok := processLanguage.Load().(string); ok {
		return l
	}
	return "en"
}

// IsChinese reports whether a language tag ("zh", "zh-Hans", "zh_CN.UTF-8")
// names Chinese.
func IsChinese(tag string) bool {
	return strings.HasPrefix(strings.ToLower(tag), "zh")
}

// Catalog holds each message's English [0] and Simplified Chinese [1] wording,
// keyed by the package's own message ids. Ids are strings and stable across
// versions ("remoteagent.cancel_sent"): a node message is stored as its id and
// arguments and rendered when it is shown, in the reader's language (see
// Text). Build catalogues with NewCatalog, which registers them so a stored
// key can be rendered by any process. Texts are fmt formats; since arguments
// are stored as strings, %d and %v act as %s (%T only in Error and Text).
type Catalog[K ~string] map[K][2]string

var (
	registryMu sync.RWMutex
	registry   = map[string][2]string{}
)

// NewCatalog registers entries under their keys and returns them as a
// Catalog. A key registered twice with other wording panics: keys are global.
func NewCatalog[K ~string](entries map[K][2]string) Catalog[K] {
	registryMu.Lock()
	defer registryMu.Unlock()
	for k, t := range entries {
		if old, ok := registry[string(k)]; ok && old != t {
			panic(fmt.Sprintf("workrun: catalogue key %q registered twice", k))
		}
		registry[string(k)] = t
	}
	return Catalog[K](entries)
}

// Text is a message before it is rendered: a registered catalogue key and its
// arguments, each already a string (an agent's own words are an argument,
// kept verbatim). An empty Key is verbatim text: Args[0] is shown as is.
type Text struct {
	Key  string   `json:"key,omitempty"`
	Args []string `json:"args,omitempty"`
	// Repeat, on a progress line, counts the earlier lines of its stream it
	// stands for (Message.Repeat: rendered "(+N updates)" by the message).
	Repeat int64 `json:"repeat,omitempty"`
}

// Plain is verbatim text with no catalogue key (a record from before keys,
// or words that are data, not ours).
func Plain(s string) Text { return Text{Args: []string{s}} }

// In renders t in lang ("en" or "zh"). An unknown key renders as the key and
// its arguments, so nothing stored is ever hidden.
func (t Text) In(lang string) string {
	if t.Key == "" {
		return strings.Join(t.Args, " ")
	}
	registryMu.RLock()
	w, ok := registry[t.Key]
	registryMu.RUnlock()
	if !ok {
		return strings.TrimSpace(t.Key + " " + strings.Join(t.Args, " "))
	}
	f := w[0]
	if IsChinese(lang) && w[1] != "" {
		f = w[1]
	}
	if len(t.Args) == 0 {
		return f
	}
	args := make([]any, len(t.Args))
	for i, a := range t.Args {
		args[i] = a
	}
	return fmt.Sprintf(stringVerbs(f), args...)
}

// String renders t in the current Language.
func (t Text) String() string { return t.In(Language()) }

// stringVerbs turns %d and %v into %s: stored arguments are strings.
func stringVerbs(f string) string {
	if !strings.Contains(f, "%d") && !strings.Contains(f, "%v") && !strings.Contains(f, "%[") {
		return f
	}
	var b strings.Builder
	for i := 0; i < len(f); i++ {
		if f[i] == '%' && i+1 < len(f) {
			// An indexed verb, %[2]d, is %[2]s.
			if f[i+1] == '[' {
				if j := strings.IndexByte(f[i:], ']'); j > 0 && i+j+1 < len(f) && (f[i+j+1] == 'd' || f[i+j+1] == 'v') {
					b.WriteString(f[i : i+j+1])
					b.WriteByte('s')
					i += j + 1
					continue
				}
			}
			switch f[i+1] {
			case 'd', 'v':
				b.WriteString("%s")
				i++
				continue
			case '%':
				b.WriteString("%%")
				i++
				continue
			}
		}
		b.WriteByte(f[i])
	}
	return b.String()
}

// Msg returns message id with args, each turned into a string now (an
// error by its Error text), to be rendered when shown.
func (c Catalog[K]) Msg(id K, args ...any) Text {
	t := Text{Key: string(id)}
	for _, a := range args {
		t.Args = append(t.Args, fmt.Sprint(a))
	}
	return t
}

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

// TextError is an error that also carries its catalogue Text, so whoever
// shows it (the window's problem list) can render it in the reader's
// language. Error is the English rendering: logs, the CLI and tests see the
// same words as before; Unwrap gives Err (a sentinel such as a kind's
// ErrConfig), so errors.Is keeps working.
type TextError struct {
	Text Text
	Err  error
}

func (e *TextError) Error() string { return e.Text.In("en") }
func (e *TextError) Unwrap() error { return e.Err }

// Fail returns a *TextError for message id with args (rendered when shown),
// wrapping cause (may be nil). Compile uses it for configuration errors.
func (c Catalog[K]) Fail(cause error, id K, args ...any) error {
	return &TextError{Text: c.Msg(id, args...), Err: cause}
}
