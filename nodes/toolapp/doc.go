// Package toolapp implements the Tool App node ("tool_app"): it starts a
// local program as an MCP server over the stdio transport (mcp.Stdio) and
// calls one of its tools, with the Remote MCP Tool's argument form, results,
// files, Tasks support and messages (package mcptool), and a cleanup tool.
// Its rules are in docs/tool-app.md (T1–T8).
//
// Config. command (argv, run without a shell), env (templates over State
// fields, not secret), secret_env (variable → saved credential: the secret
// is read when the program starts and never written anywhere), cwd, tool,
// arguments, output, output_json, output_files, cleanup_tool,
// cleanup_arguments (may name this node's outputs), timeout_seconds.
//
// The program. It runs in a process group of its own under a guard
// process (mcp/stdio_unix.go) that kills its whole tree when the call ends
// and when Workrun dies, even by SIGKILL, so nothing of it is left behind. Its stderr lines are node messages (cleaned of control
// characters, capped, secrets redacted). When the call ends — result,
// failure, timeout, Stop — the program is stopped gracefully: stdin closed,
// then SIGTERM, then SIGKILL. A crash during the call fails the node with
// the exit status and the end of stderr; a line on stdout that is not
// JSON-RPC is a protocol error naming the line.
//
// Identity. A local call has no handle that outlives the program. What
// identifies the call (an idempotency key, the tool, whether the tool is
// annotated idempotentHint) is committed before tools/call goes out, and
// the result when it arrives. Resumed after Workrun stopped during the call,
// the node fails with "the tool program was stopped with Workrun; result
// unknown" and does not call the tool again — unless the tool is annotated
// idempotentHint: true, when it is called again. A task-capable program's
// task is followed like a remote one while Workrun runs.
//
// Cleanup. Once the node finished, a failed or stopped run starts the
// program again and calls cleanup_tool once (mcptool.Cleanup: guarded by a
// durable record, bounded by timeout_seconds, in parallel with the other
// nodes' cancels); its answer is a node message. Rearm registers it again
// in a process that did not run the node.
package toolapp
