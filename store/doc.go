// Package store keeps Workrun's durable records in one SQLite file,
// <data dir>/workrun.db (modernc.org/sqlite, no cgo): workflows with their
// revisions, runs, node runs, node messages, human decisions, Remote Agent
// call records, artifact metadata and credential metadata. It implements
// workrun.RunStore and workrun.WorkflowStore; everything the engine and the
// Remote Agent node promise after a crash or restart (docs/remote-agent.md R5, R6, R9, R13)
// rests on the guarantees below.
//
// Durability. Every write method returns only after its transaction is
// committed, with WAL journaling and synchronous=FULL: a commit that
// returned survives a process crash (SIGKILL) and a power loss. NORMAL would
// be faster, but in WAL mode it may lose the last commits on power loss, and
// callers act on a returned commit (the messageId is committed before the
// request is sent, the taskId before the next event is handled, a node's
// terminal state before the next node starts), so they get FULL. The only
// exception is AppendProgress: progress lines are batched and committed
// within about 100ms, at the next write of any kind (so before every
// identity, terminal state or message), Flush or Close; a crash may lose
// the lines of the last interval, never a write that returned. Terminal
// states never wait for a batch: they are written through
// SaveNodeRun/UpdateRun/AppendMessage.
//
// Write-behind (queue.go, workrun.WriteBehindStore). QueueNodeRun and
// QueueMessage take the records and lines of pure nodes (docs/engine.md
// "Write-behind") without waiting for a commit. They join the batch like
// progress lines — lines in one list with the progress lines, so a run's
// lines keep their order — and are committed, in the order queued, first
// in the next transaction: before the next write that waits returns (its
// savepoint comes after them in the same transaction), by Flush or Close,
// and within about 100ms otherwise. A later record of the same node queued
// before the commit replaces the earlier one (one upsert per node). Each
// caller's done is called after the commit, in queue order, before any
// write of the batch returns. A batch that does not commit (or whose
// queued part fails) fails every write that waits in it and keeps the
// queued records and lines for the next commit; one that took part in
// three failed commits is given up (done gets the error). A crash loses
// at most the queued writes no commit carried yet: a prefix of the queue
// survives, never a hole, and never a write that returned.
//
// Progress bursts. A node's progress line that is still queued is replaced
// by the node's next one with the same key, which counts it
// (workrun.Message.Repeat, shown "… (+1,234 updates)"): a million status
// updates become one row per commit interval, not a million rows. The
// queue is bounded (4,096 lines or 1 MiB start a commit at once; at 16,384
// lines or 8 MiB AppendProgress commits before returning), so memory stays
// flat however fast a node reports. Each text and argument of a message is
// cut at 64 KiB with a marker saying how many bytes were cut.
//
// Messages (schema 4) are stored as a catalogue key and its arguments, a
// JSON array of strings, and rendered when read, in the reader's language
// (workrun.Message.In); a keyed row stores no rendering. Rows written before
// schema 4 keep only their text and render exactly as they were saved.
//
// Ordering. A run's messages carry increasing Seq in the order they were
// appended (batched progress lines are committed before a following
// AppendMessage). A write that returned is visible to every later read.
//
// Statements. Node records are written with an upsert (ON CONFLICT DO
// UPDATE: the row is updated in place, where INSERT OR REPLACE deleted and
// inserted it again), several per statement. The statements every run
// uses (run update, node upsert of 1 to 8 rows, message insert; only
// writes) are prepared once when the store opens. A batch of a single
// write runs without a savepoint.
//
// Concurrency. All writes go through one *sql.DB limited to a single
// connection, so writes from parallel branches queue in Go instead of
// failing with "database is locked"; reads use a separate read-only pool and,
// thanks to WAL, never wait for a writer. Writes are group-committed:
// writes that queue while a commit is in flight (parallel branches) run
// together in the next transaction, each in its own SAVEPOINT, and share one
// fsync; a write that fails is rolled back to its savepoint and fails alone,
// and every write method still returns only after its own write is
// committed. Transactions start with BEGIN
// IMMEDIATE (_txlock=immediate) and busy_timeout is 5s, so a second process
// on the same file (the CLI next to the GUI) waits for the lock rather than
// failing or deadlocking.
//
// Schema. Numbered migrations (see migrations.go) are recorded in PRAGMA
// user_version and the schema_migrations table. Open upgrades an older
// database in place, one transaction per step, and refuses a newer one with
// ErrNewerSchema. Open reads only the schema version: it does not walk run
// history, so opening 10,000 runs costs what opening 10 does (docs/remote-agent.md R13); the
// start-up query RunsWithStatus uses the runs_status index.
//
// Node records are saved one at a time (SaveNodeRun) or several in one
// transaction (SaveNodeRuns, workrun.NodeRunBatchSaver: one scheduling round
// of the engine, one commit). They keep the branch a condition picked
// (schema 3), so resume never runs a finished condition again.
//
// Run ownership (schema 3, owner.go). Each open Store holds an exclusive
// flock on <data dir>/locks/<owner>.lock until Close or the end of its
// process (the kernel drops it even on SIGKILL). CreateRun and UpdateRun
// record that owner on the run. OrphanedRuns returns, through runs_status,
// only the runs whose owner's lock is no longer held, and UpdateOrphanedRun
// re-checks status and owner inside the write transaction
// (workrun.OwnedRunStore): every start-up can then mark runs of dead
// processes interrupted by exit without touching a run the GUI or another
// `workrun run` is executing. Runs saved before schema 3 have no owner and
// count as orphaned. Without flock (non-unix builds) every other owner counts
// as ended, as before.
//
// Foreign keys are on: node runs, messages, decisions and remote calls must
// belong to an existing run (create the run first).
//
// Secrets never reach this file (docs/product.md W8): the credentials table holds only
// name, kind, origin and header name.
package store
