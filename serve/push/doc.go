// Package push is `workrun serve`'s receiver of A2A push notifications
// (docs/triggers.md P1–P6): the place a Remote Agent node's agent POSTs
// the updates of a task the node stopped streaming.
//
// What a caller may rely on:
//
//   - Endpoint hands out BASE/push/RUN/NODE/CALLKEY only once a public base
//     URL is set (SetPublicURL); without one the node streams as before.
//   - A push is taken only with the token the node sent for that call: its
//     SHA-256 is compared in constant time with the hash in the call's push
//     side record (the token is never saved). No record, no wait, a wrong
//     or missing token: refused, and nothing is resumed.
//   - The body is parsed by a2a.ParsePush (fuzzed there and here); one that
//     is not a StreamResponse naming the call's task is refused with 400.
//   - A push that settles the task (terminal, input-required or
//     auth-required) resumes the waiting run through the engine (Resume),
//     once the run is no longer going on in this process; the resumed node
//     reads the task and settles it. Other pushes are acknowledged and
//     change nothing. No goroutine waits for a push: the receiver works
//     only while a request is in, plus one short resume per settling push.
package push
