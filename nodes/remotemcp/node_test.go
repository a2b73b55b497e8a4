package remotemcp_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"workrun/mcp/demoserver"
	"workrun/nodes/remotemcp"
	"workrun/workrun"
)

func TestSyncToolOutputs(t *testing.T) {
	d, url := demo(t, demoserver.Options{})
	e := newEnv(t, "")
	wf := flow(state, []workrun.NodeSpec{mcpNode("m", url, "echo", `,"arguments":{"text":"hello {{q}} #{{n}}"},"output":"answer","output_json":"data"`)})
	r := e.run(t, wf, workrun.Values{"q": "world", "n": 3.0})
	if r.Status != workrun.RunSucceeded {
		t.Fatalf("run %s: %s %q", r.Status, r.Reason, e.messages(t, r.ID, "m"))
	}
	if got := r.State["answer"]; got != "echo: hello world #3" {
		t.Errorf("answer = %q", got)
	}
	if diff := cmp.Diff(map[string]any{"echo": "hello world #3", "length": 14.0}, r.State["data"]); diff != "" {
		t.Errorf("data (-want +got):\n%s", diff)
	}
	calls := 0
	for _, q := range d.Requests() {
		if q.Method == "tools/call" {
			calls++
			if q.Key != remotemcp.IdempotencyKey(r.ID, "m") {
				t.Errorf("Idempotency-Key = %q", q.Key)
			}
		}
	}
	if calls != 1 {
		t.Errorf("tools/call sent %d times", calls)
	}
	c := e.call(t, r.ID, "m")
	if !c.Ended || c.TaskID != "" || c.MessageID != remotemcp.IdempotencyKey(r.ID, "m") || !strings.Contains(c.ContextID, "session=") {
		t.Errorf("record = %+v", c)
	}
}

func TestTaskForms(t *testing.T) {
	for _, coreOnly := range []bool{false, true} {
		t.Run(fmt.Sprintf("coreOnly=%v", coreOnly), func(t *testing.T) {
			d, url := demo(t, demoserver.Options{CoreOnly: coreOnly})
			e := newEnv(t, "")
			wf := flow(state, []workrun.NodeSpec{mcpNode("m", url, "research",
				`,"arguments":{"topic":"{{q}}","stages":{{n}}},"output":"answer","output_json":"data","output_files":"files"`)})
			// stages is a literal template inside JSON: not valid, so use a
			// single-field string instead.
			wf.Nodes[1] = mcpNode("m", url, "research", `,"arguments":{"topic":"{{q}}","stages":"{{n}}"},"output":"answer","output_json":"data","output_files":"files"`)
			r := e.run(t, wf, workrun.Values{"q": "tides", "n": 2.0})
			msgs := e.messages(t, r.ID, "m")
			if r.Status != workrun.RunSucceeded {
				t.Fatalf("run %s: %s %q", r.Status, r.Reason, msgs)
			}
			if got := r.State["answer"]; got != "Research on tides: 2 stages done." {
				t.Errorf("answer = %q", got)
			}
			if data, _ := r.State["data"].(map[string]any); data["topic"] != "tides" {
				t.Errorf("data = %v", r.State["data"])
			}
			files, _ := r.State["files"].([]any)
			if len(files) != 2 {
				t.Fatalf("files = %v; messages %q", files, msgs)
			}
			var names []string
			for _, f := range files {
				info, err := e.arts.Stat(t.Context(), f.(string))
				if err != nil {
					t.Fatal(err)
				}
				names = append(names, info.Name+" "+info.MediaType)
			}
			if diff := cmp.Diff([]string{"image-1.png image/png", "findings.csv text/csv"}, names); diff != "" {
				t.Errorf("files (-want +got):\n%s", diff)
			}
			if !contains(msgs, "Resource link not downloaded: https://example.invalid/research/sources") || contains(msgs, "token=secret") {
				t.Errorf("link message missing or unredacted: %q", msgs)
			}
			if count(d, "tools/call", "research") != 1 {
				t.Errorf("research called %d times", count(d, "tools/call", "research"))
			}
			c := e.call(t, r.ID, "m")
			// The demo server speaks 2025-11-25 only (server/discover lists
			// legacy versions), so the session's core form is used whatever
			// else it offers; the extension form is tested against a
			// 2026-07-28 server (modern_test.go).
			form := "2025-11-25"
			if n := count(d, "tasks/result", ""); n != 1 {
				t.Errorf("tasks/result sent %d times", n)
			}
			if c.TaskID == "" || !c.Ended || c.RemoteState != "completed" || !strings.Contains(c.ContextID, "handle=task; form="+form) {
				t.Errorf("record = %+v", c)
			}
			if count(d, "tasks/cancel", "") != 0 {
				t.Error("a completed task was cancelled")
			}
		})
	}
}

func TestToolErrorFailsWithItsText(t *testing.T) {
	_, url := demo(t, demoserver.Options{})
	e := newEnv(t, "")
	r := e.run(t, flow(state, []workrun.NodeSpec{mcpNode("m", url, "broken", `,"output":"answer"`)}), nil)
	if r.Status != workrun.RunFailed || !strings.Contains(r.Reason, "the solver diverged at step 3") {
		t.Fatalf("run %s: %q", r.Status, r.Reason)
	}
	if c := e.call(t, r.ID, "m"); !c.Ended || c.CancelOutcome != "" {
		t.Errorf("record = %+v", c)
	}
}

