package workrun_test

import (
	"errors"
	"strings"
	"testing"

	"workrun/nodes/remoteagent"
	"workrun/nodes/start"
	"workrun/workrun"
)

// TestTemplateCheck: CheckTemplate names the config key and the first field
// a template names that State lacks or holds in a type the text cannot
// show, in English and Chinese; a template over known fields passes.
func TestTemplateCheck(t *testing.T) {
	state := map[string]workrun.FieldType{"city": workrun.FieldText, "n": workrun.FieldNumber, "doc": workrun.FieldFile}
	if err := workrun.CheckTemplate("message", "To {{city}}, {{ n }} times", state, workrun.FieldText, workrun.FieldNumber); err != nil {
		t.Errorf("known fields: %v", err)
	}
	for _, c := range []struct{ tmpl, en, zh string }{
		{"To {{city}} and {{town}}", "message: {{town}} is not a State field", "message：{{town}} 不是状态字段"},
		{"Read {{doc}}", "message: {{doc}} is a file field; this text can name only text/number fields", "message：{{doc}} 是 file 字段"},
	} {
		err := workrun.CheckTemplate("message", c.tmpl, state, workrun.FieldText, workrun.FieldNumber)
		var te *workrun.TextError
		if !errors.As(err, &te) {
			t.Fatalf("%q: error %v, want a TextError", c.tmpl, err)
		}
		if got := te.Text.In("en"); !strings.Contains(got, c.en) {
			t.Errorf("%q: English %q, want %q", c.tmpl, got, c.en)
		}
		if got := te.Text.In("zh"); !strings.Contains(got, c.zh) {
			t.Errorf("%q: Chinese %q, want %q", c.tmpl, got, c.zh)
		}
	}
	if err := workrun.CheckTemplate("message", "Read {{doc}}", state); err != nil {
		t.Errorf("no types given: any type passes, got %v", err)
	}
}

// TestTemplateFieldNames: a name a template can reference has no braces
// and no white space.
func TestTemplateFieldNames(t *testing.T) {
	for name, want := range map[string]bool{"city": true, "城市": true, "a.b-c": true, "": false, "two words": false, "a{b": false, "x}": false, "tab\tx": false, "nl\n": false, "zero\u200bwidth": false} {
		if got := workrun.IsFieldName(name); got != want {
			t.Errorf("IsFieldName(%q) = %v, want %v", name, got, want)
		}
	}
}

// TestValidateTemplateUnknownField: Validate — and so Start, the CLI's run
// and the window — refuses a Remote Agent whose message names a field
// State lacks, on the node, in both languages.
func TestValidateTemplateUnknownField(t *testing.T) {
	e := workrun.NewEngine(nil, nil, start.Kind{}, remoteagent.New(remoteagent.Deps{}))
	wf := workrun.Workflow{Name: "t", State: map[string]workrun.FieldType{"question": workrun.FieldText, "answer": workrun.FieldText},
		Nodes: []workrun.NodeSpec{node("start", "start", ""),
			node("ask", "remote_agent", `{"url":"http://127.0.0.1:1/","message":"Answer {{question}} for {{customer}}","output":"answer"}`)},
		Edges: edges("start>ask")}
	probs := e.Validate(wf)
	if len(probs) != 1 || probs[0].NodeID != "ask" || !strings.Contains(probs[0].Message, "message: {{customer}} is not a State field") ||
		!strings.Contains(probs[0].In("zh"), "{{customer}} 不是状态字段") {
		t.Fatalf("problems %+v, want one on ask naming {{customer}}", probs)
	}
	if _, err := e.Start(t.Context(), "", wf, nil); !errors.Is(err, workrun.ErrInvalidWorkflow) {
		t.Errorf("Start: %v, want the workflow refused", err)
	}
	wf.State["customer"] = workrun.FieldText
	if probs := e.Validate(wf); len(probs) != 0 {
		t.Errorf("with the field declared: %v", probs)
	}
}
