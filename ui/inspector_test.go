package ui

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
	"github.com/google/go-cmp/cmp"

	"workrun/ui/document"
	"workrun/ui/inspector"
	"workrun/workrun"
)

// TestInspector_RemoteAgentForm types into the Remote Agent form and checks
// what it reports before and after Apply (docs/remote-agent.md R3).
func TestInspector_RemoteAgentForm(t *testing.T) {
	w := newTestWindow(t, Deps{Engine: checkingEngine()})
	wf := SampleRemote(langNow(), "http://127.0.0.1:41241")
	wf.State["document"] = workrun.FieldFile
	w.OpenWorkflow("", wf)
	w.doc.Select("ask", false)
	in := w.insp
	entry := func(k string) *widget.Entry { return in.Widget(k).(*widget.Entry) }

	tests := []struct {
		name string
		edit func()
		want []string // substrings of the problems shown, in order
	}{
		{"sample is valid", func() {}, nil},
		{"timeout above 600", func() { entry("timeout_seconds").SetText("601") }, []string{"from 1 to 600"}},
		{"timeout not a number", func() { entry("timeout_seconds").SetText("soon") }, []string{"whole number"}},
		{"timeout back in range", func() { entry("timeout_seconds").SetText("600") }, nil},
		{"chat API url without scheme", func() { entry("url").SetText("api.openai.com/v1/chat") }, []string{"not an absolute http(s) URL"}},
		{"no message and no inputs", func() {
			entry("url").SetText("http://127.0.0.1:41241")
			in.Widget("message").(*inspector.TemplateEntry).SetText("")
			in.Widget("inputs").(*widget.CheckGroup).SetSelected(nil)
		}, []string{"at least one State field"}},
		{"inputs and an attachment", func() {
			in.Widget("inputs").(*widget.CheckGroup).SetSelected([]string{"question"})
			in.Widget("attachments").(*widget.CheckGroup).SetSelected([]string{"document"})
		}, nil},
	}
	for _, tt := range tests {
		tt.edit()
		got := in.Problems()
		if len(got) != len(tt.want) {
			t.Fatalf("%s: problems %q, want %d", tt.name, got, len(tt.want))
		}
		for i, w := range tt.want {
			if !strings.Contains(got[i], w) {
				t.Errorf("%s: problem %q, want it to mention %q", tt.name, got[i], w)
			}
		}
	}
	// Only file fields are offered as attachments (the sample's files
	// field keeps the agent's files).
	if diff := cmp.Diff([]string{"document", "files"}, in.Widget("attachments").(*widget.CheckGroup).Options); diff != "" {
		t.Errorf("attachment choices (-want +got):\n%s", diff)
	}
	// No Apply button: what was typed is in the document already.
	in.Widget("title").(*widget.Entry).SetText("Ask nicely")
	n, _ := w.doc.Node("ask")
	c, err := DecodeConfig(n.Config)
	if err != nil {
		t.Fatal(err)
	}
	want := Config{URL: "http://127.0.0.1:41241", Inputs: []string{"question"}, Attachments: []string{"document"}, Output: "answer", OutputFiles: "files", TimeoutSeconds: 600}
	if diff := cmp.Diff(want, c); diff != "" {
		t.Errorf("applied config (-want +got):\n%s", diff)
	}
	if n.Title != "Ask nicely" {
		t.Errorf("title %q", n.Title)
	}
	// Each field typed is one undo step, however many keys it took: the
	// title, attachments, inputs, message, URL and timeout make six.
	w.doc.Undo()
	n, _ = w.doc.Node("ask")
	if c, _ := DecodeConfig(n.Config); n.Title != "Ask the agent" || len(c.Attachments) != 1 {
		t.Errorf("first undo: title %q attachments %v; want only the title undone", n.Title, c.Attachments)
	}
	for range 5 {
		w.doc.Undo()
	}
	n, _ = w.doc.Node("ask")
	if diff := cmp.Diff(SampleRemote(langNow(), "http://127.0.0.1:41241").Nodes[1].Config, n.Config); diff != "" || w.doc.CanUndo() {
		t.Errorf("after six undos (can undo more: %v) config (-want +got):\n%s", w.doc.CanUndo(), diff)
	}
}

