// Command workrun is the Workrun desktop workflow app and its headless commands.
// This file only wires the parts together: open the data directory, register the
// node kinds, then hand over to the GUI or a CLI subcommand.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"workrun/a2a/demoagent"
	"workrun/artifacts"
	"workrun/cli"
	"workrun/credentials"
	"workrun/mcp"
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
	"workrun/remotecall"
	"workrun/serve"
	"workrun/serve/push"
	"workrun/serve/trigger"
	"workrun/store"
	"workrun/ui"
	"workrun/workrun"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "0.1.0-dev"

func main() {
	mcp.RunStdioGuard() // started as a Tool App program's guard: be that, and exit
	// The language words are written in, decided once from the user's
	// locale; the window decides its own at start (runGUI) and on a switch
	// (docs/conventions.md §9).
	workrun.SetLanguage(workrun.DetectLanguage(os.Getenv))
	deps := cli.Deps{
		Version: version,
		Open:    openServices,
		GUI:     runGUI,
	}
	os.Exit(cli.Main(context.Background(), os.Args[1:], cli.Stdio{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}, deps))
}

// parts are the opened pieces of one data directory.
type parts struct {
	store     *store.Store
	artifacts *artifacts.Store
	creds     *credentials.Manager
	engine    *workrun.Engine
	kinds     []workrun.Kind // what engine runs; the window describes them
	toolApp   *toolapp.Kind  // its connection test starts a program
	push      *push.Receiver // serve's push receiver (docs/triggers.md P1)
}

// openParts opens the store, artifacts, credentials and engine for dataDir.
func openParts(ctx context.Context, dataDir string) (*parts, error) {
	st, err := store.Open(ctx, dataDir)
	if err != nil {
		return nil, err
	}
	arts, err := artifacts.New(dataDir, st)
	if err != nil {
		st.Close()
		return nil, err
	}
	// Secrets live in the OS keyring; SQLite holds only their names (docs/product.md W8).
	creds := credentials.NewManager(st, nil)
	// The push receiver hands out URLs only once `workrun serve
	// --public-url` sets one (docs/triggers.md P1).
	pushRecv := push.New(st)
	remote := remoteagent.New(remoteagent.Deps{
		Calls:       st,
		Push:        pushRecv,
		Credentials: credentials.RemoteSource{Manager: creds},
		// Large results wait beside the artifacts, on the data directory's
		// disk rather than a RAM-backed /tmp.
		SpoolDir: filepath.Join(dataDir, "artifacts", "tmp"),
	})
	remoteMCP := remotemcp.New(remotemcp.Deps{Calls: st, Credentials: credentials.RemoteSource{Manager: creds}})
	// The local node kinds (docs/product.md W7), the Remote Agent (docs/remote-agent.md R1–R17) and the
	// Remote MCP Tool (docs/remote-mcp.md), the Tool App (docs/tool-app.md).
	// In palette order within each group.
	toolApp := toolapp.New(toolapp.Deps{Calls: st, Credentials: credentials.RemoteSource{Manager: creds}})
	kinds := []workrun.Kind{remote, remoteMCP, start.Kind{}, set.Kind{}, condition.Kind{}, join.Kind{}, output.Kind{},
		humanreview.Kind{}, askhuman.Kind{}, process.Kind{}, toolApp}
	engine := workrun.NewEngine(st, arts, kinds...)
	return &parts{store: st, artifacts: arts, creds: creds, engine: engine, kinds: kinds, toolApp: toolApp, push: pushRecv}, nil
}

// openServices is the CLI's view of openParts.
func openServices(ctx context.Context, dataDir string) (*cli.Services, error) {
	p, err := openParts(ctx, dataDir)
	if err != nil {
		return nil, err
	}
	return servicesOf(dataDir, p), nil
}

// servicesOf is the CLI's view of the parts: `workrun serve` and the
// window's own server (main_serve_window.go) run on it.
func servicesOf(dataDir string, p *parts) *cli.Services {
	return &cli.Services{
		DataDir: dataDir, Runs: p.store, Workflows: p.store, Artifacts: p.artifacts, Engine: p.engine,
		RemoteCalls: p.store, RunArtifacts: p.store, ArtifactGC: p.artifacts, Credentials: p.creds, OAuth: p.creds,
		Served: p.store, ServeTokens: &serve.Tokens{Store: p.store, Keyring: credentials.OSKeyring{}},
		Push:  p.push,
		Close: p.store.Close,
	}
}

