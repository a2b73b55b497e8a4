package mcp_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"

	"workrun/mcp"
)

// validDiscover is a complete 2026-07-28 discover result.
const validDiscover = `{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{"tools":{}},"ttlMs":0,"cacheScope":"private","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"modern","version":"1"}}}`

// TestDetection: every shape of a server/discover answer (docs/remote-mcp.md
// M2 "Detection"). Only a valid discover result listing a version this
// client speaks makes the server 2026-07-28; every other answer falls back
// to initialize, and a server that then refuses initialize too gets an
// error naming both answers.
func TestDetection(t *testing.T) {
	result := func(res string) func(w http.ResponseWriter, id json.RawMessage) {
		return func(w http.ResponseWriter, id json.RawMessage) {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":%s}`, id, res)
		}
	}
	status := func(code int, ctype, body string) func(w http.ResponseWriter, id json.RawMessage) {
		return func(w http.ResponseWriter, _ json.RawMessage) {
			if ctype != "" {
				w.Header().Set("Content-Type", ctype)
			}
			w.WriteHeader(code)
			io.WriteString(w, body) //nolint:errcheck // test server
		}
	}
	rpcError := func(w http.ResponseWriter, id json.RawMessage) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"Method not found"}}`, id)
	}
	for _, tc := range []struct {
		name     string
		discover func(w http.ResponseWriter, id json.RawMessage)
		modern   bool   // a 2026-07-28 server
		answered string // what the error names when initialize is refused too
	}{
		{"valid", result(validDiscover), true, ""},
		{"empty result", result(`{}`), false, "the result has no resultType, supportedVersions, capabilities, ttlMs, cacheScope"},
		{"null result", result(`null`), false, "no result"},
		{"array result", result(`[1]`), false, "not a JSON object"},
		{"no supportedVersions", result(`{"resultType":"complete","capabilities":{},"ttlMs":0,"cacheScope":"private"}`), false, "no supportedVersions"},
		{"no capabilities", result(`{"resultType":"complete","supportedVersions":["2026-07-28"],"ttlMs":0,"cacheScope":"private"}`), false, "no capabilities"},
		{"no ttlMs or cacheScope", result(`{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{}}`), false, "no ttlMs, cacheScope"},
		{"no resultType", result(`{"supportedVersions":["2026-07-28"],"capabilities":{},"ttlMs":0,"cacheScope":"private"}`), false, "no resultType"},
		{"wrong resultType", result(`{"resultType":"task","supportedVersions":["2026-07-28"],"capabilities":{},"ttlMs":0,"cacheScope":"private"}`), false, "resultType"},
		{"empty supportedVersions", result(`{"resultType":"complete","supportedVersions":[],"capabilities":{},"ttlMs":0,"cacheScope":"private"}`), false, "supportedVersions"},
		{"supportedVersions not strings", result(`{"resultType":"complete","supportedVersions":[2026],"capabilities":{},"ttlMs":0,"cacheScope":"private"}`), false, "supportedVersions"},
		{"capabilities not an object", result(`{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":"all","ttlMs":0,"cacheScope":"private"}`), false, "capabilities"},
		{"negative ttlMs", result(`{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{},"ttlMs":-1,"cacheScope":"private"}`), false, "ttlMs"},
		{"unsupported versions", result(`{"resultType":"complete","supportedVersions":["2099-01-01","1999-01-01"],"capabilities":{},"ttlMs":0,"cacheScope":"private"}`), false, "2099-01-01, 1999-01-01"},
		{"json-rpc error", rpcError, false, "Method not found"},
		{"http 400", status(400, "", ""), false, "400"},
		{"http 404", status(404, "text/plain", "404 page not found"), false, "404"},
		{"http 404 with -32601", status(404, "application/json", `{"jsonrpc":"2.0","id":null,"error":{"code":-32601,"message":"Method not found"}}`), false, "Method not found"},
		{"http 405", status(405, "", ""), false, "405"},
		{"garbage body", status(200, "application/json", "<<<not json>>>"), false, "not JSON-RPC"},
		{"plain text body", status(200, "text/plain", "hello"), false, "text/plain"},
	} {
		for _, legacy := range []bool{true, false} {
			name := tc.name + map[bool]string{true: "/initialize answers", false: "/initialize refused"}[legacy]
			t.Run(name, func(t *testing.T) {
				f := &fakeServer{Handle: func(w http.ResponseWriter, _ *http.Request, method string, id, _ json.RawMessage) bool {
					switch {
					case method == "server/discover":
						tc.discover(w, id)
						return true
					case !legacy && (method == "initialize" || method == "notifications/initialized"):
						w.WriteHeader(http.StatusMethodNotAllowed)
						return true
					}
					return false
				}}
				c, err := mcp.New(f.start(t), mcp.Options{})
				if err != nil {
					t.Fatal(err)
				}
				res, err := c.Connect(t.Context())
				sentInit := slices.ContainsFunc(f.requests(), func(s seen) bool { return s.Method == "initialize" })
				switch {
				case tc.modern:
					if err != nil || c.Version() != mcp.Version20260728 || sentInit || res.ServerInfo.Name != "modern" {
						t.Fatalf("version %q, initialize sent %v, res %+v, err %v", c.Version(), sentInit, res, err)
					}
				case legacy:
					if err != nil || c.Version() != mcp.Version20251125 || !sentInit || res.ServerInfo.Name != "fake" || c.Session() != "sess-1" {
						t.Fatalf("want a 2025-11-25 session after initialize: version %q, initialize sent %v, res %+v, err %v", c.Version(), sentInit, res, err)
					}
				default:
					if err == nil || !errors.Is(err, mcp.ErrUnsupportedVersion) || !sentInit {
						t.Fatalf("want ErrUnsupportedVersion after both refusals, got %v (initialize sent %v)", err, sentInit)
					}
					for _, want := range []string{"server/discover", tc.answered, "initialize", "405"} {
						if !strings.Contains(err.Error(), want) {
							t.Errorf("error %q does not name %q", err, want)
						}
					}
				}
			})
		}
	}
}

