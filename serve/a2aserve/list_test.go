package a2aserve_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

type listed struct {
	Tasks []struct {
		ID        string
		ContextID string `json:"contextId"`
		Status    struct{ State string }
		Artifacts []json.RawMessage
		History   []json.RawMessage
	}
	NextPageToken *string `json:"nextPageToken"`
	PageSize      int     `json:"pageSize"`
	TotalSize     int     `json:"totalSize"`
}

func list(t *testing.T, url, params string) listed {
	t.Helper()
	r := rpc(t, url, "ListTasks", params, nil)
	var l listed
	if r.Error != nil || json.Unmarshal(r.Result, &l) != nil || l.NextPageToken == nil {
		t.Fatalf("ListTasks %s: %+v %s", params, r.Error, r.Result)
	}
	return l
}

// S10: ListTasks filters (contextId, status, statusTimestampAfter), pages
// (pageSize, pageToken, nextPageToken always present), totalSize counts
// every matching task, includeArtifacts; GetTask's historyLength;
// GetExtendedAgentCard is not advertised, so UnsupportedOperation.
func TestListTasksFiltersPagesAndHistory(t *testing.T) {
	srv := newServer(t, nil)
	hello, review := srv.URL+"/a2a/hello", srv.URL+"/a2a/review"
	before := time.Now().UTC().Add(-time.Second).Format(time.RFC3339Nano)
	var ids []string
	for i, p := range []string{
		`{"message":{"messageId":"l1","role":"ROLE_USER","parts":[{"text":"A"}]}}`,
		`{"message":{"messageId":"l2","role":"ROLE_USER","contextId":"ctx-a","parts":[{"text":"B"}]}}`,
		`{"message":{"messageId":"l3","role":"ROLE_USER","parts":[{"text":"C"}]}}`,
	} {
		r := rpc(t, hello, "SendMessage", p, nil)
		var res struct{ Task struct{ ID string } }
		if r.Error != nil || json.Unmarshal(r.Result, &res) != nil || res.Task.ID == "" {
			t.Fatalf("send %d: %+v", i, r.Error)
		}
		ids = append(ids, res.Task.ID)
	}
	if r := rpc(t, review, "SendMessage", `{"message":{"messageId":"l4","role":"ROLE_USER","parts":[{"text":"D"}]}}`, nil); r.Error != nil {
		t.Fatalf("review: %+v", r.Error)
	}

	all := list(t, hello, `{}`)
	if len(all.Tasks) != 3 || all.TotalSize != 3 || *all.NextPageToken != "" || all.Tasks[0].ID != ids[2] || all.Tasks[2].ID != ids[0] {
		t.Fatalf("all (newest first): %+v", all)
	}
	if len(all.Tasks[0].Artifacts) != 0 {
		t.Fatal("artifacts without includeArtifacts")
	}
	if l := list(t, hello, `{"includeArtifacts":true}`); len(l.Tasks[0].Artifacts) != 1 {
		t.Fatalf("includeArtifacts: %+v", l.Tasks[0])
	}
	p1 := list(t, hello, `{"pageSize":2}`)
	if len(p1.Tasks) != 2 || p1.TotalSize != 3 || p1.PageSize != 2 || *p1.NextPageToken == "" {
		t.Fatalf("page 1: %+v", p1)
	}
	p2 := list(t, hello, `{"pageSize":2,"pageToken":"`+*p1.NextPageToken+`"}`)
	if len(p2.Tasks) != 1 || p2.Tasks[0].ID != ids[0] || *p2.NextPageToken != "" || p2.TotalSize != 3 {
		t.Fatalf("page 2: %+v", p2)
	}
	if l := list(t, hello, `{"contextId":"ctx-a"}`); len(l.Tasks) != 1 || l.Tasks[0].ID != ids[1] || l.TotalSize != 1 {
		t.Fatalf("contextId: %+v", l)
	}
	if l := list(t, hello, `{"status":"TASK_STATE_COMPLETED"}`); len(l.Tasks) != 3 || l.TotalSize != 3 {
		t.Fatalf("status completed: %+v", l)
	}
	if l := list(t, hello, `{"status":"TASK_STATE_WORKING"}`); len(l.Tasks) != 0 || l.TotalSize != 0 {
		t.Fatalf("status working: %+v", l)
	}
	if l := list(t, review, `{"status":"TASK_STATE_INPUT_REQUIRED"}`); len(l.Tasks) != 1 || l.TotalSize != 1 {
		t.Fatalf("status input required: %+v", l)
	}
	if l := list(t, hello, `{"statusTimestampAfter":"`+before+`"}`); len(l.Tasks) != 3 || l.TotalSize != 3 {
		t.Fatalf("statusTimestampAfter before: %+v", l)
	}
	later := time.Now().UTC().Add(time.Hour).Format(time.RFC3339Nano)
	if l := list(t, hello, `{"statusTimestampAfter":"`+later+`","pageSize":1}`); len(l.Tasks) != 0 || l.TotalSize != 0 || *l.NextPageToken != "" {
		t.Fatalf("statusTimestampAfter later: %+v", l)
	}
	for _, bad := range []string{`{"pageSize":0}`, `{"pageSize":101}`, `{"pageToken":"nope"}`, `{"status":"TASK_STATE_BOGUS"}`} {
		if r := rpc(t, hello, "ListTasks", bad, nil); r.Error == nil || r.Error.Code != -32602 {
			t.Fatalf("%s: %+v", bad, r.Error)
		}
	}
	// A task of another publication is no page token here.
	if r := rpc(t, review, "ListTasks", `{"pageToken":"`+ids[0]+`"}`, nil); r.Error == nil || r.Error.Code != -32602 {
		t.Fatalf("a foreign page token: %+v", r.Error)
	}

	// GetTask historyLength: 0 none, 1 the last, unset all.
	hist := func(params string) int {
		r := rpc(t, review, "GetTask", params, nil)
		var tk struct{ History []json.RawMessage }
		if r.Error != nil || json.Unmarshal(r.Result, &tk) != nil {
			t.Fatalf("GetTask %s: %+v", params, r.Error)
		}
		return len(tk.History)
	}
	rl := list(t, review, `{}`)
	id := rl.Tasks[0].ID
	if n := hist(`{"id":"` + id + `"}`); n != 2 { // the caller's message and the question
		t.Fatalf("full history: %d messages", n)
	}
	if n := hist(`{"id":"` + id + `","historyLength":1}`); n != 1 {
		t.Fatalf("historyLength 1: %d", n)
	}
	if n := hist(`{"id":"` + id + `","historyLength":0}`); n != 0 {
		t.Fatalf("historyLength 0: %d", n)
	}
	if r := rpc(t, hello, "GetExtendedAgentCard", `{}`, nil); r.Error == nil || r.Error.Code != -32004 {
		t.Fatalf("GetExtendedAgentCard: %+v", r.Error)
	}
	if r := rpc(t, hello, "GetTask", `{"id":"`+id+`"}`, nil); r.Error == nil || r.Error.Code != -32001 || strings.Contains(r.Error.Message, id) {
		t.Fatalf("another publication's task: %+v", r.Error)
	}
}
