package inspector

import (
	"fyne.io/fyne/v2"

	"workrun/workrun"
)

// Localizer words the inspector's labels in the window's language; the app
// layer hands it its Localizer.
type Localizer interface {
	// X is the label under key, fallback when it has none.
	X(key, fallback string) string
	// Messages is the language catalogue texts are rendered in
	// (workrun.Text.In).
	Messages() string
}

// Want is what a failed connection test asks of the person, as the app
// layer reads its error (Wording.Wants).
type Want int

const (
	// WantNothing: the error says what went wrong; nothing to offer.
	WantNothing Want = iota
	// WantSignIn: the server wants an OAuth sign-in; Sign in is offered.
	WantSignIn
	// WantCredential: the agent wants a credential and none was sent.
	WantCredential
	// WantOtherCredential: the agent refused the credential sent.
	WantOtherCredential
)

// Wording is what the app layer words and knows for the inspector, in the
// window's language: the node kinds as the engine describes them, and the
// forms the rest of the window uses too (a saved error, a keyring failure,
// a count, a cut, line breaks), so the inspector keeps no copy of their
// rules. Every field must be set.
type Wording struct {
	// Kind is the description of a node kind (Deps.Kinds); false for a
	// kind not described.
	Kind func(kind string) (workrun.KindInfo, bool)
	// KindLabel names a node kind; KindIcon is its icon.
	KindLabel func(kind string) string
	KindIcon  func(kind string) fyne.Resource
	// Reason is an error or a saved reason as a sentence.
	Reason func(saved string) string
	// Keyring says plainly what went wrong with the OS keyring.
	Keyring func(err error) string
	// Wants reads what a connection test's error asks of the person.
	Wants func(err error) Want
	// Count is a count with its noun: key's one or other form.
	Count func(n int, key, one, other string) string
	// Clip cuts s to n characters, marking the cut.
	Clip func(s string, n int) string
	// Wrap breaks s into lines no wider than width at text size, where
	// the window breaks lines (between words, CJK characters).
	Wrap func(s string, width, size float32) []string
}
