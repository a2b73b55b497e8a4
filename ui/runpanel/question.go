package runpanel

import (
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"workrun/workrun"
)

// A remote's question in the run panel (docs/engine.md "Remote
// questions"): who asks what, and the input to answer it with — a text
// box, a form built from the elicitation's requestedSchema (defaults
// filled in, required fields marked, checked before anything is sent), or
// a sign-in link that is never opened by itself. The view only emits a
// workrun.Decision (send); the app layer decides with it.

// StatusWaiting is the badge of a node whose remote waits for the person
// (an interrupted node with an open question): "waiting for you".
const StatusWaiting workrun.NodeStatus = "waiting"

// ShownStatus is the status a node's badge shows.
func ShownStatus(n workrun.NodeRun) workrun.NodeStatus {
	if n.Status == workrun.NodeInterrupted && n.Question != nil {
		return StatusWaiting
	}
	return n.Status
}

// questionHeader is the run panel's line over a run waiting on a remote's
// question: who asks what, and what the person can do.
func questionHeader(loc Localizer, words Wording, q workrun.Question) string {
	from := q.From
	if from == "" {
		from = words.Remote()
	}
	return qText(loc, msgQHeader, from, strings.Join(strings.Fields(q.Message), " "))
}

// questionView answers one round of one node's question.
type questionView struct {
	key  string // run/node/round: the view is kept while its question is open
	root *fyne.Container
	// first is the input the keyboard goes to when the question appears;
	// inputs are all its inputs.
	first  fyne.Focusable
	inputs []fyne.Focusable
	// Set by the run panel; nil hides what needs it.
	send    func(workrun.Decision)
	openURL func(*url.URL)

	loc Localizer // the words, in the window's language
}

func questionKey(runID, node string, q workrun.Question) string {
	return fmt.Sprintf("%s/%s/%d", runID, node, q.Round)
}

