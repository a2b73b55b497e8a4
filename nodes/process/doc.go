// Package process implements the Process node: it runs a local command with
// arguments, environment and a timeout, and puts its standard output into a
// State field. A non-zero exit fails the node, with the tail of its standard
// error in the reason.
//
// Cleanup (docs/remote-agent.md R17; docs/product.md W7, App failure compensation). A node may declare a cleanup
// command. It is registered as an abort hook only after the command
// succeeded, so it runs exactly once if the run later fails or is stopped,
// and never when the run succeeds or when the command itself failed. It runs
// on the engine's detached, bounded context; its outcome is shown as node
// messages and never changes the run's status. When the run is continued or
// stopped by another process (after `workrun run` exited, or a restart), the
// engine calls Rearm, which registers the cleanup again from the saved record.
//
// "{{field}}" templates may appear in the command, cleanup and env values;
// the fields they name are the node's reads. Environment values are never
// written to node messages. Environment variable names must be portable
// (ASCII letters, digits and _, not starting with a digit) and values hold
// no NUL byte: anything else is refused when the workflow is validated.
package process
