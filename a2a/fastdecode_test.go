package a2a

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// statusEvent is the stream event of the stream-decoding benchmark.
const statusEvent = `{"jsonrpc":"2.0","id":7,"result":{"statusUpdate":{"taskId":"task-0001","contextId":"ctx-0001","status":{"state":"TASK_STATE_WORKING","timestamp":"2026-11-29T10:30:00.000Z","message":{"messageId":"m-00001","role":"ROLE_AGENT","parts":[{"text":"progress 00001 of 10000: still working on it"}]}}}}}`

// checkFastPath decodes in with the fast path and, when it accepts, demands
// exactly what encoding/json produces (docs/remote-agent.md R7: the fast path may only
// decline, never decode differently).
func checkFastPath(t *testing.T, d *fastDecoder, in []byte) bool {
	t.Helper()
	got, ok := d.decode(in)
	if !ok {
		return false
	}
	var want response[StreamEvent]
	if err := json.Unmarshal(in, &want); err != nil {
		t.Fatalf("fast path accepted %q, encoding/json: %v", in, err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("fast path differs on %q (-encoding/json +fast):\n%s", in, diff)
	}
	return true
}

func TestFastPathTakesCommonEvents(t *testing.T) {
	for name, in := range map[string]string{
		"benchmark":    statusEvent,
		"no message":   `{"jsonrpc":"2.0","id":7,"result":{"statusUpdate":{"taskId":"t1","contextId":"c1","status":{"state":"TASK_STATE_COMPLETED","timestamp":"2026-11-29T10:30:00.000Z"}}}}`,
		"string id":    `{"id":"a-1","jsonrpc":"2.0","result":{"statusUpdate":{"taskId":"t1","status":{"state":"TASK_STATE_WORKING"}}}}`,
		"whitespace":   " {\n\t\"jsonrpc\" : \"2.0\" , \"id\" : 7 ,\r\n \"result\" : { \"statusUpdate\" : { \"taskId\" : \"t1\" , \"status\" : { } } } }\n",
		"metadata":     `{"jsonrpc":"2.0","id":7,"result":{"statusUpdate":{"taskId":"t1","status":{"state":"TASK_STATE_WORKING"},"metadata":{"a":[1,-2.5e3,true,false,null,"\u00e9\n"],"b":{}}}}}`,
		"unknown keys": `{"jsonrpc":"2.0","id":7,"x":[{}],"result":{"kind":"status-update","statusUpdate":{"final":false,"taskId":"t1","status":{"state":"TASK_STATE_WORKING","message":{"messageId":"m","kind":"message","role":"ROLE_AGENT","parts":[{"text":"é ü","mediaType":"text/plain","filename":"a.txt","metadata":{"k":1}},{"text":""}]}}}}}`,
		"empty parts":  `{"jsonrpc":"2.0","id":7,"result":{"statusUpdate":{"taskId":"t1","status":{"message":{"messageId":"m","parts":[]}}}}}`,
		"other state":  `{"jsonrpc":"2.0","id":7,"result":{"statusUpdate":{"taskId":"t1","status":{"state":"TASK_STATE_SOMETHING_NEW"}}}}`,
	} {
		t.Run(name, func(t *testing.T) {
			if !checkFastPath(t, &fastDecoder{}, []byte(in)) {
				t.Fatalf("fast path declined %s", in)
			}
		})
	}
}

func TestFastPathDeclinesWhatItCannotReadExactly(t *testing.T) {
	for name, in := range map[string]string{
		"error":            `{"jsonrpc":"2.0","id":7,"error":{"code":-32001,"message":"x"}}`,
		"task":             `{"jsonrpc":"2.0","id":7,"result":{"task":{"id":"t1","status":{"state":"TASK_STATE_WORKING"}}}}`,
		"two members":      `{"jsonrpc":"2.0","id":7,"result":{"statusUpdate":{"taskId":"t1"},"message":{"messageId":"m"}}}`,
		"null result":      `{"jsonrpc":"2.0","id":7,"result":null}`,
		"null member":      `{"jsonrpc":"2.0","id":7,"result":{"statusUpdate":{"taskId":null}}}`,
		"escaped string":   `{"jsonrpc":"2.0","id":7,"result":{"statusUpdate":{"taskId":"t\u0031"}}}`,
		"escaped key":      `{"jsonrpc":"2.0","id":7,"result":{"statusUpdate":{"task\u0049d":"t1"}}}`,
		"folded key":       `{"jsonrpc":"2.0","id":7,"result":{"statusUpdate":{"TASKID":"t1"}}}`,
		"kelvin key":       "{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{\"statusUpdate\":{\"tas\u212aId\":\"t1\"}}}",
		"duplicate key":    `{"jsonrpc":"2.0","id":7,"result":{"statusUpdate":{"taskId":"t1","taskId":"t2"}}}`,
		"invalid utf8":     "{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{\"statusUpdate\":{\"taskId\":\"t\xff\"}}}",
		"file part":        `{"jsonrpc":"2.0","id":7,"result":{"statusUpdate":{"taskId":"t1","status":{"message":{"messageId":"m","parts":[{"raw":"AA=="}]}}}}}`,
		"text and url":     `{"jsonrpc":"2.0","id":7,"result":{"statusUpdate":{"taskId":"t1","status":{"message":{"messageId":"m","parts":[{"text":"a","url":"u"}]}}}}}`,
		"bad timestamp":    `{"jsonrpc":"2.0","id":7,"result":{"statusUpdate":{"taskId":"t1","status":{"timestamp":"yesterday"}}}}`,
		"trailing data":    statusEvent + `{}`,
		"bad number id":    `{"jsonrpc":"2.0","id":07,"result":{"statusUpdate":{"taskId":"t1"}}}`,
		"truncated":        statusEvent[:len(statusEvent)-1],
		"control char":     "{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{\"statusUpdate\":{\"taskId\":\"t\n\"}}}",
		"deep metadata":    `{"jsonrpc":"2.0","id":7,"result":{"statusUpdate":{"taskId":"t1","metadata":` + strings.Repeat("[", 300) + strings.Repeat("]", 300) + `}}}`,
		"array not object": `[1]`,
	} {
		t.Run(name, func(t *testing.T) {
			if checkFastPath(t, &fastDecoder{}, []byte(in)) {
				t.Fatalf("fast path accepted %s", in)
			}
		})
	}
}

// TestFastPathReusesStrings: a stream's repeated ids are not reallocated,
// and a change of id is still seen.
func TestFastPathReusesStrings(t *testing.T) {
	d := &fastDecoder{}
	in := []byte(statusEvent)
	checkFastPath(t, d, in)
	n := testing.AllocsPerRun(100, func() { d.decode(in) })
	// One block for the event, one for the message id and one for the text.
	if n > 3 {
		t.Errorf("%v allocations per event, want ≤ 3", n)
	}
	other := strings.ReplaceAll(statusEvent, "task-0001", "task-0002")
	if !checkFastPath(t, d, []byte(other)) {
		t.Fatal("declined")
	}
	ev, _ := d.decode([]byte(other))
	if got := ev.Result.TaskID(); got != "task-0002" {
		t.Fatalf("task id %q after a change", got)
	}
}

// FuzzEventFastPath cross-checks the fast path against encoding/json: when
// the fast path accepts an input it must decode it identically.
func FuzzEventFastPath(f *testing.F) {
	f.Add([]byte(statusEvent))
	f.Add([]byte(`{"jsonrpc":"2.0","id":"x","result":{"statusUpdate":{"taskId":"t1","contextId":"c1","status":{"state":"TASK_STATE_COMPLETED"},"metadata":{"a":[1.5e-3,"\ud83d\ude00"]}}}}`))
	f.Fuzz(func(t *testing.T, in []byte) {
		checkFastPath(t, &fastDecoder{}, in)
		// With warm per-stream state the result must be the same.
		checkFastPath(t, &fastDecoder{taskID: "task-0001", contextID: "c1"}, in)
	})
}
