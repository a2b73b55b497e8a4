// Package remotetasks is the Remote tasks tab: each remote call of a run —
// a Remote Agent's task and context, a Remote MCP Tool's server, task or
// job and how it runs — with its saved remote state, status and cancel
// messages and its file results (docs/remote-agent.md R8), ids short with
// a Copy of the whole. It offers no manual query, fetch or cancel: those
// are the engine's. It is a widget package (ui/doc.go): it reads nothing
// itself, starts no goroutine, and words what the rest of the window
// words too through the app layer's Wording.
package remotetasks

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"workrun/workrun"
)

// Panel shows each Remote Agent and Remote MCP Tool call of a run: the saved remote state,
// its status and cancel messages, and its file results (docs/remote-agent.md
// R8). It offers no manual query, fetch or cancel: those belong to the
// engine's policy. It reads nothing itself: the app layer reads the records
// and hands them to ShowResult; a file result's Save… is reported to
// saveFile.
type Panel struct {
	// KindOf names the node kind of a node id (nil: told from the record,
	// mcp.go); an MCP call shows its server and its saved link in words.
	KindOf func(nodeID string) string
	// NameOf names a node for people (its title; nil or "": its id): the
	// card of a call says whose it is.
	NameOf   func(nodeID string) string
	saveFile func(workrun.ArtifactInfo)
	box      *fyne.Container
	root     fyne.CanvasObject
	shown    []workrun.RemoteCall

	loc   Localizer // the words, in the window's language
	words Wording
}

// New makes the panel; saveFile is called when the person asks to save a
// file result (nil: files cannot be saved).
func New(loc Localizer, words Wording, saveFile func(workrun.ArtifactInfo)) *Panel {
	p := &Panel{loc: loc, words: words, saveFile: saveFile, box: container.NewVBox()}
	p.root = container.NewVScroll(p.box)
	p.box.Add(widget.NewLabel(loc.X("remote.none", "No remote tasks in this run.")))
	return p
}

// Shown are the records the panel shows.
func (p *Panel) Shown() []workrun.RemoteCall { return p.shown }

// Object is the panel's widget tree.
func (p *Panel) Object() fyne.CanvasObject { return p.root }

// ShowResult shows the remote task records read for a run, with the file
// results of each node (by node id), or why they could not be read.
func (p *Panel) ShowResult(ts []workrun.RemoteCall, files map[string][]workrun.ArtifactInfo, err error) {
	if err != nil && !errors.Is(err, ErrFileResults) {
		p.box.RemoveAll()
		p.shown = nil
		p.box.Add(widget.NewLabel(fmt.Sprintf(p.loc.X("remote.read_failed", "Could not read the remote tasks: %s"), err)))
		return
	}
	p.ShowTasks(ts, files)
	if err != nil {
		l := widget.NewLabel(fmt.Sprintf(p.loc.X("remote.files_failed", "Some file results could not be read: %s"), err))
		l.Wrapping = fyne.TextWrapWord
		l.Importance = widget.DangerImportance
		p.box.Add(l)
	}
}

// ShowTasks shows tasks; files maps a node id to its result artifacts.
func (p *Panel) ShowTasks(ts []workrun.RemoteCall, files map[string][]workrun.ArtifactInfo) {
	p.box.RemoveAll()
	p.shown = ts
	if len(ts) == 0 {
		p.box.Add(widget.NewLabel(p.loc.X("remote.none", "No remote tasks in this run.")))
		return
	}
	for _, t := range ts {
		var b strings.Builder
		var ids []idToCopy
		if p.isMCP(t) {
			ids = writeMCPCall(p.loc, p.words, &b, t) // mcp.go
		} else {
			ids = writeA2ACall(p.loc, p.words, &b, t)
		}
		writeState(p.loc, p.words, &b, t)
		l := widget.NewLabel(b.String())
		l.Wrapping = fyne.TextWrapWord
		items := []fyne.CanvasObject{l}
		if row := copyRow(p.words, ids); row != nil {
			items = append(items, row)
		}
		for _, a := range files[t.NodeID] {
			items = append(items, p.fileRow(a))
		}
		card := widget.NewCard(p.callTitle(t), "", container.NewVBox(items...))
		p.box.Add(card)
	}
}

