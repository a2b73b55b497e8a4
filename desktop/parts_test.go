package desktop

import (
	"context"
	"testing"
	"time"

	"workrun/artifacts"
	"workrun/credentials"
	"workrun/nodes/set"
	"workrun/nodes/start"
	"workrun/nodes/toolapp"
	"workrun/serve/push"
	"workrun/store"
	"workrun/workrun"
)

// openParts opens dataDir as the command does (main.go), with the node
// kinds the tests' workflows use.
func openParts(ctx context.Context, dataDir string) (*Parts, error) {
	st, err := store.Open(ctx, dataDir)
	if err != nil {
		return nil, err
	}
	arts, err := artifacts.New(dataDir, st)
	if err != nil {
		st.Close()
		return nil, err
	}
	creds := credentials.NewManager(st, nil)
	toolApp := toolapp.New(toolapp.Deps{Calls: st, Credentials: credentials.RemoteSource{Manager: creds}})
	kinds := []workrun.Kind{start.Kind{}, set.Kind{}, toolApp}
	return &Parts{Store: st, Artifacts: arts, Creds: creds, Engine: workrun.NewEngine(st, arts, kinds...),
		Kinds: kinds, ToolApp: toolApp, Push: push.New(st)}, nil
}

// waitFor polls ok until it holds, or fails the test after d.
func waitFor(t *testing.T, d time.Duration, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("waited %v for %s", d, what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
