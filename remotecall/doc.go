// Package remotecall is the one remote layer under the two remote node
// kinds (nodes/remoteagent, nodes/remotemcp): what they do alike with the
// one logical call a node execution makes to a remote service.
//
//   - Origin is the one origin type (ParseOrigin: normalising, IPv6, the
//     loopback rule IsLoopbackHost incl. *.localhost) used by the credential
//     store, both kinds, the connection tests and the window.
//
//   - Transport is the credential-bound HTTP transport of one call (the
//     protocol clients take its Client): every request and redirect only to
//     the bound origin, a credential over plain http only to loopback,
//     request and per-call reply caps, the credential put on each request by
//     an Authorizer (StaticAuth, or an OAuth token source through
//     Binding.Wrap), and every secret it sent redacted (Redactor) from reply
//     bodies, headers and errors. FanOutTransport under it sets TCP
//     keep-alive explicitly (DeadPeerDetection).
//
//   - FollowPolicy.Follow is the follow skeleton after a break: read →
//     subscribe → read, capped exponential backoff with jitter before every
//     reconnect, unreachable retried then ErrUnreachable, reconnects
//     without progress bounded (ErrNoProgress), task gone (ErrTaskGone).
//
//   - Call mirrors the call's durable record (workrun.RemoteCall) in memory.
//     Its mutex orders every save against the abort hook's snapshot: what the
//     hook sees is exactly what was committed, and once the hook has taken it
//     the node saves nothing more (Update returns ErrAborted).
//
//   - Call.Abort is the abort hook's cancel table (docs/remote-agent.md
//     R9–R13): nothing for a call never sent or already ended, nothing again
//     for a call that already holds a cancel outcome, "submission result
//     unknown" for one without a task id, and otherwise exactly one cancel,
//     with no status query first and no retry; the "requesting" line and
//     outcome are committed while the cancel travels, the answer is shown
//     after them, and the outcome is saved even when the cancel timed out
//     ("unconfirmed").
//
//   - Rearm registers the same hook, from the saved record, in a process
//     that did not run the node (after a restart).
//
//   - Timeout reads timeout_seconds.
//
// What differs — the protocol client, how it cancels, how its answer reads,
// each kind's messages — the kind passes in (Canceler). The package imports
// only the engine; the kinds import it, never each other.
package remotecall
