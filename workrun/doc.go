// Package workrun is the workflow engine: the domain types shared by every
// package (model.go), the ports to storage (ports.go), the node kind contract
// (kind.go), workflow validation and the scheduler.
//
// A kind also describes its config to editors (kindinfo.go: Describer,
// KindInfo): palette group, label and each key's value kind, default and
// bounds. The description only says what to ask for; Compile stays the one
// judge of a config, and Engine.Fields reports what each compiled node
// reads and writes.
//
// # Validation
//
// Engine.Validate (and Start, which refuses an invalid workflow before saving
// anything) reports each problem on its node or edge: unknown node type, a
// config its Kind refuses (missing, ill-typed, out-of-range values such as a
// timeout), edges to missing nodes, when-labels on edges that do not leave a
// condition, cycles (one problem per closing edge), nodes not reachable from
// the one start node, fields read that no node before the reader provides
// (start provides every State field; other nodes provide their Writes).
//
// # Scheduling and permissions (docs/product.md W2, W4)
//
// A node runs when every node with an edge into it has finished. It runs if
// at least one of those edges was followed (its source succeeded, and for a
// condition the edge's when equals the branch picked); otherwise it is
// skipped, which in turn counts as finished for the nodes after it. So a join
// waits for all its inputs, and a skipped input counts as done. Independent
// branches run concurrently. A node's NodeContext.Inputs holds only the State
// fields it declares it reads; returning a field it does not declare it
// writes, or a value of the wrong type, fails the node (ErrUndeclaredWrite).
//
// # Failure handling (docs/engine.md, docs/workflow-format.md)
//
// A failed node is run again while its retry policy has attempts left; a
// RemoteStep only after a failure wrapping ErrKnownFailure (an unknown
// outcome is never retried), each attempt a new call (NodeContext.Attempt,
// AttemptCallKey). Each attempt is saved in the node's one record before it
// starts; a resumed node goes on with the attempt it was in. A failure that
// is not retried fails the run (on_error fail, the default), or is handled
// (continue, branch): the node is saved NodeHandled, its error_field gets the
// reason, the run goes on along its normal or its error edges, and no abort
// hook is called. StartDeadline saves a remote node's deadline instant;
// when it passes the node's context ends with ErrDeadlinePassed.
//
// StartFrom starts a new run in which the nodes before a chosen one are not
// run: their records are taken from an earlier run or typed by hand
// (PinnedFrom), saved before anything starts.
//
// # Durability and events
//
// Every change of a run or node record and every node message is committed
// through the RunStore before it is published to subscribers (progress lines,
// which the store may batch, are the one exception). The records and durable
// lines of pure nodes (PureStep) and the records of skipped nodes are
// written behind when the store is a WriteBehindStore: queued, committed
// with — and before — the store's next write that waits (at the latest the
// running record of a node that is not pure, or the run's end), and
// published once committed; a queued write the store gives up fails the
// run, which is then never saved succeeded (docs/engine.md "Write-behind"). The node records of one
// scheduling round are committed together when the store implements
// NodeRunBatchSaver. Each subscriber has its own unbounded queue: a slow
// listener never holds back a run. Node messages are published in commit
// order (their Seq) even when parallel nodes log at once: a line that came
// back from the store waits until every append still in flight when it
// came back has returned, and Log returns once its line is published.
// RunPure runs a workflow of pure nodes only and writes it whole — the run
// as it ended, its records, lines and served task — in one commit at its
// end (WholeRunSaver), publishing nothing before: a crash before leaves
// nothing (docs/engine.md "One commit for a run of pure nodes").
//
// One stored message holds at most MaxMessageBytes (16 KiB) of arguments
// (and twice that of rendered text); what is longer is cut before it reaches
// the store, ending with "… [cut: N bytes]".
//
// Nothing is dropped silently. A save the engine cannot return (a node's
// message, the final node records, the run's status) is tried once more on
// a detached context; a failure that remains becomes a message in the
// run's record (on the node, or with no node for the run). When the store
// cannot take even that, the line goes to Engine.Errors (stderr) and to
// subscribers unsaved (Seq 0). A panicking abort hook is reported as a
// message on its node with the panic value.
//
// # Run states (docs/product.md W6)
//
//	running ──► succeeded
//	   │ ├────► interrupted ──(Resume / Decide)──► running
//	   │ └─(node fails / Stop)─► stopping ──(hooks end)──► failed | stopped
//	   └─(application exits)──► interrupted (by exit)
//
// failed keeps the first failure's reason and node. A run is interrupted when a
// node returns *InterruptError (a Human Review or Ask Human waiting for a
// person, a remote agent asking for input) once nothing else can run, or when
// the application exits (Engine.Close, or found at start-up by
// RecoverInterrupted). failed, stopped and succeeded are final: a failed or
// stopped run cannot be continued; "run again" is a new run (docs/remote-agent.md R12).
//
// # Cancellation and abort hooks (docs/remote-agent.md R2, R9, R17)
//
// When a node fails or Stop is called, no further node starts, the run is
// saved "stopping" with its reason, the context of every running node is
// canceled, and every hook registered with NodeContext.OnAbort — by running or
// already finished nodes — is called exactly once, all concurrently, on a
// context detached from the run and bounded by its own bound: the one given
// to OnAbortWithin (BoundedAborter; a Remote Agent passes its node's
// timeout), else Engine.AbortTimeout (default 15 s). A hook registered after
// the abort began is called at once. The final status (failed or stopped) is
// saved after the hooks return or the longest bound (+1 s) passes; nothing a
// hook does changes the status or the reason. Exiting the application calls
// no hook (docs/remote-agent.md R13).
//
// # Claims: resume, stop, decide
//
// Taking over a run that no process executes — Resume or Decide of an
// interrupted run, Stop of an interrupted one, Resume or Stop of a run whose
// process died — is a claim: one conditional write on the expected status
// (and, for running or stopping, on its owner having ended), RunClaimer.
// Of any number of callers, in this process or others sharing the data
// directory, exactly one wins; the others get a *ClaimError (ErrRunClaimed)
// saying "run R is already being resumed by process P" (or stopped, or has
// ended). A decision is saved only after its claim is won, so of two
// concurrent answers only the one taken is kept.
//
// Stop works for interrupted runs (by exit, by a person, by a remote agent):
// the run is claimed "stopping", the abort hooks run — those this process
// holds, else those the saved nodes register again (RearmableStep), so every
// unfinished remote task with a task id gets its one best-effort cancel —
// its nodes left running or interrupted are saved stopped, and it is saved
// "stopped". StopClaimed also refuses a run that already ended.
//
// # Stop across processes (docs/engine.md "Stop across processes")
//
// A run going on in another live process is not claimed: with a store that
// is a StopRequester, Stop saves a request addressed to that process (one
// transaction that checks the run is running and its owner alive) and
// waits, at most StopWait, for the run to end. Every engine with runs
// going on reads the requests addressed to it every StopPollEvery and
// stops each run named exactly as its own Stop does (abort hooks and
// all), removing the request. A run that ends first ends as it would have
// (StopClaimed then says it had ended); one interrupted meanwhile, or
// whose process died, is claimed by the asker as above; one still going
// after the wait gives *StopPendingError (ErrStopPending) and the request
// stands. Exit never takes a request: it interrupts without hooks.
//
// A node interrupted by its remote agent with nothing it can answer
// (InterruptedByRemote, R8) takes no decision — only steps that implement
// DecidingStep (Human Review, Ask Human, remote steps that can be asked) do
// — and a run so interrupted is not resumed: both give ErrRemoteInput
// ("stop the run or run it again").
//
// # Remote questions (docs/engine.md "Remote questions")
//
// A remote step that is asked something returns an *InterruptError with
// Cause InterruptedByHuman and a Question (Round, Kind text/form/sign_in);
// the engine saves it in NodeRun.Question. Engine.Decide checks an answer
// against it (CheckAnswer; a form against ParseForm's Form) and takes one
// answer per round: under the engine's answer lock, by the run's holder,
// ErrAlreadyAnswered for the others. The step reads it with AnswerTo. Secret
// values (a form's password fields, an answer marked Secret) are never
// saved: the process that took the answer holds them in memory; after a
// restart AnswerTo returns nothing and the step asks the same round again.
//
// # Exit and resume (docs/remote-agent.md R12, R13)
//
// At every start-up (the GUI and each CLI command that opens the data
// directory) RecoverInterrupted finds, through the store's status index, runs
// left "running" by a process that died and marks them interrupted by exit;
// runs left "stopping" get their final status without continuing their abort
// work. It never walks the run history. Several processes may share a data
// directory: with a store that records each run's owning process
// (OwnedRunStore) only runs whose process has ended are touched, each by an
// atomic check-and-write, so a run another live process executes keeps going
// and `workrun resume` of it is refused with a *ClaimError. Resume re-enters an interrupted
// run: nodes saved succeeded or skipped are not run again, State is rebuilt
// from their saved outputs, and nodes that had started (running, interrupted)
// run again with NodeContext.Resumed() true, so that a node with remote work
// can pick up its saved records instead of starting over. Abort hooks of an
// interrupted run are kept in memory while this process lives (Stop of an
// interrupted run calls them). A process that does not hold them (the CLI
// after `workrun run` exited, the app after a restart) asks each saved node
// whose step is a RearmableStep to register its hook again from its record:
// the succeeded ones on Resume/Decide, the succeeded and waiting ones on Stop.
//
// # Human decisions
//
// Human Review and Ask Human nodes return *InterruptError until a Decision is
// saved. Engine.Decide saves it and re-enters the node (via Resume, or at once
// if other branches of the run are still going on).
//
// # Language
//
// Node messages and run and node failure reasons are written in English or
// Simplified Chinese (docs/conventions.md §9), whichever Language says when they are written:
// the process language, set by SetLanguage (main, once at start, from
// DetectLanguage, which reads LANGUAGE, LC_ALL, LC_MESSAGES, LANG as gettext
// does; the window again when the person switches). Nothing reads the
// environment per message. A reader's words are rendered in the reader's
// language explicitly: Text.In, or a Localizer, which holds one language
// and looks up every registered catalogue by key (the window's own words
// included). They are stored as text, so a message keeps the
// language it was written in. Each package keeps its wording in a Catalog
// (English [0], Chinese [1]); Catalog.Error keeps the wrapped sentinel, so
// errors.Is works on a translated reason. Validation problems and errors
// returned to callers (Start, Stop, Resume) stay English.
package workrun
