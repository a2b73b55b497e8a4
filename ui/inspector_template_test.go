package ui

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"workrun/ui/inspector"
	"workrun/workrun"
)

// templateWorkflow is a start node and a Remote Agent with no message yet.
func templateWorkflow() workrun.Workflow {
	return workrun.Workflow{Name: "tpl",
		State: map[string]workrun.FieldType{"question": workrun.FieldText, "topic": workrun.FieldText, "count": workrun.FieldNumber,
			"answer": workrun.FieldText, "doc": workrun.FieldFile},
		Nodes: []workrun.NodeSpec{{ID: "start", Type: "start"},
			{ID: "ask", Type: "remote_agent", Config: json.RawMessage(`{"url":"http://127.0.0.1:41241/","inputs":["question"],"output":"answer","timeout_seconds":120}`)}},
		Edges: []workrun.Edge{{From: "start", To: "ask"}}}
}

// nodeConfig is node id's config as the document holds it.
func nodeConfig(t *testing.T, w *Window, id string) map[string]any {
	t.Helper()
	n, ok := w.doc.Node(id)
	if !ok {
		t.Fatalf("no node %s", id)
	}
	var m map[string]any
	if err := json.Unmarshal(n.Config, &m); err != nil {
		t.Fatalf("config %s: %v", n.Config, err)
	}
	return m
}

// completionNames are the items the message's completion list offers, as
// shown.
func completionNames(in *inspector.Inspector) []string {
	return buttonTexts(completion(in, "message"))
}

// completion is the completion list of a template key's entry, as shown.
func completion(in *inspector.Inspector, key string) []*widget.Button {
	e, ok := in.Widget(key).(*inspector.TemplateEntry)
	if !ok {
		return nil
	}
	return e.Completions()
}

func buttonTexts(bs []*widget.Button) []string {
	var out []string
	for _, b := range bs {
		out = append(out, b.Text)
	}
	return out
}

// newFieldRow is a picker's or a template's new-field row, by its parts.
type newFieldRow struct {
	box  fyne.CanvasObject
	name *widget.Entry
	typ  *widget.Select
	err  *widget.Label
}

// newFieldRowOf is the new-field row of config key; nil when the form has none.
func newFieldRowOf(in *inspector.Inspector, key string) *newFieldRow {
	box := in.Widget(key + "+new.row")
	if box == nil {
		return nil
	}
	return &newFieldRow{box: box, name: in.Widget(key + "+new.name").(*widget.Entry),
		typ: in.Widget(key + "+new.type").(*widget.Select), err: in.Widget(key + "+new.error").(*widget.Label)}
}

