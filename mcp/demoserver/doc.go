// Package demoserver is Workrun's built-in demo MCP server (`workrun
// demo-mcp`): a Streamable HTTP server on the official Go SDK,
// github.com/modelcontextprotocol/go-sdk, with the tools the Remote MCP Tool
// node is meant for.
//
// Tools. echo answers at once (a plain synchronous tool, with
// structuredContent); broken always answers isError; research runs in
// stages (one a second by default) and returns text, structuredContent, a
// PNG chart, an embedded CSV and a resource link; hang is a task that never
// ends until it is cancelled; ask stops after one stage in input_required;
// start_job, get_job_result and cancel_job are the legacy job flow (a job id
// at once, polled with a tool).
//
// Where the SDK lacks Tasks. go-sdk v1.8.0 has no Tasks API: its server
// rejects tasks/* methods before any handler or middleware sees them, and it
// knows neither the tasks capability nor execution.taskSupport. So Server is
// an http.Handler in front of the SDK's StreamableHTTPHandler. The SDK keeps
// doing sessions, initialize, tools/list and every plain tools/call; the
// wrapper reads each POSTed JSON-RPC message first and
//   - adds capabilities.tasks (the 2025-11-25 form) and
//     capabilities.extensions["io.modelcontextprotocol/tasks"] (the
//     2026-07-28 extension; left out with Options.CoreOnly) to the SDK's
//     initialize answer, and execution.taskSupport to each listed tool;
//   - answers a tools/call of a task tool itself when the client asks for a
//     task (task: {ttl}, or the extension declared in
//     _meta["io.modelcontextprotocol/clientCapabilities"]): it starts the
//     tool in a goroutine and answers {task: …} or resultType "task";
//   - answers tasks/get, tasks/result (an SSE stream: a priming event, a
//     notifications/tasks/status per change, then the CallToolResult),
//     tasks/cancel and tasks/list, for the session that created the task
//     only (a session the SDK issued, seen in its initialize answer; an
//     unknown session gets HTTP 404).
//
// A repeated tools/call with the same Idempotency-Key in a session returns
// the task already started instead of a new one. The SDK answers in JSON
// (StreamableHTTPOptions.JSONResponse) so the wrapper can edit its answers.
//
// Testing. Options slow or break things on purpose (CancelDelay,
// CutResultStreams) and Requests lists what the server received, so the
// node's tests can count tools/call, tasks/get and tasks/cancel.
package demoserver
