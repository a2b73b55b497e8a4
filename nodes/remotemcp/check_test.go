package remotemcp_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"workrun/nodes/remotemcp"
)

// TestCheckConnectsAsARunDoes (docs/remote-mcp.md M12): the connection test
// declares the capabilities a run declares — elicitation (form and url) in
// initialize on 2025-11-25 and in every request's clientCapabilities on
// 2026-07-28 — and on 2026-07-28 a tool with no task hint is "per_call"
// (the server decides per call), not "forbidden".
func TestCheckConnectsAsARunDoes(t *testing.T) {
	for _, modern := range []bool{true, false} {
		var mu sync.Mutex
		var declared []json.RawMessage // the elicitation capability each connecting request declared
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method != http.MethodPost {
				w.WriteHeader(http.StatusMethodNotAllowed)
				return
			}
			b, _ := io.ReadAll(r.Body)
			var m struct {
				ID     json.RawMessage `json:"id"`
				Method string          `json:"method"`
				Params struct {
					Capabilities map[string]json.RawMessage `json:"capabilities"`
					Meta         map[string]struct {
						Elicitation json.RawMessage `json:"elicitation"`
					} `json:"_meta"`
				} `json:"params"`
			}
			json.Unmarshal(b, &m) //nolint:errcheck // the client sends JSON
			answer := func(res string) {
				w.Header().Set("Content-Type", "application/json")
				io.WriteString(w, `{"jsonrpc":"2.0","id":`+string(m.ID)+`,"result":`+res+`}`) //nolint:errcheck // test server
			}
			mu.Lock()
			switch {
			case m.Method == "server/discover" && modern:
				declared = append(declared, m.Params.Meta["io.modelcontextprotocol/clientCapabilities"].Elicitation)
			case m.Method == "initialize":
				declared = append(declared, m.Params.Capabilities["elicitation"])
			}
			mu.Unlock()
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
				answer(`{"resultType":"complete","tools":[{"name":"plain","inputSchema":{"type":"object"}},{"name":"hinted","inputSchema":{"type":"object"},"execution":{"taskSupport":"required"}}]}`)
			}
		}))
		defer srv.Close()
		rep, err := remotemcp.Check(t.Context(), srv.URL+"/mcp", nil)
		if err != nil {
			t.Fatalf("modern=%v: %v", modern, err)
		}
		wantPlain := "forbidden"
		if modern {
			wantPlain = remotemcp.TaskPerCall
		}
		if len(rep.Tools) != 2 || rep.Tools[0].TaskSupport != wantPlain || rep.Tools[1].TaskSupport != "required" {
			t.Errorf("modern=%v: tools %+v, want plain %q and hinted required", modern, rep.Tools, wantPlain)
		}
		if len(declared) != 1 {
			t.Fatalf("modern=%v: %d connecting requests seen", modern, len(declared))
		}
		var el struct {
			Form *struct{} `json:"form"`
			URL  *struct{} `json:"url"`
		}
		if json.Unmarshal(declared[0], &el) != nil || el.Form == nil || el.URL == nil {
			t.Errorf("modern=%v: elicitation declared %s, want form and url as a run declares", modern, declared[0])
		}
	}
}