// TestInspectorTemplate_CompletesFieldNames (docs/remote-agent.md R3.2):
// typing "{{" in the Remote Agent's message lists the State fields it may
// name (not the file field), typing narrows the list, Enter inserts
// "name}}" and the config holds the template; a field State lacks is said
// under the entry and in Chinese too, and a name typed after "{{" can be
// made a field there: State has it, one undo removes it and keeps what was
// typed.
func TestInspectorTemplate_CompletesFieldNames(t *testing.T) {
	w := newTestWindow(t, Deps{Engine: kindsEngine()})
	w.OpenWorkflow("", templateWorkflow())
	w.doc.Select("ask", false)
	in := w.insp
	e, ok := in.Widget("message").(*inspector.TemplateEntry)
	if !ok {
		t.Fatalf("the message editor is %T, want a template entry", in.Widget("message"))
	}
	w.win.Canvas().Focus(e)
	test.Type(e, "Summarise {{")
	want := []string{"answer  (text)", "count  (number)", "question  (text)", "topic  (text)"}
	if got := completionNames(in); !slices.Equal(got, want) {
		t.Fatalf("after {{ the list offers %q, want %q", got, want)
	}
	test.Type(e, "to")
	// The fields that match first, then making a field of the name typed.
	if got := completionNames(in); !slices.Equal(got, []string{"topic  (text)", "Create the field “to”…"}) {
		t.Fatalf("after {{to the list offers %q", got)
	}
	e.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if e.Text != "Summarise {{topic}}" || completionNames(in) != nil {
		t.Fatalf("after Enter: text %q, list %q", e.Text, completionNames(in))
	}
	if got := nodeConfig(t, w, "ask")["message"]; got != "Summarise {{topic}}" {
		t.Fatalf("config message %v", got)
	}
	// A click inserts too, and Down moves through the list.
	test.Type(e, " in {{")
	e.TypedKey(&fyne.KeyEvent{Name: fyne.KeyDown})
	if m := in.Widget("message").(*inspector.TemplateEntry).Marked(); m != 1 {
		t.Errorf("Down: item %d marked", m)
	}
	test.Tap(completion(in, "message")[1]) // count
	if e.Text != "Summarise {{topic}} in {{count}}" {
		t.Fatalf("after a click: %q", e.Text)
	}
	test.Type(e, " lines")
	if p := in.Problems(); p != nil {
		t.Fatalf("problems of a good template: %q", p)
	}

	// A field State lacks: said under the entry, once, in both languages.
	test.Type(e, " for {{customer}}")
	problem := templateProblem(in)
	if !strings.Contains(problem, "{{customer}} is not a State field") {
		t.Errorf("under the entry: %q", problem)
	}
	if p := in.Problems(); len(p) != 0 {
		t.Errorf("the problem is repeated under the form: %q", p)
	}
	if p := w.Problems(); len(p) != 1 || !strings.Contains(p[0].Message, "{{customer}} is not a State field") {
		t.Errorf("the window's problems: %v", p)
	}
	w.SetLanguage("zh-Hans")
	w.doc.Select("start", false)
	w.doc.Select("ask", false)
	in = w.insp
	if got := templateProblem(in); !strings.Contains(got, "{{customer}} 不是状态字段") {
		t.Errorf("in Chinese, under the entry: %q", got)
	}
	e = in.Widget("message").(*inspector.TemplateEntry)
	test.Type(e, " {{new")
	if got := completionNames(in); !slices.Equal(got, []string{"创建字段“new”…"}) {
		t.Errorf("in Chinese, the list offers %q", got)
	}
	w.SetLanguage("en")
	w.doc.Select("start", false)
	w.doc.Select("ask", false)
	in = w.insp
	e = in.Widget("message").(*inspector.TemplateEntry)
	e.SetText("Summarise {{topic}} for ")
	e.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEnd})
	test.Type(e, "{{cust")

	// Creating a field from the list.
	if got := completionNames(in); !slices.Equal(got, []string{"Create the field “cust”…"}) {
		t.Fatalf("a new name: the list offers %q", got)
	}
	undos := w.doc.UndoSteps()
	e.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	row := newFieldRowOf(in, "message")
	if row == nil || !row.box.Visible() || row.name.Text != "cust" {
		t.Fatalf("the new-field row is not offered with the name typed")
	}
	if !slices.Equal(row.typ.Options, []string{"text", "number", "boolean", "JSON"}) {
		t.Errorf("a message may name types %q", row.typ.Options)
	}
	row.typ.SetSelectedIndex(1) // number
	row.name.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if got := w.doc.Workflow().State["cust"]; got != workrun.FieldNumber {
		t.Fatalf("State cust = %q, want number", got)
	}
	if got := nodeConfig(t, w, "ask")["message"]; got != "Summarise {{topic}} for {{cust}}" {
		t.Errorf("config message after creating the field: %v", got)
	}
	if in.Widget("message") != e || e.Text != "Summarise {{topic}} for {{cust}}" {
		t.Errorf("the form was rebuilt, or the entry shows %q", e.Text)
	}
	if w.doc.UndoSteps() != undos+1 {
		t.Errorf("creating the field made %d undo steps, want 1", w.doc.UndoSteps()-undos)
	}
	if p := w.Problems(); len(p) != 0 {
		t.Errorf("problems after creating the field: %v", p)
	}
	// The pickers list it at once (inputs takes numbers).
	if g := in.Widget("inputs").(*widget.CheckGroup); !slices.Contains(g.Options, "cust") {
		t.Errorf("inputs offer %q", g.Options)
	}
	w.doc.Undo()
	if _, ok := w.doc.Workflow().State["cust"]; ok {
		t.Error("undo kept the field")
	}
	if got := nodeConfig(t, w, "ask")["message"]; got != "Summarise {{topic}} for {{cust" {
		t.Errorf("after undo the message is %v, want what was typed", got)
	}
}

// templateProblem is what the message's editor says under its entry.
func templateProblem(in *inspector.Inspector) string {
	return strings.Join(in.ProblemsInPlace(), "\n")
}

