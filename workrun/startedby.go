package workrun

import "context"

// StartedByKind says what started a run (docs/engine.md "Started by").
type StartedByKind string

const (
	StartedByPerson   StartedByKind = "person"   // a person in the window or the CLI
	StartedByA2A      StartedByKind = "a2a"      // an A2A caller of `workrun serve`
	StartedByMCP      StartedByKind = "mcp"      // an MCP caller of `workrun serve`
	StartedBySchedule StartedByKind = "schedule" // a schedule trigger
	StartedByWebhook  StartedByKind = "webhook"  // a webhook trigger
)

// StartedBy is who or what started a run, kept with the run. Label names
// the caller among its kind — a serve token's label, a schedule's or a
// webhook's name — and is never a secret: a token is named by its label
// only. The zero value is a run whose starter was not recorded (every run
// from before store schema 8, and runs the window and the CLI start
// without saying).
type StartedBy struct {
	Kind  StartedByKind `json:"kind"`
	Label string        `json:"label,omitempty"`
}

// IsZero reports whether no starter was recorded.
func (s StartedBy) IsZero() bool { return s == StartedBy{} }

// In is s for a person in lang: the kind's name, then the label in
// parentheses ("A2A caller (ci-bot)"); "" for the zero value. An unknown
// kind (from a newer Workrun) is shown as stored. The label is data:
// escape it before a terminal.
func (s StartedBy) In(lang string) string {
	if s.IsZero() {
		return ""
	}
	name := string(s.Kind)
	if id, ok := startedByNames[s.Kind]; ok {
		name = texts.In(lang, id)
	}
	if s.Label == "" {
		return name
	}
	return texts.In(lang, msgStartedByLabel, name, s.Label)
}

var startedByNames = map[StartedByKind]msgID{
	StartedByPerson:   msgStartedByPerson,
	StartedByA2A:      msgStartedByA2A,
	StartedByMCP:      msgStartedByMCP,
	StartedBySchedule: msgStartedBySchedule,
	StartedByWebhook:  msgStartedByWebhook,
}

// startedByKey carries a StartedBy to Engine.Start and Engine.StartFrom.
type startedByKey struct{}

// WithStartedBy returns a context under which Engine.Start and
// Engine.StartFrom record s as the new run's Run.StartedBy.
func WithStartedBy(ctx context.Context, s StartedBy) context.Context {
	return context.WithValue(ctx, startedByKey{}, s)
}

// StartedByFrom is the starter WithStartedBy put on ctx (zero if none).
func StartedByFrom(ctx context.Context) StartedBy {
	s, _ := ctx.Value(startedByKey{}).(StartedBy)
	return s
}
