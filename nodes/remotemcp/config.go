package remotemcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"workrun/mcp"
	"workrun/mcptool"
	"workrun/remotecall"
	"workrun/workrun"
)

// Type is the node type name in workflow files.
const Type = "remote_mcp"

// File limits per call, as for the Remote Agent (mcptool's).
const (
	MaxFiles     = mcptool.MaxFiles
	MaxFileBytes = mcptool.MaxFileBytes
)

// Task modes.
const (
	TaskAuto   = "auto"   // a task when the server and the tool support one
	TaskAlways = "always" // a task, or fail before calling
	TaskNever  = "never"  // a plain call, or fail before calling
)

// ErrConfig is wrapped by every configuration error Compile returns.
var ErrConfig = errors.New("remote MCP config")

// Config is the node's configuration as saved in the workflow file.
type Config struct {
	URL  string `json:"url"`
	Tool string `json:"tool"`
	// Arguments are the tool's arguments; each top-level string value is a
	// template over State fields ("{{q}}"); a value that is exactly one
	// "{{field}}" sends the field's value with its type (a file field as
	// an embedded resource).
	Arguments      map[string]json.RawMessage `json:"arguments,omitempty"`
	Output         string                     `json:"output,omitempty"`
	OutputJSON     string                     `json:"output_json,omitempty"`
	OutputFiles    string                     `json:"output_files,omitempty"`
	Credential     string                     `json:"credential,omitempty"`
	TimeoutSeconds *float64                   `json:"timeout_seconds,omitempty"`
	Task           string                     `json:"task,omitempty"`
}

// ParseConfig decodes and checks a node's config against the workflow's
// State fields. Every error wraps ErrConfig and names the offending key.
func ParseConfig(raw json.RawMessage, wf workrun.Workflow) (Config, mcptool.Arguments, time.Duration, error) {
	var c Config
	if len(bytes.TrimSpace(raw)) == 0 {
		return c, nil, 0, texts.Fail(ErrConfig, msgCfgURLRequired)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return c, nil, 0, texts.Fail(ErrConfig, msgCfgDecode, err)
	}
	if err := checkURL(c.URL, c.Credential != ""); err != nil {
		return c, nil, 0, err
	}
	if strings.TrimSpace(c.Tool) == "" {
		return c, nil, 0, texts.Fail(ErrConfig, msgCfgTool)
	}
	switch c.Task {
	case "":
		c.Task = TaskAuto
	case TaskAuto, TaskAlways, TaskNever:
	default:
		return c, nil, 0, texts.Fail(ErrConfig, msgCfgTask, c.Task)
	}
	field := func(key, name string) (workrun.FieldType, error) {
		t, ok := wf.State[name]
		if !ok {
			return "", texts.Fail(ErrConfig, msgCfgNoField, key, name)
		}
		return t, nil
	}
	args, err := mcptool.CompileArguments("arguments", c.Arguments, wf.State)
	var ap *mcptool.ArgumentProblem
	switch {
	case errors.As(err, &ap) && ap.FileInTemplate:
		return c, nil, 0, texts.Fail(ErrConfig, msgCfgFileAlone, ap.Key, ap.Field, ap.Field)
	case errors.As(err, &ap):
		return c, nil, 0, texts.Fail(ErrConfig, msgCfgNoField, ap.Key, ap.Field)
	case err != nil:
		return c, nil, 0, err
	}
	outs := map[string]string{}
	out := func(key, name string, want workrun.FieldType) error {
		if name == "" {
			return nil
		}
		t, err := field(key, name)
		if err != nil {
			return err
		}
		if t != want {
			return texts.Fail(ErrConfig, msgCfgFieldType, key, name, t, want)
		}
		if prev, dup := outs[name]; dup {
			return texts.Fail(ErrConfig, msgCfgFieldUsed, key, name, prev)
		}
		outs[name] = key
		return nil
	}
	if err := errors.Join(out("output", c.Output, workrun.FieldText), out("output_json", c.OutputJSON, workrun.FieldJSON),
		out("output_files", c.OutputFiles, workrun.FieldFiles)); err != nil {
		return c, nil, 0, err
	}
	timeout, err := remotecall.Timeout(c.TimeoutSeconds)
	if err != nil {
		return c, nil, 0, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	return c, args, timeout, nil
}

// checkURL accepts an absolute http(s) URL; with a credential, plain http
// only to a loopback host.
func checkURL(raw string, withCredential bool) error {
	if err := remotecall.CheckURL(raw, "an MCP endpoint", withCredential, mcp.IsLoopback); err != nil {
		return fmt.Errorf("%w: %w", ErrConfig, err)
	}
	return nil
}
