package workrun

import (
	"context"
	"errors"
	"time"
)

// ErrTokenExists: a serve token with that label is already saved.
var ErrTokenExists = errors.New("a token with this label exists")

// ServeToken is a caller's bearer token as stored: its label and the
// SHA-256 of its secret (hex), never the secret (docs/serve.md S11).
type ServeToken struct {
	Label     string    `json:"label"`
	Hash      string    `json:"hash"`
	CreatedAt time.Time `json:"created_at"`
}

// Publish is a workflow's publish settings: what a caller of the served
// workflow sees and fills (docs/serve.md, docs/workflow-format.md#publish).
// The window's Publish dialog and `workrun serve` read the same settings.
type Publish struct {
	// Name is the agent's name; empty: the workflow's name.
	Name string `json:"name,omitempty"`
	// Description tells callers what the workflow does.
	Description string `json:"description,omitempty"`
	// Inputs are the State fields a caller fills; empty: none (a text
	// message still fills TextInput when it is set).
	Inputs []string `json:"inputs,omitempty"`
	// TextInput is the text field a caller's plain text fills; empty: the
	// one text field among Inputs, if there is exactly one.
	TextInput string `json:"text_input,omitempty"`
	// Outputs are the State fields returned to the caller when the run
	// succeeds, one artifact each.
	Outputs []string `json:"outputs,omitempty"`
}

// ServedTask is the durable record tying a caller's task to the run it
// started (docs/serve.md S1–S3): one row per (Caller, Key), written in the
// same transaction as the run.
type ServedTask struct {
	ID          string    `json:"id"`
	Caller      string    `json:"caller"` // a token's label; "" for a server without tokens
	Key         string    `json:"key"`    // the caller's idempotency key (A2A messageId)
	Publication string    `json:"publication"`
	ContextID   string    `json:"context_id"`
	RunID       string    `json:"run_id"`
	Message     []byte    `json:"message,omitempty"` // the caller's first message as received (its wire form)
	CreatedAt   time.Time `json:"created_at"`
}

// ServedTaskFilter selects a caller's tasks; zero values mean "any".
type ServedTaskFilter struct {
	Caller      string
	Publication string
	ContextID   string
	Limit       int    // 0: 50
	Before      string // task id cursor: tasks created before it
}

// servedTaskKey carries a ServedTask to the store's CreateRun.
type servedTaskKey struct{}

// WithServedTask returns a context under which a store's CreateRun also
// inserts t (with t.RunID set to the run's id) in the run's transaction, so
// a task never exists without its run nor a run without its task. A store
// that refuses t (its key already taken) creates no run.
func WithServedTask(ctx context.Context, t ServedTask) context.Context {
	return context.WithValue(ctx, servedTaskKey{}, t)
}

// ServedTaskFrom is the task WithServedTask put on ctx.
func ServedTaskFrom(ctx context.Context) (ServedTask, bool) {
	t, ok := ctx.Value(servedTaskKey{}).(ServedTask)
	return t, ok
}
