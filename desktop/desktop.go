package desktop

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"

	"workrun/a2a/demoagent"
	"workrun/artifacts"
	"workrun/cli"
	"workrun/credentials"
	"workrun/nodes/remoteagent"
	"workrun/nodes/remotemcp"
	"workrun/nodes/toolapp"
	"workrun/remotecall"
	"workrun/serve"
	"workrun/serve/push"
	"workrun/serve/trigger"
	"workrun/store"
	"workrun/ui"
	"workrun/workrun"
)

// Parts are the opened pieces of one data directory, as the command opens
// them (main.go): the window and the CLI run on the same ones.
type Parts struct {
	Store     *store.Store
	Artifacts *artifacts.Store
	Creds     *credentials.Manager
	Engine    *workrun.Engine
	Kinds     []workrun.Kind // what Engine runs; the window describes them
	ToolApp   *toolapp.Kind  // its connection test starts a program
	Push      *push.Receiver // serve's push receiver (docs/triggers.md P1)
}

// Services is the CLI's view of the parts: `workrun serve` and the
// window's own server (serve_window.go) run on it.
func (p *Parts) Services(dataDir string) *cli.Services {
	return &cli.Services{
		DataDir: dataDir, Runs: p.Store, Workflows: p.Store, Artifacts: p.Artifacts, Engine: p.Engine,
		RemoteCalls: p.Store, RunArtifacts: p.Store, ArtifactGC: p.Artifacts, Credentials: p.Creds, OAuth: p.Creds,
		Served: p.Store, ServeTokens: &serve.Tokens{Store: p.Store, Keyring: credentials.OSKeyring{}},
		Push:  p.Push,
		Close: p.Store.Close,
	}
}

// Shipped is what the binary carries besides its code: the version it was
// built as and the files embedded in it (they can only be embedded from
// the module's root, beside examples/ and docs/).
type Shipped struct {
	Version   string
	Templates fs.FS  // the example workflows File → New from template offers
	FormatDoc string // docs/workflow-format.md, shown by Help
}

// Run opens the window on p and blocks until it closes; it owns p and
// closes it. Runs that were going on when Workrun last exited become
// "interrupted by exit" first (docs/remote-agent.md R12, R13); closing the
// window interrupts live runs the same way and sends nothing to remote
// agents.
func Run(ctx context.Context, env *cli.Env, p *Parts, shipped Shipped) error {
	defer p.Store.Close()
	if _, err := p.Engine.RecoverInterrupted(ctx); err != nil {
		return fmt.Errorf("recover interrupted runs: %w", err)
	}
	defer p.Engine.Close(context.WithoutCancel(ctx))
	d := guiDeps(p)
	d.Templates = shipped.Templates
	publishDeps(&d, p.Store)                                                                    // publish.go
	server, stopServer := serveDeps(&d, p.Services(env.DataDir), env.Stderr)                    // serve_window.go
	stopSchedules := scheduleDeps(ctx, &d, p, trigger.SystemClock{}, stderrReport(env), server) // schedule.go
	defer stopSchedules()
	defer stopServer()
	d.About = aboutInfo(env.DataDir, shipped) // about.go
	// Every quit of the window ends the process itself, once the window has
	// saved its work (ui/exit.go): the deferred closes above run only when
	// Fyne ends its loop on its own.
	d.Exit = func() {
		code := 0
		stopServer()
		stopSchedules()
		if err := p.Engine.Close(context.WithoutCancel(ctx)); err != nil {
			fmt.Fprintf(env.Stderr, "workrun: %v\n", err)
			code = 1
		}
		if err := p.Store.Close(); err != nil {
			fmt.Fprintf(env.Stderr, "workrun: close the data directory: %v\n", err)
			code = 1
		}
		os.Exit(code)
	}
	return ui.Run(d)
}

// guiDeps adapts the parts to what the window asks for.
func guiDeps(p *Parts) ui.Deps {
	st, creds := p.Store, p.Creds
	return ui.Deps{
		Lang:   ui.SystemLanguage(), // unless the person chose one in Settings (docs/conventions.md §9)
		Engine: p.Engine, Kinds: workrun.Describe(p.Kinds...), Runs: st, Workflows: st, Artifacts: p.Artifacts,
		Credentials: credAdapter{creds},  // credentials.go
		OAuth:       oauthAdapter{creds}, // oauth.go
		CheckOrigin: remotecall.CheckCredentialOrigin,
		RemoteCalls: st.RemoteCallsForRun,
		CheckAgent: func(ctx context.Context, url, name string) (ui.AgentReport, error) {
			var cred *remotecall.Credential
			if name != "" {
				if _, _, err := creds.Resolve(ctx, name, url); err != nil {
					return ui.AgentReport{}, uiErr(err)
				}
				c, err := creds.RemoteCredential(ctx, name) // an OAuth one: its token source
				if err != nil {
					return ui.AgentReport{}, uiErr(err)
				}
				cred = &c
			}
			r, err := remoteagent.CheckAgent(ctx, url, cred)
			if err != nil {
				return ui.AgentReport{}, uiErr(signInErr(err, r.SecuritySchemes))
			}
			return ui.AgentReport{CardName: r.Name, InterfaceURL: r.Endpoint, Streaming: r.Streaming,
				SecuritySchemes: r.SecuritySchemes, CredentialAccepted: r.CredentialUsed && r.Accepted}, nil
		},
		CheckMCP: func(ctx context.Context, url, name string) ([]ui.MCPTool, error) {
			rep, err := remotemcp.CheckNamed(ctx, url, name, credentials.RemoteSource{Manager: creds})
			if err != nil {
				return nil, uiErr(signInErr(err, nil))
			}
			return mcpTools(rep)
		},
		CheckToolApp: func(ctx context.Context, config json.RawMessage) ([]ui.MCPTool, error) {
			rep, err := p.ToolApp.Check(ctx, config)
			if err != nil {
				return nil, uiErr(err)
			}
			out := make([]ui.MCPTool, 0, len(rep.Tools))
			for _, t := range rep.Tools {
				out = append(out, ui.MCPTool{Name: t.Name, Title: t.Title, Description: t.Description, TaskSupport: t.TaskSupport(), InputSchema: t.InputSchema})
			}
			return out, nil
		},
		StartDemoMCP: startDemoMCP, // demo_mcp.go
		StartDemoAgent: func() (string, func(), error) {
			// The demo agent's own address first, so a saved sample keeps
			// working after a restart; any free port when another program
			// holds it (the window then points the sample there).
			u, stop, err := demoagent.New(demoagent.Options{}).Start(cli.DemoAgentAddr)
			if err == nil {
				return u, stop, nil
			}
			return demoagent.New(demoagent.Options{}).Start("127.0.0.1:0")
		},
	}
}

// mcpTools is the tool list of a connection test as the inspector shows it.
func mcpTools(rep remotemcp.Report) ([]ui.MCPTool, error) {
	out := make([]ui.MCPTool, 0, len(rep.Tools))
	for _, t := range rep.Tools {
		var schema json.RawMessage
		if t.InputSchema != nil {
			b, err := json.Marshal(t.InputSchema)
			if err != nil {
				return nil, fmt.Errorf("input schema of tool %s: %w", t.Name, err)
			}
			schema = b
		}
		out = append(out, ui.MCPTool{Name: t.Name, Title: t.Title, Description: t.Description, TaskSupport: t.TaskSupport, InputSchema: schema})
	}
	return out, nil
}
