// Package mcpserve is the MCP front of package serve: one Streamable HTTP
// endpoint (BASE/mcp) where every published workflow is a tool, on both
// revisions — 2026-07-28 stateless (server/discover, _meta and headers
// checked per request, the io.modelcontextprotocol/tasks extension, MRTR
// input_required) and 2025-11-25 (initialize, sessions, core Tasks,
// elicitation on the reply stream, SSE event ids and Last-Event-ID).
//
// A tools/call is serve.Start with the caller's idempotency key, so the
// same key never makes a second run; tasks/cancel is serve.Cancel (the
// Stop button); an answer is serve.Answer. The rules are docs/serve.md's
// MCP section (M1–M9).
package mcpserve
