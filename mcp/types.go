package mcp

import (
	"encoding/json"
	"io"
	"strings"
)

// Protocol versions this client speaks, newest first. 2026-07-28 is modern
// (stateless: version, capabilities and client info on every request); the
// others are legacy (an initialize handshake and a session). Tasks need
// 2025-11-25 or later; older versions still call plain tools.
const (
	Version20260728 = "2026-07-28"
	Version20251125 = "2025-11-25"
	Version20250618 = "2025-06-18"
	Version20250326 = "2025-03-26"
)

// SupportedVersions lists every version this client speaks, newest first.
var SupportedVersions = []string{Version20260728, Version20251125, Version20250618, Version20250326}

// ModernVersions are the stateless revisions, newest first; LegacyVersions
// the initialize-based ones. Initialize never offers a modern version.
var (
	ModernVersions = []string{Version20260728}
	LegacyVersions = []string{Version20251125, Version20250618, Version20250326}
)

// IsModern reports whether v is a stateless revision (2026-07-28 or later).
func IsModern(v string) bool { return v >= Version20260728 }

// TasksExtension is the 2026-07-28 Tasks extension's identifier.
const TasksExtension = "io.modelcontextprotocol/tasks"

// Meta keys this client writes.
const (
	// MetaProtocolVersion and MetaClientInfo go on every 2026-07-28
	// request, with MetaClientCapabilities.
	MetaProtocolVersion = "io.modelcontextprotocol/protocolVersion"
	MetaClientInfo      = "io.modelcontextprotocol/clientInfo"
	// MetaClientCapabilities carries per-request client capabilities
	// (2026-07-28), where the Tasks extension is declared.
	MetaClientCapabilities = "io.modelcontextprotocol/clientCapabilities"
	// MetaIdempotencyKey carries the call's idempotency key, like the
	// Idempotency-Key header, for servers that read only the body.
	MetaIdempotencyKey = "io.workrun/idempotencyKey"
)

// Task statuses.
const (
	StatusWorking       = "working"
	StatusInputRequired = "input_required"
	StatusCompleted     = "completed"
	StatusFailed        = "failed"
	StatusCancelled     = "cancelled"
)

// Terminal reports whether a task status can never change again.
func Terminal(status string) bool {
	return status == StatusCompleted || status == StatusFailed || status == StatusCancelled
}

// Tool task support (execution.taskSupport); the third value, "optional",
// needs no name: only these two change how a tool is called.
const (
	TaskForbidden = "forbidden"
	TaskRequired  = "required"
)

// Implementation names a client or server.
type Implementation struct {
	Name    string `json:"name"`
	Title   string `json:"title,omitempty"`
	Version string `json:"version"`
}

// InitializeResult is what the server says of itself: its answer to
// initialize (legacy) or to server/discover (2026-07-28). ProtocolVersion is
// the revision this client speaks with it.
type InitializeResult struct {
	ProtocolVersion string `json:"protocolVersion"`
	// SupportedVersions is server/discover's list (empty after initialize).
	SupportedVersions []string           `json:"supportedVersions,omitempty"`
	Capabilities      ServerCapabilities `json:"capabilities"`
	ServerInfo        Implementation     `json:"serverInfo"`
	Instructions      string             `json:"instructions,omitempty"`
}

// ServerCapabilities is what the client reads of the server's capabilities.
type ServerCapabilities struct {
	Tools      json.RawMessage            `json:"tools,omitempty"`
	Tasks      *TasksCapability           `json:"tasks,omitempty"`
	Extensions map[string]json.RawMessage `json:"extensions,omitempty"`
}

// TasksCapability is the 2025-11-25 tasks capability.
type TasksCapability struct {
	List     json.RawMessage `json:"list,omitempty"`
	Cancel   json.RawMessage `json:"cancel,omitempty"`
	Requests *struct {
		Tools *struct {
			Call json.RawMessage `json:"call,omitempty"`
		} `json:"tools,omitempty"`
	} `json:"requests,omitempty"`
}

