package demoserver

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"workrun/mcp"
)

// serveModern serves one 2026-07-28 request: checks first (docs/demo-mcp.md
// "Checks, in order"), then the method.
func (s *Server) serveModern(w http.ResponseWriter, r *http.Request, msg *rpcMessage, env envelope) {
	version, _ := env.ProtocolVersion()
	s.record(r, msg, env, version, "")
	if !msg.isRequest() {
		// No client notification is defined on 2026-07-28 HTTP; accepted
		// and ignored.
		w.WriteHeader(http.StatusAccepted)
		return
	}
	if err := s.checkModern(r, msg, env); err != nil {
		writeRPCError(w, err.status(), msg.ID, err)
		return
	}
	switch msg.Method {
	case "server/discover":
		writeResult(w, msg.ID, s.discover())
	case "tools/list":
		writeResult(w, msg.ID, map[string]any{"resultType": "complete", "tools": s.toolList(),
			"ttlMs": 0, "cacheScope": "public"})
	case "tools/call":
		s.modernCall(w, r, msg, env)
	case "tasks/get", "tasks/update", "tasks/cancel":
		if !env.DeclaresExtension(TasksExtension) {
			e := missingTasks(msg.Method)
			writeRPCError(w, e.status(), msg.ID, e)
			return
		}
		res, err := s.taskMethod(r.Context(), "", msg.Method, msg.Params)
		writeTaskAnswer(w, msg.ID, res, err, true)
	case "subscriptions/listen":
		s.listen(w, r, msg, env)
	default:
		e := errorf(codeNoMethod, "Method not found: %s is not a 2026-07-28 method of this server", msg.Method)
		writeRPCError(w, e.status(), msg.ID, e)
	}
}

// checkModern checks the per-request _meta and the standard headers.
func (s *Server) checkModern(r *http.Request, msg *rpcMessage, env envelope) *rpcError {
	version, ok := env.ProtocolVersion()
	if !ok {
		e := errorf(codeInvalidParams, "Invalid params: _meta[%q] (the protocol version) is required on every request", mcp.MetaProtocolVersion)
		return withStatus(e, http.StatusBadRequest)
	}
	var caps map[string]json.RawMessage
	if raw, ok := env.Meta[mcp.MetaClientCapabilities]; !ok || json.Unmarshal(raw, &caps) != nil || caps == nil {
		e := errorf(codeInvalidParams, "Invalid params: _meta[%q] (an object) is required on every request", mcp.MetaClientCapabilities)
		return withStatus(e, http.StatusBadRequest)
	}
	hv := r.Header.Get("MCP-Protocol-Version")
	switch {
	case hv == "":
		return errorf(codeHeaderMismatch, "Header mismatch: the MCP-Protocol-Version header is missing")
	case hv != version:
		return errorf(codeHeaderMismatch, "Header mismatch: MCP-Protocol-Version header value %q does not match _meta protocolVersion %q", hv, version)
	}
	if version != Modern {
		return &rpcError{Code: codeUnsupportedVer, Message: fmt.Sprintf("Unsupported protocol version: %s (this server speaks %s per request, and %s after initialize)", version, Modern, Legacy),
			Data: map[string]any{"supported": []string{Modern}, "requested": version}}
	}
	switch hm := r.Header.Get("Mcp-Method"); {
	case hm == "":
		return errorf(codeHeaderMismatch, "Header mismatch: the Mcp-Method header is missing")
	case hm != msg.Method:
		return errorf(codeHeaderMismatch, "Header mismatch: Mcp-Method header value %q does not match body method %q", hm, msg.Method)
	}
	var p struct {
		Name   string `json:"name"`
		URI    string `json:"uri"`
		TaskID string `json:"taskId"`
	}
	json.Unmarshal(msg.Params, &p) //nolint:errcheck // the params were parsed as an object already
	want, named := "", false
	switch msg.Method {
	case "tools/call", "prompts/get":
		want, named = p.Name, true
	case "resources/read":
		want, named = p.URI, true
	case "tasks/get", "tasks/update", "tasks/cancel":
		want, named = p.TaskID, true
	}
	if named {
		raw, present := r.Header["Mcp-Name"]
		if !present || len(raw) == 0 {
			return errorf(codeHeaderMismatch, "Header mismatch: the Mcp-Name header is missing (it carries the %s)", nameField(msg.Method))
		}
		got, err := decodeHeaderValue(raw[0])
		if err != nil {
			return errorf(codeHeaderMismatch, "Header mismatch: Mcp-Name: %v", err)
		}
		if got != want {
			return errorf(codeHeaderMismatch, "Header mismatch: Mcp-Name header value %q does not match body value %q", got, want)
		}
	}
	if msg.Method == "tools/call" {
		if spec, ok := s.specs[p.Name]; ok {
			return checkParamHeaders(r, spec, msg.Params)
		}
	}
	return nil
}

