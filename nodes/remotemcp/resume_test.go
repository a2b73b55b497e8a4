package remotemcp_test

import (
	"encoding/json"
	"errors"
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"

	"workrun/mcp"
	"workrun/nodes/remotemcp"
	"workrun/remotecall"
	"workrun/workrun"
	"workrun/workrun/workruntest"
)

// TestResumeFromSavedRecord: a resumed node decides from its saved record
// alone when that is enough — a saved result is reused, a call that was
// already sent its cancel or that has a key but no handle is not sent again
// — and makes no network call for any of them.
func TestResumeFromSavedRecord(t *testing.T) {
	result, _ := json.Marshal(map[string]any{"text": "saved answer", "json": map[string]any{"k": 1}})
	cases := []struct {
		name   string
		rec    workrun.RemoteCall
		want   workrun.Values
		wantIs error
	}{
		{"saved result", workrun.RemoteCall{TaskID: "t1", RemoteState: "completed", Ended: true, Result: result},
			workrun.Values{"answer": "saved answer", "data": map[string]any{"k": 1.0}}, nil},
		{"cancel already sent", workrun.RemoteCall{TaskID: "t1", RemoteState: "working", CancelOutcome: remotecall.CancelUnconfirmed}, nil, remotecall.ErrAlreadyCanceled},
		{"key without a handle", workrun.RemoteCall{ContextID: "protocol=2025-11-25; handle=; form=2025-11-25; session=s1"}, nil, remotemcp.ErrSubmissionUnknown},
		{"ended without a result", workrun.RemoteCall{TaskID: "t1", RemoteState: "failed", StatusText: "disk full", Ended: true}, nil, remotemcp.ErrRemoteFailed},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			calls := workruntest.NewMemCalls()
			rec := tc.rec
			rec.RunID, rec.NodeID, rec.CallKey, rec.MessageID = "r1", "m", "call", remotemcp.IdempotencyKey("r1", "m")
			if err := calls.SaveRemoteCall(t.Context(), rec); err != nil {
				t.Fatal(err)
			}
			k := remotemcp.New(remotemcp.Deps{Calls: calls, Dial: func(string, *http.Client, mcp.Options) (remotemcp.MCPClient, error) {
				t.Error("the resumed node connected to the server")
				return nil, errors.New("no network in this test")
			}})
			st, err := k.Compile(workrun.NodeSpec{ID: "m", Type: remotemcp.Type, Config: json.RawMessage(
				`{"url":"http://127.0.0.1:1/mcp","tool":"t","output":"answer","output_json":"data"}`)}, workrun.Workflow{State: state})
			if err != nil {
				t.Fatal(err)
			}
			nc := &workruntest.NodeContext{Run: "r1", Node: "m", IsResumed: true}
			got, err := st.Run(t.Context(), nc)
			if tc.wantIs != nil {
				if !errors.Is(err, tc.wantIs) {
					t.Fatalf("err = %v, want %v", err, tc.wantIs)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("values (-want +got):\n%s", diff)
			}
			// The abort of a call that ended sends nothing either.
			for _, h := range nc.Hooks() {
				h(t.Context())
			}
		})
	}
}