// Task forms: how a server runs a tool call as a task.
const (
	FormNone      = ""           // no tasks
	FormCore      = "2025-11-25" // task: {ttl}; tasks/get, tasks/result, tasks/cancel
	FormExtension = "extension"  // io.modelcontextprotocol/tasks: resultType "task"; terminal tasks/get carries the result
)

// TaskForm reports the task form the server offers for tools/call, the
// extension first.
func (c ServerCapabilities) TaskForm() string {
	if _, ok := c.Extensions[TasksExtension]; ok {
		return FormExtension
	}
	if c.Tasks != nil && c.Tasks.Requests != nil && c.Tasks.Requests.Tools != nil && c.Tasks.Requests.Tools.Call != nil {
		return FormCore
	}
	return FormNone
}

// TaskFormFor reports the task form usable on revision version: on
// 2026-07-28 only the extension (declared per request), on a legacy
// revision only the core form (a session's capability).
func (c ServerCapabilities) TaskFormFor(version string) string {
	if IsModern(version) {
		if _, ok := c.Extensions[TasksExtension]; ok {
			return FormExtension
		}
		return FormNone
	}
	if c.Tasks != nil && c.Tasks.Requests != nil && c.Tasks.Requests.Tools != nil && c.Tasks.Requests.Tools.Call != nil {
		return FormCore
	}
	return FormNone
}

// Tool is one entry of tools/list.
type Tool struct {
	Name        string           `json:"name"`
	Title       string           `json:"title,omitempty"`
	Description string           `json:"description,omitempty"`
	InputSchema json.RawMessage  `json:"inputSchema,omitempty"`
	Annotations *ToolAnnotations `json:"annotations,omitempty"`
	Execution   *struct {
		TaskSupport string `json:"taskSupport,omitempty"`
	} `json:"execution,omitempty"`
}

// ToolAnnotations are a tool's hints; nil means the server gave none.
type ToolAnnotations struct {
	Title           string `json:"title,omitempty"`
	ReadOnlyHint    *bool  `json:"readOnlyHint,omitempty"`
	DestructiveHint *bool  `json:"destructiveHint,omitempty"`
	IdempotentHint  *bool  `json:"idempotentHint,omitempty"`
	OpenWorldHint   *bool  `json:"openWorldHint,omitempty"`
}

// TaskSupport returns execution.taskSupport, "forbidden" when absent.
func (t Tool) TaskSupport() string {
	if t.Execution == nil || t.Execution.TaskSupport == "" {
		return TaskForbidden
	}
	return t.Execution.TaskSupport
}

