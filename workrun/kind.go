package workrun

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Kind is a node type the engine can run ("start", "set", "remote_agent", …).
// Each kind lives in its own package under nodes/ and is registered in main.go.
type Kind interface {
	Type() string
	// Compile checks the node's config against the workflow (field names and
	// types, ranges) and returns the runnable step. Errors name the problem;
	// the engine locates them on the node.
	Compile(spec NodeSpec, wf Workflow) (Step, error)
}

// Step is one compiled node.
type Step interface {
	// Reads and Writes are the State fields the node declares (docs/product.md W2). The
	// engine hands the node only Reads and accepts only Writes from it.
	Reads() []string
	Writes() []string
	// Run does the node's work. It returns the values of (some of) Writes.
	// Return an *InterruptError to interrupt the run; any other error fails it.
	Run(ctx context.Context, nc NodeContext) (Values, error)
}

// NodeContext links a running node to its run.
type NodeContext interface {
	RunID() string
	NodeID() string
	// Inputs holds the current values of the node's declared Reads.
	Inputs() Values
	// Log appends a time-stamped node message (a catalogue key and its
	// arguments, rendered when shown); it is committed before Log returns.
	Log(msg Text)
	// Progress appends a message that may be batched with others (progress
	// lines may be batched; terminal states never wait for a batch).
	Progress(msg Text)
	// OnAbort registers a hook the engine calls exactly once if the run fails or
	// is stopped, concurrently with the other hooks, on a detached bounded
	// context. What a hook does never changes the run's status or reason (docs/remote-agent.md R2, R9).
	OnAbort(hook func(ctx context.Context))
	// SetBranch is called by condition nodes: only edges whose When equals
	// branch are followed; the others' targets are skipped.
	SetBranch(branch string)
	// Decision returns the saved Human Review / Ask Human decision, if any.
	Decision(ctx context.Context) (Decision, bool, error)
	// Resumed reports whether this node is being re-entered by Resume after the
	// application exited (or after a human decision) rather than started fresh.
	Resumed() bool
	// Attempt is the node's attempt in this run: 1, then 2, 3, … when its
	// retry policy runs it again (a resumed node keeps its attempt). A
	// remote kind derives its call's identity from it (AttemptCallKey).
	Attempt() int
	Artifacts() ArtifactStore
}

// InterruptError interrupts a run instead of failing it.
type InterruptError struct {
	Cause  Interruption
	Reason string
	// Question is what a remote asked (Cause InterruptedByHuman): the
	// engine saves it in the node's record until it is answered.
	Question *Question
}

func (e *InterruptError) Error() string {
	return fmt.Sprintf("interrupted (%s): %s", e.Cause, e.Reason)
}

// EntryStep is implemented by the start node's step: its NodeContext.Inputs
// holds the run's inputs, and it provides every State field to the nodes after
// it (validation counts it as the writer of all fields).
type EntryStep interface {
	Step
	Entry()
}

// PureStep is implemented by the steps of kinds whose Run has no effect
// outside the process — it reads its inputs (and artifacts), computes, logs
// and returns — so that running it again after a crash is harmless and
// gives the same result: start, set, condition, join, output. Their node
// records and lines are written behind (WriteBehindStore): they do not
// wait for their own commit, and are committed with the run's next write
// that must be durable — at the latest before a node that is not pure
// starts and before the run's end is saved (docs/engine.md
// "Write-behind"). A kind that calls out, starts a process, writes files
// or waits for a person must not implement it.
type PureStep interface {
	Step
	Pure()
}

// BranchingStep is implemented by steps that call NodeContext.SetBranch
// (condition). Branches lists the values an outgoing edge's When may take;
// validation refuses a When on the edges of any other node.
type BranchingStep interface {
	Step
	Branches() []string
}

// AllInputsStep is implemented by a step that runs only when every incoming
// edge was followed (a join with inputs "all"); otherwise it is skipped. By
// default a node runs when at least one was (a branch not taken counts as
// done).
type AllInputsStep interface {
	Step
	NeedsAllInputs() bool
}

// DecodeConfig decodes a node's config strictly into v: an unknown key, a
// key given twice (ErrDuplicateKey) or a value of the wrong JSON type is an
// error naming it. An absent config
// decodes as {}.
func DecodeConfig(spec NodeSpec, v any) error {
	raw := bytes.TrimSpace(spec.Config)
	if len(raw) == 0 || string(raw) == "null" {
		raw = []byte("{}")
	}
	if err := checkDuplicateKeys(raw); err != nil {
		return texts.Fail(err, msgConfigWrapped, err)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			en := jsonKind(te.Type.Kind().String())
			zh, ok := jsonKindZh[en]
			if !ok {
				zh = " " + en
			}
			return texts.Fail(err, msgConfigType, te.Field, en, te.Value, zh)
		}
		if key, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
			return texts.Fail(err, msgConfigUnknownKey, key)
		}
		return texts.Fail(err, msgConfigWrapped, err)
	}
	if dec.More() {
		return texts.Fail(nil, msgConfigTrailing)
	}
	return nil
}

// jsonKindZh is jsonKind's wording in Chinese.
var jsonKindZh = map[string]string{"a list": "列表", "an object": "对象", "a string": "字符串", "true or false": " true 或 false", "a number": "数字"}

func jsonKind(goKind string) string {
	switch goKind {
	case "slice", "array":
		return "a list"
	case "map", "struct":
		return "an object"
	case "string":
		return "a string"
	case "bool":
		return "true or false"
	case "int", "int64", "float64", "uint", "int32":
		return "a number"
	}
	return goKind
}

// RearmableStep is implemented by steps whose abort hook must outlive the
// process that registered it (the process node's cleanup, docs/remote-agent.md R17). When a
// run is continued (Resume, Decide) or stopped by a process that does not
// hold the run's hooks — the CLI after `workrun run` exited, the app after a
// restart — the engine calls Rearm instead of Run for each node saved
// succeeded (and, on Stop, interrupted), so that it can register its hook
// again (nc.OnAbort) from its saved record. Rearm must not redo the work.
type RearmableStep interface {
	Step
	Rearm(nc NodeContext, saved NodeRun)
}

// DecidingStep is implemented by steps that wait for a person's Decision
// (Human Review, Ask Human). Engine.Decide refuses a decision for an
// interrupted node whose step is not one (ErrRemoteInput): a remote agent's
// request for input or authentication cannot be answered through Workrun.
type DecidingStep interface {
	Step
	TakesDecisions()
}

// BoundedAborter is implemented by the engine's NodeContext: OnAbortWithin
// registers an abort hook like OnAbort, but bounded by d instead of the
// engine's AbortTimeout, so a node whose remote work has a longer bound (a
// Remote Agent's timeout) keeps it when the run fails or is stopped; d <= 0
// means the engine's bound. The run's final status waits for the longest
// bound of the hooks it calls (plus a short grace).
type BoundedAborter interface {
	OnAbortWithin(d time.Duration, hook func(ctx context.Context))
}

// OnAbortWithin registers hook on nc bounded by d when nc supports it
// (BoundedAborter), else with nc.OnAbort.
func OnAbortWithin(nc NodeContext, d time.Duration, hook func(ctx context.Context)) {
	if b, ok := nc.(BoundedAborter); ok {
		b.OnAbortWithin(d, hook)
		return
	}
	nc.OnAbort(hook)
}
