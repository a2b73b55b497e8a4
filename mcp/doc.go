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
// Two revisions (docs/remote-mcp.md M2). 2026-07-28 is stateless: no
// initialize and no session; every request carries MCP-Protocol-Version,
// Mcp-Method (and Mcp-Name for tools/call and tasks/*) and, in
// params._meta, the protocol version, the client capabilities and the
// client info. 2025-11-25 and older are legacy: initialize (never offering
// 2026-07-28), notifications/initialized, Mcp-Session-Id on every request,
// DELETE at the end. Connect chooses (docs/remote-mcp.md M2 "Detection"):
// server/discover on 2026-07-28 first, and the server is 2026-07-28 only
// when the answer is a valid discover result listing a version this client
// speaks (ParseDiscoverResult); -32022 is retried with a version from
// data.supported; any other answer (an empty or malformed result, a
// non-modern JSON-RPC error, HTTP 400/404/405/406, a garbage body) falls
// back to initialize, and a server refusing both gets one error naming both
// answers.
// Attach continues a saved call on its revision (and legacy session).
//
// Transport. The client builds the JSON-RPC messages and reads the replies;
// a Transport moves them (HTTPTransport: one POST per message, a JSON body
// or an SSE stream read by package sse; the stdio transport). Notifications
// on a reply go to Options.OnNotification; a reply that ends before its
// response gives ErrStreamBroken, except that a legacy SSE reply with event
// ids is resumed with GET and Last-Event-ID after the server's retry: time.
// On 2026-07-28 a tool's x-mcp-header annotations become Mcp-Param-*
// headers, and tools with invalid ones are left out of ListTools.
//
// Tasks. Two forms. The 2025-11-25 core form (capability
// tasks.requests.tools.call): tools/call with task: {ttl} answers
// {task: {taskId, status, pollInterval, …}}; tasks/get reads the task,
// tasks/result waits for the CallToolResult, tasks/cancel cancels. The
// 2026-07-28 extension (io.modelcontextprotocol/tasks, offered by the server
// in capabilities.extensions and declared by the client in each request's
// clientCapabilities — tasks/* always): tools/call may answer resultType
// "task" (taskId, status, ttlMs, pollIntervalMs); a terminal tasks/get
// carries the result or the error; tasks/cancel answers an empty result
// (CancelTask returns nil, nil); WatchTask follows subscriptions/listen's
// notifications/tasks.
//
// Input requests (input.go). With Options.Elicitation declared
// (initialize's capabilities; every 2026-07-28 request's
// clientCapabilities) the server may ask: an MRTR input_required result
// comes back as *InputRequiredError (answer by calling again with
// CallParams.InputResponses and the exact RequestState); an extension
// task's inputRequests are on Task and answered with UpdateTask; a legacy
// request on a reply stream goes to Options.OnRequest, and when only a
// person can answer (ErrAskPerson) the wait ends with *InputRequiredError
// carrying its StreamID, answered later with Respond. Listen opens the
// legacy GET stream for requests outside a reply with a bounded head start
// (it returns when the server has answered the GET, at most 2 s), never
// gating the caller's requests, and hands an answer that comes on it to the
// request waiting for it (docs/remote-mcp.md M15 "Side streams");
// WatchTask's stream is as optional. ping is answered {};
// sampling (-1) and roots (-32601) are declined. The requestedSchema stays
// raw JSON here: reading it, its SEP-1034 defaults and checking an answer
// is the engine's one form rule (workrun.ParseForm, Form.Answer).
//
// Strictness. A reply counts only if it is JSON-RPC 2.0 with the request's
// id (an error may carry a null id), with exactly one of result and error;
// tasks/get and tasks/cancel replies must name the task asked for. Anything
// else is ErrProtocol. Errors are sentinels for errors.Is: *RPCError matches
// its code's sentinel (-32020 ErrHeaderMismatch, -32021
// ErrMissingCapability, -32022 ErrUnsupportedVersion, the JSON-RPC codes);
// -32602 to a tasks/* request is ErrTaskNotFound (by code); *HTTPError
// matches ErrUnauthorized (401/403), ErrPayloadTooLarge (413), ErrServer
// (5xx) and ErrSessionNotFound (404 to a request that carried a session id,
// unless the body says -32601). A task id over MaxTaskIDBytes is refused.
//
// Time and size. No http.Client.Timeout (it would cut SSE replies); every
// deadline comes from the caller's context. JSON replies and single SSE
// events are capped (Options). With Options.Spool, a tool result's long
// text and structuredContent are streamed to a spool file as the reply
// arrives (ToolResult.TextReader, StructuredReader, Release), so a result
// costs memory independent of its size (docs/remote-mcp.md "Large
// results"). POSTs are never retried by the transport, so
// one CallTool submits at most once; CallParams.IdempotencyKey goes out as
// the Idempotency-Key header and in _meta["io.workrun/idempotencyKey"] for
// servers that can recognise a repeat.
//
// Credentials. The client sends none itself: the *http.Client it is given
// (the remote layer's credential-bound transport, remotecall.Transport) puts
// the credential on each request, keeps requests and redirects on its
// origin and redacts what comes back. The stdio transport needs none.
package mcp
