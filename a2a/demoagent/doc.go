// Package demoagent is Workrun's built-in demo agent: a real A2A 1.0 JSON-RPC
// server built on the official Go SDK server (github.com/a2aproject/a2a-go/v2
// v2.3.1, package a2asrv). It exists so people can try the Remote Agent node
// without an external service (`workrun demo-agent`), and so tests can drive
// every task outcome over the real wire protocol.
//
// Behaviour is chosen by the first word of the first text part of the user's
// first message:
//
//	echo …        completed; one artifact "echo" holding the whole text
//	slow N [MS]   N WORKING status updates MS ms apart (default 100), then an
//	              artifact "result" and COMPLETED
//	file …        COMPLETED with an artifact "report" (a text listing the files
//	              received: count, names, sizes, media types) and an artifact
//	              "demo.txt" holding an inline raw file part with filename and
//	              media type (docs/remote-agent.md R14, R15)
//	hang          WORKING until canceled (or the agent is closed)
//	uncancelable  WORKING; CancelTask answers TaskNotCancelableError (-32002);
//	              completes after Options.UncancelableFor (or never if negative)
//	unfinished    answers a blocking SendMessage at once with the task still
//	              SUBMITTED or WORKING, then works like hang (for "a non-streaming
//	              agent's unfinished answer" tests). a2asrv cannot answer a
//	              blocking send before a final or AUTH_REQUIRED state, so
//	              the HTTP layer sets configuration.returnImmediately on such
//	              a request
//	fail          FAILED with a status message
//	input [N]     INPUT_REQUIRED with a status message; a follow-up message on
//	              the same task completes it with an echo of that message. With
//	              N, it asks N times ("… (question 2 of N)") and completes with
//	              the answers joined by " | "
//	auth          AUTH_REQUIRED with a status message; a follow-up message (the
//	              client saying it signed in) completes it with its echo
//	reject        REJECTED with a status message
//	message       answers with a Message instead of a Task
//	anything else COMPLETED with an artifact listing the commands
//
// Authentication. With Options.BearerToken and/or Options.APIKey set, the card
// declares the matching securitySchemes and securityRequirements (either
// scheme suffices), and every JSON-RPC request without a valid credential gets
// HTTP 401 with a WWW-Authenticate header before it reaches the SDK. The card
// itself stays public.
//
// Counting. A thin net/http layer in front of the SDK handler peeks at each
// JSON-RPC body and counts authorised requests per method, per messageId
// (SendMessage and SendStreamingMessage) and CancelTask per task id, so tests
// can assert that work was submitted exactly once (docs/remote-agent.md R6, R9, R16).
//
// Differences between a2asrv v2.3.1 and the A2A 1.0 text, kept as they are
// because this agent is meant to show what the real SDK does:
//   - SubscribeToTask on a task that has ended answers TaskNotFoundError
//     (-32001), not UnsupportedOperationError (-32004).
//   - Streaming errors, even immediate ones, arrive as an SSE data event
//     (the SSE headers are written before the request is examined).
//   - The card's securityRequirements scopes are written as a bare array
//     ({"schemes":{"bearer":[]}}), not as {"list":[…]}.
//   - Blocking SendMessage returns at AUTH_REQUIRED (like a2a-js) and at
//     INPUT_REQUIRED; a non-streaming instance rejects SendStreamingMessage
//     and SubscribeToTask with -32004 delivered inside an SSE event.
//   - No A2A-Version header check is made.
//   - Every update deep-copies the whole task (gob), history included, and
//     each status message joins the history, so `slow N` costs O(N²): keep N
//     in the hundreds. The stream benchmarks use a replay server instead.
package demoagent
