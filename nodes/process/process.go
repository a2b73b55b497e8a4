package process

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"maps"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"time"

	"workrun/workrun"
)

// Timeout bounds in seconds (R3-style range check at validation).
const (
	DefaultTimeout = 60
	MaxTimeout     = 3600
	stderrTail     = 512
	maxStdout      = 4 << 20
)

// ErrExit is the failure of a command that exited with a non-zero status.
var ErrExit = errors.New("command failed")

// Kind is the "process" node kind.
type Kind struct{}

func (Kind) Type() string { return "process" }

type config struct {
	Command        []string          `json:"command"`
	Env            map[string]string `json:"env,omitempty"`
	TimeoutSeconds *float64          `json:"timeout_seconds,omitempty"`
	Stdout         string            `json:"stdout,omitempty"`
	Cleanup        []string          `json:"cleanup,omitempty"`
}

// Compile checks the command, the timeout range and the stdout field.
func (Kind) Compile(spec workrun.NodeSpec, wf workrun.Workflow) (workrun.Step, error) {
	var c config
	if err := workrun.DecodeConfig(spec, &c); err != nil {
		return nil, err
	}
	if len(c.Command) == 0 || c.Command[0] == "" {
		return nil, texts.Fail(nil, msgCfgCommand)
	}
	for _, name := range slices.Sorted(maps.Keys(c.Env)) {
		if !workrun.EnvName(name) {
			return nil, texts.Fail(nil, msgCfgEnvName, name)
		}
		if strings.ContainsRune(c.Env[name], 0) {
			return nil, texts.Fail(nil, msgCfgEnvNUL, name)
		}
	}
	s := &step{command: c.Command, env: c.Env, cleanup: c.Cleanup, timeout: DefaultTimeout * time.Second}
	if c.TimeoutSeconds != nil {
		t := *c.TimeoutSeconds
		if t < 1 || t > MaxTimeout {
			return nil, texts.Fail(nil, msgCfgTimeout, t, MaxTimeout)
		}
		s.timeout = time.Duration(t * float64(time.Second))
	}
	if c.Stdout != "" {
		t, ok := wf.State[c.Stdout]
		if !ok {
			return nil, texts.Fail(nil, msgCfgStdoutUndeclared, c.Stdout)
		}
		if t != workrun.FieldText && t != workrun.FieldJSON && t != workrun.FieldNumber {
			return nil, texts.Fail(nil, msgCfgStdoutType, c.Stdout, t)
		}
		s.stdout, s.stdoutType = c.Stdout, t
	}
	var templated []string
	templated = append(templated, c.Command...)
	templated = append(templated, c.Cleanup...)
	for _, v := range c.Env {
		templated = append(templated, v)
	}
	for _, t := range templated {
		for _, f := range workrun.TemplateFields(t) {
			if _, ok := wf.State[f]; !ok {
				return nil, texts.Fail(nil, msgCfgTemplateUndeclared, f)
			}
			if !slices.Contains(s.reads, f) {
				s.reads = append(s.reads, f)
			}
		}
	}
	slices.Sort(s.reads)
	return s, nil
}

type step struct {
	command    []string
	env        map[string]string
	cleanup    []string
	timeout    time.Duration
	stdout     string
	stdoutType workrun.FieldType
	reads      []string
}

func (s *step) Reads() []string { return s.reads }
func (s *step) Writes() []string {
	if s.stdout == "" {
		return nil
	}
	return []string{s.stdout}
}

