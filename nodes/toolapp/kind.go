package toolapp

import (
	"context"
	"fmt"
	"strings"

	"github.com/google/uuid"

	"workrun/mcp"
	"workrun/mcptool"
	"workrun/remotecall"
	"workrun/workrun"
)

// MCPClient is what a call needs of an MCP client over the program's
// standard streams; *mcp.Client implements it.
type MCPClient interface {
	Connect(ctx context.Context) (*mcp.InitializeResult, error)
	Version() string
	ListTools(ctx context.Context) ([]mcp.Tool, error)
	CallTool(ctx context.Context, p mcp.CallParams) (*mcp.CallResult, error)
	GetTask(ctx context.Context, taskID string) (*mcp.Task, error)
	TaskResult(ctx context.Context, taskID string) (*mcp.ToolResult, error)
}

var _ MCPClient = (*mcp.Client)(nil)

// CredentialSource resolves a saved credential by name, secret included
// (the secret_env values); its origin is not used.
type CredentialSource = remotecall.CredentialSource[remotecall.Credential]

// Deps are what the node kind works with.
type Deps struct {
	// Calls keeps the call and cleanup records; *store.Store implements it.
	Calls remotecall.Store
	// Credentials may be nil; a node with secret_env then fails clearly.
	Credentials CredentialSource
}

// Kind is the Tool App node kind.
type Kind struct{ deps Deps }

// New returns the Tool App node kind.
func New(d Deps) *Kind { return &Kind{deps: d} }

var (
	_ workrun.Kind          = (*Kind)(nil)
	_ workrun.RearmableStep = (*step)(nil)
)

// Type implements workrun.Kind.
func (k *Kind) Type() string { return Type }

// Compile implements workrun.Kind.
func (k *Kind) Compile(spec workrun.NodeSpec, wf workrun.Workflow) (workrun.Step, error) {
	c, err := parseConfig(spec, wf)
	if err != nil {
		return nil, err
	}
	return &step{kind: k, compiled: c, types: wf.State}, nil
}

type step struct {
	kind *Kind
	compiled
	types map[string]workrun.FieldType
}

func (s *step) Reads() []string  { return s.reads }
func (s *step) Writes() []string { return s.outputs().Writes() }

func (s *step) outputs() mcptool.Outputs {
	return mcptool.Outputs{Output: s.cfg.Output, OutputJSON: s.cfg.OutputJSON, OutputFiles: s.cfg.OutputFiles}
}

// callKey names the one logical call a node execution makes.
const callKey = "call"

var keyNamespace = uuid.NewSHA1(uuid.NameSpaceURL, []byte("https://workrun.invalid/tool-app/idempotency-key"))

// idempotencyKey is the call's key: the same run and node give the same key.
func idempotencyKey(runID, nodeID string) string {
	return uuid.NewSHA1(keyNamespace, []byte(fmt.Sprintf("%d:%s|%d:%s", len(runID), runID, len(nodeID), nodeID))).String()
}

// link is what the call record's ContextID says about the call, readable:
// "program=…; tool=…; idempotent=…; form=…".
type link struct {
	Program, Tool, Form string
	Idempotent          bool
}

func (l link) String() string {
	return fmt.Sprintf("program=%s; tool=%s; idempotent=%t; form=%s", l.Program, l.Tool, l.Idempotent, l.Form)
}

func parseLink(s string) link {
	var l link
	for _, kv := range strings.Split(s, ";") {
		k, v, _ := strings.Cut(strings.TrimSpace(kv), "=")
		switch k {
		case "program":
			l.Program = v
		case "tool":
			l.Tool = v
		case "idempotent":
			l.Idempotent = v == "true"
		case "form":
			l.Form = v
		}
	}
	return l
}
