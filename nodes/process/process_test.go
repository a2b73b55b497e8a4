package process

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"workrun/workrun"
	"workrun/workrun/workruntest"
)

var wf = workrun.Workflow{State: map[string]workrun.FieldType{"out": "text", "n": "number", "j": "json", "who": "text", "f": "file"}}

func compile(t *testing.T, config string) workrun.Step {
	t.Helper()
	st, err := Kind{}.Compile(workrun.NodeSpec{ID: "p", Type: "process", Config: json.RawMessage(config)}, wf)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func TestProcessStdoutIntoField(t *testing.T) {
	for _, tc := range []struct {
		config string
		want   workrun.Values
	}{
		{`{"command":["sh","-c","echo \"hi $WHO\""],"env":{"WHO":"{{who}}"},"stdout":"out"}`, workrun.Values{"out": "hi Ada"}},
		{`{"command":["echo","{{who}}"],"stdout":"out"}`, workrun.Values{"out": "Ada"}},
		{`{"command":["echo"," 42 "],"stdout":"n"}`, workrun.Values{"n": 42.0}},
		{`{"command":["echo","{\"a\":1}"],"stdout":"j"}`, workrun.Values{"j": map[string]any{"a": 1.0}}},
	} {
		st := compile(t, tc.config)
		if diff := cmp.Diff([]string{"who"}, st.Reads()); diff != "" && strings.Contains(tc.config, "{{who}}") {
			t.Errorf("reads: %s", diff)
		}
		out, err := st.Run(t.Context(), &workruntest.NodeContext{In: workrun.Values{"who": "Ada"}})
		if err != nil {
			t.Fatalf("%s: %v", tc.config, err)
		}
		if diff := cmp.Diff(tc.want, out); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.config, diff)
		}
	}
}

func TestProcessNonZeroExitFailsWithStderrTail(t *testing.T) {
	st := compile(t, `{"command":["sh","-c","echo step one; echo 'disk is full' >&2; exit 7"]}`)
	_, err := st.Run(t.Context(), &workruntest.NodeContext{})
	if !errors.Is(err, ErrExit) || err.Error() != "command failed: exit status 7: disk is full" {
		t.Fatalf("got %v", err)
	}
}

func TestProcessTimeout(t *testing.T) {
	st := compile(t, `{"command":["sleep","5"],"timeout_seconds":1}`)
	began := time.Now()
	_, err := st.Run(t.Context(), &workruntest.NodeContext{})
	if err == nil || !strings.Contains(err.Error(), "timed out after 1s") {
		t.Fatalf("got %v", err)
	}
	if time.Since(began) > 4*time.Second {
		t.Errorf("timeout took %s", time.Since(began))
	}
}

// TestCleanupRegisteredOnlyAfterSuccess (docs/remote-agent.md R17): a failed command registers no
// cleanup; a succeeded one registers exactly one, which runs the cleanup
// command when called.
func TestCleanupRegisteredOnlyAfterSuccess(t *testing.T) {
	marker := filepath.Join(t.TempDir(), "undo")
	failing := compile(t, `{"command":["false"],"cleanup":["touch","`+marker+`"]}`)
	nc := &workruntest.NodeContext{}
	if _, err := failing.Run(t.Context(), nc); err == nil {
		t.Fatal("false succeeded")
	}
	if n := len(nc.Hooks()); n != 0 {
		t.Errorf("failed command registered %d cleanups", n)
	}

	ok := compile(t, `{"command":["true"],"cleanup":["touch","`+marker+`"]}`)
	nc = &workruntest.NodeContext{}
	if _, err := ok.Run(t.Context(), nc); err != nil {
		t.Fatal(err)
	}
	hooks := nc.Hooks()
	if len(hooks) != 1 {
		t.Fatalf("%d cleanups registered", len(hooks))
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("cleanup ran before the run failed")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	hooks[0](ctx)
	if _, err := os.Stat(marker); err != nil {
		t.Errorf("cleanup did not run: %v", err)
	}
	if logs := nc.Logs(); !strings.Contains(strings.Join(logs, "\n"), "Cleanup finished") {
		t.Errorf("logs %q", logs)
	}
}

func TestProcessCompileErrors(t *testing.T) {
	for _, tc := range []struct{ config, want string }{
		{`{}`, `"command" must name a program`},
		{`{"command":"ls"}`, `"command" must be a list`},
		{`{"command":["true"],"timeout_seconds":0}`, "out of range"},
		{`{"command":["true"],"timeout_seconds":3601}`, "out of range"},
		{`{"command":["true"],"stdout":"f"}`, "type mismatch"},
		{`{"command":["true"],"stdout":"zz"}`, "not declared"},
		{`{"command":["echo","{{zz}}"]}`, `reads field "zz"`},
		{`{"command":["true"],"env":{"A=B":"x"}}`, `"A=B" is not a valid environment variable name`},
		{`{"command":["true"],"env":{"":"x"}}`, `"" is not a valid environment variable name`},
		{`{"command":["true"],"env":{"1X":"x"}}`, `"1X" is not a valid`},
		{`{"command":["true"],"env":{"MY VAR":"x"}}`, `"MY VAR" is not a valid`},
		{`{"command":["true"],"env":{"X\u001b]0;t\u0007":"x"}}`, `is not a valid environment variable name`},
		{`{"command":["true"],"env":{"X":"a\u0000b"}}`, `contains a NUL byte`},
	} {
		_, err := Kind{}.Compile(workrun.NodeSpec{ID: "p", Config: json.RawMessage(tc.config)}, wf)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.config, err, tc.want)
		}
	}
}

func TestCancelKillsTheWholeCommand(t *testing.T) {
	st := compile(t, `{"command":["sh","-c","sleep 30; echo late"],"timeout_seconds":60}`)
	ctx, cancel := context.WithCancel(t.Context())
	time.AfterFunc(200*time.Millisecond, cancel)
	began := time.Now()
	_, err := st.Run(ctx, &workruntest.NodeContext{})
	if err == nil || !strings.Contains(err.Error(), "canceled") {
		t.Fatalf("got %v", err)
	}
	if d := time.Since(began); d > 1500*time.Millisecond {
		t.Errorf("cancel took %s: the shell's child kept the node waiting", d)
	}
}
