package ui

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"

	"workrun/ui/credentials"
	"workrun/ui/inspector"
	"workrun/workrun"
)

// ErrNoKeyring is what a CredentialManager returns (wrapped) when the OS has
// no keyring to keep secrets in (docs/product.md W8). The dialog says so plainly.
var ErrNoKeyring = errors.New("no OS keyring available")

// ErrNeedsCredential is what CheckAgent returns (wrapped) when the agent
// answered that it wants a credential and none was sent; ErrCredentialRefused
// when it refused the one that was. The inspector then says so in words and
// offers to add a credential.
var (
	ErrNeedsCredential   = errors.New("the agent wants a credential")
	ErrCredentialRefused = errors.New("the agent refused the credential")
)

// Deps is everything the window needs from the rest of the program. Only
// Engine-free browsing needs nothing: every field may be nil, and the window
// then disables what depends on it (the smoke test opens it that way).
type Deps struct {
	Engine      Engine
	Runs        workrun.RunStore
	Workflows   workrun.WorkflowStore
	Artifacts   workrun.ArtifactStore
	Credentials CredentialManager
	// RemoteCalls reads the saved remote task records of a run (docs/remote-agent.md R8).
	RemoteCalls func(ctx context.Context, runID string) ([]workrun.RemoteCall, error)
	// CheckAgent is the connection test (docs/remote-agent.md R3.4): discovery and authentication,
	// never a business task.
	CheckAgent func(ctx context.Context, url, credential string) (AgentReport, error)
	// CheckMCP is the Remote MCP Tool's connection test: initialize and
	// tools/list with the chosen credential ("" for none), never a tool call.
	CheckMCP func(ctx context.Context, url, credential string) ([]MCPTool, error)
	// CheckToolApp is the Tool App's connection test: start the program of
	// a node's config (its command, env, cwd), list its tools, stop it.
	CheckToolApp func(ctx context.Context, config json.RawMessage) ([]MCPTool, error)
	// CheckOrigin normalises a credential's origin to scheme://host:port or
	// refuses it, by the remote layer's one origin rule (main.go passes
	// remotecall.CheckCredentialOrigin); its errors may be
	// *workrun.TextError, shown in the window's language.
	CheckOrigin func(raw string) (string, error)
	// OAuth signs in to remote servers (ui/signin.go); nil disables Sign in.
	OAuth OAuth
	// StartDemoAgent starts the built-in demo agent on loopback.
	StartDemoAgent func() (url string, stop func(), err error)
	// StartDemoMCP starts the built-in demo MCP server on loopback
	// (Help → Sample: Remote MCP demo); url is its MCP endpoint.
	StartDemoMCP func() (url string, stop func(), err error)
	// AgentURL is the URL `workrun serve --addr addr` gives the agent
	// published under name (docs/serve.md); nil shows none.
	AgentURL func(addr, name string) (string, error)
	// ServeStatus reads the agent card at url: the card's name when a
	// server answers there, else why not (the Publish dialog's "Server").
	ServeStatus func(ctx context.Context, url string) (cardName string, err error)
	// ServedCaller names the caller whose task started runID (a serve
	// token's label, "" for a server without tokens); ok is false for a
	// run a person started (docs/serve.md S1, S9).
	ServedCaller func(ctx context.Context, runID string) (caller string, ok bool, err error)
	// ServeHere serves the saved published workflows from this process at
	// addr while the window is open — A2A agents, the MCP endpoint and the
	// webhooks, as `workrun serve --addr addr` would (docs/serve.md
	// "Serving from the window") — replacing what it served before; "" stops.
	// It returns the server's lines (`a2a URL`, `mcp URL`, `webhook URL`);
	// none while nothing is published. nil: the window cannot serve.
	ServeHere func(ctx context.Context, addr string) (lines []string, err error)
	// Fires lists a workflow's last schedule fires, newest first, with the
	// run each started (the start node's Triggers section, triggers.go);
	// nil shows none.
	Fires func(ctx context.Context, workflowID string, wf workrun.Workflow, limit int) ([]FiredRun, error)
	// Exit ends the process once the window has saved its work and let go
	// of the engine (exit.go); it does not return. nil quits the Fyne app
	// instead (tests).
	Exit func()
	// Templates holds the shipped example workflows (*.json) that File →
	// New from template offers; nil offers none.
	Templates fs.FS
	// Lang is the window's language when the person has chosen none in
	// Settings: "en" or "zh-Hans" (main passes the system's; "" is English).
	// The window holds it as its localizer (docs/conventions.md §9).
	Lang string
	// About is what Help → About shows, and the keyring check at start.
	About AboutInfo
	// Kinds describe the node kinds Engine runs (workrun.Describe): the
	// palette, new nodes and the inspector's forms are built from them.
	Kinds []workrun.KindInfo
}

// Engine is what the window asks of the workflow engine; *workrun.Engine
// implements it. Tests use a function-field fake.
type Engine interface {
	// Validate returns the problems that keep a workflow from running.
	Validate(wf workrun.Workflow) []Problem
	// Fields returns what each node of wf reads and writes, as its kind
	// compiles it (the Run dialog asks for the fields no node provides).
	Fields(wf workrun.Workflow) map[string]workrun.NodeFields
	// Start creates a run and returns its id at once; the run goes on in the
	// background and reports through Subscribe.
	Start(ctx context.Context, workflowID string, wf workrun.Workflow, inputs workrun.Values) (string, error)
	// Stop asks a run to stop; the run is "stopping" until its abort hooks end.
	Stop(ctx context.Context, runID string) error
	// Resume re-enters a run interrupted by exit or waiting for a person.
	Resume(ctx context.Context, runID string) error
	// Subscribe delivers the events of every run until cancel is called.
	// The channel is closed after cancel.
	Subscribe() (events <-chan Event, cancel func())
	// Decide records a Human Review or Ask Human decision and resumes the run.
	Decide(ctx context.Context, d workrun.Decision) error
}

// Problem is one validation problem, located on a node or an edge; the
// engine's own type, so *workrun.Engine satisfies Engine as it is.
type Problem = workrun.Problem

// Event is one change of a run as the engine published it, after the store
// committed it. Exactly one of Run, Node and Message is set.
type Event = workrun.Event

// AgentReport is the result of a Remote Agent connection test; MCPTool a
// tool an MCP connection test listed; FiredRun a schedule's fire. They are
// the inspector's own types (ui/inspector), which shows them.
type (
	AgentReport = inspector.AgentReport
	MCPTool     = inspector.MCPTool
	FiredRun    = inspector.FiredRun
)

// Credential names a secret kept in the OS keyring; it never holds the
// secret. It is the credentials view's own type (ui/credentials).
type Credential = credentials.Credential

// CredentialManager lists and changes credentials. Set stores the secret only
// in the OS keyring; it returns an error wrapping ErrNoKeyring when there is none.
type CredentialManager interface {
	List(ctx context.Context) ([]Credential, error)
	Set(ctx context.Context, c Credential, secret string) error
	Delete(ctx context.Context, name string) error
}

var _ Engine = (*workrun.Engine)(nil)
