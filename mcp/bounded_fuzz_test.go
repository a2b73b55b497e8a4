package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"
)

// FuzzReadBody: a reply body is given back whole when it fits the cap,
// and refused with ErrReplyTooLarge when it does not, with or without a
// length (issue 27: refused without doubling a buffer).
func FuzzReadBody(f *testing.F) {
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"result":{}}`), int64(0), uint16(64))
	f.Add(bytes.Repeat([]byte("x"), 3<<20), int64(3<<20), uint16(1<<15))
	f.Fuzz(func(t *testing.T, body []byte, length int64, max uint16) {
		limit := int64(max)
		if length > 0 && length != int64(len(body)) {
			length = 0 // a length the body does not have is a server's lie the reader never sees (net/http checks it)
		}
		got, err := readBody(bytes.NewReader(body), length, limit)
		switch {
		case int64(len(body)) > limit:
			if !errors.Is(err, ErrReplyTooLarge) {
				t.Fatalf("a %d-byte body under a %d-byte cap: %v", len(body), limit, err)
			}
		case err != nil:
			t.Fatalf("a %d-byte body under a %d-byte cap: %v", len(body), limit, err)
		case !bytes.Equal(got, body):
			t.Fatalf("read %d bytes of %d", len(got), len(body))
		}
	})
}

// FuzzDecodeTask: any tasks/get reply is a task that names the task asked
// for, or a protocol error.
func FuzzDecodeTask(f *testing.F) {
	f.Add([]byte(`{"taskId":"t1","status":"working"}`), "t1")
	f.Add([]byte(`{"task":{"taskId":"t1","status":"completed","result":{"content":[]}}}`), "t1")
	f.Add([]byte(`{"taskId":"t2"}`), "t1")
	f.Fuzz(func(t *testing.T, raw []byte, want string) {
		task, err := decodeTask(raw, want)
		if err != nil {
			if !errors.Is(err, ErrProtocol) {
				t.Fatalf("unclassified error %v", err)
			}
			return
		}
		if task.TaskID == "" || (want != "" && task.TaskID != want) {
			t.Fatalf("decoded %q (asked %q) into task %q", raw, want, task.TaskID)
		}
	})
}

// FuzzElicitation: any server request either decodes into a form or URL
// elicitation, or is a protocol error; an accept answer with any content
// goes out as one JSON object with that content. (The form itself is read
// and checked by the engine: workrun's FuzzParseForm.)
func FuzzElicitation(f *testing.F) {
	f.Add("elicitation/create", []byte(`{"message":"Region?","requestedSchema":{"type":"object","properties":{"region":{"type":"string","enum":["eu","us"]}},"required":["region"]}}`), []byte(`{"region":"eu"}`))
	f.Add("elicitation/create", []byte(`{"mode":"url","url":"https://example.test/x","message":"sign in"}`), []byte(`{}`))
	f.Add("sampling/createMessage", []byte(`{}`), []byte(`{}`))
	f.Fuzz(func(t *testing.T, method string, params, answer []byte) {
		e, err := InputRequest{Method: method, Params: params}.Elicitation()
		if err != nil {
			if !errors.Is(err, ErrProtocol) {
				t.Fatalf("unclassified error %v", err)
			}
			return
		}
		if e.Mode != ElicitForm && (e.Mode != ElicitURL || e.URL == "") {
			t.Fatalf("accepted mode %q url %q", e.Mode, e.URL)
		}
		var content map[string]any
		if json.Unmarshal(answer, &content) != nil {
			return
		}
		var sent struct {
			Action  string         `json:"action"`
			Content map[string]any `json:"content"`
		}
		if err := json.Unmarshal(ElicitResult{Action: ActionAccept, Content: content}.JSON(), &sent); err != nil || sent.Action != ActionAccept || len(sent.Content) != len(content) {
			t.Fatalf("accept with %d fields sent as %+v (%v)", len(content), sent, err)
		}
	})
}
