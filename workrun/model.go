package workrun

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"time"
)

// FieldType is the declared type of a State field (docs/product.md W2).
type FieldType string

const (
	FieldText    FieldType = "text"
	FieldNumber  FieldType = "number"
	FieldBoolean FieldType = "boolean"
	FieldJSON    FieldType = "json"
	FieldFile    FieldType = "file"  // value: an artifact id (string)
	FieldFiles   FieldType = "files" // value: a list of artifact ids ([]any of string)
)

// Workflow is the file format documented in docs/workflow-format.md.
type Workflow struct {
	Name  string               `json:"name"`
	State map[string]FieldType `json:"state"`
	Nodes []NodeSpec           `json:"nodes"`
	Edges []Edge               `json:"edges"`
	// Publish, when set, makes the workflow callable as an agent by
	// `workrun serve` (docs/serve.md; docs/workflow-format.md#publish).
	Publish *Publish `json:"publish,omitempty"`
}

// NodeSpec is one node of a workflow as saved in its file.
type NodeSpec struct {
	ID       string          `json:"id"`
	Type     string          `json:"type"`
	Title    string          `json:"title,omitempty"`
	Config   json.RawMessage `json:"config,omitempty"`
	Position *Position       `json:"position,omitempty"`

	// Failure handling (docs/workflow-format.md#failure-handling); all
	// optional, and a file without them runs as before.
	//
	// Retry runs the node again after a failure (a remote kind only after
	// a known failure, see ErrKnownFailure); nil: one attempt.
	Retry *RetryPolicy `json:"retry,omitempty"`
	// OnError says what a failure that is not retried does: fail the run
	// (OnErrorFail, the default), go on (OnErrorContinue) or follow the
	// node's error edges (OnErrorBranch).
	OnError OnError `json:"on_error,omitempty"`
	// ErrorField is a text field that receives the failure's reason when
	// OnError handles it.
	ErrorField string `json:"error_field,omitempty"`
	// DeadlineSeconds bounds a remote node's task from the moment its task
	// id is saved (RemoteStep kinds only); 0: no deadline.
	DeadlineSeconds int `json:"deadline_seconds,omitempty"`
}

// Position places a node on the canvas.
type Position struct {
	X float32 `json:"x"`
	Y float32 `json:"y"`
}

// Edge joins two nodes. When is "true" or "false" on the edges leaving a
// condition node. Port is PortError on an edge from a node's error port
// (followed only when the node's failure is handled by OnErrorBranch).
type Edge struct {
	From string `json:"from"`
	To   string `json:"to"`
	When string `json:"when,omitempty"`
	Port string `json:"port,omitempty"`
}

// Values holds State field values with JSON-compatible Go types:
// text string, number float64, boolean bool, json any, file string (artifact id),
// files []any of string (artifact ids).
type Values map[string]any

// RunStatus is the status of a whole run (docs/product.md W6).
type RunStatus string

const (
	RunRunning     RunStatus = "running"
	RunStopping    RunStatus = "stopping" // Stop pressed; abort hooks still running
	RunSucceeded   RunStatus = "succeeded"
	RunFailed      RunStatus = "failed"
	RunStopped     RunStatus = "stopped"
	RunInterrupted RunStatus = "interrupted"
)

// Terminal reports whether a run in this status can never change again (docs/remote-agent.md R12).
func (s RunStatus) Terminal() bool {
	return s == RunSucceeded || s == RunFailed || s == RunStopped
}

// Interruption says why a run is interrupted.
type Interruption string

const (
	InterruptedByExit   Interruption = "exit"   // the application exited mid-run; resumable (docs/remote-agent.md R12, R13)
	InterruptedByRemote Interruption = "remote" // a remote agent asked for input or authentication (docs/remote-agent.md R8)
	InterruptedByHuman  Interruption = "human"  // waiting for Human Review or Ask Human
	// InterruptedByUnreachable: a remote server stopped answering (or kept
	// misbehaving) about a task it accepted; resumable once it is back, and
	// nothing was cancelled (docs/remote-agent.md R7).
	InterruptedByUnreachable Interruption = "unreachable"
	// InterruptedBySignIn: a remote task was accepted, but its OAuth
	// credential needs the person to sign in again before it can be
	// followed; resumable after signing in, nothing was cancelled
	// (docs/oauth.md O9).
	InterruptedBySignIn Interruption = "sign_in"
	// InterruptedByPush: a remote task was handed to push notifications
	// (docs/triggers.md P1–P6): the run waits holding no connection and
	// resumes when the push arrives, or at the next start, where one
	// GetTask reads the task.
	InterruptedByPush Interruption = "push"
)

