package remotemcp

import (
	"context"
	"errors"
	"time"

	"workrun/mcp"
	"workrun/remotecall"
)

// ToolInfo describes one tool for the connection test.
type ToolInfo struct {
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	// TaskSupport is the tool's execution.taskSupport ("forbidden" when
	// absent) on a legacy revision; on 2026-07-28, where the server
	// decides per call whether a tools/call becomes a task, it is the
	// tool's hint when it gives one, else TaskPerCall.
	TaskSupport string `json:"task_support"`
	InputSchema any    `json:"input_schema,omitempty"`
}

// Report is the outcome of a connection test.
type Report struct {
	Endpoint string `json:"endpoint"`
	Server   string `json:"server"`
	Version  string `json:"protocol_version"`
	Session  bool   `json:"session"`
	// SupportedVersions is what server/discover listed (2026-07-28 only).
	SupportedVersions []string   `json:"supported_versions,omitempty"`
	TaskForm          string     `json:"task_form"` // "", "2025-11-25" or "extension"
	CredentialUsed    bool       `json:"credential_used"`
	Tools             []ToolInfo `json:"tools"`
}

// TaskPerCall is ToolInfo.TaskSupport on 2026-07-28, where a tool declares
// no task support and the server decides per call (docs/remote-mcp.md M12).
const TaskPerCall = "per_call"

// connectOptions are the identity and capabilities every connection
// declares — the run's and the connection test's alike, so the tools the
// test lists are the tools a run can call (docs/remote-mcp.md M12).
func connectOptions() mcp.Options {
	return mcp.Options{
		ClientInfo:  mcp.Implementation{Name: "workrun", Version: "1"},
		Elicitation: mcp.ElicitationModes{Form: true, URL: true},
	}
}

// ErrCredentialRefused: the server answered 401/403 with a credential.
var ErrCredentialRefused = errors.New("the server refused the credential")

// ErrCredentialRequired: the server answered 401/403 without one.
var ErrCredentialRequired = errors.New("the server requires a credential")

// Check is the connection test: Connect (server/discover on 2026-07-28, or
// initialize for a legacy server), tools/list, then DELETE of a legacy
// session. It calls no tool.
func Check(ctx context.Context, rawURL string, cred *remotecall.Credential) (Report, error) {
	if err := checkURL(rawURL, cred != nil); err != nil {
		return Report{}, err
	}
	b, err := remotecall.BindCredential(cred, rawURL)
	if err == nil && b.Origin.IsZero() {
		b.Origin, err = remotecall.ParseOrigin(rawURL)
	}
	if err != nil {
		return Report{}, err
	}
	red := remotecall.NewRedactor()
	b.Redactor = red
	tr, err := remotecall.NewTransport(b)
	if err != nil {
		return Report{}, err
	}
	o := connectOptions()
	o.HTTPClient = tr.Client()
	c, err := mcp.New(rawURL, o)
	if err != nil {
		return Report{}, err
	}
	rep, err := check(ctx, c, cred != nil)
	rep.Server = red.String(rep.Server)
	for i, t := range rep.Tools {
		rep.Tools[i].Name, rep.Tools[i].Title, rep.Tools[i].Description = red.String(t.Name), red.String(t.Title), red.String(t.Description)
	}
	return rep, red.Err(err)
}

func check(ctx context.Context, c MCPClient, withCred bool) (Report, error) {
	rep := Report{Endpoint: c.Endpoint(), CredentialUsed: withCred}
	init, err := c.Connect(ctx)
	if err != nil {
		if errors.Is(err, mcp.ErrUnauthorized) {
			if withCred {
				return rep, reason([]error{ErrCredentialRefused}, msgCredRefused, why(err))
			}
			return rep, reason([]error{ErrCredentialRequired}, msgCredRequired, why(err))
		}
		return rep, reason([]error{err}, msgInitFailed, rep.Endpoint, why(err))
	}
	defer func() {
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		c.Close(cctx) //nolint:errcheck // best effort: the test is over
	}()
	rep.Server = init.ServerInfo.Name
	if init.ServerInfo.Version != "" {
		rep.Server += " " + init.ServerInfo.Version
	}
	rep.Version, rep.Session, rep.TaskForm = c.Version(), c.Session() != "", init.Capabilities.TaskFormFor(c.Version())
	rep.SupportedVersions = init.SupportedVersions
	tools, err := c.ListTools(ctx)
	if err != nil {
		return rep, reason([]error{err}, msgListToolsFailed, rep.Endpoint, why(err))
	}
	for _, t := range tools {
		ti := ToolInfo{Name: t.Name, Title: t.Title, Description: t.Description, TaskSupport: t.TaskSupport()}
		if mcp.IsModern(rep.Version) && (t.Execution == nil || t.Execution.TaskSupport == "") {
			ti.TaskSupport = TaskPerCall // no hint: not "forbidden"
		}
		if len(t.InputSchema) > 0 {
			ti.InputSchema = t.InputSchema
		}
		rep.Tools = append(rep.Tools, ti)
	}
	return rep, nil
}

// CheckNamed is Check with a saved credential chosen by name ("" for none),
// as the inspector's Test connection offers it.
func CheckNamed(ctx context.Context, rawURL, credName string, creds CredentialSource) (Report, error) {
	cred, err := remotecall.NamedCredential(ctx, creds, credName)
	if err != nil {
		return Report{}, err
	}
	return Check(ctx, rawURL, cred)
}
