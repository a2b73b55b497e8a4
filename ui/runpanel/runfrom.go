package runpanel

import (
	"fyne.io/fyne/v2/widget"
)

// refreshRunFrom shows "Run from here" and "Test this node" beside the
// title of the node selected in a finished run (the same actions as the
// canvas node menu, ui/run_from.go): the new run pins the nodes before it from
// the run shown (docs/engine.md "Runs from a node").
func (p *Panel) refreshRunFrom(id string) {
	p.runFromBox.RemoveAll()
	if p.readOnly || p.OnRunFrom == nil || id == "" || !p.run.Status.Terminal() || p.kinds[id] == "start" {
		return
	}
	p.runFromBox.Add(widget.NewButton(p.words.RunFrom(false), func() { p.OnRunFrom(id, false) }))
	p.runFromBox.Add(widget.NewButton(p.words.RunFrom(true), func() { p.OnRunFrom(id, true) }))
}

// RunFromLabels returns the labels of the node-level run-from buttons shown.
func (p *Panel) RunFromLabels() []string {
	var out []string
	for _, o := range p.runFromBox.Objects {
		if b, ok := o.(*widget.Button); ok {
			out = append(out, b.Text)
		}
	}
	return out
}

// TapRunFrom presses the run-from button with this label, as a person does.
func (p *Panel) TapRunFrom(label string) bool {
	for _, o := range p.runFromBox.Objects {
		if b, ok := o.(*widget.Button); ok && b.Text == label && !b.Disabled() {
			b.OnTapped()
			return true
		}
	}
	return false
}
