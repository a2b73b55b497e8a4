package toolapp

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"workrun/mcp"
	"workrun/workrun"
)

// Report is the outcome of a connection test.
type Report struct {
	Program string     `json:"program"`
	PID     int        `json:"pid"`
	Server  string     `json:"server"`
	Version string     `json:"protocol_version"`
	Tools   []mcp.Tool `json:"tools"`
	// Stderr is the end of what the program wrote on stderr.
	Stderr string `json:"stderr,omitempty"`
}

// Check is the connection test (the inspector's Test connection): it
// starts the program of a node's config, connects, lists its tools and
// stops it. It calls no tool. Templates in the command are left as written.
func (k *Kind) Check(ctx context.Context, config json.RawMessage) (Report, error) {
	var cfg Config
	if err := workrun.DecodeConfig(workrun.NodeSpec{Config: config}, &cfg); err != nil {
		return Report{}, err
	}
	if len(cfg.Command) == 0 || strings.TrimSpace(cfg.Command[0]) == "" {
		return Report{}, texts.Fail(ErrConfig, msgCfgCommand)
	}
	s := &step{kind: k, compiled: compiled{cfg: cfg}}
	secrets, red, err := s.secrets(ctx)
	if err != nil {
		return Report{}, err
	}
	p, err := s.start(ctx, nil, red, secrets, func(string) {}, func(mcp.Notification) {})
	if err != nil {
		return Report{}, fmt.Errorf("start %s: %s", cfg.Command[0], red.string(err.Error()))
	}
	rep := Report{Program: p.argv0, PID: p.stdio.PID()}
	defer func() {
		if err := p.stop(ctx); err != nil && ctx.Err() == nil {
			rep.Stderr = err.Error()
		}
	}()
	init, err := p.client.Connect(ctx)
	if err != nil {
		return rep, fmt.Errorf("%s did not answer as an MCP server: %s", p.argv0, red.string(err.Error()))
	}
	rep.Server = strings.TrimSpace(init.ServerInfo.Name + " " + init.ServerInfo.Version)
	rep.Version = p.client.Version()
	if rep.Tools, err = p.client.ListTools(ctx); err != nil {
		return rep, fmt.Errorf("list tools of %s: %s", p.argv0, red.string(err.Error()))
	}
	rep.Stderr = red.string(p.stdio.StderrTail())
	return rep, nil
}
