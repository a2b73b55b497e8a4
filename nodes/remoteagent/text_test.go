package remoteagent

import (
	"context"
	"iter"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"workrun/a2a"
	"workrun/workrun"
)

// TestStateNames: English shows the state's wire word unchanged, Chinese a
// Chinese name for every A2A 1.0 state; an unknown future state keeps its word.
func TestStateNames(t *testing.T) {
	tests := []struct {
		state  a2a.TaskState
		en, zh string
	}{
		{a2a.TaskStateSubmitted, "submitted", "已提交"},
		{a2a.TaskStateWorking, "working", "执行中"},
		{a2a.TaskStateCompleted, "completed", "已完成"},
		{a2a.TaskStateFailed, "failed", "已失败"},
		{a2a.TaskStateCanceled, "canceled", "已取消"},
		{a2a.TaskStateRejected, "rejected", "已拒绝"},
		{a2a.TaskStateInputRequired, "input-required", "等待输入"},
		{a2a.TaskStateAuthRequired, "auth-required", "等待认证"},
		{"", "unknown", "未知"},
		{a2a.TaskStateUnspecified, "unspecified", "未知"},
		{"TASK_STATE_PAUSED", "paused", "paused"},
	}
	for _, tt := range tests {
		if got := stateText("en", tt.state); got != tt.en {
			t.Errorf("en state(%q) = %q, want %q", tt.state, got, tt.en)
		}
		if got := stateText("zh-Hans", tt.state); got != tt.zh {
			t.Errorf("zh state(%q) = %q, want %q", tt.state, got, tt.zh)
		}
	}
}

