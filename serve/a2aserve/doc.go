// Package a2aserve is the A2A 1.0 JSON-RPC front of package serve: each
// publication is an agent at BASE/a2a/ID with its Agent Card at
// BASE/a2a/ID/.well-known/agent-card.json (docs/serve.md S4–S12).
//
// It maps only the protocol: a message's parts to run inputs (a data part
// by field name, a text part to the publication's text input, inline file
// parts to artifacts — all checked before anything starts, so a refused
// message starts no run), a served task to an A2A Task (published outputs
// as artifacts, a waiting Human Review or Ask Human as INPUT_REQUIRED), and
// serve's errors to A2A error codes. The messageId is serve's idempotency
// key; what is durable, exactly once and cancelled is serve's promise.
//
// Safety: bodies are capped (HTTP 413), inline file bytes capped like the
// Remote Agent client's (20 MiB per message), text in stream events capped;
// a bearer token, when the server requires them, is checked by the
// Authenticator (constant time, one-way hash) before any method runs, and
// every error a caller sees is one of a fixed set of texts or serve's
// sentinel texts — never an internal error's detail.
package a2aserve