func newQuestionView(loc Localizer, words Wording, runID, node string, q workrun.Question, send func(workrun.Decision), openURL func(*url.URL)) *questionView {
	v := &questionView{loc: loc, key: questionKey(runID, node, q), send: send, openURL: openURL}
	from := q.From
	if from == "" {
		from = words.Remote()
	}
	head := widget.NewLabelWithStyle(qText(loc, msgQWaiting, from, q.Round), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	head.Wrapping = fyne.TextWrapWord
	head.Importance = widget.WarningImportance
	items := []fyne.CanvasObject{head}
	if q.Message != "" {
		m := widget.NewLabel(q.Message)
		m.Wrapping = fyne.TextWrapWord
		items = append(items, m)
	}
	for _, p := range q.Parts {
		l := widget.NewLabel(partLine(loc, p))
		l.Wrapping = fyne.TextWrapWord
		items = append(items, l)
	}
	decide := func(d workrun.Decision) {
		d.RunID, d.NodeID, d.Round, d.Time = runID, node, q.Round, time.Now()
		if v.send != nil {
			v.send(d)
		}
	}
	switch q.Kind {
	case workrun.QuestionSignIn:
		items = append(items, v.signIn(q, decide)...)
	case workrun.QuestionForm:
		items = append(items, v.form(q, decide)...)
	default:
		items = append(items, v.text(q, decide)...)
	}
	v.root = container.NewVBox(items...)
	return v
}

func partLine(loc Localizer, p workrun.QuestionPart) string {
	switch p.Kind {
	case "file":
		return strings.TrimSpace(fmt.Sprintf("[%s] %s %s %s", qText(loc, msgQFile), p.Name, p.MediaType, p.URL))
	case "data":
		s := string(p.Data)
		if r := []rune(s); len(r) > 300 {
			s = string(r[:299]) + "…"
		}
		return fmt.Sprintf("[%s] %s", qText(loc, msgQData), s)
	}
	return p.Text
}

// text is a text answer: an entry (hidden while "Secret" is ticked) and
// Answer.
func (v *questionView) text(q workrun.Question, decide func(workrun.Decision)) []fyne.CanvasObject {
	e := newAnswerEntry()
	e.SetMinRowsVisible(2)
	e.SetPlaceHolder(qText(v.loc, msgQTypeAnswer))
	v.first = e
	v.inputs = append(v.inputs, e)
	secret := widget.NewCheck(qText(v.loc, msgQSecret), func(on bool) { e.Password = on; e.Refresh() })
	problem := problemLabel()
	answer := widget.NewButton(qText(v.loc, msgQAnswer), func() {
		d := workrun.Decision{Approved: true, Text: strings.TrimSpace(e.Text), Secret: secret.Checked}
		if _, err := workrun.CheckAnswer(q, d); err != nil {
			showProblem(v.loc, problem, err)
			return
		}
		problem.Hide()
		decide(d)
	})
	answer.Importance = widget.HighImportance
	e.send = answer.OnTapped
	row := container.NewHBox(answer)
	for _, b := range v.declineButtons(q, decide) {
		row.Add(b)
	}
	row.Add(secret)
	hint := widget.NewLabel(qText(v.loc, msgQEnterHint))
	hint.Importance = widget.LowImportance
	hint.Wrapping = fyne.TextWrapWord
	return []fyne.CanvasObject{e, hint, problem, row}
}

// answerEntry is a text answer's box: Enter (or Ctrl+Enter, as in a
// multi-line box) sends the answer, Shift+Enter starts a new line
// (docs/product.md "Layout rules"), as in the chat boxes people know; the
// hint under the box says so.
type answerEntry struct {
	widget.Entry
	shift bool
	send  func()
}

func newAnswerEntry() *answerEntry {
	e := &answerEntry{}
	e.MultiLine = true
	e.Wrapping = fyne.TextWrapWord
	e.ExtendBaseWidget(e)
	return e
}

func isShift(k fyne.KeyName) bool { return k == desktop.KeyShiftLeft || k == desktop.KeyShiftRight }

func (e *answerEntry) KeyDown(k *fyne.KeyEvent) {
	if isShift(k.Name) {
		e.shift = true
	}
	e.Entry.KeyDown(k)
}

func (e *answerEntry) KeyUp(k *fyne.KeyEvent) {
	if isShift(k.Name) {
		e.shift = false
	}
	e.Entry.KeyUp(k)
}

// TypedKey sends on Enter; with Shift held the entry (which has no
// OnSubmitted) inserts the new line itself.
func (e *answerEntry) TypedKey(k *fyne.KeyEvent) {
	if (k.Name == fyne.KeyReturn || k.Name == fyne.KeyEnter) && !e.shift && e.send != nil {
		e.send()
		return
	}
	e.Entry.TypedKey(k)
}

// TypedShortcut sends on Ctrl+Enter: the desktop driver hands a key with
// Ctrl held to the focused widget as a shortcut, not as a typed key.
func (e *answerEntry) TypedShortcut(sc fyne.Shortcut) {
	if c, ok := sc.(*desktop.CustomShortcut); ok && (c.KeyName == fyne.KeyReturn || c.KeyName == fyne.KeyEnter) &&
		c.Modifier == fyne.KeyModifierControl && e.send != nil {
		e.send()
		return
	}
	e.Entry.TypedShortcut(sc)
}

// signIn shows the link (selectable, never opened by itself), Copy and
// Open buttons, and Done.
func (v *questionView) signIn(q workrun.Question, decide func(workrun.Decision)) []fyne.CanvasObject {
	link := widget.NewEntry()
	link.SetText(q.URL)
	link.OnChanged = func(string) { link.SetText(q.URL) } // selectable, not editable
	buttons := container.NewHBox()
	done := widget.NewButton(qText(v.loc, msgQDone), func() { decide(workrun.Decision{Approved: true, Action: workrun.AnswerAccept}) })
	done.Importance = widget.HighImportance
	v.first = done
	buttons.Add(done)
	buttons.Add(widget.NewButton(qText(v.loc, msgQCopyLink), func() {
		if app := fyne.CurrentApp(); app != nil {
			app.Clipboard().SetContent(q.URL)
		}
	}))
	if u, err := url.Parse(q.URL); err == nil && (u.Scheme == "https" || u.Scheme == "http") && v.openURL != nil {
		buttons.Add(widget.NewButton(qText(v.loc, msgQOpenLink), func() { v.openURL(u) }))
	}
	items := []fyne.CanvasObject{widget.NewLabel(qText(v.loc, msgQSignInHint)), link, buttons}
	return append(items, v.declineButtons(q, decide)...)
}

// declineButtons are Decline and Cancel request, when the remote takes them.
func (v *questionView) declineButtons(q workrun.Question, decide func(workrun.Decision)) []fyne.CanvasObject {
	row := container.NewHBox()
	for _, a := range q.Allowed() {
		switch a {
		case workrun.AnswerDecline:
			row.Add(widget.NewButton(qText(v.loc, msgQDecline), func() { decide(workrun.Decision{Action: workrun.AnswerDecline}) }))
		case workrun.AnswerCancel:
			row.Add(widget.NewButton(qText(v.loc, msgQCancel), func() { decide(workrun.Decision{Action: workrun.AnswerCancel}) }))
		}
	}
	if len(row.Objects) == 0 {
		return nil
	}
	return []fyne.CanvasObject{row}
}

// formInput is one field's input and how to read its value.
type formInput struct {
	field   workrun.FormField
	problem *widget.Label
	value   func() (any, error)
}

// form builds one input per field of the remote's schema, in its order:
// an entry (a password entry for a secret field) for text and numbers, a
// check for yes/no, a select for one of several options, checks for any
// of them; defaults filled in, required fields marked "*". Answer checks
// every field first (Form.Check) and shows each reason under its field.
func (v *questionView) form(q workrun.Question, decide func(workrun.Decision)) []fyne.CanvasObject {
	f, err := workrun.ParseForm(q.Schema)
	if err != nil {
		l := problemLabel()
		showProblem(v.loc, l, err)
		return append([]fyne.CanvasObject{l}, v.declineButtons(q, decide)...)
	}
	var inputs []*formInput
	var submit func()
	grid := container.New(&formLayout{})
	for _, fd := range f.Fields {
		in, obj := formWidget(v.loc, fd, func() { submit() })
		inputs = append(inputs, in)
		if fo, ok := obj.(fyne.Focusable); ok {
			v.inputs = append(v.inputs, fo)
			if v.first == nil {
				v.first = fo
			}
		}
		label := fd.Label()
		if fd.Required {
			label += " *"
		}
		name := widget.NewLabel(label)
		name.Wrapping = fyne.TextWrapWord
		if fd.Description != "" {
			name.SetText(label + "\n" + fd.Description)
		}
		grid.Add(name)
		grid.Add(container.NewVBox(obj, in.problem))
	}
	summary := problemLabel()
	answer := widget.NewButton(qText(v.loc, msgQAnswer), func() {
		vals := map[string]any{}
		bad := false
		for _, in := range inputs {
			in.problem.Hide()
			x, err := in.value()
			if err != nil {
				showProblem(v.loc, in.problem, err)
				bad = true
				continue
			}
			if x != nil {
				vals[in.field.Name] = x
			}
		}
		for _, p := range f.Check(vals) {
			for _, in := range inputs {
				if in.field.Name == p.Field && !in.problem.Visible() {
					in.problem.SetText(p.Text.In(v.loc.Messages()))
					in.problem.Show()
				}
			}
			bad = true
		}
		if bad {
			summary.SetText(qText(v.loc, msgQFix))
			summary.Show()
			return
		}
		summary.Hide()
		content, err := json.Marshal(vals)
		if err != nil {
			showProblem(v.loc, summary, err)
			return
		}
		decide(workrun.Decision{Approved: true, Action: workrun.AnswerAccept, Content: content})
	})
	answer.Importance = widget.HighImportance
	submit = answer.OnTapped
	if v.first == nil {
		v.first = answer
	}
	row := container.NewHBox(answer)
	for _, b := range v.declineButtons(q, decide) {
		row.Add(b)
	}
	return []fyne.CanvasObject{grid, summary, row}
}

// formWidget makes fd's input, filled with its default; Enter in a text
// input submits the form.
func formWidget(loc Localizer, fd workrun.FormField, submit func()) (*formInput, fyne.CanvasObject) {
	in := &formInput{field: fd, problem: problemLabel()}
	switch fd.Kind {
	case workrun.FormBoolean:
		c := widget.NewCheck(qText(loc, msgQYes), nil)
		if b, ok := fd.Default.(bool); ok {
			c.SetChecked(b)
		}
		in.value = func() (any, error) { return c.Checked, nil }
		return in, c
	case workrun.FormChoice:
		s := widget.NewSelect(optionLabels(fd), nil)
		s.PlaceHolder = qText(loc, msgQPick)
		if d, ok := fd.Default.(string); ok {
			for _, o := range fd.Options {
				if o.Value == d {
					s.SetSelected(o.Label())
				}
			}
		}
		in.value = func() (any, error) {
			if s.SelectedIndex() < 0 {
				return nil, nil
			}
			return fd.Options[s.SelectedIndex()].Value, nil
		}
		return in, s
	case workrun.FormChoices:
		g := widget.NewCheckGroup(optionLabels(fd), nil)
		g.Horizontal = len(fd.Options) <= 4
		if ds, ok := fd.Default.([]string); ok {
			var sel []string
			for _, o := range fd.Options {
				for _, d := range ds {
					if o.Value == d {
						sel = append(sel, o.Label())
					}
				}
			}
			g.SetSelected(sel)
		}
		in.value = func() (any, error) {
			var out []any
			for _, o := range fd.Options {
				for _, s := range g.Selected {
					if s == o.Label() {
						out = append(out, o.Value)
					}
				}
			}
			if len(out) == 0 {
				return nil, nil
			}
			return out, nil
		}
		return in, g
	}
	var e *widget.Entry
	if fd.Secret {
		e = widget.NewPasswordEntry()
	} else {
		e = widget.NewEntry()
	}
	if fd.Default != nil {
		e.SetText(workrun.FormatValue(fd.Default))
	}
	if fd.Format != "" && fd.Format != "password" {
		e.SetPlaceHolder(fd.Format)
	}
	e.OnSubmitted = func(string) { submit() }
	in.value = func() (any, error) {
		if fd.Kind == workrun.FormString {
			if e.Text == "" {
				return nil, nil
			}
			return e.Text, nil
		}
		return fd.Parse(e.Text)
	}
	return in, e
}

func optionLabels(fd workrun.FormField) []string {
	labels := make([]string, len(fd.Options))
	for i, o := range fd.Options {
		labels[i] = o.Label()
	}
	return labels
}

func problemLabel() *widget.Label {
	l := widget.NewLabel("")
	l.Importance = widget.DangerImportance
	l.Wrapping = fyne.TextWrapWord
	l.Hide()
	return l
}

// showProblem shows err on l in the window's language: each *TextError
// of a joined error on a line.
func showProblem(loc Localizer, l *widget.Label, err error) {
	l.SetText(strings.Join(workrun.ErrorLines(err, loc.Messages()), "\n"))
	l.Show()
}

// formLayout lays out label/input pairs in two columns: labels as wide as
// the widest one's text (at most a third of the width and 220, a longer
// one wraps), inputs the rest; each row as tall as its taller cell.
type formLayout struct{}

// labelWidth is the widest label's natural width: its longest line on one
// line, with the label's padding.
func (formLayout) labelWidth(objs []fyne.CanvasObject) float32 {
	var w float32
	for i := 0; i+1 < len(objs); i += 2 {
		l, ok := objs[i].(*widget.Label)
		if !ok {
			w = max(w, objs[i].MinSize().Width)
			continue
		}
		for _, line := range strings.Split(l.Text, "\n") {
			w = max(w, fyne.MeasureText(line, theme.TextSize(), l.TextStyle).Width+2*theme.InnerPadding())
		}
	}
	return w
}

func (l formLayout) cols(objs []fyne.CanvasObject, w float32) (float32, float32) {
	lw := min(l.labelWidth(objs), w/3, 220)
	return lw, w - lw - 8
}

func (l formLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	lw, iw := l.cols(objs, size.Width)
	y := float32(0)
	for i := 0; i+1 < len(objs); i += 2 {
		a, b := objs[i], objs[i+1]
		if !b.Visible() {
			continue
		}
		a.Resize(fyne.NewSize(lw, a.MinSize().Height)) // its height at this width
		h := max(a.MinSize().Height, b.MinSize().Height)
		a.Move(fyne.NewPos(0, y))
		a.Resize(fyne.NewSize(lw, h))
		b.Move(fyne.NewPos(lw+8, y))
		b.Resize(fyne.NewSize(iw, b.MinSize().Height))
		y += h + 4
	}
}

func (l formLayout) MinSize(objs []fyne.CanvasObject) fyne.Size {
	var w, h float32
	lw := min(l.labelWidth(objs), 220)
	for i := 0; i+1 < len(objs); i += 2 {
		a, b := objs[i], objs[i+1]
		w = max(w, lw+8+b.MinSize().Width)
		h += max(a.MinSize().Height, b.MinSize().Height) + 4
	}
	return fyne.NewSize(w, h)
}

type qMsgID string

const (
	msgQWaiting    qMsgID = "ui.question_waiting"
	msgQFile       qMsgID = "ui.question_file"
	msgQData       qMsgID = "ui.question_data"
	msgQTypeAnswer qMsgID = "ui.question_type_answer"
	msgQSecret     qMsgID = "ui.question_secret"
	msgQAnswer     qMsgID = "ui.question_answer"
	msgQDone       qMsgID = "ui.question_done"
	msgQCopyLink   qMsgID = "ui.question_copy_link"
	msgQOpenLink   qMsgID = "ui.question_open_link"
	msgQSignInHint qMsgID = "ui.question_sign_in_hint"
	msgQDecline    qMsgID = "ui.question_decline"
	msgQCancel     qMsgID = "ui.question_cancel"
	msgQFix        qMsgID = "ui.question_fix"
	msgQYes        qMsgID = "ui.question_yes"
	msgQPick       qMsgID = "ui.question_pick"
	msgQAsker      qMsgID = "ui.question_asker"
	msgQHeader     qMsgID = "ui.question_header"
	msgQEnterHint  qMsgID = "ui.question_enter_hint"
)

var questionTexts = workrun.NewCatalog(map[qMsgID][2]string{
	msgQWaiting:    {"Waiting for you — %s asks (round %d):", "等待你回答 — %s 提问（第 %d 轮）："},
	msgQFile:       {"file", "文件"},
	msgQData:       {"data", "数据"},
	msgQTypeAnswer: {"Type your answer", "输入你的回答"},
	msgQSecret:     {"Secret (never saved)", "保密（不会保存）"},
	msgQAnswer:     {"Answer", "回答"},
	msgQDone:       {"Done", "完成"},
	msgQCopyLink:   {"Copy link", "复制链接"},
	msgQOpenLink:   {"Open in browser", "打开链接"},
	msgQSignInHint: {"Sign in at this address (Workrun does not open it by itself), then press Done:", "请在此地址登录（Workrun 不会自动打开），然后点击“完成”："},
	msgQDecline:    {"Decline", "拒绝"},
	msgQCancel:     {"Cancel request", "取消请求"},
	msgQFix:        {"Some fields need a fix; nothing was sent.", "有些字段需要修改；未发送任何内容。"},
	msgQYes:        {"yes", "是"},
	msgQPick:       {"(pick one)", "（请选择）"},
	msgQAsker:      {"%s (%s)", "%s（%s）"},
	msgQEnterHint:  {"Enter or Ctrl+Enter sends; Shift+Enter starts a new line.", "按 Enter 或 Ctrl+Enter 发送；Shift+Enter 换行。"},
	msgQHeader:     {"Waiting for you — %s asks: %s — answer below; Stop ends the run and sends the remote task its cancel; Run again starts a new run.", "等待你回答 — %s 提问：%s — 请在下方回答；“停止”会结束运行并向远程任务发送取消；“重新运行”会开始新的运行。"},
})

func qText(loc Localizer, id qMsgID, args ...any) string {
	return questionTexts.In(loc.Messages(), id, args...)
}

// refreshQuestion shows the question node id waits on, if any, with the
// inputs to answer it — also while other branches of the run go on. The
// view is kept while the same round is open, so what the person typed
// survives redraws.
func (p *Panel) refreshQuestion(id string) {
	n := p.nodes[id]
	q := n.Question
	if p.readOnly || q == nil || n.Status != workrun.NodeInterrupted || p.OnDecide == nil || p.run.Status == workrun.RunStopping || p.run.Status.Terminal() {
		if p.askView != nil {
			p.askPrev = p.askView // its input may still have the keyboard
		}
		p.askView = nil
		p.ask.RemoveAll()
		if p.ask.Visible() {
			p.ask.Hide()
			p.askChanged()
		}
		return
	}
	// The question says what the node's reason says; it takes the top of
	// the detail area, over the node's values and messages.
	p.nodeErr.Hide()
	if p.askView != nil && p.askView.key == questionKey(p.runID, id, *q) {
		return
	}
	old := p.askView
	if old == nil {
		old = p.askPrev
	}
	p.askView, p.askPrev = nil, nil
	p.askView = newQuestionView(p.loc, p.words, p.runID, id, p.askedBy(id, *q), p.OnDecide, p.OnOpenURL)
	p.ask.RemoveAll()
	p.ask.Add(p.askView.root)
	p.ask.Show()
	p.askChanged()
	// The keyboard goes to the answer, unless the person is typing
	// somewhere else. The canvas is found by the header, the one part
	// always drawn: the driver knows no canvas for an object until it has
	// drawn it once, and p.ask is hidden while no question is open, the
	// node list while no run is shown (a question that comes before the
	// list is first drawn, on a loaded machine, found none and the keyboard
	// stayed where it was).
	if app := fyne.CurrentApp(); app != nil && p.askView.first != nil {
		if c := app.Driver().CanvasForObject(p.header); c != nil {
			if f := c.Focused(); !typingIn(f) || old != nil && old.owns(f) {
				c.Focus(p.askView.first)
			}
		}
	}
}

// detailOffset is the run panel's detail split: the node's values above
// its messages.
const detailOffset = 0.45

// askChanged tells the window that a question came or went: while one is
// open the run panel asks for the height its form needs (Asking, WantHeight).
func (p *Panel) askChanged() {
	if p.OnAskChanged != nil {
		p.OnAskChanged()
	}
}

// Asking reports whether the panel shows a question to answer.
func (p *Panel) Asking() bool { return p.ask.Visible() && len(p.ask.Objects) > 0 }

// WantHeight is the height the panel needs to show its header, the open
// question's whole form and a row of the node list (0 with no question).
func (p *Panel) WantHeight() float32 {
	if !p.Asking() {
		return 0
	}
	return p.root.MinSize().Height
}

// typingIn reports whether f is a text input (the person may be typing
// there: a question does not take the keyboard from it).
func typingIn(f fyne.Focusable) bool {
	switch f.(type) {
	case *widget.Entry, *widget.SelectEntry:
		return true
	}
	return false
}

// owns reports whether f is one of the view's inputs.
func (v *questionView) owns(f fyne.Focusable) bool {
	return slices.Contains(v.inputs, f)
}

// OpenQuestion is a question the run shown waits on (the selected node's
// when it has one, else the first in workflow order), or nil. It is a copy
// to show: its From names the node that asks (askedBy).
func (p *Panel) OpenQuestion() *workrun.Question {
	if n, ok := p.nodes[p.sel]; ok && n.Question != nil && n.Status == workrun.NodeInterrupted {
		q := p.askedBy(p.sel, *n.Question)
		return &q
	}
	for _, id := range p.order {
		if n := p.nodes[id]; n.Question != nil && n.Status == workrun.NodeInterrupted {
			q := p.askedBy(id, *n.Question)
			return &q
		}
	}
	return nil
}

// askedBy is q as shown for node id: the node the person knows from the
// canvas (its title) asks, the remote that sent it (an agent's name, an
// MCP server's host:port) second — "Survey (127.0.0.1:36297)".
func (p *Panel) askedBy(id string, q workrun.Question) workrun.Question {
	title := ""
	for _, n := range p.run.Workflow.Nodes {
		if n.ID == id {
			title = n.Title
		}
	}
	switch {
	case title == "":
	case q.From == "" || q.From == title:
		q.From = title
	default:
		q.From = qText(p.loc, msgQAsker, title, q.From)
	}
	return q
}
