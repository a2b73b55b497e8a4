package ui

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"workrun/nodes/askhuman"
	"workrun/nodes/condition"
	"workrun/nodes/humanreview"
	"workrun/nodes/join"
	"workrun/nodes/output"
	"workrun/nodes/process"
	"workrun/nodes/remoteagent"
	"workrun/nodes/remotemcp"
	"workrun/nodes/set"
	"workrun/nodes/start"
	"workrun/nodes/toolapp"
	"workrun/workrun"
)

// realKinds are the node kinds main.go gives the engine, in the same
// order: the window's tests describe and check nodes with the real ones.
func realKinds() []workrun.Kind {
	return []workrun.Kind{remoteagent.New(remoteagent.Deps{}), remotemcp.New(remotemcp.Deps{}),
		start.Kind{}, set.Kind{}, condition.Kind{}, join.Kind{}, output.Kind{},
		humanreview.Kind{}, askhuman.Kind{}, process.Kind{}, toolapp.New(toolapp.Deps{})}
}

// kindsEngine is an engine with the real kinds and no store: enough for
// Validate and Fields, which only compile.
func kindsEngine() *workrun.Engine { return workrun.NewEngine(nil, nil, realKinds()...) }

// Config is a test fixture: the config keys of the kinds the tests build
// nodes of, to write and read configs compactly. The window itself has no
// such type; it edits configs through the kinds' descriptions.
type Config struct {
	Values         map[string]string `json:"values,omitempty"`
	Field          string            `json:"field,omitempty"`
	Op             string            `json:"op,omitempty"`
	Value          any               `json:"value,omitempty"`
	Fields         []string          `json:"fields,omitempty"`
	Prompt         string            `json:"prompt,omitempty"`
	Command        []string          `json:"command,omitempty"`
	Env            map[string]string `json:"env,omitempty"`
	Stdout         string            `json:"stdout,omitempty"`
	Cleanup        []string          `json:"cleanup,omitempty"`
	URL            string            `json:"url,omitempty"`
	Inputs         []string          `json:"inputs,omitempty"`
	Attachments    []string          `json:"attachments,omitempty"`
	Output         string            `json:"output,omitempty"`
	OutputFiles    string            `json:"output_files,omitempty"`
	Credential     string            `json:"credential,omitempty"`
	Tool           string            `json:"tool,omitempty"`
	Arguments      map[string]any    `json:"arguments,omitempty"`
	OutputJSON     string            `json:"output_json,omitempty"`
	Task           string            `json:"task,omitempty"`
	TimeoutSeconds int               `json:"timeout_seconds,omitempty"`
}

// DefaultTimeout is the Remote Agent's default request timeout.
const DefaultTimeout = workrun.RemoteTimeoutDefaultSeconds

// DecodeConfig reads a node's config into the fixture.
func DecodeConfig(raw json.RawMessage) (Config, error) {
	var c Config
	if len(raw) == 0 {
		return c, nil
	}
	if err := json.Unmarshal(raw, &c); err != nil {
		return c, fmt.Errorf("config: %w", err)
	}
	return c, nil
}

// EncodeConfig writes the fixture as a node's config.
func EncodeConfig(c Config) json.RawMessage {
	b, err := json.Marshal(c)
	if err != nil {
		panic(err)
	}
	return b
}

func sortedKeys(m map[string]string) []string { return slices.Sorted(maps.Keys(m)) }

// checkingEngine is a fake engine whose Validate is the real kinds' check
// (what *workrun.Engine does); it starts no runs.
func checkingEngine() *fakeEngine { return &fakeEngine{ValidateFunc: kindsEngine().Validate} }