// Content is one content block of a tool result (text, image, audio,
// resource_link, resource).
type Content struct {
	Type     string `json:"type"`
	Text     string `json:"text,omitempty"`
	Data     string `json:"data,omitempty"` // base64 (image, audio)
	MimeType string `json:"mimeType,omitempty"`
	// resource_link
	URI         string `json:"uri,omitempty"`
	Name        string `json:"name,omitempty"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	// resource (embedded)
	Resource *ResourceContents `json:"resource,omitempty"`
	// spooled: a long text, in the result's spool (Text is then "").
	spooled *spoolValue
}

// ResourceContents is an embedded resource: text or a base64 blob.
type ResourceContents struct {
	URI      string `json:"uri"`
	Name     string `json:"name,omitempty"`
	MimeType string `json:"mimeType,omitempty"`
	Text     string `json:"text,omitempty"`
	Blob     string `json:"blob,omitempty"`
}

// ToolResult is a CallToolResult.
// A long text or structuredContent of a reply read over HTTP with
// Options.Spool set is not in memory (Content.Text is "" and
// StructuredContent nil): read it with TextReader and StructuredReader,
// and Release the result when done.
type ToolResult struct {
	Content           []Content       `json:"content"`
	StructuredContent json.RawMessage `json:"structuredContent,omitempty"`
	IsError           bool            `json:"isError,omitempty"`

	spool      *spoolSet
	structured *spoolValue
}

// Text joins the result's text blocks with newlines. A spooled text is
// read back whole: for a long result use TextReader.
func (r *ToolResult) Text() string {
	if !r.SpooledText() {
		var parts []string
		for _, c := range r.Content {
			if c.Type == "text" {
				parts = append(parts, c.Text)
			}
		}
		return strings.Join(parts, "\n")
	}
	var b strings.Builder
	if _, err := io.Copy(&b, r.TextReader()); err != nil {
		b.WriteString("\n(" + err.Error() + ")")
	}
	return b.String()
}

// SpooledText reports whether a text block of r is in its spool (and
// longer than the inline limit, so the text is).
func (r *ToolResult) SpooledText() bool {
	for _, c := range r.Content {
		if c.Type == "text" && c.spooled != nil {
			return true
		}
	}
	return false
}

// TextReader streams what Text returns.
func (r *ToolResult) TextReader() io.Reader {
	var rs []io.Reader
	for _, c := range r.Content {
		if c.Type != "text" {
			continue
		}
		if len(rs) > 0 {
			rs = append(rs, strings.NewReader("\n"))
		}
		if c.spooled != nil {
			rs = append(rs, c.spooled.reader())
		} else {
			rs = append(rs, strings.NewReader(c.Text))
		}
	}
	return io.MultiReader(rs...)
}

// StructuredReader streams a spooled structuredContent (its JSON, already
// checked); ok is false when it is not spooled (see StructuredContent).
func (r *ToolResult) StructuredReader() (rd io.Reader, ok bool) {
	if r.structured == nil {
		return nil, false
	}
	return r.structured.reader(), true
}

// Release removes the result's spool; its spooled values are unreadable
// after. Without a spool it does nothing.
func (r *ToolResult) Release() error {
	if r == nil {
		return nil
	}
	return r.spool.release(true)
}

// Task is a task as tools/call, tasks/get and tasks/cancel report it, in
// either form. In the extension form a terminal task carries Result or Error.
type Task struct {
	TaskID        string `json:"taskId"`
	Status        string `json:"status"`
	StatusMessage string `json:"statusMessage,omitempty"`
	CreatedAt     string `json:"createdAt,omitempty"`
	LastUpdatedAt string `json:"lastUpdatedAt,omitempty"`
	TTL           *int64 `json:"ttl,omitempty"`
	TTLMs         *int64 `json:"ttlMs,omitempty"`
	// PollInterval (core) and PollIntervalMs (extension), in milliseconds.
	PollInterval   *int64      `json:"pollInterval,omitempty"`
	PollIntervalMs *int64      `json:"pollIntervalMs,omitempty"`
	Result         *ToolResult `json:"result,omitempty"`
	Error          *RPCError   `json:"error,omitempty"`
	// InputRequests are what an input_required extension task asks
	// (tasks/get), answered with UpdateTask by the same keys.
	InputRequests map[string]InputRequest `json:"inputRequests,omitempty"`
}

// PollMillis returns the server's poll interval in milliseconds (0 if none).
func (t *Task) PollMillis() int64 {
	switch {
	case t.PollIntervalMs != nil:
		return *t.PollIntervalMs
	case t.PollInterval != nil:
		return *t.PollInterval
	}
	return 0
}

// CallResult is tools/call's answer: a final result or a task.
type CallResult struct {
	Result *ToolResult
	Task   *Task
	// Form is the task form the answer used (FormCore, FormExtension).
	Form string
}

// CallParams is one tools/call.
type CallParams struct {
	Name      string
	Arguments json.RawMessage // a JSON object; nil sends {}
	// Task asks for a task in the given form (FormCore or FormExtension);
	// FormNone makes a plain call.
	Task string
	// TTLMillis is the task's requested time to live (core form); 0 omits it.
	TTLMillis int64
	// IdempotencyKey, when set, goes out as the Idempotency-Key header and
	// in _meta, so a server that honours it starts one task for repeats.
	IdempotencyKey string
	// ProgressToken, when set, asks the server for notifications/progress
	// on the reply stream (_meta.progressToken).
	ProgressToken string
	// InputResponses and RequestState make the call an MRTR retry
	// (2026-07-28): the answers by the keys of the input_required result's
	// inputRequests, and its requestState exactly as it came (nil when it
	// had none: then none is sent).
	InputResponses map[string]json.RawMessage
	RequestState   *string
}

// Notification is a server notification seen on a reply stream.
type Notification struct {
	Method string
	Params json.RawMessage
}