// TestInspectorTemplate_NewFieldFromPicker: "Answer into field" gets a new
// field from its + button: State has it, the picker selects it and the
// config writes into it, as one undo step; a name State has is refused in
// place.
func TestInspectorTemplate_NewFieldFromPicker(t *testing.T) {
	w := newTestWindow(t, Deps{Engine: kindsEngine()})
	w.OpenWorkflow("", templateWorkflow())
	w.doc.Select("ask", false)
	in := w.insp
	test.Tap(in.Widget("output+new").(fyne.Tappable))
	row := newFieldRowOf(in, "output")
	if row == nil || !row.box.Visible() {
		t.Fatal("no new-field row after +")
	}
	if !slices.Equal(row.typ.Options, []string{"text"}) {
		t.Errorf("the answer may go into %q", row.typ.Options)
	}
	test.Type(row.name, "answer")
	row.name.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if !row.err.Visible() || !strings.Contains(row.err.Text, "already has a field “answer”") {
		t.Errorf("an existing name: %q (shown %v)", row.err.Text, row.err.Visible())
	}
	row.name.SetText("two words")
	row.name.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if !strings.Contains(row.err.Text, "no spaces") {
		t.Errorf("a name with a space: %q", row.err.Text)
	}
	row.name.SetText("summary")
	undos := w.doc.UndoSteps()
	row.name.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if got := w.doc.Workflow().State["summary"]; got != workrun.FieldText {
		t.Fatalf("State summary = %q", got)
	}
	if s := in.Widget("output").(*widget.Select); s.Selected != "summary" || !slices.Contains(s.Options, "summary") {
		t.Errorf("picker selects %q of %q", s.Selected, s.Options)
	}
	if got := nodeConfig(t, w, "ask")["output"]; got != "summary" {
		t.Errorf("config output %v", got)
	}
	if w.doc.UndoSteps() != undos+1 || row.box.Visible() {
		t.Errorf("undo steps +%d (want 1), row still open %v", w.doc.UndoSteps()-undos, row.box.Visible())
	}
	w.doc.Undo()
	if _, ok := w.doc.Workflow().State["summary"]; ok {
		t.Error("undo kept the field")
	}
	if got := nodeConfig(t, w, "ask")["output"]; got != "answer" {
		t.Errorf("after undo output %v, want answer", got)
	}
	if s := w.insp.Widget("output").(*widget.Select); s.Selected != "answer" {
		t.Errorf("after undo the picker selects %q", s.Selected)
	}

	// The inputs (a list of fields) get one too, ticked.
	test.Tap(w.insp.Widget("inputs+new").(fyne.Tappable))
	row = newFieldRowOf(w.insp, "inputs")
	row.name.SetText("extra")
	row.typ.SetSelectedIndex(3) // JSON
	row.name.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if got := w.doc.Workflow().State["extra"]; got != workrun.FieldJSON {
		t.Errorf("State extra = %q", got)
	}
	if got := nodeConfig(t, w, "ask")["inputs"]; !slices.Equal(toStrings(got), []string{"question", "extra"}) {
		t.Errorf("config inputs %v", got)
	}
}

func toStrings(v any) []string {
	l, _ := v.([]any)
	var out []string
	for _, x := range l {
		s, _ := x.(string)
		out = append(out, s)
	}
	return out
}

// TestInspectorTemplate_Chinese walks the message editor in Simplified
// Chinese with its list, its problem and both new-field rows open: no
// English phrase or bare key (as TestChineseEverywhere).
func TestInspectorTemplate_Chinese(t *testing.T) {
	w := newTestWindow(t, Deps{Engine: kindsEngine()})
	w.SetLanguage("zh-Hans")
	t.Cleanup(func() { SetupLanguage("en") })
	wf := templateWorkflow()
	wf.State = map[string]workrun.FieldType{"问题": workrun.FieldText, "答案": workrun.FieldText}
	wf.Nodes[1].Config = json.RawMessage(`{"url":"http://127.0.0.1:41241/","inputs":["问题"],"output":"答案","timeout_seconds":120}`)
	w.OpenWorkflow("", wf)
	w.doc.Select("ask", false)
	in := w.insp
	e := in.Widget("message").(*inspector.TemplateEntry)
	test.Type(e, "请回答 {{未知}} {{")
	if len(completionNames(in)) != 2 {
		t.Fatalf("list %q", completionNames(in))
	}
	test.Tap(in.Widget("output+new").(fyne.Tappable))
	test.Tap(in.Widget("inputs+new").(fyne.Tappable))
	row := newFieldRowOf(in, "inputs")
	row.name.SetText("问题")
	row.name.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn}) // exists: said in place
	allowed := []string{"ask", "start", "问题", "答案", "未知", "http://127.0.0.1:41241/", "A2A", "JSON", "URL", "ID", "tpl"}
	if bad := untranslated(texts(in.Object()), allowed); len(bad) > 0 {
		t.Errorf("untranslated in zh-Hans:\n  %s", strings.Join(bad, "\n  "))
	}
	if !strings.Contains(row.err.Text, "状态中已有字段“问题”") {
		t.Errorf("an existing name in Chinese: %q", row.err.Text)
	}
}

