package remoteagent

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"workrun/remotecall"
	"workrun/workrun"
)

// Type is the node type name in workflow files.
const Type = "remote_agent"

// Attachment limits per request (docs/remote-agent.md R14).
const (
	MaxFiles     = 10
	MaxFileBytes = 20 << 20
)

// MessageFieldTypes are the State field types the message template may
// name: values that read as text (files travel as attachments).
var MessageFieldTypes = []workrun.FieldType{workrun.FieldText, workrun.FieldNumber, workrun.FieldBoolean, workrun.FieldJSON}

// ErrConfig is wrapped by every configuration error Compile returns.
var ErrConfig = errors.New("remote agent config")

// Config is the node's configuration as saved in the workflow file.
type Config struct {
	URL string `json:"url"`
	// Message is the business instruction: a text template over State
	// fields, sent as the message's first text part (docs/remote-agent.md
	// R3.2).
	Message        string   `json:"message,omitempty"`
	Inputs         []string `json:"inputs,omitempty"`
	Attachments    []string `json:"attachments,omitempty"`
	Output         string   `json:"output,omitempty"`
	OutputFiles    string   `json:"output_files,omitempty"`
	Credential     string   `json:"credential,omitempty"`
	TimeoutSeconds *float64 `json:"timeout_seconds,omitempty"`
	// Answers pre-answers the agent's first question: a text template over
	// State fields (docs/remote-agent.md R8).
	Answers workrun.Answers `json:"answers,omitzero"`
}

// ParseConfig decodes and checks a node's config against the workflow's State
// fields. Every error wraps ErrConfig and names the offending key.
func ParseConfig(raw json.RawMessage, wf workrun.Workflow) (Config, time.Duration, error) {
	var c Config
	if len(bytes.TrimSpace(raw)) == 0 {
		return c, 0, texts.Fail(ErrConfig, msgCfgURLRequired)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return c, 0, texts.Fail(ErrConfig, msgCfgDecode, err)
	}
	if err := checkURL(c.URL, c.Credential != ""); err != nil {
		return c, 0, err
	}
	if strings.TrimSpace(c.Message) == "" && len(c.Inputs) == 0 && len(c.Attachments) == 0 {
		return c, 0, texts.Fail(ErrConfig, msgCfgNoInputs)
	}
	if err := workrun.CheckTemplate("message", c.Message, wf.State, MessageFieldTypes...); err != nil {
		return c, 0, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	seen := map[string]string{}
	use := func(key, field string, allowed ...workrun.FieldType) error {
		if field == "" {
			return texts.Fail(ErrConfig, msgCfgEmptyField, key)
		}
		t, ok := wf.State[field]
		if !ok {
			return texts.Fail(ErrConfig, msgCfgNoField, key, field)
		}
		for _, a := range allowed {
			if t == a {
				if prev, dup := seen[field]; dup {
					return texts.Fail(ErrConfig, msgCfgFieldUsed, key, field, prev)
				}
				seen[field] = key
				return nil
			}
		}
		names := make([]string, len(allowed))
		for i, a := range allowed {
			names[i] = string(a)
		}
		return texts.Fail(ErrConfig, msgCfgFieldType, key, field, t, strings.Join(names, " or "), strings.Join(names, " 或 "))
	}
	for _, f := range c.Inputs {
		if err := use("inputs", f, MessageFieldTypes...); err != nil {
			return c, 0, err
		}
	}
	for _, f := range c.Attachments {
		if err := use("attachments", f, workrun.FieldFile, workrun.FieldFiles); err != nil {
			return c, 0, err
		}
	}
	if c.Output != "" {
		if err := use("output", c.Output, workrun.FieldText); err != nil {
			return c, 0, err
		}
	}
	if c.OutputFiles != "" {
		if err := use("output_files", c.OutputFiles, workrun.FieldFiles); err != nil {
			return c, 0, err
		}
	}
	if c.Answers.Fields != nil {
		return c, 0, texts.Fail(ErrConfig, msgCfgAnswersText)
	}
	for _, f := range c.Answers.Reads() {
		if _, ok := wf.State[f]; !ok {
			return c, 0, texts.Fail(ErrConfig, msgCfgNoField, "answers", f)
		}
	}
	timeout, err := remotecall.Timeout(c.TimeoutSeconds)
	if err != nil {
		return c, 0, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	return c, timeout, nil
}

// checkURL accepts an absolute http(s) URL; with a credential, plain http is
// accepted only for a loopback host (docs/remote-agent.md R3.3, docs/product.md W8).
func checkURL(raw string, withCredential bool) error {
	if err := remotecall.CheckURL(raw, "an A2A service", withCredential); err != nil {
		return fmt.Errorf("%w: %w", ErrConfig, err)
	}
	return nil
}
