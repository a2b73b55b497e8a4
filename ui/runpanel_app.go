package ui

import (
	"context"
	"fmt"

	"workrun/ui/runpanel"
	"workrun/workrun"
)

// statusWaiting is the badge of a node whose remote waits for the person,
// as the run panel shows it (the canvas draws it too).
const statusWaiting = runpanel.StatusWaiting

// newRunPanel makes a run panel that words what it shows in loc's language
// as the rest of the window does (runPanelWording).
func newRunPanel(loc workrun.Localizer, readOnly bool) *runpanel.Panel {
	return runpanel.New(loc, runPanelWording(loc), readOnly)
}

// runPanelWording is the window's wording the run panel shows a run in:
// the same reasons, statuses, kinds, messages, durations and short ids as
// the canvas, the run records and the status bar.
func runPanelWording(loc workrun.Localizer) runpanel.Wording {
	return runpanel.Wording{
		Reason:     func(saved string) string { return HumanError(loc, saved) },
		Status:     func(s string) string { return statusLabel(loc, s) },
		Waiting:    func() string { return qText(loc, msgQStatus) },
		Remote:     func() string { return qText(loc, msgQRemote) },
		Kind:       func(kind string) string { return KindLabel(loc, kind) },
		Message:    func(m workrun.Message) string { return MessageText(loc, m) },
		Duration:   formatDuration,
		Count:      func(n int, key, one, other string) string { return countText(loc, n, key, one, other) },
		ShortID:    shortID,
		ShortIDs:   shortIDs,
		Clip:       clipRunes,
		JSON:       compactJSON,
		Wrap:       wrapText,
		CopyButton: copyFullButton,
		RunFrom: func(only bool) string {
			if only {
				return uiText(loc, msgTestThisNode)
			}
			return uiText(loc, msgRunFromHere)
		},
	}
}

// readRunRecords reads everything the panel shows of a run (the app layer
// calls it off the Fyne thread and hands the records to Load).
func readRunRecords(ctx context.Context, runs workrun.RunStore, runID string) (workrun.Run, []workrun.NodeRun, []workrun.Message, error) {
	r, err := runs.GetRun(ctx, runID)
	if err != nil {
		return r, nil, nil, fmt.Errorf("show run %s: %w", runID, err)
	}
	nrs, err := runs.NodeRuns(ctx, runID)
	if err != nil {
		return r, nil, nil, fmt.Errorf("show run %s: %w", runID, err)
	}
	ms, err := runs.Messages(ctx, runID)
	if err != nil {
		return r, nil, nil, fmt.Errorf("show run %s: %w", runID, err)
	}
	return r, nrs, ms, nil
}
