package cli

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"workrun/workrun"
)

func init() {
	register(&Command{
		Name:    "runs",
		Args:    "[--status STATUS] [--limit N] [--json]",
		Summary: "list run records, newest first",
		Run:     runsCommand,
	})
}

func runsCommand(ctx context.Context, env *Env, args []string) int {
	fs := flag.NewFlagSet("runs", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	asJSON := fs.Bool("json", false, "")
	status := fs.String("status", "", "")
	limit := fs.Int("limit", 50, "")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return usageError(env, "runs: "+err.Error())
	}
	if len(pos) != 0 {
		return usageError(env, "runs takes no arguments")
	}
	svc, code := openRunStore(ctx, env)
	if svc == nil {
		return code
	}
	defer closeServices(env, svc)
	runs, err := svc.Runs.ListRuns(ctx, workrun.RunFilter{Status: workrun.RunStatus(*status), Limit: *limit})
	if err != nil {
		fmt.Fprintf(env.Stderr, "workrun: %s\n", termText(err.Error(), "  "))
		return ExitFailed
	}
	if *asJSON {
		type row struct {
			ID           string               `json:"id"`
			WorkflowID   string               `json:"workflow_id,omitempty"`
			WorkflowName string               `json:"workflow_name"`
			Status       workrun.RunStatus    `json:"status"`
			Interruption workrun.Interruption `json:"interruption,omitempty"`
			Reason       string               `json:"reason,omitempty"`
			FailedNode   string               `json:"failed_node,omitempty"`
			StartedBy    workrun.StartedBy    `json:"started_by,omitzero"`
			CreatedAt    string               `json:"created_at"`
			EndedAt      string               `json:"ended_at,omitempty"`
		}
		rows := make([]row, 0, len(runs))
		for _, r := range runs {
			x := row{ID: r.ID, WorkflowID: r.WorkflowID, WorkflowName: r.WorkflowName, Status: r.Status,
				Interruption: r.Interruption, Reason: r.Reason, FailedNode: r.FailedNode, StartedBy: r.StartedBy, CreatedAt: r.CreatedAt.UTC().Format("2006-01-02T15:04:05Z")}
			if !r.EndedAt.IsZero() {
				x.EndedAt = r.EndedAt.UTC().Format("2006-01-02T15:04:05Z")
			}
			rows = append(rows, x)
		}
		enc := json.NewEncoder(&jsonTerm{w: env.Stdout})
		enc.SetIndent("", "  ")
		_ = enc.Encode(rows)
		return ExitOK
	}
	if len(runs) == 0 {
		fmt.Fprintln(env.Stdout, "no runs")
		return ExitOK
	}
	tw := tabwriter.NewWriter(env.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "RUN\tSTATUS\tWORKFLOW\tSTARTED\tBY\tREASON")
	for _, r := range runs {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", termLine(r.ID), termLine(statusText(r)), termLine(r.WorkflowName), r.CreatedAt.Local().Format("2006-01-02 15:04:05"), startedByCell(r.StartedBy), oneLine(r.Reason, 60))
	}
	_ = tw.Flush()
	return ExitOK
}

// startedByCell is who started a run, in the table's English ("-" when not
// recorded); the label is data, escaped and shortened.
func startedByCell(by workrun.StartedBy) string {
	if by.IsZero() {
		return "-"
	}
	return oneLine(by.In("en"), 40)
}

func statusText(r workrun.Run) string {
	if r.Status == workrun.RunInterrupted && r.Interruption != "" {
		return fmt.Sprintf("interrupted (%s)", r.Interruption)
	}
	return string(r.Status)
}

// oneLine shortens s to n runes on one line, for a table cell: line breaks
// become spaces and control characters are escaped (see termLine).
func oneLine(s string, n int) string {
	s = strings.NewReplacer("\r\n", " ", "\n", " ").Replace(s)
	out := []rune(termLine(s))
	if len(out) > n {
		return string(out[:n-1]) + "…"
	}
	return string(out)
}
