// Package mcptest starts the MCP interop peers for tests: servers built on
// the official TypeScript SDK v2 (@modelcontextprotocol/server 2.4.0,
// mcp/testdata/tsserver, installed by scripts/test.sh with npm ci), one that
// speaks 2026-07-28 only and one dual-era, both with the Tasks extension
// written on the SDK's hooks (docs/demo-mcp.md "Interop peer"). A missing
// install fails the test under CI=true and skips it otherwise.
package mcptest
