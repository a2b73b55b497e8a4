package humanreview

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"workrun/workrun"
	"workrun/workrun/workruntest"
)

func compiled(t *testing.T) workrun.Step {
	t.Helper()
	st, err := Kind{}.Compile(workrun.NodeSpec{ID: "r", Type: "human_review", Config: json.RawMessage(`{"prompt":"Ship it?"}`)}, workrun.Workflow{})
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func decided(d workrun.Decision) func(context.Context) (workrun.Decision, bool, error) {
	return func(context.Context) (workrun.Decision, bool, error) { return d, true, nil }
}

func TestHumanReviewWaitsApprovesRejects(t *testing.T) {
	nc := &workruntest.NodeContext{}
	_, err := compiled(t).Run(t.Context(), nc)
	var ie *workrun.InterruptError
	if !errors.As(err, &ie) || ie.Cause != workrun.InterruptedByHuman {
		t.Fatalf("no decision: %v, want an InterruptError by human", err)
	}

	nc = &workruntest.NodeContext{DecisionFunc: decided(workrun.Decision{Approved: true})}
	if _, err := compiled(t).Run(t.Context(), nc); err != nil {
		t.Errorf("approved: %v", err)
	}

	nc = &workruntest.NodeContext{DecisionFunc: decided(workrun.Decision{Approved: false, Text: "typos"})}
	_, err = compiled(t).Run(t.Context(), nc)
	if !errors.Is(err, ErrRejected) || err.Error() != "rejected by the reviewer: typos" {
		t.Errorf("rejected: %v", err)
	}
}

func TestHumanReviewNeedsPrompt(t *testing.T) {
	if _, err := (Kind{}).Compile(workrun.NodeSpec{ID: "r", Type: "human_review"}, workrun.Workflow{}); err == nil {
		t.Error("a review without a prompt compiled")
	}
}