func TestInputRequiredInterrupts(t *testing.T) {
	for _, coreOnly := range []bool{false, true} {
		t.Run(fmt.Sprintf("coreOnly=%v", coreOnly), func(t *testing.T) {
			_, url := demo(t, demoserver.Options{CoreOnly: coreOnly})
			e := newEnv(t, "")
			r := e.run(t, flow(state, []workrun.NodeSpec{mcpNode("m", url, "ask", `,"arguments":{"question":"Which port?"}`)}), nil)
			if r.Status != workrun.RunInterrupted || r.Interruption != workrun.InterruptedByRemote || !strings.Contains(r.Reason, "Which port?") {
				t.Fatalf("run %s (%s): %q %q", r.Status, r.Interruption, r.Reason, e.messages(t, r.ID, "m"))
			}
		})
	}
}

func TestLegacyJobFlow(t *testing.T) {
	d, url := demo(t, demoserver.Options{})
	e := newEnv(t, "")
	r := e.run(t, flow(state, []workrun.NodeSpec{mcpNode("m", url, "start_job", `,"arguments":{"seconds":1,"label":"{{q}}"},"output":"answer","output_json":"data"`)}),
		workrun.Values{"q": "mesh"})
	msgs := e.messages(t, r.ID, "m")
	if r.Status != workrun.RunSucceeded {
		t.Fatalf("run %s: %s %q", r.Status, r.Reason, msgs)
	}
	if data, _ := r.State["data"].(map[string]any); data["result"] != "job job-1 (mesh) finished" {
		t.Errorf("data = %v", r.State["data"])
	}
	if count(d, "tools/call", "start_job") != 1 || count(d, "tools/call", "get_job_result") < 1 {
		t.Errorf("start_job %d, get_job_result %d", count(d, "tools/call", "start_job"), count(d, "tools/call", "get_job_result"))
	}
	if c := e.call(t, r.ID, "m"); c.TaskID != "job-1" || !strings.Contains(c.ContextID, "handle=job") {
		t.Errorf("record = %+v", c)
	}
	if !contains(msgs, "Remote job job-1 accepted") {
		t.Errorf("messages = %q", msgs)
	}
}

func TestElevenFilesRefusedBeforeAnyRequest(t *testing.T) {
	d, url := demo(t, demoserver.Options{})
	e := newEnv(t, "")
	var ids []any
	for i := range 11 {
		info, err := e.arts.Put(t.Context(), fmt.Sprintf("f%d.txt", i), "text/plain", strings.NewReader("x"), "", "")
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, info.ID)
	}
	r := e.run(t, flow(state, []workrun.NodeSpec{mcpNode("m", url, "echo", `,"arguments":{"text":"{{docs}}"}`)}), workrun.Values{"docs": ids})
	if r.Status != workrun.RunFailed || !strings.Contains(r.Reason, "11 files; at most 10") {
		t.Fatalf("run %s: %q", r.Status, r.Reason)
	}
	if n := len(d.Requests()); n != 0 {
		t.Errorf("the server saw %d requests", n)
	}
	if _, err := e.st.GetRemoteCall(t.Context(), r.ID, "m", "call"); err == nil {
		t.Error("a call record was saved")
	}
}

func TestConfigErrors(t *testing.T) {
	k := remotemcp.New(remotemcp.Deps{})
	for _, tc := range []struct{ cfg, want string }{
		{`{"tool":"x"}`, "url is required"},
		{`{"url":"ftp://h/x","tool":"x"}`, "not an absolute http(s) URL"},
		{`{"url":"http://h/mcp"}`, "tool: name the tool"},
		{`{"url":"http://h/mcp","tool":"x","task":"sometimes"}`, "not auto, always or never"},
		{`{"url":"http://h/mcp","tool":"x","arguments":{"a":"{{nope}}"}}`, `State has no field "nope"`},
		{`{"url":"http://h/mcp","tool":"x","arguments":{"a":"see {{doc}}"}}`, "can only be sent alone"},
		{`{"url":"http://h/mcp","tool":"x","output":"data"}`, "expected text"},
		{`{"url":"http://h/mcp","tool":"x","output_json":"answer"}`, "expected json"},
		{`{"url":"http://h/mcp","tool":"x","timeout_seconds":601}`, "out of range"},
		{`{"url":"http://example.com/mcp","tool":"x","credential":"c"}`, "only to a loopback address"},
		{`{"url":"http://h/mcp","tool":"x","bogus":1}`, "unknown field"},
	} {
		_, err := k.Compile(workrun.NodeSpec{ID: "m", Type: remotemcp.Type, Config: json.RawMessage(tc.cfg)}, workrun.Workflow{State: state})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", tc.cfg, err, tc.want)
		}
	}
	st, err := k.Compile(workrun.NodeSpec{ID: "m", Type: remotemcp.Type, Config: json.RawMessage(
		`{"url":"http://h/mcp","tool":"x","arguments":{"a":"{{q}} {{n}}","b":"{{doc}}","c":42},"output":"answer","output_json":"data","output_files":"files"}`)},
		workrun.Workflow{State: state})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"q", "n", "doc"}, st.Reads()); diff != "" {
		t.Errorf("reads (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"answer", "data", "files"}, st.Writes()); diff != "" {
		t.Errorf("writes (-want +got):\n%s", diff)
	}
}

func TestIdempotencyKeyDeterministic(t *testing.T) {
	a, b := remotemcp.IdempotencyKey("run1", "n"), remotemcp.IdempotencyKey("run1", "n")
	if a != b || a == remotemcp.IdempotencyKey("run1", "m") || a == remotemcp.IdempotencyKey("run2", "n") {
		t.Errorf("keys: %s %s", a, b)
	}
}
