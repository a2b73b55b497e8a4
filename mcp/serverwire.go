package mcp

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
)

// Server-side wire helpers: what a server of ours (serve/mcpserve) checks
// on a 2026-07-28 request before it reads the method. The rules are in
// docs/serve.md (MCP section); the client side of the same rules is
// headers.go.

// JSON-RPC error codes a server answers with.
const (
	CodeParseError        = -32700
	CodeInvalidRequest    = -32600
	CodeMethodNotFound    = -32601
	CodeInvalidParams     = -32602
	CodeInternalError     = -32603
	CodeHeaderMismatch    = -32020
	CodeMissingCapability = -32021
	CodeUnsupportedVer    = -32022
)

// WireError is a JSON-RPC error a server answers, with the HTTP status it
// goes with on 2026-07-28 (400 for every check failure; 200 otherwise).
type WireError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	Data    any    `json:"data,omitempty"`
	Status  int    `json:"-"`
}

func (e *WireError) Error() string { return fmt.Sprintf("%d %s", e.Code, e.Message) }

func wireErrorf(status, code int, format string, a ...any) *WireError {
	return &WireError{Code: code, Message: fmt.Sprintf(format, a...), Status: status}
}

// RequestMeta is the part of a request's params every server reads first.
type RequestMeta struct {
	Meta map[string]json.RawMessage `json:"_meta"`
}

// ReadRequestMeta reads params._meta; ok false when params is not an object.
func ReadRequestMeta(params json.RawMessage) (RequestMeta, bool) {
	var m RequestMeta
	if len(params) == 0 || string(params) == "null" {
		return m, true
	}
	if !strings.HasPrefix(strings.TrimSpace(string(params)), "{") {
		return m, false
	}
	return m, json.Unmarshal(params, &m) == nil
}

// ProtocolVersion is _meta's protocol version, if any.
func (m RequestMeta) ProtocolVersion() (string, bool) {
	raw, ok := m.Meta[MetaProtocolVersion]
	if !ok {
		return "", false
	}
	var v string
	if json.Unmarshal(raw, &v) != nil {
		return "", false
	}
	return v, true
}

// Declares says _meta's client capabilities name capability (top level).
func (m RequestMeta) Declares(capability string) bool {
	var caps map[string]json.RawMessage
	if json.Unmarshal(m.Meta[MetaClientCapabilities], &caps) != nil {
		return false
	}
	_, ok := caps[capability]
	return ok
}

// DeclaresExtension says _meta's client capabilities declare extension id.
func (m RequestMeta) DeclaresExtension(id string) bool {
	var caps struct {
		Extensions map[string]json.RawMessage `json:"extensions"`
	}
	if json.Unmarshal(m.Meta[MetaClientCapabilities], &caps) != nil {
		return false
	}
	_, ok := caps.Extensions[id]
	return ok
}

// DecodeHeaderValue reads a header value as a client wrote it: plain, or
// "=?base64?…?=" for a value that is not a plain token (headers.go).
func DecodeHeaderValue(v string) (string, error) {
	for _, c := range v {
		if c < 0x20 && c != '\t' || c == 0x7f {
			return "", errors.New("the value has a control character")
		}
	}
	if strings.HasPrefix(v, "=?base64?") && strings.HasSuffix(v, "?=") && len(v) >= len("=?base64??=") {
		b, err := base64.StdEncoding.Strict().DecodeString(v[len("=?base64?") : len(v)-2])
		if err != nil {
			return "", errors.New("the Base64 value is not valid")
		}
		return string(b), nil
	}
	return v, nil
}

// NamedBy is the params field the Mcp-Name header mirrors for method, and
// whether the method has one.
func NamedBy(method string) (field string, ok bool) {
	switch method {
	case "tools/call", "prompts/get":
		return "name", true
	case "resources/read":
		return "uri", true
	case "tasks/get", "tasks/update", "tasks/cancel":
		return "taskId", true
	}
	return "", false
}

// CheckStateless checks a 2026-07-28 request in the spec's order: the
// _meta protocol version and client capabilities (-32602), the
// MCP-Protocol-Version header against _meta (-32020), the version itself
// (-32022, data.supported), the Mcp-Method header (-32020) and the Mcp-Name
// header against the params it mirrors (-32020).
func CheckStateless(h http.Header, method string, params json.RawMessage, supported []string) *WireError {
	meta, ok := ReadRequestMeta(params)
	if !ok {
		return wireErrorf(http.StatusBadRequest, CodeInvalidParams, "Invalid params: params must be an object")
	}
	version, ok := meta.ProtocolVersion()
	if !ok {
		return wireErrorf(http.StatusBadRequest, CodeInvalidParams, "Invalid params: _meta[%q] (the protocol version) is required on every request", MetaProtocolVersion)
	}
	var caps map[string]json.RawMessage
	if raw, ok := meta.Meta[MetaClientCapabilities]; !ok || json.Unmarshal(raw, &caps) != nil || caps == nil {
		return wireErrorf(http.StatusBadRequest, CodeInvalidParams, "Invalid params: _meta[%q] (an object) is required on every request", MetaClientCapabilities)
	}
	switch hv := h.Get("MCP-Protocol-Version"); {
	case hv == "":
		return wireErrorf(http.StatusBadRequest, CodeHeaderMismatch, "Header mismatch: the MCP-Protocol-Version header is missing")
	case hv != version:
		return wireErrorf(http.StatusBadRequest, CodeHeaderMismatch, "Header mismatch: MCP-Protocol-Version header value %q does not match _meta protocolVersion %q", clip(hv), clip(version))
	}
	known := false
	for _, v := range supported {
		known = known || v == version
	}
	if !known {
		e := wireErrorf(http.StatusBadRequest, CodeUnsupportedVer, "Unsupported protocol version: %s", clip(version))
		e.Data = map[string]any{"supported": supported, "requested": version}
		return e
	}
	switch hm := h.Get("Mcp-Method"); {
	case hm == "":
		return wireErrorf(http.StatusBadRequest, CodeHeaderMismatch, "Header mismatch: the Mcp-Method header is missing")
	case hm != method:
		return wireErrorf(http.StatusBadRequest, CodeHeaderMismatch, "Header mismatch: Mcp-Method header value %q does not match body method %q", clip(hm), clip(method))
	}
	field, named := NamedBy(method)
	if !named {
		return nil
	}
	var p map[string]json.RawMessage
	json.Unmarshal(params, &p) //nolint:errcheck // params parsed as an object above
	var want string
	json.Unmarshal(p[field], &want) //nolint:errcheck // a non-string name matches no header
	raw, present := h[http.CanonicalHeaderKey("Mcp-Name")]
	if !present || len(raw) == 0 {
		return wireErrorf(http.StatusBadRequest, CodeHeaderMismatch, "Header mismatch: the Mcp-Name header is missing (it carries the %s)", field)
	}
	got, err := DecodeHeaderValue(raw[0])
	if err != nil {
		return wireErrorf(http.StatusBadRequest, CodeHeaderMismatch, "Header mismatch: Mcp-Name: %v", err)
	}
	if got != want {
		return wireErrorf(http.StatusBadRequest, CodeHeaderMismatch, "Header mismatch: Mcp-Name header value %q does not match body %s %q", clip(got), field, clip(want))
	}
	return nil
}

func clip(s string) string {
	if len(s) > 200 {
		return s[:200] + "…"
	}
	return s
}
