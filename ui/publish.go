package ui

import (
	"context"
	"errors"
	"slices"
	"strings"
	"syscall"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"workrun/ui/inspector"
	"workrun/workrun"
)

// Workflow → Publish as agent… (docs/serve.md "Publishing"): the dialog
// writes the workflow's publish settings, which `workrun serve` reads from
// the saved workflow, and tells the agent's URL and whether a server
// answers there.

// DefaultServeAddr is the address the dialog suggests serving on until the
// person names another (kept in the app's preferences as prefServeAddr).
// `workrun serve` itself takes any free port without --addr, so the dialog
// shows the command with this address.
const DefaultServeAddr = "127.0.0.1:8470"

const prefServeAddr = "serve.addr"

// prefServeHere keeps whether the window serves the published workflows
// while it is open (Deps.ServeHere).
const prefServeHere = "serve.here"

// ErrServeAddr is what Deps.AgentURL returns (wrapped) for an address that
// is not HOST:PORT with a fixed port; the dialog says so in its words.
var ErrServeAddr = errors.New("the server address is not HOST:PORT with a port")

// serveProbeTimeout bounds one look for the server's agent card.
const serveProbeTimeout = 5 * time.Second

// PublishView is the dialog's content: it renders a workflow's publish
// settings and emits nothing until Settings is read.
type PublishView struct {
	wf      workrun.Workflow
	on      *widget.Check
	name    *widget.Entry
	desc    *widget.Entry
	inputs  *widget.CheckGroup
	textIn  *widget.Select
	outputs *widget.CheckGroup
	addr    *widget.Entry
	url     *widget.Label
	copyB   *widget.Button
	status  *widget.Label
	checkB  *widget.Button
	cmd     *widget.Label
	here    *widget.Check // serve from this window (hidden without Deps.ServeHere)
	hereMsg *widget.Label
	form    *fyne.Container
	root    fyne.CanvasObject
	// URLFor makes the agent's URL from the address and the agent's name
	// (nil: no URL is shown).
	URLFor func(addr, name string) (string, error)
	// OnCheck asks whether a server answers at url; the answer comes back
	// through SetStatus.
	OnCheck func(url string)

	loc workrun.Localizer // the words, in the window's language
}