// TestInspector_RunDisabledWhileProblems: a problem typed and applied
// disables Run and shows on the node and in the problem list (docs/product.md W1).
func TestInspector_RunDisabledWhileProblems(t *testing.T) {
	eng := checkingEngine()
	w := newTestWindow(t, Deps{Engine: eng})
	w.OpenWorkflow("", SampleRemote(langNow(), "http://127.0.0.1:41241"))
	if !w.RunEnabled() {
		t.Fatalf("Run disabled: %v", w.Problems())
	}
	w.doc.Select("ask", false)
	w.insp.Widget("timeout_seconds").(*widget.Entry).SetText("0")
	if w.RunEnabled() {
		t.Error("Run enabled with a timeout of 0")
	}
	if got := w.cv.NodeWarning("ask"); !strings.Contains(got, "from 1 to 600") {
		t.Errorf("node warning %q", got)
	}
	if len(w.Problems()) != 1 || w.Problems()[0].NodeID != "ask" {
		t.Errorf("problem list %v", w.Problems())
	}
	// The engine's own problems count too.
	w.doc.Undo()
	eng.ValidateFunc = func(workrun.Workflow) []Problem {
		return []Problem{{NodeID: "end", EdgeIndex: -1, Message: "engine says no"}}
	}
	w.validate()
	if w.RunEnabled() || len(w.Problems()) != 1 || w.Problems()[0].Message != "engine says no" {
		t.Errorf("engine problem not shown: run enabled %v, problems %v", w.RunEnabled(), w.Problems())
	}
}

// TestInspector_TestConnection shows the card facts, or the clear error.
func TestInspector_TestConnection(t *testing.T) {
	var gotURL, gotCred string
	check := func(_ context.Context, u, cred string) (AgentReport, error) {
		gotURL, gotCred = u, cred
		if strings.Contains(u, "chat") {
			return AgentReport{}, errors.New("no Agent Card at this URL: this looks like a chat API, not an A2A service")
		}
		return AgentReport{CardName: "Demo Agent", InterfaceURL: u + "/a2a", Streaming: true, SecuritySchemes: []string{"bearer"}, CredentialAccepted: true}, nil
	}
	w := newTestWindow(t, Deps{CheckAgent: check})
	w.OpenWorkflow("", SampleRemote(langNow(), "http://127.0.0.1:41241"))
	w.doc.Select("ask", false)
	in := w.insp
	in.Widget("credential").(*widget.Select).SetSelected("")
	run := func() string {
		done := make(chan struct{})
		in.OnTested = func() { close(done) }
		fyne.DoAndWait(func() { test.Tap(in.Widget("test").(*widget.Button)) })
		<-done
		var s string
		fyne.DoAndWait(func() { s = in.TestResult() })
		return s
	}
	got := run()
	for _, want := range []string{"Demo Agent", "http://127.0.0.1:41241/a2a", "Streaming: yes", "Security schemes: bearer", "Tested without a credential."} {
		if !strings.Contains(got, want) {
			t.Errorf("result %q lacks %q", got, want)
		}
	}
	if gotURL != "http://127.0.0.1:41241" || gotCred != "" {
		t.Errorf("checked %q with credential %q", gotURL, gotCred)
	}
	in.Widget("url").(*widget.Entry).SetText("https://api.example.com/v1/chat")
	if got := run(); !strings.Contains(got, "chat API") {
		t.Errorf("error result %q", got)
	}
	// The result names the credential the test sent.
	s := in.Widget("credential").(*widget.Select)
	s.Options = append(s.Options, "prod")
	s.SetSelected("prod")
	if got := run(); !strings.Contains(got, "Tested with the credential prod.") || gotCred != "prod" {
		t.Errorf("result %q sent %q, want it to name the credential prod", got, gotCred)
	}
}

