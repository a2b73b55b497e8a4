package workrun

// Localizer gives a reader's words in one language, chosen when it is
// made and never read from the environment: the window holds one and makes
// a new one when the person switches language (docs/conventions.md §9).
// Two localizers of different languages live side by side in one process.
// The zero Localizer is English.
//
// Its words are the registered catalogues (NewCatalog): the window's own
// (ui's catalogue, keyed "section.word") and every package's message ids.
type Localizer struct {
	chinese bool
}

// NewLocalizer returns the localizer for language: "zh-Hans" (or any
// Chinese tag: "zh", "zh_CN.UTF-8") is Simplified Chinese, anything else
// English.
func NewLocalizer(language string) Localizer { return Localizer{chinese: IsChinese(language)} }

// X returns the words registered under key in l's language: the English
// when the key has no Chinese, fallback when no catalogue has the key (a
// key made from data, "remote.state."+state, say).
func (l Localizer) X(key, fallback string) string {
	registryMu.RLock()
	w, ok := registry[key]
	registryMu.RUnlock()
	switch {
	case !ok:
		return fallback
	case l.chinese && w[1] != "":
		return w[1]
	case w[0] != "":
		return w[0]
	}
	return fallback
}

// Language is l's language as the window names it: "en" or "zh-Hans".
func (l Localizer) Language() string {
	if l.chinese {
		return "zh-Hans"
	}
	return "en"
}

// Messages is l's language as Text.In and Catalog.In take it: "en" or "zh".
func (l Localizer) Messages() string {
	if l.chinese {
		return "zh"
	}
	return "en"
}

// Text renders t in l's language.
func (l Localizer) Text(t Text) string { return t.In(l.Messages()) }
