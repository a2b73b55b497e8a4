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
// elicitation whose schema parses into form fields of the allowed types,
// or is a protocol error; checking any answer against it never panics.
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
		s, err := ParseFormSchema(e.RequestedSchema)
		if err != nil {
			if !errors.Is(err, ErrProtocol) {
				t.Fatalf("unclassified schema error %v", err)
			}
			return
		}
		for _, name := range s.Names() {
			switch s.Properties[name].Type {
			case "string", "number", "integer", "boolean", "array":
			default:
				t.Fatalf("field %q of type %q accepted", name, s.Properties[name].Type)
			}
		}
		var content map[string]any
		if json.Unmarshal(answer, &content) == nil {
			_ = s.Check(s.Fill(content))
			_, _ = s.Answer(content)
		}
	})
}
