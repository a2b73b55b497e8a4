package ui

import (
	"strconv"

	"workrun/workrun"
)

// failureNote is what the run panel adds to a node's status about failure
// handling: "· attempt 2 of 3 · last failed: …" for a node with a retry
// policy past its first attempt, "· pinned from run R" for a node taken
// from an earlier run (docs/engine.md).
func failureNote(loc workrun.Localizer, r workrun.Run, n workrun.NodeRun) string {
	var s string
	if max := maxAttempts(r.Workflow, n.NodeID); max > 1 && n.AttemptNo() > 1 {
		s += " · " + uiText(loc, msgAttemptOf, strconv.Itoa(n.AttemptNo()), strconv.Itoa(max))
		if n.LastError != "" {
			s += " · " + uiText(loc, msgLastFailed, clipRunes(n.LastError, 120))
		}
	}
	switch n.PinnedFrom {
	case "":
	case workrun.PinnedByHand:
		s += " · " + uiText(loc, msgPinnedTyped)
	default:
		s += " · " + uiText(loc, msgPinnedFromRun, shortID(n.PinnedFrom))
	}
	return s
}

func maxAttempts(wf workrun.Workflow, id string) int {
	for _, n := range wf.Nodes {
		if n.ID == id && n.Retry != nil {
			return n.Retry.MaxAttempts
		}
	}
	return 1
}

func clipRunes(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
