package a2aserve_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// FuzzRPC posts arbitrary bodies to a served agent: every answer is an
// HTTP error or one JSON-RPC reply (or an SSE stream of them), never a
// panic, and no internal detail ("store", "sql", a file path) reaches it.
func FuzzRPC(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"messageId":"m","role":"ROLE_USER","parts":[{"text":"x"}]}}}`,
		`{"jsonrpc":"2.0","id":"a","method":"GetTask","params":{"id":"nope","historyLength":-1}}`,
		`{"jsonrpc":"2.0","id":2,"method":"ListTasks","params":{"pageSize":0,"pageToken":"zz"}}`,
		`{"jsonrpc":"2.0","id":3,"method":"SendMessage","params":{"message":{"messageId":"f","parts":[{"raw":"aGk=","filename":"a"}]}}}`,
		`{"jsonrpc":"2.0","id":4,"method":"SendMessage","params":{"message":{"messageId":"d","parts":[{"data":{"name":1}}]}}}`,
		`{"jsonrpc":"2.0","id":5,"method":"CancelTask","params":{"id":""}}`,
		`[]`, `{}`, `{"jsonrpc":"2.0","id":null,"method":"x"}`,
	} {
		f.Add(s)
	}
	srv := newServer(f, nil)
	url := srv.URL + "/a2a/hello"
	f.Fuzz(func(t *testing.T, body string) {
		req, _ := http.NewRequest("POST", url, strings.NewReader(body))
		req.Header.Set("A2A-Version", "1.0")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		if resp.StatusCode != 200 {
			return
		}
		if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
			return
		}
		var rep struct {
			JSONRPC string `json:"jsonrpc"`
			Error   *struct {
				Message string `json:"message"`
			} `json:"error"`
		}
		if err := json.NewDecoder(resp.Body).Decode(&rep); err != nil || rep.JSONRPC != "2.0" {
			t.Fatalf("not a JSON-RPC reply (%v)", err)
		}
		if rep.Error != nil {
			for _, leak := range []string{"sql", "store", "/tmp", "panic"} {
				if strings.Contains(strings.ToLower(rep.Error.Message), leak) {
					t.Fatalf("error shows %q: %s", leak, rep.Error.Message)
				}
			}
		}
	})
}
