// Package demoserver is Workrun's built-in demo MCP server (`workrun
// demo-mcp`): a Streamable HTTP server that speaks both MCP revisions, so the
// Remote MCP Tool node — and anyone else — can be tested against it. The
// rules it follows are in docs/demo-mcp.md; this comment says what a caller
// may rely on.
//
// Written by hand on net/http. The official Go SDK (go-sdk v1.8.0) speaks
// neither 2026-07-28 nor Tasks, so the server no longer sits on it; the
// SDK's client stays as a test peer for the 2025-11-25 side.
//
// Two eras, one endpoint, one task store. A request whose params._meta
// carries io.modelcontextprotocol/protocolVersion is served statelessly as
// 2026-07-28: no session, _meta and the standard headers checked on every
// request, server/discover, the io.modelcontextprotocol/tasks extension
// (tools/call may answer resultType "task"; tasks/get inlines the end;
// tasks/update; tasks/cancel answers an empty result), subscriptions/listen
// for notifications/tasks, GET and DELETE answered 405. An initialize, or a
// request with a session id the server issued, is served as 2025-11-25:
// sessions, core Tasks (task: {ttl}, tasks/result, tasks/list) and SSE replies
// that can be resumed with GET and Last-Event-ID. Tasks made over 2026-07-28
// belong to no session; tasks made in a session belong to it.
//
// Tools. echo answers at once; broken answers isError; research runs in
// stages and returns text, structuredContent, a PNG, a CSV and a resource
// link (and sends progress when asked); hang never ends until cancelled; ask
// asks one question, survey two in turn, sign_in with a sign-in link (URL
// elicitation); start_job, get_job_result and
// cancel_job are the legacy job flow. Options.Fixtures adds the conformance
// suite's fixture tools.
//
// A repeated tools/call with the same Idempotency-Key by the same owner (a
// session, or nobody on 2026-07-28) gets the task already started instead of
// a new one.
//
// Testing. Options slow or break things on purpose (CancelDelay,
// CutResultStreams) and Requests lists what the server received — with the
// revision it was served under and its headers — so the node's tests can
// count tools/call, tasks/get and tasks/cancel.
package demoserver
