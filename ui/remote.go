package ui

import (
	"context"
	"fmt"
	"io"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/widget"

	"workrun/workrun"
)

// RemotePanel shows each Remote Agent call of a run: the saved remote state,
// its status and cancel messages, and its file results (docs/remote-agent.md R8). It offers
// no manual query, fetch or cancel: those belong to the engine's policy.
type RemotePanel struct {
	calls func(ctx context.Context, runID string) ([]workrun.RemoteCall, error)
	arts  workrun.ArtifactStore
	runs  workrun.RunStore
	win   fyne.Window
	box   *fyne.Container
	root  fyne.CanvasObject
	shown []workrun.RemoteCall
	runID string
}

// NewRemotePanel makes the panel; calls and arts may be nil.
func NewRemotePanel(calls func(ctx context.Context, runID string) ([]workrun.RemoteCall, error), runs workrun.RunStore, arts workrun.ArtifactStore, win fyne.Window) *RemotePanel {
	p := &RemotePanel{calls: calls, runs: runs, arts: arts, win: win, box: container.NewVBox()}
	p.root = container.NewVScroll(p.box)
	p.box.Add(widget.NewLabel(lang.X("remote.none", "No remote tasks in this run.")))
	return p
}

// Object is the panel's widget tree.
func (p *RemotePanel) Object() fyne.CanvasObject { return p.root }

// Tasks returns what is shown.
func (p *RemotePanel) Tasks() []workrun.RemoteCall { return p.shown }

// Show reads the run's remote task records and shows them with the file
// results found in outputs (artifact ids of the node's file fields). It
// reads on the caller's goroutine; the window calls Read off the Fyne
// thread and ShowResult on it.
func (p *RemotePanel) Show(ctx context.Context, runID string) {
	ts, files, err := p.Read(ctx, runID)
	p.ShowResult(runID, ts, files, err)
}

// Read reads what Show shows; it touches no widget.
func (p *RemotePanel) Read(ctx context.Context, runID string) ([]workrun.RemoteCall, map[string][]workrun.ArtifactInfo, error) {
	if p.calls == nil || runID == "" {
		return nil, nil, nil
	}
	ts, err := p.calls(ctx, runID)
	if err != nil {
		return nil, nil, err
	}
	return ts, p.fileResults(ctx, runID, ts), nil
}

// ShowResult shows what Read returned for runID.
func (p *RemotePanel) ShowResult(runID string, ts []workrun.RemoteCall, files map[string][]workrun.ArtifactInfo, err error) {
	p.runID = runID
	if err != nil {
		p.box.RemoveAll()
		p.shown = nil
		p.box.Add(widget.NewLabel(fmt.Sprintf(lang.X("remote.read_failed", "Could not read the remote tasks: %s"), err)))
		return
	}
	p.ShowTasks(ts, files)
}

// RunID is the run whose tasks are shown.
func (p *RemotePanel) RunID() string { return p.runID }

// fileResults finds the artifacts each Remote Agent node wrote into file fields.
func (p *RemotePanel) fileResults(ctx context.Context, runID string, ts []workrun.RemoteCall) map[string][]workrun.ArtifactInfo {
	if p.runs == nil || p.arts == nil || len(ts) == 0 {
		return nil
	}
	r, err := p.runs.GetRun(ctx, runID)
	if err != nil {
		return nil
	}
	nrs, err := p.runs.NodeRuns(ctx, runID)
	if err != nil {
		return nil
	}
	out := map[string][]workrun.ArtifactInfo{}
	for _, n := range nrs {
		if n.Type != "remote_agent" {
			continue
		}
		for field, v := range n.Outputs {
			var ids []string
			switch r.Workflow.State[field] {
			case workrun.FieldFile:
				if s, ok := v.(string); ok {
					ids = append(ids, s)
				}
			case workrun.FieldFiles:
				if xs, ok := v.([]any); ok {
					for _, x := range xs {
						if s, ok := x.(string); ok {
							ids = append(ids, s)
						}
					}
				}
			}
			for _, id := range ids {
				if a, err := p.arts.Stat(ctx, id); err == nil {
					out[n.NodeID] = append(out[n.NodeID], a)
				}
			}
		}
	}
	return out
}

