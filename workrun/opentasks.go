package workrun

import (
	"context"
	"fmt"
	"time"
)

// OpenTask is a remote task Workrun knows of whose work is not over, or
// whose outcome is open: still working, left by an interrupted run, a
// cancel that was not confirmed, a submission whose result is unknown.
// The window's Remote work view and `workrun tasks` list them; neither
// offers to query or cancel them (docs/remote-agent.md R8).
type OpenTask struct {
	Run   Run        // the run the task belongs to
	Call  RemoteCall // its saved call record
	State OpenState  // why it is listed
	Since time.Time  // when the call record was first saved
}

// OpenState says why a remote task is open.
type OpenState string

const (
	OpenWorking           OpenState = "working"            // the run goes on and the task had not ended
	OpenInterrupted       OpenState = "interrupted"        // the run was interrupted with the task not ended
	OpenSubmissionUnknown OpenState = "submission_unknown" // sent, but whether the server took it is not known
	OpenCancelUnconfirmed OpenState = "cancel_unconfirmed" // a cancel was sent; its result is not confirmed
	OpenNotEnded          OpenState = "not_ended"          // the run ended but the task was never seen to end
	OpenWaitingPush       OpenState = "waiting_push"       // the run waits, holding no connection, for the agent's push (docs/triggers.md P2)
)

// The cancel outcomes that leave a task's fate open (remotecall saves
// these words in RemoteCall.CancelOutcome).
var openCancelOutcomes = map[string]bool{
	"requested": true, "unconfirmed": true, "still_working": true, "not_cancelable": true,
}

// OpenStateOf says whether the call record c of run r is open, and why.
func OpenStateOf(r Run, c RemoteCall) (OpenState, bool) {
	switch {
	case c.CancelOutcome == "submission_unknown":
		return OpenSubmissionUnknown, true
	case openCancelOutcomes[c.CancelOutcome] && !c.Ended:
		return OpenCancelUnconfirmed, true
	case c.Ended:
		return "", false
	case c.TaskID == "" && r.Status.Terminal():
		return OpenSubmissionUnknown, true
	case r.Status == RunInterrupted && r.Interruption == InterruptedByPush:
		return OpenWaitingPush, true
	case r.Status == RunInterrupted:
		return OpenInterrupted, true
	case !r.Status.Terminal():
		return OpenWorking, true
	}
	return OpenNotEnded, true
}

// OpenTasks walks every run record (newest first, a page at a time) and
// returns the open remote tasks of all of them. Succeeded runs are skipped:
// each of their nodes, remote calls included, finished.
func OpenTasks(ctx context.Context, runs RunStore, calls func(ctx context.Context, runID string) ([]RemoteCall, error)) ([]OpenTask, error) {
	var out []OpenTask
	f := RunFilter{Limit: 200}
	for {
		page, err := runs.ListRuns(ctx, f)
		if err != nil {
			return out, fmt.Errorf("open remote tasks: %w", err)
		}
		for _, r := range page {
			if r.Status == RunSucceeded {
				continue
			}
			cs, err := calls(ctx, r.ID)
			if err != nil {
				return out, fmt.Errorf("open remote tasks of run %s: %w", r.ID, err)
			}
			for _, c := range cs {
				if c.IsSide() {
					continue // a node kind's bookkeeping beside its call, not a task
				}
				if st, open := OpenStateOf(r, c); open {
					out = append(out, OpenTask{Run: r, Call: c, State: st, Since: c.CreatedAt})
				}
			}
		}
		if len(page) < f.Limit {
			return out, nil
		}
		f.Before = page[len(page)-1].ID
	}
}
