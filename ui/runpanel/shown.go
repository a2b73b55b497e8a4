package runpanel

import (
	"slices"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// What the panel shows, read as a person sees it, for the window's own
// checks of where the panel's parts are drawn and what they say (the app
// layer's tests lay the whole window out).

// Note is the line under the header ("" while it is hidden).
func (p *Panel) Note() string {
	if !p.note.Visible() {
		return ""
	}
	return p.note.Text
}

// StoredCount is how many stored messages (by sequence number) of the run
// shown the panel holds.
func (p *Panel) StoredCount() int { return len(p.seen) }

// Select shows node id's detail from the next Flush, as the panel's own
// following of the run does (the person's pick is Pick).
func (p *Panel) Select(id string) { p.selectNode(id) }

// RecentTexts returns the run picker's options and the one picked, as
// shown ("" and nil when hidden).
func (p *Panel) RecentTexts() (picked string, opts []string) {
	if !p.recentBox.Visible() {
		return "", nil
	}
	return p.recent.Selected, p.recent.Options
}

// PickRecent picks the i-th run of the picker, as a person would.
func (p *Panel) PickRecent(i int) { p.recent.SetSelectedIndex(i) }

// Parts are the panel's drawn parts, to measure where the window lays
// them out.
type Parts struct {
	NodeList    *widget.List
	MessageList *widget.List
	// Reason is the run's failure or interruption reason under the header.
	Reason *widget.Label
	// ReasonRow holds Reason and its Copy.
	ReasonRow fyne.CanvasObject
	// Title and TitleNote are the selected node's header line and what a
	// retry or a pin adds under it; NodeError its reason with Copy.
	Title, TitleNote *widget.Label
	NodeError        fyne.CanvasObject
	// RunFrom holds Run from here and Test this node.
	RunFrom fyne.CanvasObject
	// Values shows the selected node's inputs and outputs.
	Values *ValuesView
	// Question is an open question's form (empty with none); QuestionFirst
	// the input the keyboard goes to when it appears.
	Question      *fyne.Container
	QuestionFirst fyne.Focusable
}

// Parts returns the panel's drawn parts.
func (p *Panel) Parts() Parts {
	ps := Parts{NodeList: p.nodeList, MessageList: p.msgList, Reason: p.reason, ReasonRow: p.reasonRow, Title: p.title, TitleNote: p.titleNote,
		NodeError: p.nodeErrRow, RunFrom: p.runFromBox, Values: p.vals, Question: p.ask}
	if p.askView != nil {
		ps.QuestionFirst = p.askView.first
	}
	return ps
}

// NodeIDs are the nodes the list shows, in its order.
func (p *Panel) NodeIDs() []string { return slices.Clone(p.order) }

// Rows returns the values as shown, one line a row, and the object that
// draws each.
func (v *ValuesView) Rows() (lines []string, objs []fyne.CanvasObject) {
	return slices.Clone(v.shown), slices.Clone(v.objs)
}