// writeA2ACall writes a Remote Agent call's agent (by its card's name,
// with the URL it was called at), task and context, the ids short
// (Wording.ShortID); it returns the ids to offer a Copy of.
func writeA2ACall(loc Localizer, words Wording, b *strings.Builder, t workrun.RemoteCall) []idToCopy {
	if t.AgentName != "" {
		fmt.Fprintf(b, fieldLine(loc)+" (%s)\n", loc.X("remote.agent", "Agent"), t.AgentName, t.AgentURL)
	} else {
		fmt.Fprintf(b, fieldLine(loc)+"\n", loc.X("remote.agent", "Agent"), t.AgentURL)
	}
	var ids []idToCopy
	task := t.TaskID
	if task == "" {
		task = loc.X("remote.no_task", "(no task id received)")
	} else {
		task = words.ShortID(task)
		ids = append(ids, idToCopy{loc.X("remote.copy_task", "Copy task id"), t.TaskID})
	}
	fmt.Fprintf(b, fieldLine(loc)+"\n", loc.X("remote.task", "Task"), task)
	if t.ContextID != "" {
		fmt.Fprintf(b, fieldLine(loc)+"\n", loc.X("remote.context", "Context"), words.ShortID(t.ContextID))
		ids = append(ids, idToCopy{loc.X("remote.copy_context", "Copy context id"), t.ContextID})
	}
	return ids
}

// fieldLine is the format of a card's "label: value" line: Chinese text
// takes the full-width colon.
func fieldLine(loc Localizer) string { return loc.X("remote.field_line", "%s: %s") }

// idToCopy is an id a card shows short, and its Copy button's label.
type idToCopy struct{ label, id string }

// copyRow offers a Copy of each id whole (nil: none).
func copyRow(words Wording, ids []idToCopy) fyne.CanvasObject {
	if len(ids) == 0 {
		return nil
	}
	row := container.NewHBox()
	for _, c := range ids {
		row.Add(words.CopyButton(c.label, func() string { return c.id }))
	}
	return row
}

// callTitle names a call's card: the node's name and, past the first, the
// attempt the call was made in (workrun.AttemptCallKey: "key#N").
func (p *Panel) callTitle(t workrun.RemoteCall) string {
	name := t.NodeID
	if p.NameOf != nil {
		if n := p.NameOf(t.NodeID); n != "" {
			name = n
		}
	}
	if i := strings.LastIndexByte(t.CallKey, '#'); i >= 0 {
		if n, err := strconv.Atoi(t.CallKey[i+1:]); err == nil && n > 1 {
			name += " · " + fmt.Sprintf(p.loc.X("remote.attempt", "attempt %d"), n)
		}
	}
	return name
}

// writeState writes what both kinds share: the remote state, the status
// and cancel messages, the last update.
func writeState(loc Localizer, words Wording, b *strings.Builder, t workrun.RemoteCall) {
	fmt.Fprintf(b, fieldLine(loc), loc.X("remote.state2", "Remote state"), words.State(t.RemoteState))
	if t.Ended {
		b.WriteString(" (" + loc.X("remote.ended", "ended") + ")")
	}
	if t.StatusText != "" {
		fmt.Fprintf(b, "\n%s: %s", loc.X("remote.status", "Status message"), words.Saved(t.StatusText))
	}
	if t.CancelOutcome != "" || t.CancelText != "" {
		line := cancelOutcomeLabel(loc, t.CancelOutcome)
		switch ct := words.Saved(t.CancelText); {
		case line == "":
			line = ct
		case ct != "" && !strings.Contains(ct, line):
			line += " — " + ct
		case ct != "":
			line = ct
		}
		fmt.Fprintf(b, "\n%s: %s", loc.X("remote.cancel", "Cancel"), line)
	}
	if !t.UpdatedAt.IsZero() {
		fmt.Fprintf(b, "\n%s: %s", loc.X("remote.updated2", "Last update"), t.UpdatedAt.Local().Format("2006-01-02 15:04:05"))
	}
}

// fileRow offers to save a file result to disk.
func (p *Panel) fileRow(a workrun.ArtifactInfo) fyne.CanvasObject {
	save := widget.NewButton(p.loc.X("remote.save", "Save…"), func() { p.saveFile(a) })
	if p.saveFile == nil {
		save.Disable()
	}
	return container.NewBorder(nil, nil, nil, save, widget.NewLabel(fmt.Sprintf("📄 %s (%s, %d B)", a.Name, a.MediaType, a.Size)))
}

// cancelOutcomeLabel names a saved cancel outcome for people.
func cancelOutcomeLabel(loc Localizer, o string) string {
	switch o {
	case "":
		return ""
	case "requested", "canceled", "still_working", "completed", "ended", "not_cancelable", "not_found", "unconfirmed", "submission_unknown":
		return loc.X("cancel."+o, strings.ReplaceAll(o, "_", " "))
	}
	return strings.ReplaceAll(o, "_", " ")
}
