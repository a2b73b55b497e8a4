package ui

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"workrun/workrun"
)

// PartStarter is the optional capability of an Engine to start part of a
// workflow (*workrun.Engine has it); without it the node menu is not shown.
type PartStarter interface {
	StartFrom(ctx context.Context, workflowID string, wf workrun.Workflow, inputs workrun.Values, from workrun.RunFrom) (string, error)
}

var _ PartStarter = (*workrun.Engine)(nil)

// nodeMenu shows a node's context menu at the pointer.
func (w *Window) nodeMenu(id string, at fyne.Position) {
	if _, ok := w.deps.Engine.(PartStarter); !ok {
		return
	}
	menu := fyne.NewMenu("",
		fyne.NewMenuItem(uiText(w.loc, msgRunFromHere), func() { w.runFrom(id, false) }),
		fyne.NewMenuItem(uiText(w.loc, msgTestThisNode), func() { w.runFrom(id, true) }),
	)
	widget.ShowPopUpMenuAtPosition(menu, w.win.Canvas(), at)
}

// runFrom starts a new run of the open workflow from node id ("Run from
// here"), or of that node alone ("Test this node"): the nodes before it
// are pinned from the run the panel shows when it is of this workflow,
// else from this workflow's newest run (docs/engine.md "Runs from a node").
func (w *Window) runFrom(id string, only bool) {
	ps, ok := w.deps.Engine.(PartStarter)
	if !ok || len(w.probs) > 0 {
		return
	}
	if w.wfID == "" || w.doc.Dirty() {
		w.save()
	}
	wf, wfID := w.doc.Workflow(), w.wfID
	pin := ""
	if r := w.panel.Run(); r.ID != "" && r.WorkflowID == wfID {
		pin = r.ID
	}
	var err error
	w.background(func() {
		if pin != "" || w.deps.Runs == nil {
			return
		}
		var runs []workrun.Run
		runs, err = w.deps.Runs.ListRuns(w.ctx, workrun.RunFilter{WorkflowID: wfID, Limit: 1})
		if err == nil && len(runs) > 0 {
			pin = runs[0].ID
		}
	}, func() {
		if err != nil {
			w.showError(fmt.Errorf("run from %s: %w", id, err))
			return
		}
		rf := workrun.RunFrom{Node: id, Only: only, PinRun: pin}
		if err := w.startFrom(ps, wfID, wf, rf); err != nil {
			if errors.Is(err, workrun.ErrPin) {
				why := err
				if pin == "" {
					why = errors.New(uiText(w.loc, msgNoEarlierRun, id))
				}
				w.askPins(ps, wfID, wf, rf, why)
				return
			}
			w.showError(err)
		}
	})
}

// startFrom starts the run rf asks for and shows it in the run panel.
func (w *Window) startFrom(ps PartStarter, wfID string, wf workrun.Workflow, rf workrun.RunFrom) error {
	runID, err := ps.StartFrom(byPerson(w.ctx), wfID, wf, nil, rf)
	if err != nil {
		return err
	}
	w.cv.ClearStatus()
	w.panel.Start(runID, wf)
	w.loadRun(runID, func(err error) {
		if err != nil && !errors.Is(err, workrun.ErrNotFound) {
			w.setStatus(err.Error())
		}
	})
	w.tabs.SelectIndex(0)
	w.updateRunButtons()
	w.updateTitle()
	w.runStatusChanged()
	return nil
}

// pinForm is the form of outputs typed by hand for a run from a node.
type pinForm struct {
	entries map[string]*widget.Entry // by "node.field"
	submit  func()                   // what the dialog's Run button does
}

// askPins asks for the outputs of the nodes before rf.Node typed by hand
// (JSON per field; a text field may be typed bare), for nodes that never
// ran or whose earlier outputs should be replaced, and starts the run with
// them. why is the reason the run could not start without them.
func (w *Window) askPins(ps PartStarter, wfID string, wf workrun.Workflow, rf workrun.RunFrom, why error) {
	fields := w.deps.Engine.Fields(wf)
	pf := &pinForm{entries: map[string]*widget.Entry{}}
	type target struct{ node, field string }
	var order []target
	msg := widget.NewLabel(why.Error())
	msg.Wrapping = fyne.TextWrapWord
	items := []*widget.FormItem{widget.NewFormItem("", msg)}
	for _, n := range wf.Nodes {
		if n.Type == "start" || !before(wf, n.ID, rf.Node) {
			continue
		}
		for _, f := range fields[n.ID].Writes {
			e := widget.NewEntry()
			e.SetPlaceHolder(string(wf.State[f]))
			pf.entries[n.ID+"."+f] = e
			order = append(order, target{n.ID, f})
			items = append(items, widget.NewFormItem(n.ID+"."+f, e))
		}
	}
	pf.submit = func() {
		rf.Pins = map[string]workrun.Values{}
		for _, tg := range order {
			text := pf.entries[tg.node+"."+tg.field].Text
			raw := strings.TrimSpace(text)
			if raw == "" {
				continue
			}
			var v any
			if err := json.Unmarshal([]byte(raw), &v); err != nil {
				if wf.State[tg.field] != workrun.FieldText {
					w.showError(fmt.Errorf("%s.%s: %w", tg.node, tg.field, err))
					return
				}
				v = text
			}
			if rf.Pins[tg.node] == nil {
				rf.Pins[tg.node] = workrun.Values{}
			}
			rf.Pins[tg.node][tg.field] = v
		}
		if err := w.startFrom(ps, wfID, wf, rf); err != nil {
			w.showError(err)
		}
	}
	w.pins = pf
	dlg := dialog.NewForm(uiText(w.loc, msgPinsTitle, rf.Node), uiText(w.loc, msgPinsRun), w.loc.X("cancel", "Cancel"), items, func(ok bool) {
		w.pins = nil
		if ok {
			pf.submit()
		}
	}, w.win)
	dlg.Resize(w.fitDialog(fyne.NewSize(520, dlg.MinSize().Height)))
	dlg.Show()
	if w.pinsAsked != nil {
		w.pinsAsked()
	}
}

// before reports whether node a comes before node b (a path leads from a to b).
func before(wf workrun.Workflow, a, b string) bool {
	seen := map[string]bool{a: true}
	queue := []string{a}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		for _, e := range wf.Edges {
			if e.From == n && !seen[e.To] {
				if e.To == b {
					return true
				}
				seen[e.To] = true
				queue = append(queue, e.To)
			}
		}
	}
	return false
}
