// Package workrun is the workflow engine: the domain types shared by every
// package (model.go), the ports to storage (ports.go), the node kind contract
// (kind.go), workflow validation and the scheduler.
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
// # Scheduling and permissions (SPEC W2, W4)
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
// # Durability and events
//
// Every change of a run or node record and every node message is committed
// through the RunStore before it is published to subscribers (progress lines,
// which the store may batch, are the one exception). The node records of one
// scheduling round are committed together when the store implements
// NodeRunBatchSaver. Each subscriber has its own unbounded queue: a slow
// listener never holds back a run.
//
// # Run states (SPEC W6)
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
// stopped run cannot be continued; "run again" is a new run (R12).
//
// # Cancellation and abort hooks (SPEC R2, R9, R17)
//
// When a node fails or Stop is called, no further node starts, the run is
// saved "stopping" with its reason, the context of every running node is
// canceled, and every hook registered with NodeContext.OnAbort — by running or
// already finished nodes — is called exactly once, all concurrently, on a
// context detached from the run and bounded by Engine.AbortTimeout (default
// 15 s). A hook registered after the abort began is called at once. The final
// status (failed or stopped) is saved after the hooks return or the bound
// passes; nothing a hook does changes the status or the reason. Exiting the
// application calls no hook (R13).
//
// # Exit and resume (SPEC R12, R13)
//
// At every start-up (the GUI and each CLI command that opens the data
// directory) RecoverInterrupted finds, through the store's status index, runs
// left "running" by a process that died and marks them interrupted by exit;
// runs left "stopping" get their final status without continuing their abort
// work. It never walks the run history. Several processes may share a data
// directory: with a store that records each run's owning process
// (OwnedRunStore) only runs whose process has ended are touched, each by an
// atomic check-and-write, so a run another live process executes keeps going
// and `workrun resume` of it is refused with ErrRunActive. Resume re-enters an interrupted
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
// Simplified Chinese (issue 7), whichever Language says when they are written:
// LanguageTag reads LANGUAGE (which the GUI's language switch sets), then
// LC_ALL, LC_MESSAGES, LANG. They are stored as text, so a message keeps the
// language it was written in. Each package keeps its wording in a Catalog
// (English [0], Chinese [1]); Catalog.Error keeps the wrapped sentinel, so
// errors.Is works on a translated reason. Validation problems and errors
// returned to callers (Start, Stop, Resume) stay English.
package workrun
