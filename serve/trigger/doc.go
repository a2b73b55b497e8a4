// Package trigger starts served workflows by themselves: schedules and
// webhooks (docs/triggers.md T1–T9), on the serve core (serve.Service).
//
// What a caller may rely on:
//
//   - A schedule fire is recorded (workflow, trigger, fire time) in the
//     store before its run starts, under a primary key, and the run is
//     started with the fire as its serve idempotency key: a crash between
//     the two is finished by the next start (the same key never makes a
//     second run), and two processes on one data directory record a fire
//     once (T1).
//   - Fires that fell while no server ran follow the trigger's missed
//     policy: skip, or one run for the latest (T2). A fire while the
//     trigger's last run is unfinished follows overlap: skip, queue, allow
//     (T4).
//   - Time comes from a Clock; tests drive Scheduler.Tick with a fake one.
//   - A webhook request starts a run only when authenticated (an HMAC-SHA256
//     signature of its timestamp and body with the webhook's secret, within
//     ±5 minutes and never seen before; or a serve token), and an
//     Idempotency-Key never starts a second run (T6–T8).
package trigger
