package workrun_test

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"workrun/workrun"
	"workrun/workrun/workruntest"
)

// TestPreAnswer: a node's `answers` config answers the first round from
// the node's inputs — a text template, or a form's fields (a single-field
// template keeps the value's type; defaults fill the rest) — checked like
// a person's answer; it never answers round 2 or a sign-in.
func TestPreAnswer(t *testing.T) {
	nc := &workruntest.NodeContext{Run: "r", Node: "n", In: workrun.Values{"city": "Lisbon", "port": 3128.0, "host": "proxy"}}
	var text, form workrun.Answers
	if err := json.Unmarshal([]byte(`"to {{city}}, please"`), &text); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(`{"host":"{{host}}.example","port":"{{port}}"}`), &form); err != nil {
		t.Fatal(err)
	}
	if got := form.Reads(); !reflect.DeepEqual(got, []string{"host", "port"}) {
		t.Errorf("Reads %v", got)
	}
	q := workrun.Question{Round: 1, Kind: workrun.QuestionText, Message: "Which city?"}
	d, ok, err := workrun.PreAnswer(nc, q, text)
	if err != nil || !ok || d.Text != "to Lisbon, please" || d.Round != 1 || d.Action != workrun.AnswerAccept {
		t.Fatalf("text: %+v %v %v", d, ok, err)
	}
	fq := workrun.Question{Round: 1, Kind: workrun.QuestionForm, Schema: json.RawMessage(`{"type":"object","properties":{
		"host":{"type":"string"},"port":{"type":"integer"},"tls":{"type":"boolean","default":true}},"required":["host","port"]}`)}
	d, ok, err = workrun.PreAnswer(nc, fq, form)
	if err != nil || !ok || string(d.Content) != `{"host":"proxy.example","port":3128,"tls":true}` {
		t.Fatalf("form: %s %v %v", d.Content, ok, err)
	}
	logs := strings.Join(nc.Logs(), "\n")
	if !strings.Contains(logs, "answers config answers round 1") || !strings.Contains(logs, "answered (round 1): host: proxy.example; port: 3128; tls: true") {
		t.Errorf("messages:\n%s", logs)
	}
	for _, q := range []workrun.Question{{Round: 2, Kind: workrun.QuestionText}, {Round: 1, Kind: workrun.QuestionSignIn}} {
		if _, ok, err := workrun.PreAnswer(nc, q, text); ok || err != nil {
			t.Errorf("%+v answered: %v %v", q, ok, err)
		}
	}
	if _, ok, _ := workrun.PreAnswer(nc, q, workrun.Answers{}); ok {
		t.Error("no config answered")
	}
	// A form answer that does not fit is an error, not sent.
	var bad workrun.Answers
	_ = json.Unmarshal([]byte(`{"port":"{{city}}"}`), &bad)
	if _, ok, err := workrun.PreAnswer(nc, fq, bad); ok || !errors.Is(err, workrun.ErrBadAnswer) {
		t.Errorf("bad form answer: %v %v", ok, err)
	}
	if _, ok, err := workrun.PreAnswer(nc, fq, text); ok || !errors.Is(err, workrun.ErrBadAnswer) {
		t.Errorf("text answers for a form: %v %v", ok, err)
	}
	if err := json.Unmarshal([]byte(`[1]`), &bad); !errors.Is(err, workrun.ErrBadAnswer) {
		t.Errorf("answers [1]: %v", err)
	}
}
