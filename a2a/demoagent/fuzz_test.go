package demoagent

import (
	"encoding/json"
	"testing"
)

// FuzzRequestPeek feeds arbitrary request bodies to the HTTP layer's JSON-RPC
// peek (the counters) and to the `unfinished` rewrite. Seeds are in
// testdata/fuzz/FuzzRequestPeek. Properties: neither panics; the rewrite of
// valid JSON is valid JSON; a rewritten request asks for returnImmediately.
func FuzzRequestPeek(f *testing.F) {
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"messageId":"m","role":"ROLE_USER","parts":[{"text":"unfinished"}]}}}`))
	f.Add([]byte(`{"jsonrpc":"2.0","id":"x","method":"CancelTask","params":{"id":"t1"}}`))
	f.Add([]byte(`{"method":"SendMessage","params":{"configuration":{"returnImmediately":false},"message":{"parts":[{"raw":"AAE="},{"text":"Unfinished now"}]}}}`))
	f.Add([]byte(`{"method":"SendMessage","params":{"configuration":7}}`))
	f.Add([]byte(`not json`))
	f.Fuzz(func(t *testing.T, body []byte) {
		a := New(Options{})
		unfinished := a.count(body)
		out := returnImmediately(body)
		if !json.Valid(body) {
			return
		}
		if !json.Valid(out) {
			t.Fatalf("rewrite of valid JSON %q is invalid: %q", body, out)
		}
		if !unfinished || string(out) == string(body) {
			return
		}
		var req struct {
			Params struct {
				Configuration struct {
					ReturnImmediately bool `json:"returnImmediately"`
				} `json:"configuration"`
			} `json:"params"`
		}
		if err := json.Unmarshal(out, &req); err == nil && !req.Params.Configuration.ReturnImmediately {
			t.Fatalf("rewritten %q lacks returnImmediately: %q", body, out)
		}
	})
}
