// Package humanreview implements the Human Review node: the run waits
// (interrupted, InterruptedByHuman) until a person approves or rejects, in the
// run panel or with `workrun review RUN_ID NODE approve|reject`. Approve lets
// the run go on; reject fails the node, and so the run, with a clear reason.
package humanreview
