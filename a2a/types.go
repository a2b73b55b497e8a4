package a2a

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"time"
)

// ProtocolVersion is the A2A version this client speaks, sent as the
// A2A-Version header on every request.
const ProtocolVersion = "1.0"

// TaskState is a task's lifecycle state, serialized as its proto enum name.
type TaskState string

// Task states (A2A 1.0 §3; wire values are the TASK_STATE_* strings).
const (
	TaskStateUnspecified   TaskState = "TASK_STATE_UNSPECIFIED"
	TaskStateSubmitted     TaskState = "TASK_STATE_SUBMITTED"
	TaskStateWorking       TaskState = "TASK_STATE_WORKING"
	TaskStateCompleted     TaskState = "TASK_STATE_COMPLETED"
	TaskStateFailed        TaskState = "TASK_STATE_FAILED"
	TaskStateCanceled      TaskState = "TASK_STATE_CANCELED"
	TaskStateInputRequired TaskState = "TASK_STATE_INPUT_REQUIRED"
	TaskStateRejected      TaskState = "TASK_STATE_REJECTED"
	TaskStateAuthRequired  TaskState = "TASK_STATE_AUTH_REQUIRED"
)

// Terminal reports whether no further change can happen to the task:
// COMPLETED, FAILED, CANCELED or REJECTED.
func (s TaskState) Terminal() bool {
	switch s {
	case TaskStateCompleted, TaskStateFailed, TaskStateCanceled, TaskStateRejected:
		return true
	}
	return false
}

// Interrupted reports whether the task waits for the client:
// INPUT_REQUIRED or AUTH_REQUIRED.
func (s TaskState) Interrupted() bool {
	return s == TaskStateInputRequired || s == TaskStateAuthRequired
}

// Role is the sender of a message.
type Role string

// Roles.
const (
	RoleUnspecified Role = "ROLE_UNSPECIFIED"
	RoleUser        Role = "ROLE_USER"
	RoleAgent       Role = "ROLE_AGENT"
)

// Task is the server's unit of work.
type Task struct {
	ID        string          `json:"id"`
	ContextID string          `json:"contextId,omitempty"`
	Status    TaskStatus      `json:"status"`
	Artifacts []Artifact      `json:"artifacts,omitempty"`
	History   []Message       `json:"history,omitempty"`
	Metadata  json.RawMessage `json:"metadata,omitempty"`
}

// TaskStatus is a task's state with an optional explanatory message.
type TaskStatus struct {
	State     TaskState  `json:"state"`
	Message   *Message   `json:"message,omitempty"`
	Timestamp *time.Time `json:"timestamp,omitempty"`
}

// Message is one turn of communication between client and agent.
type Message struct {
	MessageID        string          `json:"messageId"`
	ContextID        string          `json:"contextId,omitempty"`
	TaskID           string          `json:"taskId,omitempty"`
	Role             Role            `json:"role"`
	Parts            []Part          `json:"parts"`
	Metadata         json.RawMessage `json:"metadata,omitempty"`
	Extensions       []string        `json:"extensions,omitempty"`
	ReferenceTaskIDs []string        `json:"referenceTaskIds,omitempty"`
}

// Part is one piece of content: exactly one of Text, Raw (or Source), URL or
// Data is set. Raw travels as base64 on the wire.
type Part struct {
	Text string
	Raw  []byte
	// Source supplies raw bytes at send time instead of Raw, so a large file is
	// read and base64-encoded straight into the request body (never decoded
	// from JSON; outgoing only).
	Source    *FileSource
	URL       string
	Data      json.RawMessage
	Filename  string
	MediaType string
	Metadata  json.RawMessage
}

// FileSource streams a raw part's bytes. Size must be exact: the request's
// Content-Length is computed from it before the body is written.
type FileSource struct {
	Size int64
	Open func() (io.ReadCloser, error)
}

// IsRaw reports whether the part carries inline file bytes.
func (p Part) IsRaw() bool { return p.Raw != nil || p.Source != nil }

// partMeta holds the members common to every part kind.
type partMeta struct {
	Filename  string          `json:"filename,omitempty"`
	MediaType string          `json:"mediaType,omitempty"`
	Metadata  json.RawMessage `json:"metadata,omitempty"`
}

type partWire struct {
	Text *string         `json:"text,omitempty"`
	Raw  []byte          `json:"raw,omitempty"`
	URL  *string         `json:"url,omitempty"`
	Data json.RawMessage `json:"data,omitempty"`
	partMeta
}

