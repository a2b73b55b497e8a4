// Package runpanel is the run panel widget: one run's status, duration and
// failure reason on top; every node with its status and (ticking) duration;
// the selected node's inputs and outputs (ValuesView) above its messages,
// in a virtualised list that scrolls 100,000 lines smoothly (docs/product.md
// W5, W6); the buttons a run's state allows (Stop, Resume, Run again, Sign
// in…, Approve/Reject, Run from here) and a remote's question with the
// form to answer it (docs/engine.md "Remote questions").
//
// It reads nothing itself. The app layer loads a run's records into it
// (Load, Start, Adopt), hands it the engine's events (Apply, or ApplyQuiet
// for a batch and one Flush), calls Tick about once a second while a run
// goes on, and answers OnNeedFiles with KnowFiles; what the person does is
// reported through callback fields (OnStop, OnResume, OnRunAgain, OnDecide,
// OnRunFrom, OnPickRun, OnAskChanged, OnFitChanged…). Its own labels come
// from the Localizer it declares and its own catalogue (words.go); what the
// rest of the window words too — a saved reason, a status, a kind's name,
// a node message, a duration, a short id — comes from the app layer's
// Wording, so the panel says a run as the canvas and the run records do.
// Every call is made on the UI goroutine; the panel starts no goroutine
// and calls no fyne.Do (docs/ARCHITECTURE.md).
package runpanel
