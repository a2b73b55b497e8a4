package remotemcp

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"net/http"
	"slices"
	"time"

	"github.com/google/uuid"

	"workrun/mcp"
	"workrun/mcptool"
	"workrun/remotecall"
	"workrun/workrun"
)

// MCPClient is what a call needs from an MCP client; *mcp.Client
// implements it.
type MCPClient interface {
	Endpoint() string
	Connect(ctx context.Context) (*mcp.InitializeResult, error)
	Attach(session, version string)
	Session() string
	Version() string
	ListTools(ctx context.Context) ([]mcp.Tool, error)
	CallTool(ctx context.Context, p mcp.CallParams) (*mcp.CallResult, error)
	GetTask(ctx context.Context, taskID string) (*mcp.Task, error)
	TaskResult(ctx context.Context, taskID string) (*mcp.ToolResult, error)
	CancelTask(ctx context.Context, taskID string) (*mcp.Task, error)
	UpdateTask(ctx context.Context, taskID string, responses map[string]json.RawMessage) error
	Respond(ctx context.Context, id, result json.RawMessage, rpcErr *mcp.RPCError) error
	Listen(ctx context.Context, onAsk func(*mcp.InputRequiredError), onGiveUp func(error)) error
	WatchTask(ctx context.Context, taskID string) iter.Seq2[*mcp.Task, error]
	Close(ctx context.Context) error
}

var _ MCPClient = (*mcp.Client)(nil)

// CallStore keeps the call records; *store.Store implements it.
type CallStore = remotecall.Store

// CredentialSource resolves a saved credential by name, secret included.
type CredentialSource = remotecall.CredentialSource[remotecall.Credential]

// Deps are what the node kind works with.
type Deps struct {
	Calls CallStore
	// Credentials may be nil; a node naming a credential then fails clearly.
	Credentials CredentialSource
	// Dial returns a client for url over hc (the call's credential-bound
	// transport) with o (notifications, elicitation, the request
	// handler); nil means mcp.New.
	Dial func(url string, hc *http.Client, o mcp.Options) (MCPClient, error)
	// Base sends the requests under each call's transport; nil is the
	// remote layer's shared fan-out transport.
	Base http.RoundTripper
	// Follow bounds following a task after a break (backoff, how long an
	// unreachable server is retried); zero values are the shipped bounds.
	Follow remotecall.FollowPolicy
}

// Kind is the Remote MCP Tool node kind.
type Kind struct{ deps Deps }

// New returns the Remote MCP Tool node kind.
func New(d Deps) *Kind {
	if d.Dial == nil {
		d.Dial = func(url string, hc *http.Client, o mcp.Options) (MCPClient, error) {
			o.HTTPClient = hc
			return mcp.New(url, o)
		}
	}
	return &Kind{deps: d}
}

var _ workrun.Kind = (*Kind)(nil)

// Type implements workrun.Kind.
func (k *Kind) Type() string { return Type }

// Compile implements workrun.Kind.
func (k *Kind) Compile(spec workrun.NodeSpec, wf workrun.Workflow) (workrun.Step, error) {
	cfg, args, timeout, err := ParseConfig(spec.Config, wf)
	if err != nil {
		return nil, err
	}
	cleanupArgs, err := compileArguments("cleanup_arguments", cfg.CleanupArguments, wf)
	if err != nil {
		return nil, err
	}
	return &step{kind: k, cfg: cfg, args: args, cleanupArgs: cleanupArgs, timeout: timeout, types: wf.State}, nil
}

// callKey names the one logical call a node execution makes.
const callKey = "call"

var keyNamespace = uuid.NewSHA1(uuid.NameSpaceURL, []byte("https://workrun.invalid/remote-mcp/idempotency-key"))

// IdempotencyKey is the deterministic key of one node execution's call: the
// same run and node always give the same key, so a resumed call re-uses it
// and a server that honours Idempotency-Key starts one task for repeats.
func IdempotencyKey(runID, nodeID string) string { return AttemptKey(runID, nodeID, callKey) }

// AttemptKey is the idempotency key of the call with call key key
// (workrun.AttemptCallKey: each attempt of a node is a new call).
func AttemptKey(runID, nodeID, key string) string {
	return uuid.NewSHA1(keyNamespace, []byte(fmt.Sprintf("%d:%s|%d:%s|%d:%s", len(runID), runID, len(nodeID), nodeID, len(key), key))).String()
}

type step struct {
	kind *Kind
	cfg  Config
	args mcptool.Arguments
	// cleanupArgs are cleanup_tool's arguments (cleanup.go).
	cleanupArgs mcptool.Arguments
	timeout     time.Duration
	types       map[string]workrun.FieldType
}

func (s *step) Reads() []string {
	r := s.args.Reads()
	for _, f := range s.cfg.Answers.Reads() {
		if !slices.Contains(r, f) {
			r = append(r, f)
		}
	}
	for _, f := range mcptool.CleanupReads(s.cleanupArgs, s.outputs()) {
		if !slices.Contains(r, f) {
			r = append(r, f)
		}
	}
	return r
}

// RemoteCalls implements workrun.RemoteStep: only a known failure is
// retried, and deadline_seconds applies.
func (s *step) RemoteCalls() {}

// TakesDecisions implements workrun.DecidingStep: the person answers what
// the server asks (docs/remote-mcp.md M15).
func (s *step) TakesDecisions() {}

func (s *step) Writes() []string {
	var w []string
	for _, f := range []string{s.cfg.Output, s.cfg.OutputJSON, s.cfg.OutputFiles} {
		if f != "" {
			w = append(w, f)
		}
	}
	return w
}

// Handle kinds saved in the call record.
const (
	handleNone = ""     // no handle yet (or a plain call)
	handleTask = "task" // an MCP task
	handleJob  = "job"  // a legacy job id, followed with get_job_result
)

// link is what a call keeps in the record's ContextID besides the handle id
// (TaskID): workrun.MCPLink, which the window reads too.
type link = workrun.MCPLink

func parseLink(s string) link { return workrun.ParseMCPLink(s) }
