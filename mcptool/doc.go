// Package mcptool is what the two MCP tool node kinds — the Remote MCP Tool
// (nodes/remotemcp, over Streamable HTTP) and the Tool App (nodes/toolapp,
// a local program over stdio) — do alike with one tool call, as package
// remotecall is for the remote kinds' call records and cancels:
//
//   - Arguments: the argument form (docs/remote-mcp.md M1, M8). Each
//     top-level string value is a template over State fields; a value that is
//     exactly one "{{field}}" sends the field's typed value, a file field as
//     embedded resources (at most MaxFiles files and MaxFileBytes bytes,
//     checked before anything is sent; artifact ids never leave the machine).
//   - Outputs: the results (M9): text blocks, structuredContent, images,
//     audio and embedded resources saved as artifacts, resource links listed
//     and never downloaded; the saved form a resumed node reuses.
//   - Cleanup: the compensating tool (docs/tool-app.md T7): after the node
//     finished, a failed or stopped run calls the configured cleanup tool
//     once, with arguments that may name the node's outputs. "Once" is
//     durable: a remote call record under the key "cleanup" is committed
//     before the call goes out, so neither a second hook nor a restarted
//     process calls it again. It is bounded by the node's timeout and its
//     outcome is a node message in English and Chinese; it never changes the
//     run's status.
//
// The package imports the engine, remotecall and the mcp client; the kinds
// import it, never each other.
package mcptool
