package cli

import "workrun/workrun"

// Services are the opened parts of one data directory, built by main.go.
// Fields are filled as the packages behind them land; commands check for nil.
type Services struct {
	DataDir   string
	Runs      workrun.RunStore
	Workflows workrun.WorkflowStore
	Artifacts workrun.ArtifactStore
	// Engine runs workflows; built with every registered node kind.
	Engine *workrun.Engine
	// Close releases everything (flushes batched progress lines, closes SQLite).
	Close func() error
}
