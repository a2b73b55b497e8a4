package mcp_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"workrun/mcp"
	"workrun/mcp/demoserver"
)

// answerAll answers every input request of ask with the values named by
// its form's fields. The client carries the content as it is: the form
// rule (defaults, checks) is the engine's (workrun.Form.Answer).
func answerAll(t *testing.T, ask *mcp.InputRequiredError, values map[string]any) map[string]json.RawMessage {
	t.Helper()
	out := map[string]json.RawMessage{}
	for k, r := range ask.Requests {
		e, err := r.Elicitation()
		if err != nil {
			t.Fatal(err)
		}
		var schema struct {
			Properties map[string]json.RawMessage `json:"properties"`
		}
		if err := json.Unmarshal(e.RequestedSchema, &schema); err != nil {
			t.Fatal(err)
		}
		content := map[string]any{}
		for name := range schema.Properties {
			if v, ok := values[name]; ok {
				content[name] = v
			}
		}
		out[k] = mcp.ElicitResult{Action: mcp.ActionAccept, Content: content}.JSON()
	}
	return out
}

// TestMRTR_SurveyTwoRounds: the demo's survey asks twice with
// InputRequiredResult; each retry carries the answers and the exact
// requestState, and the elicitation capability is declared on every
// request.
func TestMRTR_SurveyTwoRounds(t *testing.T) {
	d, url := startDemo(t, demoserver.Options{})
	c := connectModern(t, url, mcp.Options{Elicitation: mcp.ElicitationModes{Form: true}})
	p := mcp.CallParams{Name: "survey", Arguments: json.RawMessage(`{"topic":"tea"}`)}
	values := map[string]any{"region": "Yunnan", "depth": "thorough"}
	var states []string
	res, err := c.CallTool(t.Context(), p)
	for round := 1; err != nil; round++ {
		var ask *mcp.InputRequiredError
		if !errors.As(err, &ask) || round > 2 {
			t.Fatalf("round %d: %v", round, err)
		}
		if ask.RequestState == nil {
			t.Fatal("the demo sends a requestState")
		}
		states = append(states, *ask.RequestState)
		p.InputResponses, p.RequestState = answerAll(t, ask, values), ask.RequestState
		res, err = c.CallTool(t.Context(), p)
	}
	if len(states) != 2 || states[0] == states[1] {
		t.Fatalf("rounds: %q", states)
	}
	if got := res.Result.Text(); got != "Survey of tea: region Yunnan, thorough." {
		t.Fatalf("result %q", got)
	}
	calls := 0
	for _, r := range d.Requests() {
		if r.Method != "tools/call" {
			continue
		}
		calls++
		var params struct {
			Meta map[string]json.RawMessage `json:"_meta"`
		}
		json.Unmarshal(r.Params, &params) //nolint:errcheck // checked below
		if !strings.Contains(string(params.Meta[mcp.MetaClientCapabilities]), `"elicitation":{"form":{}}`) {
			t.Errorf("call %d declares %s", calls, params.Meta[mcp.MetaClientCapabilities])
		}
	}
	if calls != 3 {
		t.Errorf("%d tools/call, want 3 (first, two retries)", calls)
	}
}

