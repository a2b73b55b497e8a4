package toolapp

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"workrun/mcptool"
	"workrun/remotecall"
	"workrun/workrun"
)

// Type is the node type name in workflow files.
const Type = "tool_app"

// ErrConfig is wrapped by every configuration error Compile returns.
var ErrConfig = errors.New("tool app config")

// Config is the node's configuration as saved in the workflow file.
type Config struct {
	// Command is the program and its arguments, run directly (no shell).
	Command []string `json:"command"`
	// Env adds environment variables; values are templates over State
	// fields and are not secret (they are part of the workflow).
	Env map[string]string `json:"env,omitempty"`
	// SecretEnv sets environment variables to the secret of a saved
	// credential, by name: the secret is read when the program starts and
	// is never written into the workflow, the database or a message. A
	// name in both env and secret_env gets the secret.
	SecretEnv map[string]string `json:"secret_env,omitempty"`
	// Cwd is the program's working directory ("" for Workrun's own).
	Cwd              string                     `json:"cwd,omitempty"`
	Tool             string                     `json:"tool"`
	Arguments        map[string]json.RawMessage `json:"arguments,omitempty"`
	Output           string                     `json:"output,omitempty"`
	OutputJSON       string                     `json:"output_json,omitempty"`
	OutputFiles      string                     `json:"output_files,omitempty"`
	CleanupTool      string                     `json:"cleanup_tool,omitempty"`
	CleanupArguments map[string]json.RawMessage `json:"cleanup_arguments,omitempty"`
	TimeoutSeconds   *float64                   `json:"timeout_seconds,omitempty"`
}

// compiled is a checked config.
type compiled struct {
	cfg         Config
	args        mcptool.Arguments
	cleanupArgs mcptool.Arguments
	timeout     time.Duration
	reads       []string
}

func parseConfig(spec workrun.NodeSpec, wf workrun.Workflow) (compiled, error) {
	var c compiled
	if err := workrun.DecodeConfig(spec, &c.cfg); err != nil {
		return c, err
	}
	cfg := c.cfg
	if len(cfg.Command) == 0 || strings.TrimSpace(cfg.Command[0]) == "" {
		return c, texts.Fail(ErrConfig, msgCfgCommand)
	}
	if strings.TrimSpace(cfg.Tool) == "" {
		return c, texts.Fail(ErrConfig, msgCfgTool)
	}
	for _, env := range []map[string]string{cfg.Env, cfg.SecretEnv} {
		for _, name := range slices.Sorted(maps.Keys(env)) {
			if !workrun.EnvName(name) {
				return c, texts.Fail(ErrConfig, msgCfgEnvName, name)
			}
			if strings.ContainsRune(env[name], 0) {
				return c, texts.Fail(ErrConfig, msgCfgEnvNUL, name)
			}
		}
	}
	for name := range cfg.SecretEnv {
		if strings.TrimSpace(cfg.SecretEnv[name]) == "" {
			return c, texts.Fail(ErrConfig, msgCfgSecretName, name)
		}
	}
	var err error
	if c.args, err = compileArgs("arguments", cfg.Arguments, wf); err != nil {
		return c, err
	}
	if len(cfg.CleanupArguments) > 0 && cfg.CleanupTool == "" {
		return c, texts.Fail(ErrConfig, msgCfgCleanupArgs)
	}
	if c.cleanupArgs, err = compileArgs("cleanup_arguments", cfg.CleanupArguments, wf); err != nil {
		return c, err
	}
	_, err = mcptool.Outputs{Output: cfg.Output, OutputJSON: cfg.OutputJSON, OutputFiles: cfg.OutputFiles}.Check(wf.State)
	if err != nil {
		return c, configWords.Explain(err)
	}
	if c.timeout, err = remotecall.Timeout(cfg.TimeoutSeconds); err != nil {
		return c, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	// Reads: the fields the command, env, cwd and arguments name; the
	// cleanup's arguments may also name this node's own outputs.
	var templated []string
	templated = append(templated, cfg.Command...)
	templated = append(templated, cfg.Cwd)
	for _, v := range cfg.Env {
		templated = append(templated, v)
	}
	for _, t := range templated {
		for _, f := range workrun.TemplateFields(t) {
			if _, ok := wf.State[f]; !ok {
				return c, texts.Fail(ErrConfig, msgCfgNoField, "command", f)
			}
			c.reads = append(c.reads, f)
		}
	}
	c.reads = append(c.reads, c.args.Reads()...)
	c.reads = append(c.reads, mcptool.CleanupReads(c.cleanupArgs, mcptool.Outputs{Output: cfg.Output, OutputJSON: cfg.OutputJSON, OutputFiles: cfg.OutputFiles})...)
	slices.Sort(c.reads)
	c.reads = slices.Compact(c.reads)
	return c, nil
}

// configWords are mcptool's config problems in this kind's words.
var configWords = mcptool.ConfigWords{
	NoField:   func(a ...any) error { return texts.Fail(ErrConfig, msgCfgNoField, a...) },
	FileAlone: func(a ...any) error { return texts.Fail(ErrConfig, msgCfgFileAlone, a...) },
	FieldType: func(a ...any) error { return texts.Fail(ErrConfig, msgCfgFieldType, a...) },
	FieldUsed: func(a ...any) error { return texts.Fail(ErrConfig, msgCfgFieldUsed, a...) },
}

func compileArgs(key string, raw map[string]json.RawMessage, wf workrun.Workflow) (mcptool.Arguments, error) {
	args, err := mcptool.CompileArguments(key, raw, wf.State)
	return args, configWords.Explain(err)
}