// NewPublishView shows wf's publish settings (none: publishing off, every
// field unticked).
func NewPublishView(loc workrun.Localizer, wf workrun.Workflow, addr string) *PublishView {
	v := &PublishView{loc: loc, wf: wf}
	set := workrun.Publish{}
	if wf.Publish != nil {
		set = *wf.Publish
	}
	fields := make([]string, 0, len(wf.State))
	var texts []string
	for n, t := range wf.State {
		fields = append(fields, n)
		if t == workrun.FieldText {
			texts = append(texts, n)
		}
	}
	slices.Sort(fields)
	slices.Sort(texts)
	v.on = widget.NewCheck(pubText(loc, msgPubOn), func(bool) { v.enable() })
	v.on.Checked = wf.Publish != nil
	v.name = widget.NewEntry()
	v.name.SetPlaceHolder(pubText(loc, msgPubNameHint, wf.Name))
	v.name.SetText(set.Name)
	v.name.OnChanged = func(string) { v.showURL() }
	v.desc = widget.NewMultiLineEntry()
	v.desc.SetMinRowsVisible(2)
	v.desc.Wrapping = fyne.TextWrapWord
	v.desc.SetPlaceHolder(pubText(loc, msgPubDescHint))
	v.desc.SetText(set.Description)
	v.inputs = widget.NewCheckGroup(fields, nil)
	v.inputs.Horizontal = true
	v.inputs.Selected = keep(set.Inputs, fields)
	auto := pubText(loc, msgPubTextAuto)
	v.textIn = inspector.NewSelect(loc, append([]string{auto}, texts...), nil)
	v.textIn.SetSelected(auto)
	if slices.Contains(texts, set.TextInput) {
		v.textIn.SetSelected(set.TextInput)
	}
	v.outputs = widget.NewCheckGroup(fields, nil)
	v.outputs.Horizontal = true
	v.outputs.Selected = keep(set.Outputs, fields)
	v.addr = widget.NewEntry()
	v.addr.SetText(addr)
	v.addr.OnChanged = func(string) { v.showURL() }
	v.url = widget.NewLabel("")
	v.url.Selectable = true
	v.url.Wrapping = fyne.TextWrapBreak
	v.copyB = widget.NewButtonWithIcon(pubText(loc, msgPubCopy), theme.ContentCopyIcon(), func() {
		fyne.CurrentApp().Clipboard().SetContent(v.url.Text)
	})
	v.status = widget.NewLabel("")
	v.status.Wrapping = fyne.TextWrapWord
	v.checkB = widget.NewButtonWithIcon(pubText(loc, msgPubCheck), theme.ViewRefreshIcon(), v.check)
	v.cmd = widget.NewLabel("")
	v.cmd.Selectable = true
	v.cmd.Wrapping = fyne.TextWrapBreak
	v.here = widget.NewCheck(pubText(loc, msgPubHere), nil)
	v.here.Hide()
	v.hereMsg = widget.NewLabel("")
	v.hereMsg.Wrapping = fyne.TextWrapWord
	v.hereMsg.Selectable = true
	v.hereMsg.Hide()
	none := widget.NewLabel(pubText(loc, msgPubNoFields))
	none.Wrapping = fyne.TextWrapWord
	none.Hidden = len(fields) > 0
	// Label left, control right: the whole dialog is in view at 1024×700.
	row := func(label string, o fyne.CanvasObject) []fyne.CanvasObject {
		return []fyne.CanvasObject{widget.NewLabelWithStyle(label, fyne.TextAlignTrailing, fyne.TextStyle{Bold: true}), o}
	}
	grid := func(rows ...[]fyne.CanvasObject) *fyne.Container {
		return container.New(layout.NewFormLayout(), slices.Concat(rows...)...)
	}
	v.form = grid(
		row(pubText(loc, msgPubName), v.name),
		row(pubText(loc, msgPubDesc), v.desc),
		row(pubText(loc, msgPubInputs), container.NewVBox(none, v.inputs)),
		row(pubText(loc, msgPubTextInput), v.textIn),
		row(pubText(loc, msgPubOutputs), v.outputs),
	)
	server := grid(
		row(pubText(loc, msgPubAddr), v.addr),
		row(pubText(loc, msgPubURL), container.NewBorder(nil, nil, nil, container.NewVBox(v.copyB), v.url)),
		row(pubText(loc, msgPubServer), container.NewBorder(nil, nil, nil, container.NewVBox(v.checkB), v.status)),
		row("", v.cmd),
		row("", v.here),
		row("", v.hereMsg),
	)
	v.root = container.NewVScroll(container.NewVBox(v.on, v.form, widget.NewSeparator(), server))
	v.enable()
	v.showURL()
	return v
}

// keep is the names of want that are among have, in want's order.
func keep(want, have []string) []string {
	var out []string
	for _, n := range want {
		if slices.Contains(have, n) {
			out = append(out, n)
		}
	}
	return out
}

// Object is the view's widget tree.
func (v *PublishView) Object() fyne.CanvasObject { return v.root }

func (v *PublishView) enable() {
	for _, w := range []fyne.Disableable{v.name, v.desc, v.inputs, v.textIn, v.outputs} {
		if v.on.Checked {
			w.Enable()
		} else {
			w.Disable()
		}
	}
}

// agentName is the name the agent is served under.
func (v *PublishView) agentName() string {
	if n := strings.TrimSpace(v.name.Text); n != "" {
		return n
	}
	return v.wf.Name
}

