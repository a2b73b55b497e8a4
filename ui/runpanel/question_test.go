package runpanel

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"workrun/workrun"
)

const questionSchema = `{"type":"object","properties":{
	"host":{"type":"string","title":"Host"},
	"port":{"type":"integer","minimum":1,"maximum":65535,"default":8080},
	"mode":{"type":"string","oneOf":[{"const":"fast","title":"Fast"},{"const":"safe","title":"Safe"}],"default":"safe"},
	"tags":{"type":"array","items":{"type":"string","enum":["a","b"]},"default":["b"]},
	"tls":{"type":"boolean","default":true},
	"token":{"type":"string","format":"password"}},"required":["host","port"]}`

// askedPanel is a run panel showing node "agent" waiting on q; decisions
// go to the returned slice.
func askedPanel(t *testing.T, q workrun.Question, runStatus workrun.RunStatus) (*Panel, *[]workrun.Decision) {
	t.Helper()
	p := newPanel(langNow(), false)
	var got []workrun.Decision
	p.OnDecide = func(d workrun.Decision) { got = append(got, d) }
	wf := workrun.Workflow{Nodes: []workrun.NodeSpec{{ID: "start", Type: "start"}, {ID: "agent", Type: "remote_mcp"}}}
	p.Load(workrun.Run{ID: "r1", Workflow: wf, Status: runStatus},
		[]workrun.NodeRun{{RunID: "r1", NodeID: "agent", Type: "remote_mcp", Status: workrun.NodeInterrupted, Question: &q}}, nil)
	test.NewWindow(p.Object()).Resize(fyne.NewSize(900, 700))
	return p, &got
}

func objectsOf[T fyne.CanvasObject](c fyne.CanvasObject) []T {
	var out []T
	for _, o := range test.LaidOutObjects(c) {
		if x, ok := o.(T); ok {
			out = append(out, x)
		}
	}
	return out
}

func tapQButton(t *testing.T, c fyne.CanvasObject, text string) {
	t.Helper()
	for _, b := range objectsOf[*widget.Button](c) {
		if b.Text == text {
			test.Tap(b)
			return
		}
	}
	t.Fatalf("no button %q", text)
}

func visibleLabels(c fyne.CanvasObject) string {
	var s []string
	for _, l := range objectsOf[*widget.Label](c) {
		if l.Visible() && l.Text != "" {
			s = append(s, l.Text)
		}
	}
	return strings.Join(s, "\n")
}

// TestQuestionForm_DefaultsValidationAnswer: the form is built from the
// schema with its defaults; Answer with a missing required field and a bad
// number sends nothing and says why under each field, in the window's
// language; a fixed answer sends the typed values, the choice's value, the
// multi-select and the password field.
func TestQuestionForm_DefaultsValidationAnswer(t *testing.T) {
	for _, lng := range []string{"en", "zh-Hans"} {
		t.Run(lng, func(t *testing.T) {
			test.NewTempApp(t)
			setLanguage(lng)
			t.Cleanup(func() { setLanguage("en") })
			q := workrun.Question{Round: 2, Kind: workrun.QuestionForm, From: "Proxy tool", Message: "Where is the proxy?", Schema: json.RawMessage(questionSchema)}
			// Waiting while other branches go on: the run is still running.
			p, got := askedPanel(t, q, workrun.RunRunning)
			if p.NodeStatus("agent") != testWording(langNow()).Status(string(StatusWaiting)) {
				t.Errorf("node status %q, want waiting for you", p.NodeStatus("agent"))
			}
			labels := visibleLabels(p.ask)
			for _, want := range []string{qText(langNow(), msgQWaiting, "Proxy tool", 2), "Where is the proxy?", "Host *", "port *"} {
				if !strings.Contains(labels, want) {
					t.Errorf("form lacks %q:\n%s", want, labels)
				}
			}
			entries := objectsOf[*widget.Entry](p.ask)
			if len(entries) != 3 || entries[1].Text != "8080" || !entries[2].Password {
				t.Fatalf("entries: %d, port %q", len(entries), entries[1].Text)
			}
			if s := objectsOf[*widget.Select](p.ask); len(s) != 1 || s[0].Selected != "Safe" {
				t.Errorf("select: %+v", s)
			}
			test.Type(entries[1], "x") // "8080x"
			tapQButton(t, p.ask, qText(langNow(), msgQAnswer))
			if len(*got) != 0 {
				t.Fatalf("an invalid answer was sent: %+v", *got)
			}
			labels = visibleLabels(p.ask)
			want := []string{"Host: a value is required", "port: want a number", "Some fields need a fix"}
			if lng != "en" {
				want = []string{"Host：必须填写", "port：应为数字", "未发送任何内容"}
			}
			for _, w := range want {
				if !strings.Contains(labels, w) {
					t.Errorf("problems lack %q:\n%s", w, labels)
				}
			}
			test.Type(entries[0], "proxy.example")
			entries[1].SetText("3128")
			test.Type(entries[2], "s3cret")
			objectsOf[*widget.Select](p.ask)[0].SetSelected("Fast")
			tapQButton(t, p.ask, qText(langNow(), msgQAnswer))
			if len(*got) != 1 {
				t.Fatalf("sent %d answers", len(*got))
			}
			d := (*got)[0]
			var vals map[string]any
			if err := json.Unmarshal(d.Content, &vals); err != nil {
				t.Fatal(err)
			}
			wantVals := map[string]any{"host": "proxy.example", "port": 3128.0, "mode": "fast", "tags": []any{"b"}, "tls": true, "token": "s3cret"}
			if d.RunID != "r1" || d.NodeID != "agent" || d.Round != 2 || d.Action != workrun.AnswerAccept || !jsonEqual(vals, wantVals) {
				t.Errorf("sent %+v %v", d, vals)
			}
			tapQButton(t, p.ask, qText(langNow(), msgQDecline))
			tapQButton(t, p.ask, qText(langNow(), msgQCancel))
			if len(*got) != 3 || (*got)[1].Action != workrun.AnswerDecline || (*got)[2].Action != workrun.AnswerCancel || (*got)[2].Content != nil {
				t.Errorf("decline/cancel sent %+v", (*got)[1:])
			}
		})
	}
}

