package runpanel

import (
	"strconv"

	"fyne.io/fyne/v2/widget"

	"workrun/workrun"
)

// failureNote is what the run panel adds to a node's status about failure
// handling: "· attempt 2 of 3 · attempt 1 failed: …" for a node with a
// retry policy past its first attempt, "· pinned from run R" for a node
// taken from an earlier run (docs/engine.md). The earlier failure is named
// by its attempt: the node's own reason (attemptFailed) is the attempt the
// record is of, and each names its own remote task.
func failureNote(loc Localizer, words Wording, r workrun.Run, n workrun.NodeRun) string {
	return note(loc, words, r, n, true)
}

// listNote is failureNote without the earlier failure: the node list's
// row stays one whole line, the detail says the failure.
func listNote(loc Localizer, words Wording, r workrun.Run, n workrun.NodeRun) string {
	return note(loc, words, r, n, false)
}

func note(loc Localizer, words Wording, r workrun.Run, n workrun.NodeRun, failed bool) string {
	s := attemptNote(loc, r, n)
	if s != "" && n.LastError != "" && failed {
		s += " · " + panelText(loc, msgAttemptFailed, strconv.Itoa(n.AttemptNo()-1), words.ShortIDs(words.Clip(words.Reason(n.LastError), 120)))
	}
	switch n.PinnedFrom {
	case "":
	case workrun.PinnedByHand:
		s += " · " + panelText(loc, msgPinnedTyped)
	default:
		s += " · " + panelText(loc, msgPinnedFromRun, words.ShortID(n.PinnedFrom))
	}
	return s
}

// attemptNote is " · attempt N of M" for a node past its first attempt of
// several, else "".
func attemptNote(loc Localizer, r workrun.Run, n workrun.NodeRun) string {
	if max := maxAttempts(r.Workflow, n.NodeID); max > 1 && n.AttemptNo() > 1 {
		return " · " + panelText(loc, msgAttemptOf, strconv.Itoa(n.AttemptNo()), strconv.Itoa(max))
	}
	return ""
}

// attemptFailed is a node's reason as its detail shows it: "attempt N
// failed: reason" when the node ran more than one attempt.
func attemptFailed(loc Localizer, r workrun.Run, n workrun.NodeRun, reason string) string {
	if attemptNote(loc, r, n) == "" {
		return reason
	}
	return panelText(loc, msgAttemptFailed, strconv.Itoa(n.AttemptNo()), reason)
}

// showErr shows a line under the node's header (its reason, or a message
// picked in the list) with full, the same with its ids whole, for Copy.
func (p *Panel) showErr(text, full string, imp widget.Importance) {
	p.nodeErr.Importance = imp
	p.nodeErr.SetText(text)
	p.nodeErr.Show()
	p.nodeErrFull = full
	p.nodeErrRow.Show()
}

func (p *Panel) hideErr() {
	p.nodeErr.Hide()
	p.nodeErrRow.Hide()
	p.nodeErrFull = ""
}

func maxAttempts(wf workrun.Workflow, id string) int {
	for _, n := range wf.Nodes {
		if n.ID == id && n.Retry != nil {
			return n.Retry.MaxAttempts
		}
	}
	return 1
}