// NodeStatus is the status of one node within a run.
type NodeStatus string

const (
	NodePending     NodeStatus = "pending"
	NodeRunning     NodeStatus = "running"
	NodeSucceeded   NodeStatus = "succeeded"
	NodeFailed      NodeStatus = "failed"
	NodeSkipped     NodeStatus = "skipped"
	NodeInterrupted NodeStatus = "interrupted"
	NodeStopped     NodeStatus = "stopped" // was running when the run failed or stopped
	// NodeHandled: the node failed and its on_error (continue or branch)
	// handled the failure, so the run went on; Error keeps the reason.
	NodeHandled NodeStatus = "handled"
)

// Finished reports whether a node in this status is done for the nodes
// after it and for resume: succeeded, skipped, or failed and handled.
func (s NodeStatus) Finished() bool {
	return s == NodeSucceeded || s == NodeSkipped || s == NodeHandled
}

// Run is the durable record of one execution of a workflow.
type Run struct {
	ID           string       `json:"id"`
	WorkflowID   string       `json:"workflow_id,omitempty"`
	WorkflowName string       `json:"workflow_name"`
	Workflow     Workflow     `json:"workflow"` // snapshot of the revision that ran
	Inputs       Values       `json:"inputs"`
	State        Values       `json:"state,omitempty"` // State after the nodes that finished
	Status       RunStatus    `json:"status"`
	Interruption Interruption `json:"interruption,omitempty"`
	Reason       string       `json:"reason,omitempty"`      // failure or interruption reason
	FailedNode   string       `json:"failed_node,omitempty"` // the node whose failure ended the run
	// PinnedFrom is the earlier run whose outputs this run took for the
	// nodes it did not run (Engine.StartFrom); empty for a whole run.
	PinnedFrom string `json:"pinned_from,omitempty"`
	// StartedBy is who or what started the run (WithStartedBy); zero
	// when not recorded.
	StartedBy StartedBy `json:"started_by,omitzero"`
	CreatedAt time.Time `json:"created_at"`
	EndedAt   time.Time `json:"ended_at,omitzero"`
}

// NodeRun is the durable record of one node within a run.
type NodeRun struct {
	RunID   string     `json:"run_id"`
	NodeID  string     `json:"node_id"`
	Type    string     `json:"type"`
	Status  NodeStatus `json:"status"`
	Inputs  Values     `json:"inputs,omitempty"`
	Outputs Values     `json:"outputs,omitempty"`
	Error   string     `json:"error,omitempty"`
	// Branch is the branch a condition node picked (see NodeContext.SetBranch);
	// the store keeps it, so resume follows it without running the node
	// again. A finished branching node saved without one (a record from
	// before store schema 3) is re-entered on resume.
	Branch    string    `json:"branch,omitempty"`
	StartedAt time.Time `json:"started_at,omitzero"`
	EndedAt   time.Time `json:"ended_at,omitzero"`
	// Attempt is the attempt this record is of (1, 2, …; 0 in a record
	// from before attempts, meaning 1). A retried node keeps one record:
	// each new attempt is saved before it starts, with LastError the
	// reason the one before it failed.
	Attempt   int    `json:"attempt,omitempty"`
	LastError string `json:"last_error,omitempty"`
	// DeadlineAt is when the node's deadline_seconds pass, saved when its
	// remote task id was saved (StartDeadline); a resumed node keeps it.
	DeadlineAt time.Time `json:"deadline_at,omitzero"`
	// PinnedFrom says the node was not run: its record was taken from
	// that earlier run's, or is PinnedByHand (values typed by a person).
	PinnedFrom string `json:"pinned_from,omitempty"`
	// Question is what the node's remote asked, while the node waits for
	// the person's answer (interrupted, InterruptedByHuman); nil otherwise
	// (docs/engine.md "Remote questions").
	Question *Question `json:"question,omitempty"`
}

