package storetest

import (
	"context"
	"testing"
	"time"

	"workrun/artifacts"
	"workrun/store"
	"workrun/workrun"
)

// Open opens the store and the artifact store of data directory dir (a new
// temporary one when dir is ""); the store is closed when t ends.
func Open(t testing.TB, dir string) (string, *store.Store, *artifacts.Store) {
	t.Helper()
	if dir == "" {
		dir = t.TempDir()
	}
	st, err := store.Open(t.Context(), dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	arts, err := artifacts.New(dir, st)
	if err != nil {
		t.Fatal(err)
	}
	return dir, st, arts
}

// Run starts wf on eng and waits for its end, at most bound.
func Run(t testing.TB, eng *workrun.Engine, wf workrun.Workflow, in workrun.Values, bound time.Duration) workrun.Run {
	t.Helper()
	id, err := eng.Start(t.Context(), "", wf, in)
	if err != nil {
		t.Fatalf("start: %v", err)
	}
	return Wait(t, eng, id, bound)
}

// Wait waits for run id to end, at most bound.
func Wait(t testing.TB, eng *workrun.Engine, id string, bound time.Duration) workrun.Run {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), bound)
	defer cancel()
	r, err := eng.Wait(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// Call returns node's saved remote call record key in run runID.
func Call(t testing.TB, st *store.Store, runID, node, key string) workrun.RemoteCall {
	t.Helper()
	c, err := st.GetRemoteCall(t.Context(), runID, node, key)
	if err != nil {
		t.Fatalf("remote call %s/%s: %v", runID, node, err)
	}
	return c
}
