package ui

import (
	"strings"

	"workrun/workrun"
)

// What the window says of a run a trigger started (docs/triggers.md).

// startedByText marks a run a trigger started ("started by a schedule");
// "" for others.
func startedByText(loc workrun.Localizer, r workrun.Run) string {
	if k := r.StartedBy.Kind; k == workrun.StartedBySchedule || k == workrun.StartedByWebhook {
		return uiText(loc, msgTrigStartedBy, workrun.StartedBy{Kind: k}.In(loc.Messages()))
	}
	return ""
}

// triggerCallerText marks a run a trigger's serve caller started
// ("trigger:schedule", "trigger:webhook": docs/triggers.md) as started by
// it; "" for another caller.
func triggerCallerText(loc workrun.Localizer, caller string) string {
	kind, ok := strings.CutPrefix(caller, "trigger:")
	if !ok || kind != string(workrun.StartedBySchedule) && kind != string(workrun.StartedByWebhook) {
		return ""
	}
	return startedByText(loc, workrun.Run{StartedBy: workrun.StartedBy{Kind: workrun.StartedByKind(kind)}})
}
