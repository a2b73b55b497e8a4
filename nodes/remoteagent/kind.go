package remoteagent

import (
	"context"
	"fmt"
	"iter"
	"net/http"
	"slices"
	"time"

	"github.com/google/uuid"

	"workrun/a2a"
	"workrun/remotecall"
	"workrun/workrun"
)

// AgentClient is what a call needs from an A2A client; *a2a.Client
// implements it.
type AgentClient interface {
	Card() *a2a.AgentCard
	Endpoint() string
	Streaming() bool
	SendMessage(ctx context.Context, req a2a.SendMessageRequest) (*a2a.SendResult, error)
	SendStreamingMessage(ctx context.Context, req a2a.SendMessageRequest) iter.Seq2[a2a.StreamEvent, error]
	SubscribeToTask(ctx context.Context, taskID string) iter.Seq2[a2a.StreamEvent, error]
	GetTask(ctx context.Context, taskID string) (*a2a.Task, error)
	CancelTask(ctx context.Context, taskID string) (*a2a.Task, error)
}

var _ AgentClient = (*a2a.Client)(nil)

// CallStore keeps the call records; *store.Store implements it (checked in
// the tests).
type CallStore = remotecall.Store

// CredentialSource resolves a saved credential by name, secret included
// (main.go passes credentials.RemoteSource).
type CredentialSource = remotecall.CredentialSource[remotecall.Credential]

// Deps are what the node kind works with.
type Deps struct {
	Calls CallStore
	// Credentials may be nil; a node naming a credential then fails clearly.
	Credentials CredentialSource
	// Connect discovers the agent at url through the call's clients; nil
	// means a2a.Discover.
	Connect func(ctx context.Context, url string, hc Clients) (AgentClient, error)
	// Transport sends the requests under each call's credential-bound
	// remotecall.Transport; nil means one shared by every call of this kind
	// (remotecall.FanOutTransport).
	Transport http.RoundTripper
	// MaxCallBytes bounds what one call reads from its agent over all its
	// requests; 0 means remotecall.DefaultMaxCallBytes.
	MaxCallBytes int64
	// Follow bounds following a task after a break (backoff, how long an
	// unreachable agent is retried, reconnects without progress); the zero
	// value is the shipped defaults (remotecall.Default*).
	Follow remotecall.FollowPolicy
	// MaxResultBytes caps the artifact bytes one call keeps; 0 means
	// DefaultMaxResultBytes.
	MaxResultBytes int64
	// Push hands out the push receiver's URL (serve with a public base
	// URL); nil, or no URL, means the node streams (docs/triggers.md P1).
	Push PushEndpoints
	// SpoolDir holds the temporary files of results too large for memory;
	// "" means os.TempDir().
	SpoolDir string
}

// Clients are the HTTP clients of one call: RPC carries the credential on
// the call's remotecall.Transport, Card (for the Agent Card) carries none.
type Clients struct{ RPC, Card *http.Client }

// Kind is the Remote Agent node kind.
type Kind struct{ deps Deps }

// base is the transport every call's remotecall.Transport sends through.
func (k *Kind) base() http.RoundTripper { return k.deps.Transport }

// New returns the Remote Agent node kind.
func New(d Deps) *Kind {
	if d.Transport == nil {
		d.Transport = remotecall.FanOutTransport()
	}
	if d.Connect == nil {
		d.Connect = func(ctx context.Context, url string, hc Clients) (AgentClient, error) {
			c, err := a2a.Discover(ctx, url, a2a.Options{HTTPClient: hc.RPC, CardHTTPClient: hc.Card})
			if err != nil {
				return nil, err
			}
			return c, nil
		}
	}
	return &Kind{deps: d}
}

var _ workrun.Kind = (*Kind)(nil)

// Type implements workrun.Kind.
func (k *Kind) Type() string { return Type }

// Compile implements workrun.Kind.
func (k *Kind) Compile(spec workrun.NodeSpec, wf workrun.Workflow) (workrun.Step, error) {
	cfg, timeout, err := ParseConfig(spec.Config, wf)
	if err != nil {
		return nil, err
	}
	return &step{kind: k, cfg: cfg, timeout: timeout, types: wf.State}, nil
}

// callKey names the one logical call a node execution makes.
const callKey = "send"

// messageNamespace roots the UUIDv5 messageIds of Workrun's remote calls.
var messageNamespace = uuid.NewSHA1(uuid.NameSpaceURL, []byte("https://workrun.invalid/remote-agent/message"))

// MessageID is the deterministic messageId of one logical call: the same run,
// node and call key always give the same id, so a resumed call re-uses it and
// an agent that deduplicates by messageId can recognise a repeat (docs/remote-agent.md R5, R16).
func MessageID(runID, nodeID, key string) string {
	return uuid.NewSHA1(messageNamespace, []byte(fmt.Sprintf("%d:%s|%d:%s|%d:%s", len(runID), runID, len(nodeID), nodeID, len(key), key))).String()
}

type step struct {
	kind    *Kind
	cfg     Config
	timeout time.Duration
	types   map[string]workrun.FieldType
}

// RemoteCalls implements workrun.RemoteStep: only a known failure is
// retried, and deadline_seconds applies.
func (s *step) RemoteCalls() {}

func (s *step) Reads() []string {
	r := append(append([]string{}, s.cfg.Inputs...), s.cfg.Attachments...)
	for _, f := range append(workrun.TemplateFields(s.cfg.Message), s.cfg.Answers.Reads()...) {
		if !slices.Contains(r, f) {
			r = append(r, f)
		}
	}
	return r
}

func (s *step) Writes() []string {
	var w []string
	if s.cfg.Output != "" {
		w = append(w, s.cfg.Output)
	}
	if s.cfg.OutputFiles != "" {
		w = append(w, s.cfg.OutputFiles)
	}
	return w
}