func (s *step) Run(ctx context.Context, nc workrun.NodeContext) (workrun.Values, error) {
	in := nc.Inputs()
	args := expandAll(s.command, in)
	nc.Log(texts.Msg(msgRunning, strings.Join(args, " ")))
	out, err := s.exec(ctx, args, in)
	if err != nil {
		return nil, err
	}
	nc.Log(texts.Msg(msgFinished))
	if len(s.cleanup) > 0 {
		cleanup := expandAll(s.cleanup, in)
		nc.OnAbort(func(ctx context.Context) { s.runCleanup(ctx, nc, cleanup, in) })
	}
	if s.stdout == "" {
		return nil, nil
	}
	text := strings.TrimRight(string(out), "\r\n")
	switch s.stdoutType {
	case workrun.FieldNumber:
		f, err := strconv.ParseFloat(strings.TrimSpace(text), 64)
		if err != nil {
			return nil, texts.Error(nil, msgNotNumber, tail([]byte(text), 80))
		}
		return workrun.Values{s.stdout: f}, nil
	case workrun.FieldJSON:
		var v any
		if err := json.Unmarshal([]byte(text), &v); err != nil {
			return nil, texts.Error(nil, msgNotJSON, err)
		}
		return workrun.Values{s.stdout: v}, nil
	}
	return workrun.Values{s.stdout: text}, nil
}

// Rearm registers the cleanup of a command that succeeded in an earlier
// process, with the inputs it ran with, so that it still runs once if the
// run fails or is stopped later (docs/remote-agent.md R17). The command is not run again.
func (s *step) Rearm(nc workrun.NodeContext, saved workrun.NodeRun) {
	if saved.Status != workrun.NodeSucceeded || len(s.cleanup) == 0 {
		return
	}
	in := saved.Inputs
	cleanup := expandAll(s.cleanup, in)
	nc.OnAbort(func(ctx context.Context) { s.runCleanup(ctx, nc, cleanup, in) })
}

func (s *step) runCleanup(ctx context.Context, nc workrun.NodeContext, args []string, in workrun.Values) {
	nc.Log(texts.Msg(msgCleanupRunning, strings.Join(args, " ")))
	if _, err := s.exec(ctx, args, in); err != nil {
		nc.Log(texts.Msg(msgCleanupFailed, err))
		return
	}
	nc.Log(texts.Msg(msgCleanupFinished))
}

// exec runs args with the node's env and timeout; it returns stdout.
func (s *step) exec(ctx context.Context, args []string, in workrun.Values) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, args[0], args[1:]...)
	cmd.Env = os.Environ()
	for k, v := range s.env {
		cmd.Env = append(cmd.Env, k+"="+workrun.ExpandTemplate(v, in))
	}
	ownGroup(cmd)
	// A child that keeps the pipes open must not hold the node past its end.
	cmd.WaitDelay = 2 * time.Second
	var stdout, stderr limitedBuffer
	stdout.max, stderr.max = maxStdout, 64<<10
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if err == nil {
		if stdout.dropped {
			return nil, texts.Error(nil, msgTooLarge, maxStdout)
		}
		return stdout.Bytes(), nil
	}
	if ctx.Err() == context.DeadlineExceeded {
		return nil, texts.Error(nil, msgTimedOut, s.timeout)
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		if ctx.Err() != nil {
			return nil, texts.Error(ctx.Err(), msgCanceled, ctx.Err())
		}
		if t := tail(stderr.Bytes(), stderrTail); t != "" {
			return nil, texts.Error(ErrExit, msgExitStderr, ee.ExitCode(), t)
		}
		return nil, texts.Error(ErrExit, msgExit, ee.ExitCode())
	}
	return nil, texts.Error(err, msgRunFailed, err)
}

func expandAll(tmpls []string, in workrun.Values) []string {
	out := make([]string, len(tmpls))
	for i, t := range tmpls {
		out[i] = workrun.ExpandTemplate(t, in)
	}
	return out
}

func tail(b []byte, n int) string {
	b = bytes.TrimSpace(b)
	if len(b) > n {
		b = append([]byte("…"), b[len(b)-n:]...)
	}
	return string(b)
}

// limitedBuffer keeps the last max bytes written and notes whether it
// dropped any (stderr needs only its tail; a truncated stdout is an error).
type limitedBuffer struct {
	buf     bytes.Buffer
	max     int
	dropped bool
}

func (l *limitedBuffer) Write(p []byte) (int, error) {
	n := len(p)
	l.buf.Write(p)
	if over := l.buf.Len() - l.max; over > 0 {
		l.buf.Next(over)
		l.dropped = true
	}
	return n, nil
}

func (l *limitedBuffer) Bytes() []byte { return l.buf.Bytes() }