func nameField(method string) string {
	switch method {
	case "resources/read":
		return "params.uri"
	case "tasks/get", "tasks/update", "tasks/cancel":
		return "params.taskId"
	}
	return "params.name"
}

// withStatus marks e to be answered with HTTP status code.
func withStatus(e *rpcError, code int) *rpcError {
	e.httpStatus = code
	return e
}

// decodeHeaderValue reads a header value, decoding the =?base64?…?= form.
func decodeHeaderValue(v string) (string, error) {
	for _, c := range v {
		if c < 0x20 && c != '\t' || c == 0x7f {
			return "", errors.New("the value has a control character")
		}
	}
	if strings.HasPrefix(v, "=?base64?") && strings.HasSuffix(v, "?=") && len(v) >= len("=?base64??=") {
		b, err := base64.StdEncoding.Strict().DecodeString(v[len("=?base64?") : len(v)-2])
		if err != nil {
			return "", fmt.Errorf("the Base64 value is not valid: %v", err)
		}
		return string(b), nil
	}
	return v, nil
}

// checkParamHeaders checks the Mcp-Param-* headers a tool's x-mcp-header
// annotations ask for against the arguments.
func checkParamHeaders(r *http.Request, spec toolSpec, params json.RawMessage) *rpcError {
	props, _ := spec.schema["properties"].(map[string]any)
	var p struct {
		Arguments map[string]json.RawMessage `json:"arguments"`
	}
	json.Unmarshal(params, &p) //nolint:errcheck // bad arguments are answered by the call
	for _, name := range slices.Sorted(maps.Keys(props)) {
		prop, _ := props[name].(map[string]any)
		hname, _ := prop["x-mcp-header"].(string)
		if hname == "" {
			continue
		}
		header := "Mcp-Param-" + hname
		raw, inBody := p.Arguments[name]
		if string(raw) == "null" {
			inBody = false
		}
		values, sent := r.Header[http.CanonicalHeaderKey(header)]
		if !inBody {
			continue // the header is not expected
		}
		if !sent || len(values) == 0 {
			return errorf(codeHeaderMismatch, "Header mismatch: the %s header is missing (argument %q is in the body)", header, name)
		}
		got, err := decodeHeaderValue(values[0])
		if err != nil {
			return errorf(codeHeaderMismatch, "Header mismatch: %s: %v", header, err)
		}
		if !sameValue(got, raw) {
			return errorf(codeHeaderMismatch, "Header mismatch: %s header value %q does not match argument %q", header, got, name)
		}
	}
	return nil
}

// sameValue compares a header's text with a JSON argument: strings as
// text, numbers numerically, booleans as true/false.
func sameValue(header string, raw json.RawMessage) bool {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return false
	}
	switch x := v.(type) {
	case string:
		return header == x
	case float64:
		f, err := strconv.ParseFloat(header, 64)
		return err == nil && f == x
	case bool:
		return header == strconv.FormatBool(x)
	}
	return false
}

func (s *Server) discover() map[string]any {
	return map[string]any{
		"resultType":        "complete",
		"supportedVersions": []string{Modern},
		"capabilities": map[string]any{
			"tools":      map[string]any{},
			"extensions": map[string]any{TasksExtension: map[string]any{}},
		},
		"instructions": instructions,
		// serverInfo lives in _meta on 2026-07-28; also at the top for
		// clients that read it where initialize had it.
		"serverInfo": serverInfo(),
		"ttlMs":      0,
		"cacheScope": "public",
		"_meta":      map[string]any{metaServerInfo: serverInfo()},
	}
}

