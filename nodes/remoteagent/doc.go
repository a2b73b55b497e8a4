// Package remoteagent implements the Remote Agent node ("remote_agent"): it
// hands part of a workflow to an agent on another server over A2A 1.0
// JSON-RPC and keeps that remote work safe across timeouts, dropped streams,
// failures, Stop and application restarts (docs/remote-agent.md R1–R17).
//
// Durability. Each node execution makes one logical call, recorded in the
// store under (run id, node id, call key). Its messageId is a UUIDv5 of those
// three values and is committed before the request is sent; the taskId and
// contextId are committed as soon as an event carries them, before the next
// event is handled (docs/remote-agent.md R5). The record is committed again only when it matters:
// a state seen for the first time, a terminal or interrupted state with its
// status text, the result, the cancel outcome — never for each status
// update, so a stream runs at wire speed. A crash may lose the latest
// progress lines, never an identity.
//
// Waits by push (docs/triggers.md P1–P6). With Deps.Push handing out a URL
// (`workrun serve --public-url`) and an agent whose card offers push
// notifications, the message goes as one non-blocking SendMessage with a
// taskPushNotificationConfig and a fresh token whose hash (never the
// token) is committed first; once the task id is committed the node lets
// go of its connections and interrupts the run (InterruptedByPush). A
// resume — serve's receiver after a settling push, serve's next start, a
// person — reads the task once and settles it or waits again; it never
// subscribes.
//
// Progress. The first line of each state, and every terminal or interrupted
// state, is a committed node message. Other status updates, the agent's own
// messages in the stream and artifact chunks are progress lines
// (NodeContext.Progress, batched by the store), at most one per
// progressEvery: the newest is shown and stands for those it replaced,
// "… (+1,234 updates)"; the pending one is shown before any committed line
// and when the node ends. A million updates make a few dozen lines and flat
// memory. A successful result (output text and the ids of
// the artifacts made from remote files) is committed before the node returns,
// and a resumed node that finds it returns it without any network call (docs/remote-agent.md R6).
//
// Time. A quiet task is not a failed task, and nothing polls it on a
// timer. timeout_seconds bounds each request's wait for its answer
// (discovery, a blocking SendMessage, GetTask, CancelTask, and a stream's
// first event); once a stream has answered it stays open however long the
// task is silent — dead connections are found by the transport's TCP
// keep-alive (remotecall.DeadPeerDetection). After a break the call follows
// the task with the remote layer's follow skeleton
// (remotecall.FollowPolicy.Follow): GetTask, then SubscribeToTask while it
// has not ended, with capped exponential backoff and jitter before every
// reconnect. A read that fails or times out is retried ("agent unreachable
// since T; retrying"); past the policy's bound the node is interrupted
// (workrun.InterruptedByUnreachable: "the agent has not answered since T"),
// nothing is cancelled, and a resume follows the same task. Reconnects that
// leave the task unchanged are bounded the same way, with a message naming
// what the agent kept doing; so are the bytes one call reads and the
// reconnect lines it saves. Only TaskNotFound ends the call, as "remote
// task status unknown". Before a taskId is known, no first event within the
// timeout is an unanswered request: "submission result unknown".
//
// Updates. A streaming agent is called with SendStreamingMessage; status
// messages become node messages (a status line is shown when it differs
// from the last one, and the closing "completed" line is not repeated when
// the agent's own COMPLETED status, without a message, already showed it),
// artifact chunks become progress lines. Node messages are stored as a
// catalogue key and arguments (text.go) and rendered when shown, in the
// reader's language; the agent's own words are arguments, kept verbatim. A
// status line names the state in that language: the wire word in English
// ("Remote task: working"), a Chinese name in Chinese ("远程任务：执行中");
// so do the cancel answers that name a state. Errors keep the English word. When
// the stream breaks and a taskId
// is known, the call reads the task (GetTask); if it has not ended it
// subscribes (SubscribeToTask); if the subscription finds the task already
// ended it reads the task once more for the final result (docs/remote-agent.md R7). The business
// message is never sent again once a taskId is known, and nothing polls on a
// timer. A non-streaming
// agent gets one blocking SendMessage; an unfinished task in its answer fails
// the node. A stream that breaks before any taskId arrived fails the node with
// "submission result unknown" and is not resubmitted; a resumed call whose
// messageId was saved without a taskId is treated the same way, because the
// agent may already be running it.
//
// Questions. INPUT_REQUIRED and AUTH_REQUIRED are the agent asking the
// person: the node returns a *workrun.InterruptError (cause "human") with a
// workrun.Question (text or sign_in) and waits; the answer (the person's,
// or round 1 from the `answers` config) is a new message on the same task
// whose messageId — from run, node, call key and round — is committed in
// the question record before it is sent. A resumed node reads the task
// first and sends a committed answer again only if the agent never took it
// (docs/remote-agent.md R8).
//
// Cancellation. At node start the call registers an abort hook. When the run
// fails or is stopped the engine runs every hook concurrently on a detached,
// bounded context; this node's hook applies the R9 table to its call, reading
// only what was saved: a call with a taskId that has not ended gets exactly one
// CancelTask, with no status query first and no retry, bounded by
// timeout_seconds — the node's own bound, not the engine's: the hook is
// registered with workrun.OnAbortWithin (discovery and cancel, each bounded
// by timeout_seconds, then the save), so the run's end waits for it, and
// the cancel and the save of its outcome run on a context detached from the
// hook's, so the outcome ("unconfirmed" included) is always saved; a call without a taskId shows "submission result unknown";
// an ended call gets nothing. Once the hook has taken its snapshot the call
// handles no further events, so what was saved is what decides. The cancel
// goes out at once; the "requesting cancellation…" line is committed while it
// travels and the answer line after it. The table itself, the call record
// and its ordering against the snapshot are package remotecall's, shared
// with the Remote MCP Tool node. The calls of one Kind share an
// HTTP transport whose idle pool holds a whole fan-out and whose connections
// per host are not capped, so no cancel queues behind another call's stream. The messages follow R11 in the reader's
// language (English or Simplified Chinese), the status the agent returned is shown
// (canceled, still working, already completed, not cancelable, not found) and
// the outcome is saved in the call record. Nothing the hook does changes the
// run's status or failure reason (docs/remote-agent.md R2, R10, R11).
//
// Exit and restart. Exiting sends nothing. A process that does not hold a
// run's hooks (the app after a restart, the CLI after `workrun run` exited)
// gets them back through Rearm (workrun.RearmableStep): on Stop of a run
// interrupted by the agent (INPUT_REQUIRED, AUTH_REQUIRED) or by the exit,
// the rebuilt hook reads the saved call record when the abort begins and
// applies the same R9 table, connecting (card discovery) first because no
// client survived the restart. A call whose record already holds a cancel
// outcome gets nothing, so a cancel that was requested but not answered
// before an exit is neither continued nor retried after a restart, and
// nothing here scans old runs at start-up (docs/remote-agent.md R12, R13).
//
// No compensation. A2A has no "parent workflow failed" notice; a cancel does
// not undo work a task already did, and a completed call is never undone or
// followed by generated undo instructions (docs/remote-agent.md R16, R17). "One cancel attempt" is
// Workrun's policy, not a protocol rule.
//
// Files. Attachments are read from the artifact store and sent inline (file
// name, media type, raw bytes streamed into the request); at most 10 files and
// 20 MiB of raw bytes, checked before anything is sent. Artifact ids never
// leave the machine (docs/remote-agent.md R14). Inline file outputs become local artifacts (the
// artifact store cleans the name and checks the MIME type); url parts are
// listed as not downloaded (docs/remote-agent.md R15). Artifact parts received while the task runs
// go to a spool as they arrive (memory up to 1 MiB, then a spool file of the
// artifact store — encrypted, removed when the node ends or at the next
// start after a crash: workrun.Spooler — or, without one, a temporary file
// in Deps.SpoolDir), so append chunks never pile up in memory; an artifact is found by id in constant time. One call keeps at
// most Deps.MaxResultBytes (default 256 MiB) of artifact bytes and 200,000
// artifacts; past that the node fails with ErrResultTooLarge naming the
// limit (and the run's abort cancels the task). A task snapshot (GetTask)
// replaces what the stream sent. Files are put into the artifact store when
// the task completes, from the spool. A text answer longer than
// workrun.InlineValueLimit is streamed from the spool into the artifact
// store and the output and the call record hold its reference
// (docs/engine.md "Large values"). The text and text or JSON files are
// redacted as they leave the spool, so a secret split across two append
// chunks is caught; a progress line masks the pieces of one at a chunk's
// edges.
//
// Credentials. A credential is used only for its origin, and over plain http
// only to a loopback address (docs/remote-agent.md R3.3). An agent may echo the secret back (in
// WWW-Authenticate, a JSON-RPC error message, a status text, an artifact or
// file name, its answer): every message, record field, output, file name and
// error of the call, and CheckAgent's report and error, have the secret
// replaced by "[redacted]" before they are saved or shown (redact.go). A
// task or context id carrying it is refused as a protocol error, since an id
// must be kept as is. CheckAgent is the connection test: card
// discovery plus a2a.Client.CheckAccess (one authenticated GetTask of a
// random id), which submits no task (docs/remote-agent.md R3.4).
package remoteagent
