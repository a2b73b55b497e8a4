// Package credentials manages the secrets Workrun sends to remote agents
// (docs/product.md W8). A credential has a name, a kind ("bearer" or "apikey"), the
// service origin it is bound to (scheme://host:port) and, for an API key,
// the header that carries it. That metadata lives in SQLite (package store);
// the secret lives only in the OS keyring (go-keyring, service "workrun",
// user = credential name) and never reaches the SQLite file, a workflow
// file, an export, a log or a node message.
//
// A credential is only handed out for its own origin: Resolve refuses a URL
// whose origin differs, so a secret is never sent to another service.
//
// Without a usable keyring (no Secret Service on Linux, a locked keychain
// the person refused to open) operations that need the secret fail with
// ErrNoKeyring, whose text says so plainly; Workrun never falls back to
// storing the secret anywhere else.
package credentials