// toolList lists the tools with execution.taskSupport (a 2025-11-25 field;
// on 2026-07-28 only a hint).
func (s *Server) toolList() []map[string]any {
	out := []map[string]any{}
	for _, name := range s.order {
		t := s.specs[name]
		m := map[string]any{"name": t.name, "title": t.title, "description": t.description, "inputSchema": t.schema,
			// A hint on 2026-07-28, where the Tool has no such field and the
			// server decides per call (docs/demo-mcp.md D3).
			"execution": map[string]any{"taskSupport": t.taskSupport}}
		out = append(out, m)
	}
	return out
}

// callParams are a tools/call's params.
type callParams struct {
	Name           string                     `json:"name"`
	Arguments      json.RawMessage            `json:"arguments"`
	InputResponses map[string]json.RawMessage `json:"inputResponses"`
	RequestState   string                     `json:"requestState"`
	Task           *struct {
		TTL *int64 `json:"ttl"`
	} `json:"task"`
	Meta struct {
		ProgressToken json.RawMessage `json:"progressToken"`
	} `json:"_meta"`
}

func (s *Server) parseCall(params json.RawMessage) (callParams, toolSpec, *rpcError) {
	var cp callParams
	if err := json.Unmarshal(params, &cp); err != nil {
		return cp, toolSpec{}, errorf(codeInvalidParams, "Invalid params: %v", err)
	}
	spec, ok := s.specs[cp.Name]
	if !ok {
		return cp, toolSpec{}, errorf(codeInvalidParams, "Invalid params: unknown tool %q", cp.Name)
	}
	if err := checkRequired(spec, cp.Arguments); err != nil {
		return cp, spec, err
	}
	return cp, spec, nil
}

// checkRequired checks that the required arguments are there.
func checkRequired(spec toolSpec, args json.RawMessage) *rpcError {
	req, _ := spec.schema["required"].([]string)
	if len(req) == 0 {
		return nil
	}
	var m map[string]json.RawMessage
	if len(args) > 0 && string(args) != "null" && json.Unmarshal(args, &m) != nil {
		return errorf(codeInvalidParams, "Invalid params: arguments must be an object")
	}
	for _, k := range req {
		if _, ok := m[k]; !ok {
			return errorf(codeInvalidParams, "Invalid params: tool %s needs the argument %q", spec.name, k)
		}
	}
	return nil
}

// needInput ends a call answered at once: the client must answer these
// requests and retry (MRTR).
type needInput struct {
	requests map[string]inputRequest
	answers  map[string]json.RawMessage
}

func (n *needInput) Error() string { return "input required" }

// mrtrAsk is call.ask for a call answered at once: answers come with the
// retry (inputResponses, and earlier rounds' in requestState).
func mrtrAsk(answers map[string]json.RawMessage) func(context.Context, map[string]inputRequest) (map[string]json.RawMessage, error) {
	return func(_ context.Context, requests map[string]inputRequest) (map[string]json.RawMessage, error) {
		got := map[string]json.RawMessage{}
		missing := map[string]inputRequest{}
		for k, req := range requests {
			if a, ok := answers[k]; ok {
				got[k] = a
			} else {
				missing[k] = req
			}
		}
		if len(missing) > 0 {
			return nil, &needInput{requests: missing, answers: answers}
		}
		return got, nil
	}
}

// signState makes the opaque requestState: the answers so far, signed so a
// changed state is refused.
func (s *Server) signState(answers map[string]json.RawMessage) string {
	b, _ := json.Marshal(answers)
	mac := hmac.New(sha256.New, s.stateKey)
	mac.Write(b)
	return base64.RawURLEncoding.EncodeToString(b) + "." + base64.RawURLEncoding.EncodeToString(mac.Sum(nil))
}

