package workruntest

import (
	"context"
	"testing"

	"workrun/workrun"
)

// MessageReader reads a run's messages; *MemStore and *store.Store are
// ones.
type MessageReader interface {
	Messages(ctx context.Context, runID string) ([]workrun.Message, error)
}

// NodeMessages returns node's messages in run runID, in order, rendered in
// lang.
func NodeMessages(t testing.TB, src MessageReader, runID, node, lang string) []string {
	t.Helper()
	ms, err := src.Messages(t.Context(), runID)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range ms {
		if m.NodeID == node {
			out = append(out, m.In(lang))
		}
	}
	return out
}

// NodeRunReader reads a run's node records; *MemStore and *store.Store
// are ones.
type NodeRunReader interface {
	NodeRuns(ctx context.Context, runID string) ([]workrun.NodeRun, error)
}

// NodeRecord returns node's record in run runID; a missing one fails t.
func NodeRecord(t testing.TB, src NodeRunReader, runID, node string) workrun.NodeRun {
	t.Helper()
	recs, err := src.NodeRuns(t.Context(), runID)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range recs {
		if n.NodeID == node {
			return n
		}
	}
	t.Fatalf("no record of node %s in run %s", node, runID)
	return workrun.NodeRun{}
}
