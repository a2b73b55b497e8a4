// Package desktop is the desktop app's composition: it builds the window's
// ui.Deps from the store, the OS keyring and the credentials manager, OAuth
// sign-in, the node kinds' connection tests, the server (`workrun serve`'s,
// run from the window) and the CLI's environment, then runs the window
// (Run). The command (package main) opens the data directory and registers
// the node kinds (Parts), and hands them here; nothing but the command
// imports this package (docs/ARCHITECTURE.md).
//
// The window (package ui) may import neither the store, the credentials,
// the node kinds nor serve, so each of its needs is an adapter here:
//
//   - credentials.go, oauth.go: the Credentials view and Sign in on
//     credentials.Manager.
//   - errors.go: the one place where the errors those packages return are
//     sorted into the window's sentinels (ui.ErrNoKeyring,
//     ui.ErrNeedsCredential, ui.ErrCredentialRefused, ui.ErrNeedsSignIn);
//     the words people read are the window's, keyed on those sentinels
//     with errors.Is, in both languages.
//   - publish.go: Publish as agent… on serve's URL rules (docs/serve.md).
//   - serve_window.go: "Serve from this window", the same server
//     `workrun serve` runs, on the window's engine and store.
//   - schedule.go: the published workflows' schedules fired while the
//     window is open (docs/triggers.md "In the window").
//   - demo_mcp.go, about.go: the demo MCP server, Help → About and its
//     keyring check.
//
// Every adapter passes errors on wrapped ("op: %w"), so the window can
// both say them in its words and show their details.
package desktop
