package cli

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"text/tabwriter"

	"workrun/workrun"
)

// `workrun tasks` lists every remote task whose work is not over or whose
// outcome is open, across all runs (workrun.OpenTasks): what is still
// running out there. It only shows: nothing is queried or cancelled
// (docs/remote-agent.md R8).
func init() {
	register(&Command{
		Name:    "tasks",
		Args:    "[--json]",
		Summary: "list remote tasks not ended or with an open outcome, across runs (shows only)",
		Run:     tasksCommand,
	})
}

// taskRow is one line of `workrun tasks --json`.
type taskRow struct {
	RunID         string            `json:"run_id"`
	RunStatus     workrun.RunStatus `json:"run_status"`
	Workflow      string            `json:"workflow"`
	Node          string            `json:"node"`
	Server        string            `json:"server"`
	TaskID        string            `json:"task_id,omitempty"`
	State         workrun.OpenState `json:"state"`
	RemoteState   string            `json:"remote_state,omitempty"`
	CancelOutcome string            `json:"cancel_outcome,omitempty"`
	Since         string            `json:"since"`
	Show          string            `json:"show"` // the command that shows the run
}

func tasksCommand(ctx context.Context, env *Env, args []string) int {
	fs := flag.NewFlagSet("tasks", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	asJSON := fs.Bool("json", false, "")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return usageError(env, "tasks: "+err.Error())
	}
	if len(pos) != 0 {
		return usageError(env, "tasks takes no arguments")
	}
	svc, code := openRunStore(ctx, env)
	if svc == nil {
		return code
	}
	defer closeServices(env, svc)
	if svc.RemoteCalls == nil {
		fmt.Fprintln(env.Stderr, "workrun: this build keeps no remote call records")
		return ExitFailed
	}
	open, err := workrun.OpenTasks(ctx, svc.Runs, svc.RemoteCalls.RemoteCallsForRun)
	if err != nil {
		fmt.Fprintf(env.Stderr, "workrun: %s\n", termText(err.Error(), "  "))
		return ExitFailed
	}
	rows := make([]taskRow, 0, len(open))
	for _, t := range open {
		rows = append(rows, taskRow{RunID: t.Run.ID, RunStatus: t.Run.Status, Workflow: t.Run.WorkflowName, Node: t.Call.NodeID,
			Server: t.Call.AgentURL, TaskID: t.Call.TaskID, State: t.State, RemoteState: t.Call.RemoteState,
			CancelOutcome: t.Call.CancelOutcome, Since: t.Since.UTC().Format("2006-01-02T15:04:05Z"), Show: "workrun show " + t.Run.ID})
	}
	if *asJSON {
		enc := json.NewEncoder(env.Stdout)
		enc.SetIndent("", "  ")
		_ = enc.Encode(rows)
		return ExitOK
	}
	if len(rows) == 0 {
		fmt.Fprintln(env.Stdout, "no open remote tasks")
		return ExitOK
	}
	tw := tabwriter.NewWriter(env.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "RUN\tNODE\tSERVER\tTASK\tSTATE\tSINCE")
	for i, r := range rows {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", termLine(r.RunID), termLine(r.Node), oneLine(r.Server, 50), termLine(r.TaskID),
			openStateText(r.State), open[i].Since.Local().Format("2006-01-02 15:04:05"))
	}
	_ = tw.Flush()
	fmt.Fprintln(env.Stdout, "\n(workrun show RUN shows a run; nothing here queries or cancels a task)")
	return ExitOK
}

// openStateText is an OpenState in words.
func openStateText(s workrun.OpenState) string {
	switch s {
	case workrun.OpenWorking:
		return "working"
	case workrun.OpenInterrupted:
		return "interrupted (run can be resumed)"
	case workrun.OpenSubmissionUnknown:
		return "submission result unknown"
	case workrun.OpenCancelUnconfirmed:
		return "cancel unconfirmed"
	case workrun.OpenNotEnded:
		return "not seen to end"
	case workrun.OpenWaitingPush:
		return "waiting by push (no connection held)"
	}
	return string(s)
}
