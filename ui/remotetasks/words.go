package remotetasks

import (
	"errors"

	"fyne.io/fyne/v2/widget"
)

// ErrFileResults marks, wrapped in ShowResult's error, a failure to read
// only the file results: the task records were read and are shown, the
// failure under them.
var ErrFileResults = errors.New("file results")

// Localizer words the panel's labels in the window's language; the app
// layer hands it its Localizer.
type Localizer interface {
	// X is the label under key, fallback when it has none.
	X(key, fallback string) string
}

// Wording is what the app layer words and knows for the panel, in the
// window's language, as the rest of the window says it. Every field must
// be set.
type Wording struct {
	// State names a saved remote state ("TASK_STATE_INPUT_REQUIRED" →
	// "waiting for input").
	State func(state string) string
	// Saved is a saved status or cancel text (a catalogue key with its
	// arguments, or an error) as a sentence.
	Saved func(text string) string
	// ShortID is a long id (a UUID, a session) as a card shows it.
	ShortID func(id string) string
	// CopyButton puts what full returns (the whole id) on the clipboard.
	CopyButton func(label string, full func() string) *widget.Button
	// CallsMCP reports whether nodes of a kind call MCP servers.
	CallsMCP func(kind string) bool
}
