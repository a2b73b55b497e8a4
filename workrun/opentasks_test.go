package workrun

import "testing"

// TestOpenStateOf: which call records are open, and why.
func TestOpenStateOf(t *testing.T) {
	running, interrupted, failed := Run{Status: RunRunning}, Run{Status: RunInterrupted}, Run{Status: RunFailed}
	for _, tt := range []struct {
		name string
		r    Run
		c    RemoteCall
		want OpenState
		open bool
	}{
		{"working", running, RemoteCall{TaskID: "t"}, OpenWorking, true},
		{"interrupted", interrupted, RemoteCall{TaskID: "t"}, OpenInterrupted, true},
		{"waiting by push", Run{Status: RunInterrupted, Interruption: InterruptedByPush}, RemoteCall{TaskID: "t"}, OpenWaitingPush, true},
		{"cancel unconfirmed", failed, RemoteCall{TaskID: "t", CancelOutcome: "unconfirmed"}, OpenCancelUnconfirmed, true},
		{"submission unknown", failed, RemoteCall{CancelOutcome: "submission_unknown"}, OpenSubmissionUnknown, true},
		{"never got a task id", failed, RemoteCall{}, OpenSubmissionUnknown, true},
		{"failed, not seen to end", failed, RemoteCall{TaskID: "t"}, OpenNotEnded, true},
		{"canceled", failed, RemoteCall{TaskID: "t", CancelOutcome: "canceled", Ended: true}, "", false},
		{"ended", running, RemoteCall{TaskID: "t", Ended: true}, "", false},
	} {
		got, open := OpenStateOf(tt.r, tt.c)
		if got != tt.want || open != tt.open {
			t.Errorf("%s: %q %v, want %q %v", tt.name, got, open, tt.want, tt.open)
		}
	}
}