// TestInspector_TestConnectionWantsCredential: an agent that answers 401 is
// reported in words ("wants a credential"), with a button that opens the
// credentials dialog; a refused credential likewise; a healthy answer hides
// the button again.
func TestInspector_TestConnectionWantsCredential(t *testing.T) {
	var answer error
	check := func(context.Context, string, string) (AgentReport, error) {
		return AgentReport{CardName: "Demo Agent"}, answer
	}
	w := newTestWindow(t, Deps{CheckAgent: check})
	w.OpenWorkflow("", SampleRemote(langNow(), "http://127.0.0.1:41241"))
	w.doc.Select("ask", false)
	in := w.insp
	run := func() (string, bool) {
		done := make(chan struct{})
		in.OnTested = func() { close(done) }
		fyne.DoAndWait(func() { test.Tap(in.Widget("test").(*widget.Button)) })
		<-done
		var s string
		var offered bool
		fyne.DoAndWait(func() { s, offered = in.TestResult(), in.Widget("add_credential").Visible() })
		return s, offered
	}
	for _, c := range []struct {
		err   error
		want  string
		offer bool
	}{
		{fmt.Errorf("%w: 401 Unauthorized", ErrNeedsCredential), "wants a credential", true},
		{fmt.Errorf("%w: 401 Unauthorized", ErrCredentialRefused), "refused this credential", true},
		{nil, "Demo Agent", false},
	} {
		answer = c.err
		got, offered := run()
		if !strings.Contains(got, c.want) || strings.Contains(got, "401") {
			t.Errorf("%v: result %q, want it to say %q in words", c.err, got, c.want)
		}
		if offered != c.offer {
			t.Errorf("%v: add-credential button shown %v, want %v", c.err, offered, c.offer)
		}
	}
}

// TestInspector_FormOfEveryKind: each kind's form is built from its
// description; opening it changes nothing (no edit, no undo step), and an
// edit keeps the config keys the form does not show.
func TestInspector_FormOfEveryKind(t *testing.T) {
	w := newTestWindow(t, Deps{Engine: checkingEngine()})
	wf := workrun.Workflow{Name: "all", State: map[string]workrun.FieldType{"t": workrun.FieldText, "n": workrun.FieldNumber}}
	for _, k := range kindTypes() {
		cfg := DefaultConfig(langNow(), k)
		if k == "process" {
			cfg = document.WithConfigKey(cfg, "command", []string{"sh", "-c", "echo {{t}}"})
		}
		wf.Nodes = append(wf.Nodes, workrun.NodeSpec{ID: k, Type: k, Config: document.WithConfigKey(cfg, "future_key", map[string]int{"x": 1})})
	}
	w.OpenWorkflow("", wf)
	for _, n := range wf.Nodes {
		w.doc.Select(n.ID, false)
		info, _ := kindInfo(n.Type)
		for _, f := range info.Fields {
			if w.insp.Widget(f.Key) == nil && f.Value != workrun.ValueToolArguments {
				t.Errorf("%s: no editor for %s", n.Type, f.Key)
			}
		}
		if got, _ := w.doc.Node(n.ID); string(got.Config) != string(n.Config) || w.doc.CanUndo() {
			t.Errorf("%s: opening the form changed the config to %s (undo: %v)", n.Type, got.Config, w.doc.CanUndo())
		}
	}
	w.doc.Select("process", false)
	w.insp.Widget("timeout_seconds").(*widget.Entry).SetText("30")
	got, _ := w.doc.Node("process")
	want := `{"command":["sh","-c","echo {{t}}"],"future_key":{"x":1},"timeout_seconds":30}`
	if string(got.Config) != want {
		t.Errorf("after an edit: %s, want %s", got.Config, want)
	}
	// The form's problems are the kind's own, for this node: this version's
	// kinds refuse the key the form kept.
	w.doc.Select("ask_human", false)
	if ps := w.insp.Problems(); len(ps) != 1 || !strings.Contains(ps[0], `"future_key"`) {
		t.Errorf("ask_human problems %q", ps)
	}
}