func (s *Server) readState(state string) (map[string]json.RawMessage, *rpcError) {
	answers := map[string]json.RawMessage{}
	if state == "" {
		return answers, nil
	}
	bad := errorf(codeInvalidParams, "Invalid params: requestState is not one this server issued")
	body, sig, ok := strings.Cut(state, ".")
	if !ok {
		return nil, bad
	}
	b, err1 := base64.RawURLEncoding.DecodeString(body)
	got, err2 := base64.RawURLEncoding.DecodeString(sig)
	if err1 != nil || err2 != nil {
		return nil, bad
	}
	mac := hmac.New(sha256.New, s.stateKey)
	mac.Write(b)
	if !hmac.Equal(mac.Sum(nil), got) || json.Unmarshal(b, &answers) != nil {
		return nil, bad
	}
	return answers, nil
}

func (s *Server) inputRequired(n *needInput) map[string]any {
	return map[string]any{"resultType": "input_required", "inputRequests": n.requests, "requestState": s.signState(n.answers)}
}

func (s *Server) modernCall(w http.ResponseWriter, r *http.Request, msg *rpcMessage, env envelope) {
	cp, spec, perr := s.parseCall(msg.Params)
	if perr != nil {
		writeRPCError(w, perr.status(), msg.ID, perr)
		return
	}
	if spec.needs != "" && !env.Declares(spec.needs) {
		e := &rpcError{Code: codeMissingCap, Message: fmt.Sprintf("Missing required client capability: tool %s needs %q in _meta clientCapabilities", spec.name, spec.needs),
			Data: map[string]any{"requiredCapabilities": map[string]any{spec.needs: map[string]any{}}}}
		writeRPCError(w, e.status(), msg.ID, e)
		return
	}
	declares := env.DeclaresExtension(TasksExtension)
	if spec.taskSupport == "required" && !declares {
		e := missingTasks("tool " + spec.name)
		writeRPCError(w, e.status(), msg.ID, e)
		return
	}
	answers, perr := s.readState(cp.RequestState)
	if perr != nil {
		writeRPCError(w, perr.status(), msg.ID, perr)
		return
	}
	maps.Copy(answers, cp.InputResponses)
	c := &call{args: cp.Arguments, status: func(string) {}, notify: func(float64, float64, string) {}, ask: mrtrAsk(answers)}
	if spec.gather != nil {
		g, err := spec.gather(r.Context(), s, c)
		var n *needInput
		switch {
		case errors.As(err, &n):
			writeResult(w, msg.ID, s.inputRequired(n))
			return
		case err != nil:
			e := toRPCError(err)
			writeRPCError(w, e.status(), msg.ID, e)
			return
		}
		c.gathered = g
	}
	if spec.taskSupport != "forbidden" && declares {
		t := s.startTask("", r.Header.Get("Idempotency-Key"), formExtension, spec, c)
		writeResult(w, msg.ID, s.created(t))
		return
	}
	// Answered at once; closing the request ends the work (2026-07-28
	// cancellation is the stream's end).
	var sse *sseWriter
	if len(cp.Meta.ProgressToken) > 0 && acceptsSSE(r) {
		sse = newSSEWriter(w)
		token := cp.Meta.ProgressToken
		c.notify = func(progress, total float64, message string) {
			sse.send("", "", map[string]any{"jsonrpc": "2.0", "method": "notifications/progress",
				"params": map[string]any{"progressToken": token, "progress": progress, "total": total, "message": message}})
		}
	}
	res, err := spec.run(r.Context(), s, c)
	var answer map[string]any
	var n *needInput
	switch {
	case errors.As(err, &n):
		answer = map[string]any{"jsonrpc": "2.0", "id": msg.ID, "result": s.inputRequired(n)}
	case err != nil:
		e := toRPCError(err)
		if sse == nil {
			writeRPCError(w, e.status(), msg.ID, e)
			return
		}
		answer = map[string]any{"jsonrpc": "2.0", "id": msg.ID, "error": e}
	default:
		answer = map[string]any{"jsonrpc": "2.0", "id": msg.ID, "result": withResultType(toMap(res))}
	}
	if sse != nil {
		sse.send("", "", answer)
		return
	}
	writeJSON(w, http.StatusOK, answer)
}

func acceptsSSE(r *http.Request) bool {
	return strings.Contains(r.Header.Get("Accept"), "text/event-stream")
}