// TestTaskUpdate_Survey: as a 2026-07-28 task, survey waits in
// input_required with inputRequests on tasks/get; tasks/update answers
// each round and the task completes. A repeated update changes nothing.
func TestTaskUpdate_Survey(t *testing.T) {
	_, url := startDemo(t, demoserver.Options{})
	c := connectModern(t, url, mcp.Options{Elicitation: mcp.ElicitationModes{Form: true}})
	res, err := c.CallTool(t.Context(), mcp.CallParams{Name: "survey", Arguments: json.RawMessage(`{"topic":"tea"}`), Task: mcp.FormExtension})
	if err != nil || res.Task == nil {
		t.Fatalf("call: %+v, %v", res, err)
	}
	id := res.Task.TaskID
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	values := map[string]any{"region": "Yunnan", "depth": "quick"}
	answered := map[string]bool{}
	for {
		task, err := c.GetTask(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if task.Status == mcp.StatusCompleted {
			if got := task.Result.Text(); got != "Survey of tea: region Yunnan, quick." {
				t.Fatalf("result %q", got)
			}
			break
		}
		if task.Status == mcp.StatusInputRequired && len(task.InputRequests) > 0 {
			resp := answerAll(t, &mcp.InputRequiredError{Requests: task.InputRequests}, values)
			for k := range resp {
				if answered[k] {
					t.Fatalf("key %s asked twice", k)
				}
				answered[k] = true
			}
			for range 2 { // the second update is ignored by the server
				if err := c.UpdateTask(ctx, id, resp); err != nil {
					t.Fatal(err)
				}
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	if !answered["region"] || !answered["depth"] {
		t.Fatalf("answered %v", answered)
	}
}

// askingStream is a 2025-11-25 tools/call reply that pings, asks for
// sampling, then elicits, and then answers the call.
func askingStream(id json.RawMessage) string {
	return "data: {\"jsonrpc\":\"2.0\",\"id\":\"p1\",\"method\":\"ping\"}\n\n" +
		"data: {\"jsonrpc\":\"2.0\",\"id\":\"s1\",\"method\":\"sampling/createMessage\",\"params\":{}}\n\n" +
		"data: {\"jsonrpc\":\"2.0\",\"id\":\"e1\",\"method\":\"elicitation/create\",\"params\":{\"message\":\"Name?\",\"requestedSchema\":{\"type\":\"object\",\"properties\":{\"name\":{\"type\":\"string\"},\"n\":{\"type\":\"integer\",\"default\":3}},\"required\":[\"name\"]}}}\n\n" +
		"data: {\"jsonrpc\":\"2.0\",\"id\":" + string(id) + ",\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"done\"}]}}\n\n"
}

// TestLegacyStreamRequests: on a 2025-11-25 reply stream the client
// answers the ping with {}, declines sampling with -1 and gives the
// elicitation to its handler — each answer POSTed in the session with the
// protocol version. Without an answer at hand the wait ends with the
// request (StreamID), answered later with Respond.
func TestLegacyStreamRequests(t *testing.T) {
	f := &fakeServer{Handle: func(w http.ResponseWriter, _ *http.Request, method string, id, _ json.RawMessage) bool {
		switch method {
		case "":
			w.WriteHeader(http.StatusAccepted) // a response from the client
			return true
		case "tools/call":
			w.Header().Set("Content-Type", "text/event-stream")
			io.WriteString(w, askingStream(id)) //nolint:errcheck // test server
			return true
		}
		return false
	}}
	url := f.start(t)
	var asked []string
	c := newClient(t, url, mcp.Options{
		Elicitation: mcp.ElicitationModes{Form: true},
		OnRequest: func(_ context.Context, r mcp.InputRequest) (json.RawMessage, error) {
			e, err := r.Elicitation()
			if err != nil {
				return nil, err
			}
			asked = append(asked, e.Message)
			return mcp.ElicitResult{Action: mcp.ActionAccept, Content: map[string]any{"name": "Ada", "n": 3}}.JSON(), nil
		},
	})
	res, err := c.CallTool(t.Context(), mcp.CallParams{Name: "t"})
	if err != nil || res.Result.Text() != "done" {
		t.Fatalf("call: %+v, %v", res, err)
	}
	if len(asked) != 1 || asked[0] != "Name?" {
		t.Fatalf("handler saw %v", asked)
	}
	answers := map[string]string{}
	var init json.RawMessage
	for _, r := range f.requests() {
		if r.Method == "initialize" {
			init = r.Params
		}
		if r.Method != "" {
			continue
		}
		if r.Header.Get("Mcp-Session-Id") != "sess-1" || r.Header.Get("MCP-Protocol-Version") != mcp.Version20251125 {
			t.Errorf("answer headers %v", r.Header)
		}
		var m struct {
			ID json.RawMessage `json:"id"`
		}
		json.Unmarshal(r.Body, &m) //nolint:errcheck // compared below
		answers[string(m.ID)] = string(r.Body)
	}
	for id, want := range map[string]string{
		`"p1"`: `"result":{}`,
		`"s1"`: `"error":{"code":-1,`,
		`"e1"`: `"result":{"action":"accept","content":{"n":3,"name":"Ada"}}`,
	} {
		if !strings.Contains(answers[id], want) {
			t.Errorf("answer to %s = %s, want %s", id, answers[id], want)
		}
	}
	if !strings.Contains(string(init), `"capabilities":{"elicitation":{"form":{}}}`) {
		t.Errorf("initialize params %s", init)
	}

	c2 := newClient(t, url, mcp.Options{Elicitation: mcp.ElicitationModes{Form: true}})
	_, err = c2.CallTool(t.Context(), mcp.CallParams{Name: "t"})
	var ask *mcp.InputRequiredError
	if !errors.As(err, &ask) || string(ask.StreamID) != `"e1"` || ask.Requests[`"e1"`].Method != mcp.MethodElicit {
		t.Fatalf("err = %v (%+v)", err, ask)
	}
	if err := c2.Respond(t.Context(), ask.StreamID, mcp.ElicitResult{Action: mcp.ActionDecline}.JSON(), nil); err != nil {
		t.Fatal(err)
	}
	last := f.requests()[len(f.requests())-1]
	if !strings.Contains(string(last.Body), `"id":"e1","jsonrpc":"2.0","result":{"action":"decline"}`) {
		t.Errorf("late answer %s", last.Body)
	}
}
