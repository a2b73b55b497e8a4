// Package a2a is Workrun's own A2A 1.0 JSON-RPC client (docs/remote-agent.md R3, R4, R7,
// R14–R16). It imports nothing else of the project but the SSE reader (sse)
// and the JSON-RPC errors it shares with the MCP client (jsonrpc).
//
// Discovery. Discover reads the Agent Card (a base URL goes through
// /.well-known/agent-card.json), picks the card's first JSONRPC interface of
// protocol 1.0 and posts every request to that interface's URL, with its
// tenant in every request's params. A URL without a card (404, an HTML page,
// a chat-completions API) gives ErrNotA2A, "not an A2A agent: no Agent Card
// at …"; a 0.3-only card gives ErrLegacyA2A03; a card without a JSONRPC 1.0
// interface gives ErrNoJSONRPCInterface naming what it offers.
//
// Strictness. A reply counts only if it is JSON-RPC 2.0 with the request's id
// (an error reply may carry a null id). GetTask and CancelTask replies must
// name the task asked for; stream events must name the task being followed.
// Anything else is ErrProtocol and is never accepted silently. A2A and
// JSON-RPC error codes are *RPCError values matching the sentinels
// (ErrTaskNotFound, …) with errors.Is; non-2xx answers are *HTTPError values
// matching ErrUnauthorized (401/403, WWW-Authenticate kept),
// ErrPayloadTooLarge (413, any body) or ErrServer (5xx).
//
// Streams. SendStreamingMessage and SubscribeToTask are iterators. They end
// after a message event or a task in a terminal or interrupted state; to
// follow a task past INPUT_REQUIRED/AUTH_REQUIRED, subscribe again. A body
// that ends (or breaks) before that yields ErrStreamBroken: the remote task
// may still be running, so read it with GetTask instead of resubmitting
// (docs/remote-agent.md R6). A plain JSON body where a stream was expected (a2a-js early
// errors) is read as a JSON-RPC reply. The common event, a statusUpdate with
// text parts, is decoded in one pass without reflection; every other event,
// and any input that pass is not sure to read exactly as encoding/json does,
// goes through encoding/json, so results and errors are the same either way
// (FuzzEventFastPath checks this).
//
// Time and size. The client never uses http.Client.Timeout, which would cut
// streams; deadlines come from the caller's context. Replies, single SSE
// events (read by package sse) and the card are capped (Options). The encoded request is measured
// before anything is sent and refused with ErrRequestTooLarge, naming both
// sizes, when it exceeds Options.MaxRequestBytes.
//
// Memory. Raw file parts (Part.Raw or a streaming Part.Source) are
// base64-encoded straight into the request body as it is written, through a
// pipe with a precomputed Content-Length, so a 20 MiB send never holds the
// encoded request in memory.
//
// Credentials. The client holds no credential, origin or redaction code: it
// sends every request through Options.HTTPClient, and in the product that
// client's transport is remotecall.Transport, which binds the credential to
// one origin (scheme://host:port), refuses a redirect or a card interface on
// another origin (remotecall.ErrOtherOrigin), refuses a credential over plain
// http to a host that is not loopback (remotecall.ErrInsecureCredential) and
// replaces every secret an agent echoes back (WWW-Authenticate, an error
// body, a JSON-RPC error message) before this package reads it. The card
// fetch (Options.CardHTTPClient) carries no credential; URLs in error texts
// go through url.URL.Redacted, which drops a password.
//
// Connection test. CheckAccess reads a task id that cannot exist: an A2A
// answer proves discovery and authentication without submitting work
// (docs/remote-agent.md R3.4); it is the one connection test the product
// runs (remoteagent.CheckAgent). Callers should check Streaming() before
// using the streaming methods.
//
// Idempotency. POST requests are never retried by the transport (Go replays
// only idempotent requests), so one SendMessage call submits at most once.
package a2a
