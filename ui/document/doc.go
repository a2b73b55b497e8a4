// Package document is the editing model behind the workflow canvas
// (docs/product.md W1): a workrun.Workflow with the selection, a clipboard
// and an undo stack of snapshots, changed only through commands (add,
// move, connect, delete, copy/paste, duplicate, config and policy
// changes), each one undo step; a run of typing named as one edit joins
// one step. A command the workflow cannot take (a cycle, a self link, an
// edge into Start) is refused with one of the Err* errors and changes
// nothing.
//
// It is plain Go: it draws nothing and imports only the engine's types,
// so every edit is testable without a window. What a new node starts with
// (its title in the window's language, its kind's default config) comes
// from the app layer through NewNode, so the model knows no node kind.
// A Document is used from one goroutine, the UI's.
package document