func jsonEqual(a, b map[string]any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

// TestQuestionText_AndSignIn: a text question takes a typed answer (an
// empty one is refused, Secret marks it); a sign-in shows the link, opens
// it only when Open is pressed, and Done sends accept.
func TestQuestionText_AndSignIn(t *testing.T) {
	test.NewTempApp(t)
	setLanguage("en")
	p, got := askedPanel(t, workrun.Question{Round: 1, Kind: workrun.QuestionText, From: "Travel agent", Message: "Which city?"}, workrun.RunInterrupted)
	tapQButton(t, p.ask, "Answer")
	if len(*got) != 0 || !strings.Contains(visibleLabels(p.ask), "the answer is empty") {
		t.Fatalf("empty answer: %+v\n%s", *got, visibleLabels(p.ask))
	}
	e := objectsOf[*answerEntry](p.ask)[0]
	test.Type(e, "Lisbon")
	objectsOf[*widget.Check](p.ask)[0].SetChecked(true)
	if !e.Password {
		t.Error("Secret does not hide the entry")
	}
	tapQButton(t, p.ask, "Answer")
	if len(*got) != 1 || (*got)[0].Text != "Lisbon" || !(*got)[0].Secret || (*got)[0].Round != 1 {
		t.Fatalf("sent %+v", *got)
	}
	// Redraws keep what was typed while the same round is open.
	p.dirtyDetail = true
	p.Flush()
	if objectsOf[*answerEntry](p.ask)[0].Text != "Lisbon" {
		t.Error("a redraw lost the typed answer")
	}

	var opened []string
	p2, got2 := askedPanel(t, workrun.Question{Round: 1, Kind: workrun.QuestionSignIn, Message: "Sign in to book", URL: "https://login.example/a?b=1"}, workrun.RunInterrupted)
	p2.OnOpenURL = func(u *url.URL) { opened = append(opened, u.String()) }
	p2.askView = nil
	p2.refreshQuestion("agent")
	if !strings.Contains(visibleLabels(p2.ask), "Sign in to book") || objectsOf[*widget.Entry](p2.ask)[0].Text != "https://login.example/a?b=1" {
		t.Errorf("sign-in view:\n%s", visibleLabels(p2.ask))
	}
	if len(opened) != 0 {
		t.Fatal("the link was opened by itself")
	}
	tapQButton(t, p2.ask, "Open in browser")
	tapQButton(t, p2.ask, "Done")
	if len(opened) != 1 || len(*got2) != 1 || (*got2)[0].Action != workrun.AnswerAccept {
		t.Errorf("opened %v, sent %+v", opened, *got2)
	}
}

// TestQuestionText_EnterSends: in a text answer Enter and Ctrl+Enter send,
// Shift+Enter starts a new line, and a hint under the box says so.
func TestQuestionText_EnterSends(t *testing.T) {
	test.NewTempApp(t)
	setLanguage("en")
	p, got := askedPanel(t, workrun.Question{Round: 1, Kind: workrun.QuestionText, From: "Travel agent", Message: "Which city?"}, workrun.RunInterrupted)
	e := p.askView.first.(interface {
		fyne.Focusable
		desktop.Keyable
	})
	test.Type(e, "Lisbon")
	e.KeyDown(&fyne.KeyEvent{Name: desktop.KeyShiftLeft})
	e.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	e.KeyUp(&fyne.KeyEvent{Name: desktop.KeyShiftLeft})
	test.Type(e, "Porto")
	if len(*got) != 0 {
		t.Fatalf("Shift+Enter sent %+v", *got)
	}
	e.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if len(*got) != 1 || !strings.Contains((*got)[0].Text, "Lisbon\nPorto") {
		t.Fatalf("Enter sent %+v, want one answer of two lines", *got)
	}
	// Ctrl+Enter (a shortcut to the driver) sends too, and the hint under
	// the box says how.
	p2, got2 := askedPanel(t, workrun.Question{Round: 1, Kind: workrun.QuestionText, From: "Travel agent", Message: "Which city?"}, workrun.RunInterrupted)
	e2 := p2.askView.first.(interface {
		fyne.Focusable
		fyne.Shortcutable
	})
	test.Type(e2, "Faro")
	e2.TypedShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyReturn, Modifier: fyne.KeyModifierControl})
	if len(*got2) != 1 || (*got2)[0].Text != "Faro" {
		t.Fatalf("Ctrl+Enter sent %+v, want the answer Faro", *got2)
	}
	hint := false
	for _, l := range objectsOf[*widget.Label](p2.askView.root) {
		hint = hint || l.Text == qText(langNow(), msgQEnterHint)
	}
	if !hint {
		t.Errorf("no hint %q under the answer's box", qText(langNow(), msgQEnterHint))
	}
}