// ShowTasks shows tasks; files maps a node id to its result artifacts.
func (p *RemotePanel) ShowTasks(ts []workrun.RemoteCall, files map[string][]workrun.ArtifactInfo) {
	p.box.RemoveAll()
	p.shown = ts
	if len(ts) == 0 {
		p.box.Add(widget.NewLabel(lang.X("remote.none", "No remote tasks in this run.")))
		return
	}
	for _, t := range ts {
		var b strings.Builder
		fmt.Fprintf(&b, "%s: %s\n", lang.X("remote.agent", "Agent"), t.AgentURL)
		task := t.TaskID
		if task == "" {
			task = lang.X("remote.no_task", "(no task id received)")
		}
		fmt.Fprintf(&b, "%s: %s\n", lang.X("remote.task", "Task"), task)
		if t.ContextID != "" {
			fmt.Fprintf(&b, "%s: %s\n", lang.X("remote.context", "Context"), t.ContextID)
		}
		fmt.Fprintf(&b, "%s: %s", lang.X("remote.state2", "Remote state"), RemoteStateLabel(t.RemoteState))
		if t.Ended {
			b.WriteString(" (" + lang.X("remote.ended", "ended") + ")")
		}
		if t.StatusText != "" {
			fmt.Fprintf(&b, "\n%s: %s", lang.X("remote.status", "Status message"), HumanError(LocalizeMessage(t.StatusText)))
		}
		if t.CancelOutcome != "" || t.CancelText != "" {
			line := CancelOutcomeLabel(t.CancelOutcome)
			switch ct := HumanError(LocalizeMessage(t.CancelText)); {
			case line == "":
				line = ct
			case ct != "" && !strings.Contains(ct, line):
				line += " — " + ct
			case ct != "":
				line = ct
			}
			fmt.Fprintf(&b, "\n%s: %s", lang.X("remote.cancel", "Cancel"), line)
		}
		if !t.UpdatedAt.IsZero() {
			fmt.Fprintf(&b, "\n%s: %s", lang.X("remote.updated2", "Last update"), t.UpdatedAt.Local().Format("2006-01-02 15:04:05"))
		}
		l := widget.NewLabel(b.String())
		l.Wrapping = fyne.TextWrapWord
		items := []fyne.CanvasObject{l}
		for _, a := range files[t.NodeID] {
			items = append(items, p.fileRow(a))
		}
		card := widget.NewCard(t.NodeID, "", container.NewVBox(items...))
		p.box.Add(card)
	}
}

// fileRow offers to save a file result to disk.
func (p *RemotePanel) fileRow(a workrun.ArtifactInfo) fyne.CanvasObject {
	save := widget.NewButton(lang.X("remote.save", "Save…"), func() {
		d := dialog.NewFileSave(func(wc fyne.URIWriteCloser, err error) {
			if err != nil || wc == nil {
				return
			}
			defer wc.Close()
			rc, _, err := p.arts.Open(context.Background(), a.ID)
			if err != nil {
				dialog.ShowError(err, p.win)
				return
			}
			defer rc.Close()
			if _, err := io.Copy(wc, rc); err != nil {
				dialog.ShowError(err, p.win)
			}
		}, p.win)
		d.SetFileName(a.Name)
		d.Show()
	})
	if p.arts == nil {
		save.Disable()
	}
	return container.NewBorder(nil, nil, nil, save, widget.NewLabel(fmt.Sprintf("📄 %s (%s, %d B)", a.Name, a.MediaType, a.Size)))
}

// CancelOutcomeLabel names a saved cancel outcome for people.
func CancelOutcomeLabel(o string) string {
	switch o {
	case "":
		return ""
	case "requested", "canceled", "still_working", "completed", "ended", "not_cancelable", "not_found", "unconfirmed", "submission_unknown":
		return lang.X("cancel."+o, strings.ReplaceAll(o, "_", " "))
	}
	return strings.ReplaceAll(o, "_", " ")
}