// MarshalJSON writes the 1.0 member-named form ({"text":…}, {"raw":…}, …).
// A Source part is not marshalled here; the request encoder streams it.
func (p Part) MarshalJSON() ([]byte, error) {
	w := partWire{partMeta: partMeta{p.Filename, p.MediaType, p.Metadata}}
	switch {
	case p.Source != nil:
		return nil, errors.New("a2a: a part with a FileSource is only encoded by the request writer")
	case p.Raw != nil:
		w.Raw = p.Raw
		if len(p.Raw) == 0 {
			// Keep an empty file visible as "raw":"" rather than dropping it.
			return json.Marshal(struct {
				Raw string `json:"raw"`
				partMeta
			}{"", w.partMeta})
		}
	case p.URL != "":
		w.URL = &p.URL
	case p.Data != nil:
		w.Data = p.Data
	default:
		w.Text = &p.Text
	}
	return json.Marshal(w)
}

// UnmarshalJSON reads any 1.0 part; unknown members are ignored.
func (p *Part) UnmarshalJSON(b []byte) error {
	var w struct {
		Text *string         `json:"text"`
		Raw  *[]byte         `json:"raw"`
		URL  *string         `json:"url"`
		Data json.RawMessage `json:"data"`
		partMeta
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	*p = Part{Filename: w.Filename, MediaType: w.MediaType, Metadata: w.Metadata}
	switch {
	case w.Text != nil:
		p.Text = *w.Text
	case w.Raw != nil:
		p.Raw = *w.Raw
		if p.Raw == nil {
			p.Raw = []byte{}
		}
	case w.URL != nil:
		p.URL = *w.URL
	case w.Data != nil:
		p.Data = w.Data
	}
	return nil
}

// Artifact is an output of a task.
type Artifact struct {
	ArtifactID  string          `json:"artifactId"`
	Name        string          `json:"name,omitempty"`
	Description string          `json:"description,omitempty"`
	Parts       []Part          `json:"parts"`
	Metadata    json.RawMessage `json:"metadata,omitempty"`
	Extensions  []string        `json:"extensions,omitempty"`
}

// TaskStatusUpdateEvent reports a task's new status (stream "statusUpdate").
type TaskStatusUpdateEvent struct {
	TaskID    string          `json:"taskId"`
	ContextID string          `json:"contextId,omitempty"`
	Status    TaskStatus      `json:"status"`
	Metadata  json.RawMessage `json:"metadata,omitempty"`
}

// TaskArtifactUpdateEvent carries a new or appended artifact
// (stream "artifactUpdate").
type TaskArtifactUpdateEvent struct {
	TaskID    string          `json:"taskId"`
	ContextID string          `json:"contextId,omitempty"`
	Artifact  Artifact        `json:"artifact"`
	Append    bool            `json:"append,omitempty"`
	LastChunk bool            `json:"lastChunk,omitempty"`
	Metadata  json.RawMessage `json:"metadata,omitempty"`
}

// StreamEvent is one StreamResponse: exactly one field is non-nil.
type StreamEvent struct {
	Task           *Task                    `json:"task,omitempty"`
	Message        *Message                 `json:"message,omitempty"`
	StatusUpdate   *TaskStatusUpdateEvent   `json:"statusUpdate,omitempty"`
	ArtifactUpdate *TaskArtifactUpdateEvent `json:"artifactUpdate,omitempty"`
}

// TaskID is the task the event names ("" for a message without a task).
func (e StreamEvent) TaskID() string {
	switch {
	case e.Task != nil:
		return e.Task.ID
	case e.StatusUpdate != nil:
		return e.StatusUpdate.TaskID
	case e.ArtifactUpdate != nil:
		return e.ArtifactUpdate.TaskID
	case e.Message != nil:
		return e.Message.TaskID
	}
	return ""
}

// State is the task state the event carries, or "" if it carries none.
func (e StreamEvent) State() TaskState {
	switch {
	case e.Task != nil:
		return e.Task.Status.State
	case e.StatusUpdate != nil:
		return e.StatusUpdate.Status.State
	}
	return ""
}

// Final reports whether the stream ends after this event: a message, or a
// terminal or interrupted state.
func (e StreamEvent) Final() bool {
	s := e.State()
	return e.Message != nil || s.Terminal() || s.Interrupted()
}

func (e StreamEvent) members() int {
	n := 0
	for _, set := range []bool{e.Task != nil, e.Message != nil, e.StatusUpdate != nil, e.ArtifactUpdate != nil} {
		if set {
			n++
		}
	}
	return n
}

// SendMessageRequest is the params of SendMessage and SendStreamingMessage.
// Tenant is filled from the chosen interface by the client.
type SendMessageRequest struct {
	Message       Message                   `json:"message"`
	Configuration *SendMessageConfiguration `json:"configuration,omitempty"`
	Metadata      json.RawMessage           `json:"metadata,omitempty"`
}

// SendMessageConfiguration tunes a send. ReturnImmediately false (the
// default) makes SendMessage wait for a terminal or interrupted state.
type SendMessageConfiguration struct {
	AcceptedOutputModes []string `json:"acceptedOutputModes,omitempty"`
	HistoryLength       *int32   `json:"historyLength,omitempty"`
	ReturnImmediately   bool     `json:"returnImmediately,omitempty"`
	// TaskPushNotificationConfig asks the agent to POST the task's updates
	// to a webhook (A2A 1.0 §1.7); its TaskID stays empty inside a send.
	TaskPushNotificationConfig *TaskPushNotificationConfig `json:"taskPushNotificationConfig,omitempty"`
}

// TaskPushNotificationConfig is where and how an agent pushes a task's
// updates: an HTTP POST of one StreamResponse to URL, carrying Token (in
// the SDKs' token header) or Authentication (as Authorization: SCHEME
// CREDENTIALS). Token is a secret: never saved, logged or shown.
type TaskPushNotificationConfig struct {
	ID             string              `json:"id,omitempty"`
	TaskID         string              `json:"taskId,omitempty"`
	URL            string              `json:"url"`
	Token          string              `json:"token,omitempty"`
	Authentication *AuthenticationInfo `json:"authentication,omitempty"`
}

// AuthenticationInfo is the Authorization an agent sends with a push.
type AuthenticationInfo struct {
	Scheme      string `json:"scheme"`
	Credentials string `json:"credentials,omitempty"`
}

// SendResult is SendMessage's answer: exactly one of Task and Message.
type SendResult struct {
	Task    *Task    `json:"task,omitempty"`
	Message *Message `json:"message,omitempty"`
}

// AgentCard is the agent's self-description (A2A 1.0 §5).
type AgentCard struct {
	Name                 string                    `json:"name"`
	Description          string                    `json:"description,omitempty"`
	Version              string                    `json:"version,omitempty"`
	SupportedInterfaces  []AgentInterface          `json:"supportedInterfaces,omitempty"`
	Provider             *AgentProvider            `json:"provider,omitempty"`
	DocumentationURL     string                    `json:"documentationUrl,omitempty"`
	IconURL              string                    `json:"iconUrl,omitempty"`
	Capabilities         AgentCapabilities         `json:"capabilities"`
	SecuritySchemes      map[string]SecurityScheme `json:"securitySchemes,omitempty"`
	SecurityRequirements []SecurityRequirement     `json:"securityRequirements,omitempty"`
	DefaultInputModes    []string                  `json:"defaultInputModes,omitempty"`
	DefaultOutputModes   []string                  `json:"defaultOutputModes,omitempty"`
	Skills               []AgentSkill              `json:"skills,omitempty"`

	// Legacy (0.3) members, read only to recognise a 0.3 card.
	LegacyURL             string `json:"url,omitempty"`
	LegacyProtocolVersion string `json:"protocolVersion,omitempty"`
	LegacyTransport       string `json:"preferredTransport,omitempty"`
	// Security is the 0.3 / early-1.0-sample name of SecurityRequirements.
	Security []SecurityRequirement `json:"security,omitempty"`
}

// AgentInterface is one way to reach the agent.
type AgentInterface struct {
	URL             string `json:"url"`
	ProtocolBinding string `json:"protocolBinding"`
	ProtocolVersion string `json:"protocolVersion,omitempty"`
	Tenant          string `json:"tenant,omitempty"`
}

// AgentProvider names the organisation behind the agent.
type AgentProvider struct {
	Organization string `json:"organization,omitempty"`
	URL          string `json:"url,omitempty"`
}

// AgentCapabilities lists optional protocol features.
type AgentCapabilities struct {
	Streaming         bool             `json:"streaming,omitempty"`
	PushNotifications bool             `json:"pushNotifications,omitempty"`
	ExtendedAgentCard bool             `json:"extendedAgentCard,omitempty"`
	Extensions        []AgentExtension `json:"extensions,omitempty"`
}

// AgentExtension declares a protocol extension.
type AgentExtension struct {
	URI         string          `json:"uri"`
	Description string          `json:"description,omitempty"`
	Required    bool            `json:"required,omitempty"`
	Params      json.RawMessage `json:"params,omitempty"`
}

// AgentSkill describes one thing the agent can do.
type AgentSkill struct {
	ID                   string                `json:"id"`
	Name                 string                `json:"name"`
	Description          string                `json:"description,omitempty"`
	Tags                 []string              `json:"tags,omitempty"`
	Examples             []string              `json:"examples,omitempty"`
	InputModes           []string              `json:"inputModes,omitempty"`
	OutputModes          []string              `json:"outputModes,omitempty"`
	SecurityRequirements []SecurityRequirement `json:"securityRequirements,omitempty"`
}

// SecurityScheme is a one-member wrapper; exactly one field is set.
type SecurityScheme struct {
	APIKey        *APIKeySecurityScheme        `json:"apiKeySecurityScheme,omitempty"`
	HTTPAuth      *HTTPAuthSecurityScheme      `json:"httpAuthSecurityScheme,omitempty"`
	OAuth2        *OAuth2SecurityScheme        `json:"oauth2SecurityScheme,omitempty"`
	OpenIDConnect *OpenIDConnectSecurityScheme `json:"openIdConnectSecurityScheme,omitempty"`
	MTLS          *MTLSSecurityScheme          `json:"mtlsSecurityScheme,omitempty"`
}

// APIKeySecurityScheme is an API key in a header, query or cookie.
type APIKeySecurityScheme struct {
	Location    string `json:"location"`
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
}

// HTTPAuthSecurityScheme is an Authorization-header scheme such as Bearer.
type HTTPAuthSecurityScheme struct {
	Scheme       string `json:"scheme"`
	BearerFormat string `json:"bearerFormat,omitempty"`
	Description  string `json:"description,omitempty"`
}

// OAuth2SecurityScheme is OAuth 2.0; Flows is kept raw (one-member wrapper).
type OAuth2SecurityScheme struct {
	Flows             json.RawMessage `json:"flows,omitempty"`
	OAuth2MetadataURL string          `json:"oauth2MetadataUrl,omitempty"`
	Description       string          `json:"description,omitempty"`
}

// OpenIDConnectSecurityScheme is OpenID Connect discovery.
type OpenIDConnectSecurityScheme struct {
	OpenIDConnectURL string `json:"openIdConnectUrl"`
	Description      string `json:"description,omitempty"`
}

// MTLSSecurityScheme is mutual TLS.
type MTLSSecurityScheme struct {
	Description string `json:"description,omitempty"`
}

// SecurityRequirement is one alternative: every named scheme (with its
// scopes) is required. It reads the three shapes servers send:
// {"schemes":{"x":{"list":[…]}}} (ProtoJSON, a2a-js),
// {"schemes":{"x":[…]}} (a2a-go) and {"x":[…]} (0.3 / v1.0.0 sample card).
type SecurityRequirement struct {
	Schemes map[string][]string
}

// MarshalJSON writes the ProtoJSON form.
func (r SecurityRequirement) MarshalJSON() ([]byte, error) {
	type list struct {
		List []string `json:"list"`
	}
	m := make(map[string]list, len(r.Schemes))
	for k, v := range r.Schemes {
		if v == nil {
			v = []string{}
		}
		m[k] = list{v}
	}
	return json.Marshal(struct {
		Schemes map[string]list `json:"schemes"`
	}{m})
}

// UnmarshalJSON accepts all three shapes.
func (r *SecurityRequirement) UnmarshalJSON(b []byte) error {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(b, &top); err != nil {
		return err
	}
	src := top
	if raw, ok := top["schemes"]; ok && len(top) == 1 {
		if t := bytes.TrimSpace(raw); len(t) > 0 && t[0] == '{' {
			src = nil
			if err := json.Unmarshal(raw, &src); err != nil {
				return err
			}
		}
	}
	r.Schemes = make(map[string][]string, len(src))
	for name, raw := range src {
		scopes, err := decodeScopes(raw)
		if err != nil {
			return err
		}
		r.Schemes[name] = scopes
	}
	return nil
}

func decodeScopes(raw json.RawMessage) ([]string, error) {
	t := bytes.TrimSpace(raw)
	if len(t) == 0 || bytes.Equal(t, []byte("null")) {
		return []string{}, nil
	}
	if t[0] == '[' {
		var s []string
		err := json.Unmarshal(t, &s)
		if s == nil {
			s = []string{}
		}
		return s, err
	}
	var l struct {
		List []string `json:"list"`
	}
	err := json.Unmarshal(t, &l)
	if l.List == nil {
		l.List = []string{}
	}
	return l.List, err
}