// showURL shows the URL the agent has at the address typed.
func (v *PublishView) showURL() {
	addr := strings.TrimSpace(v.addr.Text)
	v.cmd.SetText(pubText(v.loc, msgPubCommand, addr))
	if v.URLFor == nil {
		v.url.SetText("")
		v.copyB.Disable()
		v.checkB.Disable()
		return
	}
	u, err := v.URLFor(addr, v.agentName())
	if err != nil {
		v.url.SetText("")
		v.cmd.SetText("")
		v.status.Importance = widget.WarningImportance
		v.status.SetText(HumanError(v.loc, err.Error()))
		if errors.Is(err, ErrServeAddr) {
			v.status.SetText(pubText(v.loc, msgPubBadAddr))
		}
		v.copyB.Disable()
		v.checkB.Disable()
		return
	}
	if u != v.url.Text { // what was found is about another URL
		v.status.SetText("")
	}
	v.url.SetText(u)
	v.copyB.Enable()
	if v.OnCheck != nil {
		v.checkB.Enable()
	}
}

// check asks whether the server answers at the URL shown.
func (v *PublishView) check() {
	if v.OnCheck == nil || v.url.Text == "" {
		return
	}
	v.status.SetText(pubText(v.loc, msgPubChecking))
	v.OnCheck(v.url.Text)
}

// SetStatus shows what the look at url found: the card's name, or why no
// server answered. An answer for a URL no longer shown is dropped.
func (v *PublishView) SetStatus(url, cardName string, err error) {
	if url != v.url.Text {
		return
	}
	switch {
	case err != nil:
		// Why the card could not be read is the connection test's
		// business; here it only means no agent of ours answers.
		v.status.Importance = widget.WarningImportance
		v.status.SetText(pubText(v.loc, msgPubNotRunning))
	default:
		v.status.Importance = widget.SuccessImportance
		v.status.SetText(pubText(v.loc, msgPubRunning, cardName))
	}
}

// Settings is what the dialog says: nil when publishing is off.
func (v *PublishView) Settings() *workrun.Publish {
	if !v.on.Checked {
		return nil
	}
	p := &workrun.Publish{Name: strings.TrimSpace(v.name.Text), Description: strings.TrimSpace(v.desc.Text),
		Inputs: slices.Clone(v.inputs.Selected), Outputs: slices.Clone(v.outputs.Selected)}
	if s := v.textIn.Selected; s != "" && s != pubText(v.loc, msgPubTextAuto) {
		p.TextInput = s
	}
	return p
}

// OfferServeHere shows "Serve from this window", ticked as on says.
func (v *PublishView) OfferServeHere(on bool) {
	v.here.SetChecked(on)
	v.here.Show()
}

// ServeHere is whether "Serve from this window" is ticked (false when it
// is not offered).
func (v *PublishView) ServeHere() bool { return v.here.Visible() && v.here.Checked }

// SetServing shows what serving from this window came to: its lines, or
// why it could not start ("" and no lines: off).
func (v *PublishView) SetServing(text string, ok bool) {
	v.hereMsg.SetText(text)
	v.hereMsg.Importance = widget.SuccessImportance
	if !ok {
		v.hereMsg.Importance = widget.WarningImportance
	}
	v.hereMsg.Hidden = text == ""
	v.hereMsg.Refresh()
}

// Addr is the server address typed.
func (v *PublishView) Addr() string { return strings.TrimSpace(v.addr.Text) }

// showPublish opens Workflow → Publish as agent… for the workflow open.
// Save writes the settings into the workflow and saves it, so that
// `workrun serve` (which reads saved workflows) serves it.
func (w *Window) showPublish() {
	prefs := w.app.Preferences()
	v := NewPublishView(w.loc, w.doc.Workflow(), prefs.StringWithFallback(prefServeAddr, DefaultServeAddr))
	v.URLFor = w.deps.AgentURL
	if w.deps.ServeStatus != nil {
		v.OnCheck = func(url string) {
			var name string
			var err error
			w.background(func() {
				ctx, cancel := context.WithTimeout(w.ctx, serveProbeTimeout)
				defer cancel()
				name, err = w.deps.ServeStatus(ctx, url)
			}, func() { v.SetStatus(url, name, err) })
		}
	}
	v.showURL()
	if w.deps.ServeHere != nil {
		v.OfferServeHere(prefs.Bool(prefServeHere))
		v.SetServing(w.servingText())
	}
	d := dialog.NewCustomConfirm(pubText(w.loc, msgPubTitle), pubText(w.loc, msgPubSave), pubText(w.loc, msgPubCancel), v.Object(), func(ok bool) {
		if !ok {
			return
		}
		addrChanged := prefs.StringWithFallback(prefServeAddr, DefaultServeAddr) != v.Addr()
		hereChanged := prefs.Bool(prefServeHere) != v.ServeHere()
		prefs.SetString(prefServeAddr, v.Addr())
		prefs.SetBool(prefServeHere, v.ServeHere())
		w.doc.SetPublish(v.Settings())
		w.saveNow()
		if w.deps.ServeHere != nil && (hereChanged || (v.ServeHere() && addrChanged)) {
			w.applyServeHere() // a save alone rebuilds a running server (main)
		}
	}, w.win)
	d.Resize(w.fitDialog(fyne.NewSize(640, 640)))
	d.Show()
	w.publish = v
	v.check()
}

