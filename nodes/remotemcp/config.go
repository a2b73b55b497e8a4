package remotemcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

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
	// CleanupTool, with CleanupArguments (templates that may also name this
	// node's outputs), is the compensating tool on the same server, called
	// once if the run fails or is stopped after the node finished
	// (docs/remote-mcp.md M14).
	CleanupTool      string                     `json:"cleanup_tool,omitempty"`
	CleanupArguments map[string]json.RawMessage `json:"cleanup_arguments,omitempty"`
	// Answers pre-answer the server's first form (docs/remote-mcp.md
	// M15): field → template over State fields; the form's defaults fill
	// the rest.
	Answers workrun.Answers `json:"answers,omitempty"`
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
	args, err := compileArguments("arguments", c.Arguments, wf)
	if err != nil {
		return c, nil, 0, err
	}
	if len(c.CleanupArguments) > 0 && strings.TrimSpace(c.CleanupTool) == "" {
		return c, nil, 0, texts.Fail(ErrConfig, msgCfgCleanupArgs)
	}
	if _, err := compileArguments("cleanup_arguments", c.CleanupArguments, wf); err != nil {
		return c, nil, 0, err
	}
	if c.Answers.IsSet() && c.Answers.Fields == nil {
		return c, nil, 0, texts.Fail(ErrConfig, msgCfgAnswers)
	}
	if _, err := (mcptool.Outputs{Output: c.Output, OutputJSON: c.OutputJSON, OutputFiles: c.OutputFiles}).Check(wf.State); err != nil {
		return c, nil, 0, configWords.Explain(err)
	}
	timeout, err := remotecall.Timeout(c.TimeoutSeconds)
	if err != nil {
		return c, nil, 0, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	return c, args, timeout, nil
}

// configWords are mcptool's config problems in this kind's words.
var configWords = mcptool.ConfigWords{
	NoField:   func(a ...any) error { return texts.Fail(ErrConfig, msgCfgNoField, a...) },
	FileAlone: func(a ...any) error { return texts.Fail(ErrConfig, msgCfgFileAlone, a...) },
	FieldType: func(a ...any) error { return texts.Fail(ErrConfig, msgCfgFieldType, a...) },
	FieldUsed: func(a ...any) error { return texts.Fail(ErrConfig, msgCfgFieldUsed, a...) },
}

// compileArguments is mcptool.CompileArguments with its problems in this
// kind's words.
func compileArguments(key string, raw map[string]json.RawMessage, wf workrun.Workflow) (mcptool.Arguments, error) {
	args, err := mcptool.CompileArguments(key, raw, wf.State)
	return args, configWords.Explain(err)
}

// checkURL accepts an absolute http(s) URL; with a credential, plain http
// only to a loopback host.
func checkURL(raw string, withCredential bool) error {
	if err := remotecall.CheckURL(raw, "an MCP endpoint", withCredential); err != nil {
		return fmt.Errorf("%w: %w", ErrConfig, err)
	}
	return nil
}
