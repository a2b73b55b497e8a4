// Command workrun is the Workrun desktop workflow app and its headless commands.
// This file only wires the parts together: open the data directory, register the
// node kinds, then hand over to the GUI or a CLI subcommand.
package main

import (
	"context"
	"os"

	"workrun/cli"
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
	return &cli.Services{DataDir: dataDir}, nil // wired as the packages land
}

// runGUI opens the window.
func runGUI(ctx context.Context, env *cli.Env) error {
	return nil // wired to ui.Run when ui lands
}
