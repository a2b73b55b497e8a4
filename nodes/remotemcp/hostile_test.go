package remotemcp_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"workrun/nodes/remotemcp"
	"workrun/nodes/start"
	"workrun/remotecall"
	"workrun/workrun"
)

// fakeServer is a minimal MCP server whose tools/call answer a test sets.
type fakeServer struct {
	// CallFunc answers tools/call with a result object.
	CallFunc func(args json.RawMessage) any

	mu    sync.Mutex
	calls []json.RawMessage // arguments of each tools/call
	auth  []string          // Authorization header of each request
}

func (f *fakeServer) start(t *testing.T) string {
	t.Helper()
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodDelete {
			return
		}
		f.mu.Lock()
		f.auth = append(f.auth, r.Header.Get("Authorization"))
		f.mu.Unlock()
		b, _ := io.ReadAll(r.Body)
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				Arguments json.RawMessage `json:"arguments"`
			} `json:"params"`
		}
		json.Unmarshal(b, &m) //nolint:errcheck // the test controls the client
		if len(m.ID) == 0 {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		var result any
		switch m.Method {
		case "server/discover": // a legacy server: the client falls back to initialize
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"jsonrpc":"2.0","id":`+string(m.ID)+`,"error":{"code":-32601,"message":"Method not found"}}`) //nolint:errcheck // test server
			return
		case "initialize":
			w.Header().Set("Mcp-Session-Id", "fake-session")
			result = map[string]any{"protocolVersion": "2025-11-25", "capabilities": map[string]any{"tools": map[string]any{}},
				"serverInfo": map[string]any{"name": "fake", "version": "1"}}
		case "tools/list":
			result = map[string]any{"tools": []any{map[string]any{"name": "t", "inputSchema": map[string]any{"type": "object"}}}}
		case "tools/call":
			f.mu.Lock()
			f.calls = append(f.calls, m.Params.Arguments)
			f.mu.Unlock()
			result = f.CallFunc(m.Params.Arguments)
		default:
			result = map[string]any{}
		}
		w.Header().Set("Content-Type", "text/event-stream")
		out, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": result})
		io.WriteString(w, "data:\n\nevent: message\ndata: "+string(out)+"\n\n") //nolint:errcheck // test server
	}))
	t.Cleanup(ts.Close)
	return ts.URL + "/mcp"
}

// TestHostileToolOutput: huge text, traversal file names and invalid base64
// are handled: the text is kept whole, names are cleaned, a bad blob is
// skipped with a message, nothing escapes the artifact store.
func TestHostileToolOutput(t *testing.T) {
	huge := strings.Repeat("A", 5<<20)
	png := "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="
	f := &fakeServer{CallFunc: func(json.RawMessage) any {
		return map[string]any{"content": []any{
			map[string]any{"type": "text", "text": huge},
			map[string]any{"type": "resource", "resource": map[string]any{"uri": "file:///x/../../etc/passwd", "name": "../../etc/passwd", "mimeType": "text/plain", "blob": base64.StdEncoding.EncodeToString([]byte("root:x:0:0"))}},
			map[string]any{"type": "image", "data": "!!!not base64!!!", "mimeType": "image/png"},
			map[string]any{"type": "image", "data": png, "mimeType": "text/html"},
			map[string]any{"type": "resource_link", "uri": "https://user:pw@example.invalid/x?sig=abc", "name": "x"},
		}}
	}}
	url := f.start(t)
	e := newEnv(t, "")
	r := e.run(t, flow(state, []workrun.NodeSpec{mcpNode("m", url, "t", `,"output":"answer","output_files":"files"`)}), nil)
	msgs := e.messages(t, r.ID, "m")
	if r.Status != workrun.RunSucceeded {
		t.Fatalf("run %s: %s %q", r.Status, r.Reason, msgs)
	}
	// A text this large is kept once as an artifact (workrun.ValueRef).
	answer, err := workrun.ResolveValue(t.Context(), e.arts, r.State["answer"])
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := answer.(string); len(got) != len(huge) {
		t.Errorf("answer has %d bytes, want %d", len(got), len(huge))
	}
	files, _ := r.State["files"].([]any)
	if len(files) != 2 {
		t.Fatalf("files = %v, messages %q", files, msgs)
	}
	for _, id := range files {
		info, err := e.arts.Stat(t.Context(), id.(string))
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(info.Name, "/") || strings.Contains(info.Name, "..") {
			t.Errorf("name not cleaned: %q", info.Name)
		}
		if strings.HasPrefix(info.Name, "image") && info.MediaType != "image/png" {
			t.Errorf("declared text/html for PNG bytes, stored as %q", info.MediaType)
		}
	}
	if !contains(msgs, "File image-") || !contains(msgs, "invalid base64") {
		t.Errorf("no message for the invalid blob: %q", msgs)
	}
	for _, m := range msgs {
		if strings.Contains(m, "pw@") || strings.Contains(m, "sig=abc") {
			t.Errorf("link not redacted: %q", m)
		}
		if len(m) > 2000 {
			t.Errorf("a message of %d bytes", len(m))
		}
	}
}

// TestFileArgumentsAreEmbeddedResources: a file field goes out as an
// embedded resource with its name, type and bytes, never its artifact id.
func TestFileArgumentsAreEmbeddedResources(t *testing.T) {
	f := &fakeServer{CallFunc: func(json.RawMessage) any {
		return map[string]any{"content": []any{map[string]any{"type": "text", "text": "ok"}}}
	}}
	url := f.start(t)
	e := newEnv(t, "")
	info, err := e.arts.Put(t.Context(), "notes.txt", "text/plain", strings.NewReader("field notes"), "", "")
	if err != nil {
		t.Fatal(err)
	}
	r := e.run(t, flow(state, []workrun.NodeSpec{mcpNode("m", url, "t", `,"arguments":{"doc":"{{doc}}","all":"{{docs}}","n":"{{n}}","fixed":{"a":[1,2]}}`)}),
		workrun.Values{"doc": info.ID, "docs": []any{info.ID}, "n": 7.0})
	if r.Status != workrun.RunSucceeded {
		t.Fatalf("run %s: %s", r.Status, r.Reason)
	}
	if len(f.calls) != 1 {
		t.Fatalf("calls = %d", len(f.calls))
	}
	var got struct {
		Doc struct {
			Type     string `json:"type"`
			Resource struct {
				URI, Name, MimeType, Blob string
			} `json:"resource"`
		} `json:"doc"`
		All   []json.RawMessage `json:"all"`
		N     float64           `json:"n"`
		Fixed map[string][]int  `json:"fixed"`
	}
	if err := json.Unmarshal(f.calls[0], &got); err != nil {
		t.Fatal(err)
	}
	blob, _ := base64.StdEncoding.DecodeString(got.Doc.Resource.Blob)
	if got.Doc.Type != "resource" || got.Doc.Resource.Name != "notes.txt" || !strings.HasPrefix(got.Doc.Resource.MimeType, "text/plain") || string(blob) != "field notes" {
		t.Errorf("doc = %+v", got.Doc)
	}
	if len(got.All) != 1 || got.N != 7 || len(got.Fixed["a"]) != 2 {
		t.Errorf("arguments = %s", f.calls[0])
	}
	if strings.Contains(string(f.calls[0]), info.ID) {
		t.Error("the artifact id left the machine")
	}
}

// credSource is a function-field CredentialSource.
type credSource struct {
	CredentialFunc func(name string) (remotecall.Credential, error)
}

func (c credSource) Credential(_ context.Context, name string) (remotecall.Credential, error) {
	return c.CredentialFunc(name)
}

// TestCredentialBoundToOrigin: a saved bearer token goes with every request
// to its origin; a credential saved for another origin is refused before
// any request.
func TestCredentialBoundToOrigin(t *testing.T) {
	f := &fakeServer{CallFunc: func(json.RawMessage) any {
		return map[string]any{"content": []any{map[string]any{"type": "text", "text": "ok"}}}
	}}
	url := f.start(t)
	origin := strings.TrimSuffix(url, "/mcp")
	for _, tc := range []struct {
		name, credOrigin string
		wantOK           bool
	}{{"own origin", origin, true}, {"another origin", "https://elsewhere.example", false}} {
		t.Run(tc.name, func(t *testing.T) {
			f.mu.Lock()
			f.auth = nil
			f.mu.Unlock()
			e := newEnv(t, "")
			e.eng = workrun.NewEngine(e.st, e.arts, start.Kind{}, remotemcp.New(remotemcp.Deps{Calls: e.st, Credentials: credSource{func(name string) (remotecall.Credential, error) {
				return remotecall.Credential{Kind: remotecall.CredentialBearer, Secret: "tok-" + name, Origin: tc.credOrigin}, nil
			}}}))
			r := e.run(t, flow(state, []workrun.NodeSpec{mcpNode("m", url, "t", `,"credential":"c1","output":"answer"`)}), nil)
			f.mu.Lock()
			auth := append([]string(nil), f.auth...)
			f.mu.Unlock()
			if !tc.wantOK {
				if r.Status != workrun.RunFailed || !strings.Contains(r.Reason, "belongs to https://elsewhere.example:443") || len(auth) != 0 {
					t.Fatalf("run %s: %q; the server saw %d requests", r.Status, r.Reason, len(auth))
				}
				if strings.Contains(r.Reason, "tok-c1") {
					t.Error("the secret is in the failure reason")
				}
				return
			}
			if r.Status != workrun.RunSucceeded || len(auth) < 4 {
				t.Fatalf("run %s: %s; %d requests", r.Status, r.Reason, len(auth))
			}
			for i, a := range auth {
				if a != "Bearer tok-c1" {
					t.Errorf("request %d: Authorization %q", i, a)
				}
			}
			for _, m := range e.messages(t, r.ID, "m") {
				if strings.Contains(m, "tok-c1") {
					t.Errorf("the secret is in a message: %q", m)
				}
			}
		})
	}
}
