// Package remotemcp implements the Remote MCP Tool node ("remote_mcp"): it
// calls one tool on an MCP server over Streamable HTTP (package mcp) and
// keeps long-running tools safe across timeouts, broken connections,
// failures, Stop and application restarts, with the Remote Agent's
// guarantees (docs/remote-agent.md R5–R13; the node's own rules are in
// docs/remote-mcp.md).
//
// Config. url, tool, arguments (each top-level string value a template over
// readable State fields; a value that is exactly one "{{field}}" sends the
// field's typed value, a file field as an embedded resource), output (text),
// output_json (json), output_files (files), credential, timeout_seconds
// (1–600, default 120) and task: auto (a task when the server offers tasks
// and the tool's execution.taskSupport allows one), always, never.
//
// Durability. Each node execution makes one logical call, saved under
// (run id, node id, "call") in the store's remote call records. Its
// idempotency key is a UUIDv5 of the run and node ids; it and the MCP
// session are committed before tools/call goes out, and the key travels as
// the Idempotency-Key header and in _meta. A task id (or a legacy job id) is
// committed as soon as the answer names it, before anything else is
// handled. The record's fields: MessageID holds the idempotency key, TaskID
// the handle, RemoteState the MCP task status, StatusText its last
// statusMessage, and ContextID a readable "protocol=…; handle=task|job;
// form=…; session=…" line (the session runs to the end of it), so a resumed
// call knows how to follow the handle without a schema change. A success is
// committed as Result (text, structuredContent, artifact ids) and a resumed
// node that finds it returns it without a network call.
//
// Following. A task in the 2025-11-25 form is waited for with tasks/result;
// whenever that wait breaks (an SSE stream cut, an error) or lasts
// timeout_seconds, the task is read with tasks/get, and the wait resumes. A
// task in the 2026-07-28 extension form is read with tasks/get at the
// server's poll interval (at least 1 s, at most 60 s); its terminal answer
// carries the result. A legacy job ({"status":"running","job_id":…} answered
// by a server that lists get_job_result) is polled with get_job_result every
// 2 s. The tool itself is never called again. A failed read of a task is a
// break: remotecall's follow skeleton (FollowPolicy.Follow) reads it again
// with backoff, says the server is unreachable, and past its bound (10
// minutes) interrupts the node as unreachable — resumable, nothing
// cancelled; only "task not found" / "session gone" ends the call. (A
// legacy job: five failed reads in a row fail the node.) After an exit, `workrun
// resume` attaches to the saved session (no new initialize: tasks belong to
// their session) and reads the saved handle first; a server that no longer
// knows the session or the task gives "remote task status unknown: the
// server no longer has session S", and nothing is resubmitted.
//
// Input requests (input.go, docs/remote-mcp.md M15). The server's
// elicitations — an MRTR input_required result, a 2026-07-28 task's
// inputRequests, a 2025-11-25 request on a stream — are answered from the
// node's "answers" (first server round) or by the person: the step commits
// the question in its input record (call key "call/input") and returns a
// *workrun.InterruptError with cause "human" and a workrun.Question; the
// engine re-enters it with the answer (workrun.AnswerTo), which it commits
// as sent before sending — an MRTR retry, tasks/update, or the stream
// request's response — so each round's answers go out at most once. What
// it cannot answer (a task in input_required with nothing to answer)
// still interrupts with cause "remote".
//
// Cancellation. At node start the call registers an abort hook. On failure
// or Stop the engine runs every hook concurrently on a detached, bounded
// context; this hook applies the Remote Agent's table to the saved record: a
// task with a handle that has not ended gets exactly one tasks/cancel (a
// legacy job one cancel_job, if the server offers it), with no status read
// first and no retry, bounded by timeout_seconds; a call without a handle
// shows "submission result unknown"; an ended call gets nothing. The cancel
// lines and outcomes are the Remote Agent's, in English and Chinese
// (workrun.NewCatalog keys "remotemcp.*"). Exiting sends nothing. Rearm gives
// a process that restarted the same hook from the saved record. The table
// and the call record are package remotecall's, shared with the Remote
// Agent node.
//
// Results. Text blocks → output; structuredContent → output_json; image,
// audio and embedded resources → artifacts (names cleaned and MIME types
// checked by the artifact store; an invalid base64 blob is skipped with a
// message); resource links are listed (query and user info removed), never
// downloaded. isError fails the node with the tool's own text. The session
// is ended with DELETE once the call is settled (never on an exit or a
// failure: a resume or a cancel may still need it).
//
// Files. File arguments are read from the artifact store and sent as
// embedded resources (name, media type, base64 bytes); at most 10 files and
// 20 MiB, checked before any request. Artifact ids never leave the machine.
//
// Credentials. A saved bearer token or API key is bound to its origin and
// sent only there, over plain http only to a loopback host. Check is the
// connection test (`workrun check-mcp`): initialize, tools/list, DELETE;
// it calls no tool.
package remotemcp
