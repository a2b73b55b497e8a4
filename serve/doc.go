// Package serve is the serving side of Workrun: a published workflow
// (workrun.Publish) becomes something other programs call — an A2A agent
// (serve/a2aserve), and later an MCP tool — on the same engine and store as
// every other run. The rules are docs/serve.md S1–S12; this package is the
// domain API every front shares, so a front only maps its protocol.
//
// What a front may rely on:
//
//   - Start(caller, publication, key, inputs) starts at most one run per
//     (caller, key), ever: the task row and the run row are written in one
//     SQLite transaction before the run's first event (workrun.WithServedTask),
//     and a unique index on (caller, key) refuses the second — in this
//     process or another one on the same data directory, before or after a
//     restart. A duplicate gets the first task back (created false); a
//     concurrent duplicate in this process waits for the first to be saved
//     (S1, S2). With StartRequest.Wait (a blocking SendMessage) Start
//     returns the task settled, and a workflow of pure nodes only runs by
//     workrun.Engine.RunPure: task and run are written in the one commit of
//     the run's end, nothing of it is seen before, a crash before leaves
//     nothing (S1).
//   - Get and List answer for every task the caller started, also after a
//     restart; a caller never sees another caller's task (ErrTaskNotFound, S9).
//   - Events(caller, task) is an iter.Seq2: first the task as it is, then
//     node messages and status changes as the engine commits them, ending
//     when the task is final or needs input (S5). It works for a task
//     started before a restart.
//   - Cancel is the Stop button (workrun.Engine.Stop): every unfinished
//     remote call in the run gets its one best-effort cancel (S6). Exiting
//     the server never cancels anything.
//   - Answer takes a caller's answer to a Human Review or Ask Human question
//     through workrun.Engine.Decide: of the caller and a person in the
//     window, whoever answers first wins; the other gets ErrAnswered (S7).
//   - ResumeUnfinished, at start, resumes the served runs a previous process
//     left interrupted by exit, exactly as `workrun resume` (the engine never
//     resubmits a remote call whose outcome is unknown, S3).
//
// Errors are sentinels (ErrNoPublication, ErrTaskNotFound, ErrNotCancelable,
// ErrNoQuestion, ErrAnswered, ErrBadInput); their texts carry no secret and no
// internal detail, so a front may show them to the caller as they are.
package serve
