package remotemcp_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"workrun/nodes/remotemcp"
	"workrun/workrun"
)

// richSchema is a tool input schema with the JSON Schema 2020-12 vocabulary
// a client must keep as the server sent it (docs/remote-mcp.md M12):
// $schema, $defs with an $anchor, a same-document $ref, a network $ref
// (CANARY, never fetched), composition, conditionals, additionalProperties
// and a keyword Workrun does not know.
const richSchema = `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object",` +
	`"$defs":{"address":{"$anchor":"addressDef","type":"object","properties":{"street":{"type":"string"},"city":{"type":"string"}}}},` +
	`"properties":{"name":{"type":"string"},"address":{"$ref":"#/$defs/address"},"profile":{"$ref":"CANARY"},` +
	`"contactMethod":{"type":"string","enum":["phone","email"]},"phone":{"type":"string"},"email":{"type":"string"}},` +
	`"allOf":[{"anyOf":[{"required":["phone"]},{"required":["email"]}]}],` +
	`"if":{"properties":{"contactMethod":{"const":"phone"}},"required":["contactMethod"]},"then":{"required":["phone"]},"else":{"required":["email"]},` +
	`"additionalProperties":false,"x-vendor":{"keep":true}}`

// TestSchemasKeptAsSent: on both revisions the connection test reports a
// tool's input schema byte for byte as the server sent it (no keyword
// dropped, no $ref resolved, nothing fetched: the network $ref's URL is
// never requested), and a run that passes that schema on as an argument
// (what the conformance suite's json-schema-2020-12-preservation asks)
// sends it whole.
func TestSchemasKeptAsSent(t *testing.T) {
	for _, modern := range []bool{true, false} {
		var canary atomic.Int32
		var mu sync.Mutex
		var sent []json.RawMessage // tools/call arguments
		var schema string
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/canary" {
				canary.Add(1)
				w.Header().Set("Content-Type", "application/schema+json")
				io.WriteString(w, `{"type":"object"}`) //nolint:errcheck // test server
				return
			}
			if r.Method != http.MethodPost {
				w.WriteHeader(http.StatusMethodNotAllowed)
				return
			}
			var m struct {
				ID     json.RawMessage `json:"id"`
				Method string          `json:"method"`
				Params struct {
					Arguments json.RawMessage `json:"arguments"`
				} `json:"params"`
			}
			json.NewDecoder(r.Body).Decode(&m) //nolint:errcheck // the client sends JSON
			answer := func(res string) {
				w.Header().Set("Content-Type", "application/json")
				io.WriteString(w, `{"jsonrpc":"2.0","id":`+string(m.ID)+`,"result":`+res+`}`) //nolint:errcheck // test server
			}
			switch m.Method {
			case "server/discover":
				if !modern {
					w.WriteHeader(http.StatusBadRequest)
					return
				}
				answer(`{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{"tools":{}},"ttlMs":0,"cacheScope":"private","serverInfo":{"name":"s","version":"1"}}`)
			case "initialize":
				w.Header().Set("Mcp-Session-Id", "s1")
				answer(`{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"s","version":"1"}}`)
			case "notifications/initialized":
				w.WriteHeader(http.StatusAccepted)
			case "tools/list":
				answer(`{"resultType":"complete","tools":[{"name":"focal","inputSchema":` + schema + `},{"name":"echo","inputSchema":{"type":"object","properties":{"schema":{"type":"object"}},"required":["schema"]}}]}`)
			case "tools/call":
				mu.Lock()
				sent = append(sent, m.Params.Arguments)
				mu.Unlock()
				answer(`{"resultType":"complete","content":[{"type":"text","text":"echoed"}]}`)
			}
		}))
		schema = strings.Replace(richSchema, "CANARY", srv.URL+"/canary", 1)

		rep, err := remotemcp.Check(t.Context(), srv.URL+"/mcp", nil)
		if err != nil {
			srv.Close()
			t.Fatalf("modern=%v: %v", modern, err)
		}
		if len(rep.Tools) != 2 || rep.Tools[0].Name != "focal" {
			srv.Close()
			t.Fatalf("modern=%v: tools %+v", modern, rep.Tools)
		}
		got, err := json.Marshal(rep.Tools[0].InputSchema)
		if err != nil || string(got) != schema {
			t.Errorf("modern=%v: the connection test reports the schema as\n%s\nwant, as sent,\n%s (%v)", modern, got, schema, err)
		}

		// The schema the test reported, passed on whole as an argument.
		args, _ := json.Marshal(map[string]json.RawMessage{"schema": got})
		e := newEnv(t, "")
		r := e.run(t, flow(state, []workrun.NodeSpec{mcpNode("m", srv.URL+"/mcp", "echo", `,"arguments":`+string(args)+`,"output":"answer"`)}), nil)
		if r.Status != workrun.RunSucceeded {
			t.Errorf("modern=%v: run %s: %s %q", modern, r.Status, r.Reason, e.messages(t, r.ID, "m"))
		}
		mu.Lock()
		calls := append([]json.RawMessage(nil), sent...)
		mu.Unlock()
		if len(calls) != 1 {
			t.Errorf("modern=%v: %d tools/call", modern, len(calls))
		} else {
			var gotArgs, want map[string]any
			json.Unmarshal(calls[0], &gotArgs)                     //nolint:errcheck // compared below
			json.Unmarshal([]byte(`{"schema":`+schema+`}`), &want) //nolint:errcheck // a constant
			if !reflect.DeepEqual(gotArgs, want) {
				t.Errorf("modern=%v: tools/call arguments\n%s\nwant\n{\"schema\":%s}", modern, calls[0], schema)
			}
			if !bytes.Contains(calls[0], []byte(`"$ref":"#/$defs/address"`)) {
				t.Errorf("modern=%v: the same-document $ref was not sent as it came: %s", modern, calls[0])
			}
		}
		if n := canary.Load(); n != 0 {
			t.Errorf("modern=%v: the network $ref was fetched %d times", modern, n)
		}
		srv.Close()
	}
}