// TestInspectorTemplate_ListIsShort: with many fields the list shows a few
// at a time, the best matches first, and typing narrows it.
func TestInspectorTemplate_ListIsShort(t *testing.T) {
	w := newTestWindow(t, Deps{Engine: kindsEngine()})
	wf := templateWorkflow()
	for i := range 12 {
		wf.State[fmt.Sprintf("f%02d", i)] = workrun.FieldText
	}
	w.OpenWorkflow("", wf)
	w.doc.Select("ask", false)
	e := w.insp.Widget("message").(*inspector.TemplateEntry)
	test.Type(e, "{{f")
	got := completionNames(w.insp)
	if len(got) != 8+1 || got[0] != "f00  (text)" || got[8] != "Create the field “f”…" {
		t.Errorf("list %q, want %d fields and the create line", got, 8)
	}
	test.Type(e, "11")
	if got := completionNames(w.insp); !slices.Equal(got, []string{"f11  (text)"}) {
		t.Errorf("narrowed: %q", got)
	}
}

// TestSamplesWriteTheirMessageInTheNode: the shipped Remote Agent samples
// send the question as the node's message template, as a person new to
// the window would write it (issue 40, "First hour"), and it checks clean.
func TestSamplesWriteTheirMessageInTheNode(t *testing.T) {
	for _, wf := range []workrun.Workflow{SampleRemote(langNow(), "http://127.0.0.1:41241"), SampleParallel(langNow(), "http://127.0.0.1:41241")} {
		w := newTestWindow(t, Deps{Engine: kindsEngine()})
		w.OpenWorkflow("", wf)
		w.doc.Select("ask", false)
		e, ok := w.insp.Widget("message").(*inspector.TemplateEntry)
		if !ok {
			t.Fatalf("%s: the message editor is %T, want a template entry", wf.Name, w.insp.Widget("message"))
		}
		if e.Text != "{{question}}" {
			t.Errorf("%s: the node's message is %q, want {{question}}", wf.Name, e.Text)
		}
		if got := nodeConfig(t, w, "ask")["inputs"]; got != nil {
			t.Errorf("%s: the node still sends inputs %v beside its message", wf.Name, got)
		}
		if p := templateProblem(w.insp); p != "" {
			t.Errorf("%s: the message has a problem: %s", wf.Name, p)
		}
	}
}

// TestInspectorTemplate_AnswersComplete: the Remote Agent's answers box
// (a text template that pre-answers the agent's first question) completes
// State field names after "{{" as the message does, and names a field
// State lacks as a problem in place.
func TestInspectorTemplate_AnswersComplete(t *testing.T) {
	w := newTestWindow(t, Deps{Engine: kindsEngine()})
	w.OpenWorkflow("", templateWorkflow())
	w.doc.Select("ask", false)
	e, ok := w.insp.Widget("answers").(*inspector.TemplateEntry)
	if !ok {
		t.Fatalf("the answers editor is %T, want a template entry", w.insp.Widget("answers"))
	}
	w.win.Canvas().Focus(e)
	test.Type(e, "yes, {{to")
	c := completion(w.insp, "answers")
	if len(c) == 0 || c[0].Text != "topic  (text)" {
		t.Fatalf("after {{to the answers list offers nothing or not topic first")
	}
	e.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if got := nodeConfig(t, w, "ask")["answers"]; got != "yes, {{topic}}" {
		t.Fatalf("config answers %v", got)
	}
	test.Type(e, " {{nosuch}}")
	if got := nodeConfig(t, w, "ask")["answers"]; got != "yes, {{topic}} {{nosuch}}" {
		t.Fatalf("config answers %v", got)
	}
	if p := templateProblem(w.insp); !strings.Contains(p, "nosuch") {
		t.Errorf("an unknown field in the answers is no problem in place: %q", p)
	}
}
