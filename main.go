// Command workrun is the Workrun desktop workflow app and its headless commands.
// This file only wires the parts together: open the data directory, register the
// node kinds, then hand over to the GUI or a CLI subcommand.
package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"workrun/artifacts"
	"workrun/cli"
	"workrun/credentials"
	"workrun/desktop"
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
	"workrun/serve/push"
	"workrun/store"
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

// openParts opens the store, artifacts, credentials and engine for dataDir.
func openParts(ctx context.Context, dataDir string) (*desktop.Parts, error) {
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
	return &desktop.Parts{Store: st, Artifacts: arts, Creds: creds, Engine: engine, Kinds: kinds, ToolApp: toolApp, Push: pushRecv}, nil
}

// openServices is the CLI's view of openParts.
func openServices(ctx context.Context, dataDir string) (*cli.Services, error) {
	p, err := openParts(ctx, dataDir)
	if err != nil {
		return nil, err
	}
	return p.Services(dataDir), nil
}

// runGUI opens the window on the data directory (desktop.Run) and blocks
// until it closes.
func runGUI(ctx context.Context, env *cli.Env) error {
	p, err := openParts(ctx, env.DataDir)
	if err != nil {
		return fmt.Errorf("open data directory %s: %w", env.DataDir, err)
	}
	return desktop.Run(ctx, env, p, desktop.Shipped{Version: version, Templates: templates(), FormatDoc: workflowFormatDoc}) // shipped.go
}

// The node kinds see credentials only through their own interfaces.
var (
	_ remoteagent.CredentialSource = credentials.RemoteSource{}
	_ remotemcp.CredentialSource   = credentials.RemoteSource{}
	_ cli.CredentialManager        = (*credentials.Manager)(nil)
)