// runGUI opens the window on the data directory and blocks until it closes.
// Runs that were going on when Workrun last exited become "interrupted by
// exit" first (docs/remote-agent.md R12, R13); closing the window interrupts live runs the same
// way and sends nothing to remote agents.
func runGUI(ctx context.Context, env *cli.Env) error {
	p, err := openParts(ctx, env.DataDir)
	if err != nil {
		return fmt.Errorf("open data directory %s: %w", env.DataDir, err)
	}
	defer p.store.Close()
	if _, err := p.engine.RecoverInterrupted(ctx); err != nil {
		return fmt.Errorf("recover interrupted runs: %w", err)
	}
	defer p.engine.Close(context.WithoutCancel(ctx))
	d := guiDeps(p)
	publishDeps(&d, p.store)                                                                    // main_publish.go
	server, stopServer := serveDeps(&d, servicesOf(env.DataDir, p), env.Stderr)                 // main_serve_window.go
	stopSchedules := scheduleDeps(ctx, &d, p, trigger.SystemClock{}, stderrReport(env), server) // main_schedule.go
	defer stopSchedules()
	defer stopServer()
	d.About = aboutInfo(env.DataDir)
	// Every quit of the window ends the process itself, once the window has
	// saved its work (ui/exit.go): the deferred closes above run only when
	// Fyne ends its loop on its own.
	d.Exit = func() {
		code := 0
		stopServer()
		stopSchedules()
		if err := p.engine.Close(context.WithoutCancel(ctx)); err != nil {
			fmt.Fprintf(env.Stderr, "workrun: %v\n", err)
			code = 1
		}
		if err := p.store.Close(); err != nil {
			fmt.Fprintf(env.Stderr, "workrun: close the data directory: %v\n", err)
			code = 1
		}
		os.Exit(code)
	}
	return ui.Run(d)
}

// guiDeps adapts the parts to what the window asks for.
func guiDeps(p *parts) ui.Deps {
	st, creds := p.store, p.creds
	return ui.Deps{
		Lang:   ui.SystemLanguage(), // unless the person chose one in Settings
		Engine: p.engine, Kinds: workrun.Describe(p.kinds...), Runs: st, Workflows: st, Artifacts: p.artifacts,
		Credentials: credAdapter{creds},
		OAuth:       oauthAdapter{creds}, // main_oauth.go
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
			rep, err := p.toolApp.Check(ctx, config)
			if err != nil {
				return nil, uiErr(err)
			}
			out := make([]ui.MCPTool, 0, len(rep.Tools))
			for _, t := range rep.Tools {
				out = append(out, ui.MCPTool{Name: t.Name, Title: t.Title, Description: t.Description, TaskSupport: t.TaskSupport(), InputSchema: t.InputSchema})
			}
			return out, nil
		},
		StartDemoMCP: startDemoMCP, Templates: templates(), // main_help.go
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

// The node kinds see credentials only through their own interfaces.
var (
	_ remoteagent.CredentialSource = credentials.RemoteSource{}
	_ remotemcp.CredentialSource   = credentials.RemoteSource{}
	_ cli.CredentialManager        = (*credentials.Manager)(nil)
)

// credAdapter shows the credentials manager to the window.
type credAdapter struct{ m *credentials.Manager }

func (a credAdapter) List(ctx context.Context) ([]ui.Credential, error) {
	cs, err := a.m.List(ctx)
	out := make([]ui.Credential, 0, len(cs))
	for _, c := range cs {
		out = append(out, ui.Credential{Name: c.Name, Origin: c.Origin, Kind: c.Kind, Header: c.Header})
	}
	if err == nil && slices.ContainsFunc(cs, func(c credentials.Credential) bool { return c.Kind == credentials.KindOAuth }) {
		// An OAuth credential's scopes and expiry (no secret).
		infos, ierr := a.m.ListOAuth(ctx)
		for _, in := range infos {
			for i := range out {
				if out[i].Name == in.Name {
					out[i].Resource, out[i].Scopes, out[i].Expiry = in.Resource, in.Scopes, in.Expiry
				}
			}
		}
		err = ierr
	}
	return out, uiErr(err)
}

func (a credAdapter) Set(ctx context.Context, c ui.Credential, secret string) error {
	return uiErr(a.m.Set(ctx, credentials.Credential{Name: c.Name, Kind: c.Kind, Origin: c.Origin, Header: c.Header}, secret))
}

func (a credAdapter) Delete(ctx context.Context, name string) error {
	if c, _, err := a.m.Get(ctx, name); err == nil && c.Kind == credentials.KindOAuth {
		return uiErr(a.m.RemoveOAuth(ctx, name)) // signs out: revokes where the server offers it
	}
	return uiErr(a.m.Delete(ctx, name))
}

// uiErr marks errors with the sentinels the window knows (it imports neither
// credentials nor the node kinds): a missing keyring, an agent that wants a
// credential or refused one.
func uiErr(err error) error {
	switch {
	case errors.Is(err, credentials.ErrNoKeyring):
		return fmt.Errorf("%w: %w", ui.ErrNoKeyring, err)
	case errors.Is(err, remoteagent.ErrCredentialRequired):
		return fmt.Errorf("%w: %w", ui.ErrNeedsCredential, err)
	case errors.Is(err, remoteagent.ErrCredentialRefused):
		return fmt.Errorf("%w: %w", ui.ErrCredentialRefused, err)
	}
	return err
}
