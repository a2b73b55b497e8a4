package inspector

import (
	"errors"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"workrun/ui/document"
	"workrun/workrun"
)

// addPolicy adds the node's "On failure" section: attempts, wait and its
// growth, what a failure that is not retried does, the error field and,
// for a remote node, the deadline. Each change is one Policy edit; the
// engine's problems show under the form as for the config.
func (in *Inspector) addPolicy(n workrun.NodeSpec, state map[string]workrun.FieldType, form *fyne.Container) {
	p := document.PolicyOf(n)
	attempts := widget.NewEntry()
	wait := widget.NewEntry()
	if p.Retry != nil {
		attempts.SetText(strconv.Itoa(p.Retry.MaxAttempts))
		wait.SetText(strconv.FormatFloat(p.Retry.WaitSeconds, 'f', -1, 64))
	}
	attempts.SetPlaceHolder("1")
	wait.SetPlaceHolder("0")
	backoffs := []string{inspText(in.loc, msgBackoffFixed), inspText(in.loc, msgBackoffExp)}
	backoff := widget.NewSelect(backoffs, nil)
	backoff.SetSelectedIndex(0)
	if p.Retry != nil && p.Retry.Backoff == workrun.BackoffExponential {
		backoff.SetSelectedIndex(1)
	}
	onErrors := []workrun.OnError{workrun.OnErrorFail, workrun.OnErrorContinue, workrun.OnErrorBranch}
	onError := widget.NewSelect([]string{inspText(in.loc, msgOnErrorFail), inspText(in.loc, msgOnErrorContinue), inspText(in.loc, msgOnErrorBranch)}, nil)
	onError.SetSelectedIndex(0)
	for i, o := range onErrors {
		if p.OnError == o {
			onError.SetSelectedIndex(i)
		}
	}
	fields := append([]string{inspText(in.loc, msgPolicyNoField)}, document.FieldNames(state, workrun.FieldText)...)
	errField := widget.NewSelect(fields, nil)
	errField.SetSelectedIndex(0)
	if p.ErrorField != "" {
		errField.SetSelected(p.ErrorField)
	}
	in.stateShown = append(in.stateShown, func() { // a field made in the form (inspector_template.go)
		errField.Options = append([]string{inspText(in.loc, msgPolicyNoField)}, document.FieldNames(in.doc().State(), workrun.FieldText)...)
		errField.Refresh()
	})
	deadline := widget.NewEntry()
	if p.DeadlineSeconds > 0 {
		deadline.SetText(strconv.Itoa(p.DeadlineSeconds))
	}

	read := func() {
		if in.building {
			return
		}
		var np document.NodePolicy
		if n, err := strconv.Atoi(strings.TrimSpace(attempts.Text)); err == nil && n > 1 {
			np.Retry = &workrun.RetryPolicy{MaxAttempts: n}
			if w, err := strconv.ParseFloat(strings.TrimSpace(wait.Text), 64); err == nil {
				np.Retry.WaitSeconds = w
			}
			if backoff.SelectedIndex() == 1 {
				np.Retry.Backoff = workrun.BackoffExponential
			}
		}
		if i := onError.SelectedIndex(); i > 0 {
			np.OnError = onErrors[i]
			if errField.SelectedIndex() > 0 {
				np.ErrorField = errField.Selected
			}
		}
		if d, err := strconv.Atoi(strings.TrimSpace(deadline.Text)); err == nil {
			np.DeadlineSeconds = d
		}
		in.Edits.policy(n.ID, np)
	}
	attempts.OnChanged = func(string) { read() }
	wait.OnChanged = func(string) { read() }
	backoff.OnChanged = func(string) { read() }
	onError.OnChanged = func(string) { read() }
	errField.OnChanged = func(string) { read() }
	deadline.OnChanged = func(string) { read() }
	in.widgets["policy.max_attempts"] = attempts
	in.widgets["policy.wait_seconds"] = wait
	in.widgets["policy.backoff"] = backoff
	in.widgets["policy.on_error"] = onError
	in.widgets["policy.error_field"] = errField

	form.Add(heading(inspText(in.loc, msgPolicyHeading)))
	for _, it := range []struct {
		label msgID
		obj   fyne.CanvasObject
	}{{msgPolicyAttempts, attempts}, {msgPolicyWait, wait}, {msgPolicyBackoff, backoff}, {msgPolicyOnError, onError}, {msgPolicyErrField, errField}} {
		form.Add(caption(inspText(in.loc, it.label)))
		form.Add(it.obj)
	}
	if in.remoteKind(n.Type) {
		in.widgets["policy.deadline_seconds"] = deadline
		form.Add(caption(inspText(in.loc, msgPolicyDeadline)))
		form.Add(deadline)
		form.Add(caption(inspText(in.loc, msgPolicyRemote)))
	}
}

// remoteKind reports whether nodes of the type make remote calls: the
// kinds described with a URL a protocol answers at.
func (in *Inspector) remoteKind(typ string) bool {
	info, _ := in.words.Kind(typ)
	for _, f := range info.Fields {
		if f.Value == workrun.ValueURL && f.Protocol != "" {
			return true
		}
	}
	return false
}

// addEdgePort adds the choice of the port an edge leaves from.
func (in *Inspector) addEdgePort(d *document.Document, k document.EdgeKey) {
	e, ok := d.Edge(k)
	if !ok {
		return
	}
	sel := widget.NewSelect([]string{inspText(in.loc, msgEdgeNormal), inspText(in.loc, msgEdgeError)}, nil)
	if e.Port == workrun.PortError {
		sel.SetSelectedIndex(1)
	} else {
		sel.SetSelectedIndex(0)
	}
	sel.OnChanged = func(string) {
		port := ""
		if sel.SelectedIndex() == 1 {
			port = workrun.PortError
		}
		in.Edits.edgePort(k, port)
	}
	in.widgets["port"] = sel
	in.box.Add(widget.NewForm(widget.NewFormItem(inspText(in.loc, msgEdgeLeaves), sel)))
}

func (e InspectorEdits) policy(id string, p document.NodePolicy) {
	if e.Policy != nil {
		e.Policy(id, p)
	}
}

func (e InspectorEdits) edgePort(k document.EdgeKey, port string) {
	if e.EdgePort != nil {
		e.EdgePort(k, port)
	}
}

// checkJSONObject refuses a ValueJSONObject value that is not a JSON
// object, naming what was typed.
func (in *Inspector) checkJSONObject(f workrun.ConfigField, v any, typed string) error {
	if _, ok := v.(map[string]any); ok || f.Value != workrun.ValueJSONObject || typed == "" {
		return nil
	}
	return errors.New(inspText(in.loc, msgNotObject, in.words.Clip(typed, 80)))
}