// calledByText says who started a run through `workrun serve`: the
// caller's token label, or an agent when the server needs no token.
func calledByText(loc workrun.Localizer, caller string) string {
	if s := triggerCallerText(loc, caller); s != "" { // triggers.go
		return s
	}
	if caller == "" {
		return pubText(loc, msgCalledByAny)
	}
	return pubText(loc, msgCalledBy, caller)
}

// readCaller says who started runID through `workrun serve` ("" for a run
// a person started); it runs off the UI thread. A failed read is returned,
// the caller is then unknown.
func (w *Window) readCaller(ctx context.Context, runID string) (string, error) {
	if w.deps.ServedCaller == nil || runID == "" {
		return "", nil
	}
	c, ok, err := w.deps.ServedCaller(ctx, runID)
	if err != nil || !ok {
		return "", err
	}
	return calledByText(w.loc, c), nil
}

// showCaller marks the run shown in the main run panel with its caller.
func (w *Window) showCaller(runID string) {
	if w.deps.ServedCaller == nil {
		return
	}
	var text string
	var err error
	w.background(func() { text, err = w.readCaller(w.ctx, runID) }, func() {
		if err != nil {
			w.setStatus(err.Error())
			return
		}
		w.panel.SetCaller(runID, text)
	})
}

// serveHereState is what serving from this window came to last.
type serveHereState struct {
	addr  string
	lines []string
	err   error
}

// applyServeHere starts, restarts or stops serving from this window as
// the preferences say (Deps.ServeHere), off the UI thread; the outcome is
// said in the status bar and in the Publish dialog if it is open.
func (w *Window) applyServeHere() {
	if w.deps.ServeHere == nil {
		return
	}
	prefs := w.app.Preferences()
	addr := ""
	if prefs.Bool(prefServeHere) {
		addr = prefs.StringWithFallback(prefServeAddr, DefaultServeAddr)
	}
	var st serveHereState
	w.background(func() {
		st.addr = addr
		st.lines, st.err = w.deps.ServeHere(w.ctx, addr)
	}, func() {
		w.serving = st
		text, ok := w.servingText()
		if w.publish != nil {
			w.publish.SetServing(text, ok)
		}
		switch {
		case st.err != nil:
			w.setStatus(text)
		case addr != "" && len(st.lines) > 0:
			w.setStatus(pubText(w.loc, msgPubHereStatus, addr))
		}
	})
}

// servingText says what serving from this window came to; ok is false for
// a failure.
func (w *Window) servingText() (string, bool) {
	st := w.serving
	switch {
	case st.err != nil && errors.Is(st.err, syscall.EADDRINUSE):
		return pubText(w.loc, msgPubHereInUse, st.addr), false
	case st.err != nil:
		return pubText(w.loc, msgPubHereFailed, st.addr, HumanError(w.loc, st.err.Error())), false
	case st.addr == "":
		return "", true
	case len(st.lines) == 0:
		return pubText(w.loc, msgPubHereNone), true
	}
	return pubText(w.loc, msgPubHereOn, strings.Join(st.lines, "\n")), true
}