// TestDetectionPinnedModern: a pinned 2026-07-28 never falls back, even
// when server/discover's answer is no discover result.
func TestDetectionPinnedModern(t *testing.T) {
	f := &fakeServer{Handle: func(w http.ResponseWriter, _ *http.Request, method string, id, _ json.RawMessage) bool {
		if method == "server/discover" {
			jsonAnswer(w, id, map[string]any{})
			return true
		}
		return false
	}}
	c, _ := mcp.New(f.start(t), mcp.Options{Version: mcp.Version20260728})
	_, err := c.Connect(t.Context())
	if !errors.Is(err, mcp.ErrNotDiscoverResult) {
		t.Fatalf("err = %v, want ErrNotDiscoverResult", err)
	}
	for _, r := range f.requests() {
		if r.Method == "initialize" {
			t.Fatal("initialize sent with 2026-07-28 pinned")
		}
	}
}

// FuzzParseDiscoverResult: any bytes as a discover result never panic; an
// accepted result has every required member and a version this client
// speaks, and a rejected one is ErrNotDiscoverResult.
func FuzzParseDiscoverResult(f *testing.F) {
	for _, s := range []string{validDiscover, `{}`, `null`, `[]`, `"x"`, `{"resultType":"complete","supportedVersions":["2025-11-25"],"capabilities":{},"ttlMs":1.5,"cacheScope":"public"}`,
		`{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{"tasks":7},"ttlMs":0,"cacheScope":"public"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		res, err := mcp.ParseDiscoverResult(in)
		if err != nil {
			if !errors.Is(err, mcp.ErrNotDiscoverResult) {
				t.Fatalf("unclassified error %v", err)
			}
			return
		}
		var m map[string]json.RawMessage
		if json.Unmarshal(in, &m) != nil {
			t.Fatalf("accepted a non-object %q", in)
		}
		for _, k := range []string{"resultType", "supportedVersions", "capabilities", "ttlMs", "cacheScope"} {
			if _, ok := m[k]; !ok {
				t.Fatalf("accepted %q without %s", in, k)
			}
		}
		if !slices.ContainsFunc(res.SupportedVersions, func(v string) bool { return slices.Contains(mcp.SupportedVersions, v) }) {
			t.Fatalf("accepted %q with no version this client speaks", in)
		}
	})
}