// PinnedByHand is NodeRun.PinnedFrom of a node whose outputs a person typed.
const PinnedByHand = "typed"

// AttemptNo is the record's attempt, 1 for a record from before attempts.
func (n NodeRun) AttemptNo() int { return max(n.Attempt, 1) }

// Message is one time-stamped line in a node's messages (docs/product.md W5).
type Message struct {
	RunID  string    `json:"run_id"`
	NodeID string    `json:"node_id"`
	Seq    int64     `json:"seq"` // assigned by the store, increasing within a run
	Time   time.Time `json:"time"`
	// Key and Args are the message before rendering (see Text); Text is
	// the rendered wording of a line stored before keys existed, or of a
	// line with no key.
	Key  string   `json:"key,omitempty"`
	Args []string `json:"args,omitempty"`
	Text string   `json:"text"`
	// Repeat counts the earlier progress lines of the same node and key
	// that this one replaced: a store may coalesce a burst of progress
	// lines into the newest, since nobody can read them one by one. In
	// then ends with "(+N updates)".
	Repeat int64 `json:"repeat,omitempty"`
}

// In renders the message in lang ("en" or "zh").
func (m Message) In(lang string) string {
	var s string
	switch {
	case m.Key != "":
		s = Text{Key: m.Key, Args: m.Args}.In(lang)
	case m.Text == "" && len(m.Args) > 0:
		s = Text{Args: m.Args}.In(lang)
	default:
		s = m.Text
	}
	switch {
	case m.Repeat == 1:
		s += " " + messageTexts.In(lang, msgRepeatedOne)
	case m.Repeat > 1:
		s += " " + messageTexts.In(lang, msgRepeated, groupDigits(m.Repeat))
	}
	return s
}

const (
	msgRepeated    msgID = "workrun.progress_repeated"
	msgRepeatedOne msgID = "workrun.progress_repeated_one"
)

var messageTexts = NewCatalog(map[msgID][2]string{
	msgRepeated:    {"(+%s updates)", "（另有 %s 条更新）"},
	msgRepeatedOne: {"(+1 update)", "（另有 1 条更新）"},
})