// TestRun_StatusLinesLocalized runs a streamed task through submitted,
// working (with a status message) and failed once: the stored status lines
// render in the reader's language, the state included, and the agent's own
// words verbatim; the English lines are unchanged.
func TestRun_StatusLinesLocalized(t *testing.T) {
	tests := []struct {
		tag  string
		want []string
	}{
		{"en_US.UTF-8", []string{
			"Remote task t1 accepted (context ctx-t1)",
			"Remote task: submitted",
			"Remote task: working — thinking",
			"Remote task: failed — boom",
		}},
		{"zh_CN.UTF-8", []string{
			"远程任务 t1 已接收（上下文 ctx-t1）",
			"远程任务：已提交",
			"远程任务：执行中 — thinking",
			"远程任务：已失败 — boom",
		}},
	}
	agent := &fakeAgent{streaming: true}
	agent.SendStreamingMessageFunc = func(context.Context, a2a.SendMessageRequest) iter.Seq2[a2a.StreamEvent, error] {
		return events(nil,
			taskEv("t1", a2a.TaskStateSubmitted, ""),
			statusEv("t1", a2a.TaskStateWorking, "thinking"),
			statusEv("t1", a2a.TaskStateFailed, "boom"))
	}
	nc := newNC("run1", "ra", workrun.Values{"prompt": "fail"})
	d := Deps{Calls: newMemCalls(), Connect: connectTo(agent)}
	if _, err := compile(t, d, baseCfg).Run(t.Context(), nc); err == nil {
		t.Fatal("Run of a failed task returned no error")
	}
	for _, tt := range tests {
		t.Run(tt.tag, func(t *testing.T) {
			var got []string
			for _, m := range msgsIn(nc, tt.tag) {
				if strings.HasPrefix(m, "Remote task") || strings.HasPrefix(m, "远程任务") {
					got = append(got, m)
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("status lines (-want +got):\n%s", diff)
			}
		})
	}
}

// TestAbort_CancelAnswerStateLocalized: the cancel answers that name the
// state the agent reports show it in the run's language (docs/remote-agent.md R10).
func TestAbort_CancelAnswerStateLocalized(t *testing.T) {
	tests := []struct {
		tag    string
		answer a2a.TaskState
		want   string
	}{
		{"en", a2a.TaskStateWorking, "Remote task: cancel requested; the agent reports it is still working (working)"},
		{"zh-Hans", a2a.TaskStateWorking, "远程任务：已请求取消，远端仍在执行（执行中）"},
		{"en", a2a.TaskStateFailed, "Remote task: already ended (failed)"},
		{"zh-Hans", a2a.TaskStateFailed, "远程任务：已结束（已失败）"},
		{"en", a2a.TaskStateRejected, "Remote task: already ended (rejected)"},
		{"zh-Hans", a2a.TaskStateRejected, "远程任务：已结束（已拒绝）"},
	}
	for _, tt := range tests {
		t.Run(tt.tag+"/"+string(tt.answer), func(t *testing.T) {
			agent := &fakeAgent{CancelTaskFunc: func(_ context.Context, id string) (*a2a.Task, error) { return task(id, tt.answer, ""), nil }}
			rec := workrun.RemoteCall{RunID: "r", NodeID: "ra", CallKey: callKey, MessageID: "m", TaskID: "t1", RemoteState: string(a2a.TaskStateWorking)}
			_, nc := savedCall(t, Deps{Calls: newMemCalls()}, rec, agent)
			abortNC(t.Context(), nc)
			msgs := msgsIn(nc, tt.tag)
			if len(msgs) != 2 || msgs[1] != tt.want {
				t.Errorf("messages = %q, want the request line then %q", msgs, tt.want)
			}
		})
	}
}

// TestCatalogue: every message has both wordings with the same arguments,
// and its key is "remoteagent.<name>".
func TestCatalogue(t *testing.T) {
	verbs := func(f string) int {
		return strings.Count(f, "%s") + strings.Count(f, "%d") + strings.Count(f, "%v") + strings.Count(f, "%q") + strings.Count(f, "%[")
	}
	for id, w := range catalogue() {
		if !strings.HasPrefix(string(id), "remoteagent.") {
			t.Errorf("key %q", id)
		}
		if w[0] == "" || w[1] == "" || verbs(w[0]) != verbs(w[1]) {
			t.Errorf("%s: %q / %q", id, w[0], w[1])
		}
	}
	// A state this version does not know keeps its wire word in both.
	if got := stateMsg("status_text", "TASK_STATE_PAUSED", "x").In("zh"); got != "远程任务：paused — x" {
		t.Errorf("unknown state: %q", got)
	}
}

// TestRun_SendingLineLocalized: the line that says what a message carries
// (texts, data, files, bytes) renders in the reader's language.
func TestRun_SendingLineLocalized(t *testing.T) {
	agent := &fakeAgent{streaming: true}
	agent.SendStreamingMessageFunc = func(context.Context, a2a.SendMessageRequest) iter.Seq2[a2a.StreamEvent, error] {
		return events(nil, taskEv("t1", a2a.TaskStateCompleted, ""))
	}
	nc := newNC("run1", "ra", workrun.Values{"prompt": "hi"})
	d := Deps{Calls: newMemCalls(), Connect: connectTo(agent)}
	if _, err := compile(t, d, baseCfg).Run(t.Context(), nc); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ tag, prefix, want string }{
		{"en_US.UTF-8", "Sending to ", "): 1 text, 0 data, 0 files (0 bytes)"},
		{"zh_CN.UTF-8", "正在发送到 ", "）：1 段文本、0 段数据、0 个文件（0 字节）"},
	} {
		var got []string
		for _, m := range msgsIn(nc, tt.tag) {
			if strings.HasPrefix(m, tt.prefix) {
				got = append(got, m)
			}
		}
		if len(got) != 1 || !strings.HasSuffix(got[0], tt.want) {
			t.Errorf("%s: sending lines %q, want one ending in %q", tt.tag, got, tt.want)
		}
	}
}

// stateText names state s in lang (the "state" messages exist for this
// check of the names the status lines use).
func stateText(lang string, s a2a.TaskState) string {
	return stateMsg("state", s).In(lang)
}
