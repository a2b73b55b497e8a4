// Package a2atest starts the @a2a-js/sdk A2A 1.0 server that workrun's tests
// use as a second, independent implementation next to the Go demo agent
// (a2a/demoagent). Like net/http/httptest it is imported only by _test files.
//
// The server is a2a/testdata/jsagent/server.mjs (@a2a-js/sdk 1.3.0 +
// express 5, installed from the committed package-lock.json). It listens on
// 127.0.0.1 only and has the demo agent's behaviours; GET /_stats returns its
// request counters.
//
// Node is optional locally and required in CI: NodeAvailable reports a
// missing node as a test failure when CI=true and as a logged skip otherwise,
// so a missing component never hides behind a skip in CI (docs/product.md W8).
//
// EnsureNodeModules runs `npm ci` at most once at a time across concurrently
// running test binaries (a lock directory next to package.json), so
// `go test ./...` never installs twice into the same tree nor starts node on a
// half-installed one.
package a2atest