// groupDigits writes n with thousands separators: 1234567 → "1,234,567".
func groupDigits(n int64) string {
	s := strconv.FormatInt(n, 10)
	if n < 0 {
		return s
	}
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// Decision is a person's answer to a Human Review or Ask Human node, or to
// a remote's question (Round > 0; docs/engine.md "Remote questions").
type Decision struct {
	RunID    string    `json:"run_id"`
	NodeID   string    `json:"node_id"`
	Approved bool      `json:"approved"`       // human_review
	Text     string    `json:"text,omitempty"` // ask_human answer, a review comment, or a text answer
	Time     time.Time `json:"time"`
	// Round is the round of the Question answered (0 for Human Review and
	// Ask Human; Engine.Decide fills in the open round when it is 0).
	Round int `json:"round,omitempty"`
	// Action is accept (the default), decline or cancel.
	Action AnswerAction `json:"action,omitempty"`
	// Content holds a form answer's values: a JSON object.
	Content json.RawMessage `json:"content,omitempty"`
	// Secret: the person marked the whole answer secret; Text and Content
	// are then never saved (nor are a form's secret fields, ever).
	Secret bool `json:"secret,omitempty"`
	// Withheld is set on a saved answer whose secret values were not
	// saved: only the process that took it holds them (AnswerTo).
	Withheld bool `json:"withheld,omitempty"`
}

// RunFilter selects runs for the run records list; zero values mean "any".
type RunFilter struct {
	WorkflowID string
	Status     RunStatus
	Limit      int    // page size; 0 means 50
	Before     string // run id cursor: runs created before this one (paging)
	// Text, when set, keeps the runs whose workflow name, id, status,
	// failure reason or failed node contains it (case-insensitive), or
	// whose status is one of TextStatuses (the statuses whose name in the
	// person's language Text matches).
	Text         string
	TextStatuses []RunStatus
}

// Matches reports whether r's own fields contain f.Text (see RunFilter.Text).
func (f RunFilter) Matches(r Run) bool {
	if f.Text == "" || slices.Contains(f.TextStatuses, r.Status) {
		return true
	}
	q := strings.ToLower(f.Text)
	for _, s := range []string{r.WorkflowName, r.ID, string(r.Status), r.Reason, r.FailedNode} {
		if strings.Contains(strings.ToLower(s), q) {
			return true
		}
	}
	return false
}

// WorkflowRecord is a saved workflow with its latest revision.
type WorkflowRecord struct {
	ID        string    `json:"id"`
	Revision  int       `json:"revision"`
	Workflow  Workflow  `json:"workflow"`
	UpdatedAt time.Time `json:"updated_at"`
}

// ArtifactInfo describes a file in the artifact store (docs/product.md W3).
type ArtifactInfo struct {
	ID        string    `json:"id"`         // UUID: the local reference held in file fields
	Name      string    `json:"name"`       // cleaned display/file name
	Original  string    `json:"original"`   // name as received, for display only
	MediaType string    `json:"media_type"` // checked against the bytes
	Size      int64     `json:"size"`
	SHA256    string    `json:"sha256"`           // hex digest; also the blob's stored name
	RunID     string    `json:"run_id,omitempty"` // who made it: empty for imports
	NodeID    string    `json:"node_id,omitempty"`
	CreatedAt time.Time `json:"created_at"`
}

// RemoteCall is the durable record of one call made by a Remote Agent node
// (docs/remote-agent.md R5, R6, R9, R13). A node may make several calls; CallKey tells them
// apart within (RunID, NodeID). Every field is saved as given: the store does
// not interpret RemoteState or CancelOutcome, it only keeps them.
//
// Ordering the caller relies on: SaveRemoteCall returns only after the row is
// committed, so a caller that saves MessageID and then sends the request, or
// saves TaskID and then handles the next event, can always find the saved
// value after a crash.
type RemoteCall struct {
	RunID    string
	NodeID   string
	CallKey  string
	AgentURL string
	Origin   string // scheme://host:port of AgentURL
	// AgentName is the agent's card name as the call first saw it (secrets
	// redacted), for people; "" until a card named it.
	AgentName string
	// MessageID is the A2A messageId of the submitted message; saved before the
	// request is sent so a resume never submits the same business request twice.
	MessageID string
	TaskID    string // empty until the agent returns a task
	ContextID string
	// RemoteState is the last known A2A task state (e.g. "TASK_STATE_WORKING").
	RemoteState string
	StatusText  string          // last status message text shown to the person
	Result      json.RawMessage // saved successful result (docs/remote-agent.md R6); nil if none
	// CancelOutcome and CancelText record the best-effort cancel (docs/remote-agent.md R9–R11):
	// what was sent and what the agent answered. Shown, never acted on.
	CancelOutcome string
	CancelText    string
	CreatedAt     time.Time // set by the store on first save when zero
	UpdatedAt     time.Time // set by the store on every save
	// Ended is true once the remote task reached a terminal state locally known
	// (or the call is otherwise finished); R9 sends no cancel for ended calls.
	Ended bool
}

// IsSide reports whether the record is a node kind's bookkeeping beside a
// call (its call key has a "/": remotecall.SideKey) rather than a remote
// task: views that list tasks leave it out.
func (c RemoteCall) IsSide() bool { return strings.Contains(c.CallKey, "/") }

// CredentialMeta is what is kept about a credential outside the OS keyring
// (docs/product.md W8): never the secret. Package credentials reads and
// writes it through its Metadata interface; package store keeps it.
type CredentialMeta struct {
	Name      string
	Kind      string // "bearer" or "apikey"
	Origin    string // normalized scheme://host:port the credential is bound to
	Header    string // header name for an API key; empty for bearer
	CreatedAt time.Time
	UpdatedAt time.Time
}