// TestInspector_EditorsByValueKind: each value kind's editor writes the
// config as the workflow file holds it (docs/workflow-format.md), and a
// line it cannot read is pending, never applied.
func TestInspector_EditorsByValueKind(t *testing.T) {
	w := newTestWindow(t, Deps{Engine: checkingEngine()})
	wf := workrun.Workflow{Name: "edit", State: map[string]workrun.FieldType{"name": workrun.FieldText, "msg": workrun.FieldText,
		"n": workrun.FieldNumber, "out": workrun.FieldJSON}}
	for _, k := range []string{"set", "condition", "process", "ask_human", "human_review"} {
		wf.Nodes = append(wf.Nodes, workrun.NodeSpec{ID: k, Type: k, Config: DefaultConfig(langNow(), k)})
	}
	w.OpenWorkflow("", wf)
	entry := func(k string) *widget.Entry { return w.insp.Widget(k).(*widget.Entry) }
	sel := func(k string) *widget.Select { return w.insp.Widget(k).(*widget.Select) }
	config := func(id string) string { n, _ := w.doc.Node(id); return string(n.Config) }
	tests := []struct {
		node string
		edit func()
		want string
	}{
		{"set", func() { entry("values").SetText("msg = hello {{name}}\n\n n = 3 ") }, `{"values":{"msg":"hello {{name}}","n":"3"}}`},
		{"condition", func() { sel("field").SetSelected("n"); sel("op").SetSelected("gt"); entry("value").SetText("3") }, `{"field":"n","op":"gt","value":3}`},
		{"condition", func() { entry("value").SetText("plain words") }, `{"field":"n","op":"gt","value":"plain words"}`},
		{"process", func() {
			entry("command").SetText("sh\n-c\necho {{name}}")
			entry("env").SetText("GREETING={{msg}}")
			sel("stdout").SetSelected("out")
			entry("cleanup").SetText("rm\n-f\nx")
		}, `{"cleanup":["rm","-f","x"],"command":["sh","-c","echo {{name}}"],"env":{"GREETING":"{{msg}}"},"stdout":"out","timeout_seconds":60}`},
		{"process", func() { entry("timeout_seconds").SetText("") }, `{"cleanup":["rm","-f","x"],"command":["sh","-c","echo {{name}}"],"env":{"GREETING":"{{msg}}"},"stdout":"out"}`},
		{"ask_human", func() { entry("prompt").SetText("Your name?"); sel("field").SetSelected("name") }, `{"field":"name","prompt":"Your name?"}`},
		{"human_review", func() { w.insp.Widget("fields").(*widget.CheckGroup).SetSelected([]string{"msg"}) }, `{"fields":["msg"],"prompt":"Approve?"}`},
	}
	for _, tt := range tests {
		w.doc.Select(tt.node, false)
		tt.edit()
		if got := config(tt.node); got != tt.want {
			t.Errorf("%s: config %s, want %s", tt.node, got, tt.want)
		}
		if p := w.insp.Pending(); p != "" {
			t.Errorf("%s: pending %q", tt.node, p)
		}
	}
	// Only text fields are offered for the answer of Ask Human.
	w.doc.Select("ask_human", false)
	if diff := cmp.Diff([]string{"msg", "name"}, sel("field").Options); diff != "" {
		t.Errorf("answer field choices (-want +got):\n%s", diff)
	}
	// A values line without "=" is marked and not applied.
	w.doc.Select("set", false)
	before := config("set")
	entry("values").SetText("msg hello")
	if w.insp.Pending() == "" || config("set") != before {
		t.Errorf("unreadable line: pending %q, config %s", w.insp.Pending(), config("set"))
	}
	if ps := w.insp.Problems(); len(ps) == 0 || !strings.Contains(ps[0], "field = template") {
		t.Errorf("problems %q", ps)
	}
}

// TestInspector_TestResultKeptOnReselect: a node's connection test result
// shows again when the node is selected again (it vanished, issue 40),
// but not once its URL changed.
func TestInspector_TestResultKeptOnReselect(t *testing.T) {
	check := func(_ context.Context, u, _ string) (AgentReport, error) {
		return AgentReport{CardName: "Demo Agent", InterfaceURL: u}, nil
	}
	w := newTestWindow(t, Deps{CheckAgent: check})
	w.OpenWorkflow("", SampleRemote(langNow(), "http://127.0.0.1:41241"))
	w.doc.Select("ask", false)
	in := w.insp
	done := make(chan struct{})
	in.OnTested = func() { close(done) }
	fyne.DoAndWait(func() { test.Tap(in.Widget("test").(*widget.Button)) })
	<-done
	var first string
	fyne.DoAndWait(func() { first = in.TestResult() })
	if !strings.Contains(first, "Demo Agent") {
		t.Fatalf("the test shows %q", first)
	}
	var again string
	fyne.DoAndWait(func() {
		w.doc.Select("start", false)
		w.doc.Select("ask", false)
		again = in.TestResult()
	})
	if again != first {
		t.Errorf("reselected, the node shows %q, want its last result %q", again, first)
	}
	fyne.DoAndWait(func() {
		in.Widget("url").(*widget.Entry).SetText("http://127.0.0.1:9")
		w.doc.Select("start", false)
		w.doc.Select("ask", false)
		again = in.TestResult()
	})
	if again != "" {
		t.Errorf("with another URL the old result still shows: %q", again)
	}
}
