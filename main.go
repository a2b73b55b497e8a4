// Command workrun is the Workrun desktop workflow app and its headless commands.
// This file only wires the parts together: open the data directory, register the
// node kinds, then hand over to the GUI or a CLI subcommand.
package main

import (
	"context"
	"fmt"
	"os"

	"workrun/artifacts"
	"workrun/cli"
	"workrun/credentials"
	"workrun/nodes/askhuman"
	"workrun/nodes/condition"
	"workrun/nodes/humanreview"
	"workrun/nodes/join"
	"workrun/nodes/output"
	"workrun/nodes/process"
	"workrun/nodes/remoteagent"
	"workrun/nodes/set"
	"workrun/nodes/start"
	"workrun/store"
	"workrun/ui"
	"workrun/workrun"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "0.1.0-dev"

func main() {
	deps := cli.Deps{
		Version: version,
		Open:    openServices,
		GUI:     runGUI,
	}
	os.Exit(cli.Main(context.Background(), os.Args[1:], cli.Stdio{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}, deps))
}

// openServices opens the store, artifacts, credentials and engine for dataDir.
func openServices(ctx context.Context, dataDir string) (*cli.Services, error) {
	st, err := store.Open(ctx, dataDir)
	if err != nil {
		return nil, err
	}
	arts, err := artifacts.New(dataDir, st)
	if err != nil {
		st.Close()
		return nil, err
	}
	// Secrets live in the OS keyring; SQLite holds only their names (SPEC W8).
	creds := credentials.NewManager(st, nil)
	remote := remoteagent.New(remoteagent.Deps{
		Calls:       st,
		Credentials: remoteagent.FromManager(creds),
		Language:    remoteagent.EnvLanguage,
	})
	// The local node kinds (SPEC W7) and the Remote Agent (R1–R17).
	engine := workrun.NewEngine(st, arts,
		start.Kind{}, set.Kind{}, condition.Kind{}, join.Kind{}, output.Kind{},
		humanreview.Kind{}, askhuman.Kind{}, process.Kind{}, remote)
	return &cli.Services{DataDir: dataDir, Runs: st, Workflows: st, Artifacts: arts, Engine: engine, Close: st.Close}, nil
}

// runGUI opens the window on the data directory's services and blocks until
// it closes. Services not wired yet are nil; the window disables what needs them.
func runGUI(ctx context.Context, env *cli.Env) error {
	svc, err := env.Deps.Open(ctx, env.DataDir)
	if err != nil {
		return fmt.Errorf("open data directory %s: %w", env.DataDir, err)
	}
	if svc.Close != nil {
		defer svc.Close()
	}
	return ui.Run(ui.Deps{Runs: svc.Runs, Workflows: svc.Workflows, Artifacts: svc.Artifacts})
}
