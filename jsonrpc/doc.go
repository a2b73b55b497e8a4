// Package jsonrpc is the part of JSON-RPC 2.0 over HTTP that Workrun's two
// protocol clients share: the error object a server answers with
// (RPCError) and the error of a reply that is not 2xx (HTTPError), with
// their texts and their errors.Is matching written once. Each protocol
// (a2a, mcp) names itself and its sentinels through a Protocol type and
// uses the errors under its own names (a2a.RPCError is
// jsonrpc.RPCError[a2a's protocol]), so errors.As and composite literals
// keep working in its callers.
//
// It imports nothing of the project: it is wire level, below the clients,
// and knows neither credentials nor the remote layer (docs/ARCHITECTURE.md).
package jsonrpc
