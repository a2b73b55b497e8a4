package cli

import (
	"context"

	"workrun/artifacts"
	"workrun/credentials"
	"workrun/remotecall"
	"workrun/serve"
	"workrun/serve/push"
	"workrun/workrun"
)

// Services are the opened parts of one data directory. main.go builds them
// (the one place that knows the concrete store, artifact store and keyring);
// a command reaches the data directory only through these fields. A nil
// field is a part this build or test does not have: the command that needs
// it says so, the others do without.
type Services struct {
	DataDir   string
	Runs      workrun.RunStore
	Workflows workrun.WorkflowStore
	Artifacts workrun.ArtifactStore
	// Engine runs workflows; built with every registered node kind.
	Engine *workrun.Engine
	// RemoteCalls lists a run's saved remote call records (`show`).
	RemoteCalls RemoteCallLister
	// RunArtifacts lists the artifacts a run's nodes made (`show`), also
	// those no State field refers to any more.
	RunArtifacts RunArtifactLister
	// ArtifactGC removes artifact files no record refers to (`gc`).
	ArtifactGC ArtifactCollector
	// Credentials manages saved credentials (`credential`, and the
	// --credential option of the check commands).
	Credentials CredentialManager
	// OAuth signs in and keeps OAuth credentials (`credential login`,
	// credential_oauth.go); nil in a build without it.
	OAuth OAuthCredentials
	// Served reads the tasks of served workflows (`serve`); *store.Store.
	Served serve.Store
	// ServeTokens is the book of callers' bearer tokens (`serve token`).
	ServeTokens *serve.Tokens
	// Push is serve's receiver of A2A push notifications, the one the
	// Remote Agent kind asks for URLs (docs/triggers.md P1); nil in a
	// build without it.
	Push *push.Receiver
	// Close releases everything (flushes batched progress lines, closes SQLite).
	Close func() error
}

// RemoteCallLister reads the saved Remote Agent and Remote MCP Tool call
// records of a run (docs/remote-agent.md R8); *store.Store implements it.
type RemoteCallLister interface {
	RemoteCallsForRun(ctx context.Context, runID string) ([]workrun.RemoteCall, error)
}

// RunArtifactLister reads the artifacts a run's nodes made; *store.Store
// implements it.
type RunArtifactLister interface {
	ArtifactsForRun(ctx context.Context, runID string) ([]workrun.ArtifactInfo, error)
}

// ArtifactCollector is the artifact store's explicit clean-up: removing
// unreferenced files is a command, never automatic. *artifacts.Store
// implements it.
type ArtifactCollector interface {
	GC(ctx context.Context) (artifacts.GCResult, error)
}

// CredentialManager keeps credentials: metadata in the store, secrets in the
// OS keyring. *credentials.Manager implements it.
type CredentialManager interface {
	Set(ctx context.Context, c credentials.Credential, secret string) error
	Get(ctx context.Context, name string) (credentials.Credential, string, error)
	// Resolve is Get for a request to targetURL; it refuses a credential
	// bound to another origin.
	Resolve(ctx context.Context, name, targetURL string) (credentials.Credential, string, error)
	// RemoteCredential is the named credential in the remote layer's form
	// (an OAuth credential: its token transport, never the saved grant).
	RemoteCredential(ctx context.Context, name string) (remotecall.Credential, error)
	List(ctx context.Context) ([]credentials.Credential, error)
	Delete(ctx context.Context, name string) error
}
