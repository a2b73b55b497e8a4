// Package mcp is Workrun's own small MCP client: Streamable HTTP, tools and
// Tasks. It imports nothing else of the project.
//
// Why not the official Go SDK's client. github.com/modelcontextprotocol/go-sdk
// (used by the demo server in mcp/demoserver) has no Tasks API on the client
// side: it cannot send a task-augmented tools/call, read a CreateTaskResult,
// or call tasks/get, tasks/result and tasks/cancel. Its session also cannot
// be re-attached from a saved Mcp-Session-Id, which a workflow resumed after
// the application exited needs, and it keeps the session behind a single
// connection object that owns its own goroutines. The Remote MCP Tool node
// needs exactly those things, and only a few methods, so this package speaks
// the wire format itself, the way package a2a does for A2A.
//
// Transport. One endpoint. Each request is one POST of a JSON-RPC message
// with Accept: application/json, text/event-stream; the answer is a JSON
// body or an SSE stream (read by package sse). On a stream, empty events (the priming event some
// servers send first) are skipped, notifications go to
// Options.OnNotification, and the first response is the answer; a stream
// that ends before it gives ErrStreamBroken (the request may have been
// handled). Initialize offers Options.Version (2026-07-28 by default) and
// accepts 2026-07-28, 2025-11-25, 2025-06-18 or 2025-03-26; it keeps the
// server's Mcp-Session-Id and sends notifications/initialized. Every later
// request carries Mcp-Session-Id and MCP-Protocol-Version. Attach continues
// a saved session without initializing again; Close ends it with DELETE.
//
// Tasks. Two forms. The 2025-11-25 core form (capability
// tasks.requests.tools.call): tools/call with task: {ttl} answers
// {task: {taskId, status, pollInterval, …}}; tasks/get reads the task,
// tasks/result waits for the CallToolResult, tasks/cancel cancels. The
// 2026-07-28 extension form (io.modelcontextprotocol/tasks, declared by the
// server in capabilities.extensions and by the client per request in
// _meta["io.modelcontextprotocol/clientCapabilities"]): tools/call answers
// resultType "task" with taskId, status, pollIntervalMs; a terminal tasks/get
// carries the result or the error. CallTool reads either answer whatever it
// asked for, since a server decides per request. While TaskResult waits, an
// input_required status of the task (notifications/tasks/status) or a
// request from the server (this client declares no elicitation or sampling)
// ends the wait with ErrInputRequired.
//
// Strictness. A reply counts only if it is JSON-RPC 2.0 with the request's
// id (an error may carry a null id), with exactly one of result and error;
// tasks/get and tasks/cancel replies must name the task asked for. Anything
// else is ErrProtocol. Errors are sentinels for errors.Is: *RPCError matches
// the JSON-RPC code's sentinel, and ErrTaskNotFound or ErrSessionNotFound
// when its text says the task or session is unknown; *HTTPError matches
// ErrUnauthorized (401/403), ErrPayloadTooLarge (413), ErrServer (5xx) and
// ErrSessionNotFound (404 to a request that carried a session id).
//
// Time and size. No http.Client.Timeout (it would cut SSE replies); every
// deadline comes from the caller's context. JSON replies and single SSE
// events are capped (Options). POSTs are never retried by the transport, so
// one CallTool submits at most once; CallParams.IdempotencyKey goes out as
// the Idempotency-Key header and in _meta["io.workrun/idempotencyKey"] for
// servers that can recognise a repeat.
//
// Credentials. A bearer token or API key is bound to one origin
// (scheme://host:port) and sent only there; over plain http only to a
// loopback host (ErrInsecureCredential); a credential for another origin is
// refused (ErrCrossOriginCredential). Redirects to another origin are
// refused, so neither the credential nor the session id leaves it. Secrets
// never appear in errors.
package mcp
