package ui

import (
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"workrun/workrun"
)

// OpenWorkView lists, across runs, every remote task Workrun knows whose
// work is not over or whose outcome is open (workrun.OpenTasks), as
// `workrun tasks` does. Each row links to its run; there is no query or
// cancel button (docs/remote-agent.md R8: no manual remote actions).
type OpenWorkView struct {
	// OnReload asks the app layer to read the list again; OnOpen opens a run.
	OnReload func()
	OnOpen   func(r workrun.Run)

	box  *fyne.Container
	note *widget.Label
	rows []workrun.OpenTask

	loc workrun.Localizer // the words, in the window's language
}

// NewOpenWorkView makes an empty view.
func NewOpenWorkView(loc workrun.Localizer) *OpenWorkView {
	v := &OpenWorkView{loc: loc, box: container.NewVBox(), note: widget.NewLabel("")}
	v.note.Wrapping = fyne.TextWrapWord
	v.SetTasks(nil, nil)
	return v
}

// Object is the view's widget tree.
func (v *OpenWorkView) Object() fyne.CanvasObject {
	return container.NewBorder(v.note, nil, nil, nil, v.box)
}

// Reload asks for the list again.
func (v *OpenWorkView) Reload() {
	if v.OnReload != nil {
		v.OnReload()
	}
}

// SetTasks shows ts (or err).
func (v *OpenWorkView) SetTasks(ts []workrun.OpenTask, err error) {
	v.rows = ts
	v.box.RemoveAll()
	switch {
	case err != nil:
		v.note.SetText("✗ " + HumanError(v.loc, err.Error()))
	case len(ts) == 0:
		v.note.SetText(v.loc.X("open.none", "No remote task is open: every task Workrun sent has ended."))
	default:
		v.note.SetText(countText(v.loc, len(ts), "open.some", "%d remote task has not ended or has an open outcome. Workrun only shows it here; it neither queries nor cancels it from this list.", "%d remote tasks have not ended or have an open outcome. Workrun only shows them here; it neither queries nor cancels them from this list."))
	}
	for _, t := range ts {
		head := widget.NewLabelWithStyle(fmt.Sprintf("%s · %s — %s", t.Run.WorkflowName, t.Call.NodeID, OpenStateLabel(v.loc, t.State)),
			fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
		head.Wrapping = fyne.TextWrapWord
		task := t.Call.TaskID
		if task == "" {
			task = v.loc.X("open.no_task_id", "(no task id)")
		}
		detail := widget.NewLabel(fmt.Sprintf("%s: %s\n%s: %s\n%s: %s · %s %s", v.loc.X("open.server", "Server"), t.Call.AgentURL,
			v.loc.X("open.task", "Task"), task, v.loc.X("open.run", "Run"), shortID(t.Run.ID),
			v.loc.X("open.since", "since"), t.Since.Local().Format("2006-01-02 15:04:05")))
		detail.Wrapping = fyne.TextWrapWord
		r := t.Run
		open := widget.NewButton(v.loc.X("open.show_run", "Show run"), func() {
			if v.OnOpen != nil {
				v.OnOpen(r)
			}
		})
		v.box.Add(container.NewBorder(nil, nil, nil, container.NewCenter(open), container.NewVBox(head, detail)))
		v.box.Add(widget.NewSeparator())
	}
}

// OpenStateLabel is an open task's state in the window's language.
func OpenStateLabel(loc workrun.Localizer, s workrun.OpenState) string {
	switch s {
	case workrun.OpenWorking:
		return loc.X("open.working", "still working")
	case workrun.OpenInterrupted:
		return loc.X("open.interrupted", "interrupted; the run can be resumed")
	case workrun.OpenSubmissionUnknown:
		return loc.X("open.submission_unknown", "submission result unknown")
	case workrun.OpenCancelUnconfirmed:
		return loc.X("open.cancel_unconfirmed", "cancel unconfirmed")
	case workrun.OpenNotEnded:
		return loc.X("open.not_ended", "not seen to end")
	case workrun.OpenWaitingPush:
		return loc.X("open.waiting_push", "waiting by push: no connection is held until the agent reports")
	}
	return string(s)
}

// newOpenWorkView makes the Remote work view, reading its list off the UI
// thread.
func (w *Window) newOpenWorkView() *OpenWorkView {
	v := NewOpenWorkView(w.loc)
	if w.deps.Runs != nil && w.deps.RemoteCalls != nil {
		v.OnReload = func() {
			var ts []workrun.OpenTask
			var err error
			w.background(func() {
				ts, err = workrun.OpenTasks(w.ctx, w.deps.Runs, w.deps.RemoteCalls)
			}, func() {
				v.SetTasks(ts, err)
				if w.rs.openShown != nil {
					w.rs.openShown()
				}
			})
		}
	}
	v.OnOpen = w.openRecord
	return v
}
