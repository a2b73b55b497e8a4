package workrun

// The timeout_seconds of a remote node (Remote Agent, Remote MCP Tool) bounds
// each request to the remote service, not the remote task
// (docs/remote-agent.md R3.5). The node kinds refuse other values when they
// compile and the editor marks them as they are typed; both read these.
const (
	RemoteTimeoutDefaultSeconds = 120
	RemoteTimeoutMinSeconds     = 1
	RemoteTimeoutMaxSeconds     = 600
)
