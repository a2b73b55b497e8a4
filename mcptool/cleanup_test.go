package mcptool_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"workrun/mcp"
	"workrun/mcptool"
	"workrun/workrun"
	"workrun/workrun/workruntest"
)

func TestMain(m *testing.M) { workruntest.MainInEnglish(m) }

// caller is a function-field fake MCP client.
type caller struct {
	CallFunc func(ctx context.Context, p mcp.CallParams) (*mcp.CallResult, error)
}

func (c caller) CallTool(ctx context.Context, p mcp.CallParams) (*mcp.CallResult, error) {
	return c.CallFunc(ctx, p)
}

func text(s string) *mcp.CallResult {
	return &mcp.CallResult{Result: &mcp.ToolResult{Content: []mcp.Content{{Type: "text", Text: s}}}}
}

func cleanup(t *testing.T, calls *workruntest.MemCalls, c caller, timeout time.Duration) (*mcptool.Cleanup, *[]json.RawMessage, *int) {
	t.Helper()
	args, err := mcptool.CompileArguments("cleanup_arguments", map[string]json.RawMessage{
		"path": json.RawMessage(`"{{dir}}/{{name}}"`), "n": json.RawMessage(`"{{count}}"`), "force": json.RawMessage(`true`)},
		map[string]workrun.FieldType{"dir": "text", "name": "text", "count": "number"})
	if err != nil {
		t.Fatal(err)
	}
	var sent []json.RawMessage
	closed := 0
	cl := &mcptool.Cleanup{Tool: "undo", Arguments: args, Timeout: timeout, Store: calls,
		Types: map[string]workrun.FieldType{"dir": "text", "name": "text", "count": "number"},
		Connect: func(ctx context.Context, nc workrun.NodeContext, values workrun.Values) (mcptool.Caller, func(context.Context), error) {
			return caller{CallFunc: func(ctx context.Context, p mcp.CallParams) (*mcp.CallResult, error) {
				sent = append(sent, p.Arguments)
				return c.CallFunc(ctx, p)
			}}, func(context.Context) { closed++ }, nil
		}}
	return cl, &sent, &closed
}

// TestCleanupOnce (docs/tool-app.md T7): registered for a finished node,
// the hook calls the tool once with arguments filled from the node's inputs
// and outputs, shows its answer and saves the outcome; a second hook (a
// rearmed one after a restart) finds the record and calls nothing.
func TestCleanupOnce(t *testing.T) {
	calls := workruntest.NewMemCalls()
	cl, sent, closed := cleanup(t, calls, caller{CallFunc: func(context.Context, mcp.CallParams) (*mcp.CallResult, error) {
		return text("moved aside"), nil
	}}, 5*time.Second)
	nc := &workruntest.NodeContext{Run: "r1", Node: "app"}
	cl.Register(nc, workrun.Values{"dir": "/tmp/w"}, workrun.Values{"name": "note.txt", "count": 3.0})
	hooks := nc.Hooks()
	if len(hooks) != 1 {
		t.Fatalf("%d hooks", len(hooks))
	}
	if b := nc.HookBounds(); len(b) != 1 || b[0] < 5*time.Second {
		t.Errorf("hook bound %v: shorter than the cleanup's timeout", b)
	}
	hooks[0](t.Context())
	if len(*sent) != 1 || string((*sent)[0]) != `{"force":true,"n":3,"path":"/tmp/w/note.txt"}` || *closed != 1 {
		t.Fatalf("sent %s, closed %d", *sent, *closed)
	}
	if diff := cmp.Diff([]string{"Cleanup: calling tool undo…", "Cleanup: tool undo finished: moved aside"}, nc.Logs()); diff != "" {
		t.Error(diff)
	}
	rec, ok := calls.Get("r1", "app", mcptool.CleanupKey)
	if !ok || rec.CancelOutcome != mcptool.CleanupDone || !rec.Ended {
		t.Errorf("record %+v", rec)
	}
	again := &workruntest.NodeContext{Run: "r1", Node: "app"}
	cl.Register(again, nil, nil)
	again.Hooks()[0](t.Context())
	if len(*sent) != 1 {
		t.Errorf("the cleanup tool was called again")
	}
	if logs := again.Logs(); len(logs) != 1 || !strings.HasPrefix(logs[0], "Cleanup: tool undo was already called (") {
		t.Errorf("second hook said %q", logs)
	}
	// Nothing registered without a cleanup tool.
	var none *mcptool.Cleanup
	bare := &workruntest.NodeContext{}
	none.Register(bare, nil, nil)
	if len(bare.Hooks()) != 0 {
		t.Error("a node without cleanup_tool registered a hook")
	}
}

// TestCleanupOutcomes: an isError answer, a failure and no answer within
// the timeout are each one line, in English and in Chinese; the timed-out
// call is not retried.
func TestCleanupOutcomes(t *testing.T) {
	for _, tc := range []struct {
		name    string
		call    func(ctx context.Context) (*mcp.CallResult, error)
		outcome string
		en, zh  string
	}{
		{"tool error", func(context.Context) (*mcp.CallResult, error) {
			r := text("no such file")
			r.Result.IsError = true
			return r, nil
		}, mcptool.CleanupToolError, "Cleanup: tool undo reported an error: no such file", "清理：工具 undo 报告错误：no such file"},
		{"failed", func(context.Context) (*mcp.CallResult, error) { return nil, errors.New("broken pipe") },
			mcptool.CleanupFailed, "Cleanup failed: tool undo: broken pipe", "清理失败：工具 undo：broken pipe"},
		{"timed out", func(ctx context.Context) (*mcp.CallResult, error) { <-ctx.Done(); return nil, ctx.Err() },
			mcptool.CleanupTimedOut, "Cleanup unconfirmed: tool undo did not answer within 200ms; it will not be called again",
			"清理未确认：工具 undo 在 200ms 内未应答，不会再次调用"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			calls := workruntest.NewMemCalls()
			cl, sent, _ := cleanup(t, calls, caller{CallFunc: func(ctx context.Context, _ mcp.CallParams) (*mcp.CallResult, error) { return tc.call(ctx) }}, 200*time.Millisecond)
			nc := &workruntest.NodeContext{Run: "r", Node: "n"}
			cl.Register(nc, nil, nil)
			nc.Hooks()[0](t.Context())
			texts := nc.Texts()
			if len(texts) != 2 || texts[1].String() != tc.en || len(*sent) != 1 {
				t.Fatalf("logs %q, sent %d", nc.Logs(), len(*sent))
			}
			workruntest.InLanguage(t, "zh_CN")
			if got := texts[1].String(); got != tc.zh {
				t.Errorf("in Chinese: %q, want %q", got, tc.zh)
			}
			if rec, _ := calls.Get("r", "n", mcptool.CleanupKey); rec.CancelOutcome != tc.outcome {
				t.Errorf("outcome %q, want %q", rec.CancelOutcome, tc.outcome)
			}
		})
	}
}
