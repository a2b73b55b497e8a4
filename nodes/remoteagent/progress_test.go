package remoteagent

import (
	"context"
	"iter"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"workrun/a2a"
	"workrun/workrun"
)

// TestRun_MillionStatusUpdates: a million status updates of one task make a
// handful of record saves (identity and outcome only), a handful of
// committed lines, and throttled progress lines whose counts add up to every
// update; the heap stays flat.
func TestRun_MillionStatusUpdates(t *testing.T) {
	const n = 1_000_000
	calls := newMemCalls()
	var saves atomic.Int32
	calls.SaveFunc = func(workrun.RemoteCall) error { saves.Add(1); return nil }
	agent := &fakeAgent{streaming: true}
	agent.SendStreamingMessageFunc = func(context.Context, a2a.SendMessageRequest) iter.Seq2[a2a.StreamEvent, error] {
		return func(yield func(a2a.StreamEvent, error) bool) {
			if !yield(taskEv("t1", a2a.TaskStateSubmitted, ""), nil) {
				return
			}
			msg := &a2a.Message{MessageID: "m", Role: a2a.RoleAgent, Parts: []a2a.Part{{}}}
			for i := range n {
				msg.Parts[0].Text = "token " + strconv.Itoa(i)
				ev := a2a.StreamEvent{StatusUpdate: &a2a.TaskStatusUpdateEvent{TaskID: "t1", Status: a2a.TaskStatus{State: a2a.TaskStateWorking, Message: msg}}}
				if !yield(ev, nil) {
					return
				}
			}
			yield(statusEv("t1", a2a.TaskStateCompleted, ""), nil)
		}
	}
	nc := newNC("r", "ra", workrun.Values{"prompt": "x"})
	st := compile(t, Deps{Calls: calls, Connect: connectTo(agent)}, baseCfg)
	stop := heapPeak()
	if _, err := st.Run(t.Context(), nc); err != nil {
		t.Fatal(err)
	}
	peak := stop()
	if s := saves.Load(); s > 6 {
		t.Errorf("%d record saves for one task; want identity and outcome only", s)
	}
	if m := msgsOf(nc); len(m) > 6 {
		t.Errorf("%d committed lines: %q", len(m), m)
	}
	prog := progressIn(nc, "en")
	count := regexp.MustCompile(`\(\+([0-9,]+) updates\)$`)
	total := 0
	for _, p := range prog {
		total++
		if m := count.FindStringSubmatch(p); m != nil {
			k, _ := strconv.Atoi(strings.ReplaceAll(m[1], ",", ""))
			total += k
		}
	}
	// The first working line is committed; every other update is counted.
	if total != n-1 {
		t.Errorf("progress lines stand for %d updates, want %d", total, n-1)
	}
	last := prog[len(prog)-1]
	if !strings.HasPrefix(last, "Remote task: working — token 999999") {
		t.Errorf("last progress line %q, want the newest update", last)
	}
	t.Logf("%d progress lines, %d saves, heap peak +%d MiB", len(prog), saves.Load(), peak>>20)
	if peak > 64<<20 {
		t.Errorf("heap peak +%d MiB", peak>>20)
	}
}

func TestGroupDigits(t *testing.T) {
	for n, want := range map[int64]string{0: "0", 999: "999", 1000: "1,000", 1234567: "1,234,567", 100000: "100,000"} {
		if got := groupDigits(n); got != want {
			t.Errorf("groupDigits(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestRun_HugeStatusText: a 60 MB status text is cut to maxStatusText with
// a marker in the record and in every line.
func TestRun_HugeStatusText(t *testing.T) {
	huge := strings.Repeat("界", 20<<20) // 60 MiB
	calls := newMemCalls()
	agent := &fakeAgent{streaming: true}
	agent.SendStreamingMessageFunc = func(context.Context, a2a.SendMessageRequest) iter.Seq2[a2a.StreamEvent, error] {
		return events(nil, taskEv("t1", a2a.TaskStateWorking, ""), statusEv("t1", a2a.TaskStateWorking, huge), statusEv("t1", a2a.TaskStateFailed, huge))
	}
	nc := newNC("r", "ra", workrun.Values{"prompt": "x"})
	_, err := compile(t, Deps{Calls: calls, Connect: connectTo(agent)}, baseCfg).Run(t.Context(), nc)
	if err == nil || len(err.Error()) > maxStatusText+200 {
		t.Errorf("error of %d bytes", len(err.Error()))
	}
	rec, _ := calls.get("r", "ra")
	if len(rec.StatusText) > maxStatusText+40 || !strings.HasSuffix(rec.StatusText, "more bytes cut]") {
		t.Errorf("record status text: %d bytes, ends %q", len(rec.StatusText), rec.StatusText[max(0, len(rec.StatusText)-30):])
	}
	for _, m := range append(msgsOf(nc), progressIn(nc, "en")...) {
		if len(m) > maxStatusText+200 {
			t.Errorf("a line of %d bytes", len(m))
		}
	}
}
