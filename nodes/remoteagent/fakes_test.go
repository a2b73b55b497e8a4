package remoteagent

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"iter"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"workrun/a2a"
	"workrun/store"
	"workrun/workrun"
	"workrun/workrun/workruntest"
)

// fakeAgent is a function-field fake of Agent; each test sets what it needs.
type fakeAgent struct {
	card                     *a2a.AgentCard
	streaming                bool
	SendMessageFunc          func(context.Context, a2a.SendMessageRequest) (*a2a.SendResult, error)
	SendStreamingMessageFunc func(context.Context, a2a.SendMessageRequest) iter.Seq2[a2a.StreamEvent, error]
	SubscribeToTaskFunc      func(context.Context, string) iter.Seq2[a2a.StreamEvent, error]
	GetTaskFunc              func(context.Context, string) (*a2a.Task, error)
	CancelTaskFunc           func(context.Context, string) (*a2a.Task, error)

	mu    sync.Mutex
	calls map[string]int
}

func (f *fakeAgent) count(m string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.calls == nil {
		f.calls = map[string]int{}
	}
	f.calls[m]++
}

func (f *fakeAgent) Calls(m string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls[m]
}

func (f *fakeAgent) Card() *a2a.AgentCard { return f.card }
func (f *fakeAgent) Endpoint() string     { return "http://127.0.0.1:1/a2a" }
func (f *fakeAgent) Streaming() bool      { return f.streaming }

func (f *fakeAgent) SendMessage(ctx context.Context, r a2a.SendMessageRequest) (*a2a.SendResult, error) {
	f.count("SendMessage")
	if f.SendMessageFunc == nil {
		return nil, fmt.Errorf("unexpected SendMessage")
	}
	return f.SendMessageFunc(ctx, r)
}

func (f *fakeAgent) SendStreamingMessage(ctx context.Context, r a2a.SendMessageRequest) iter.Seq2[a2a.StreamEvent, error] {
	f.count("SendStreamingMessage")
	if f.SendStreamingMessageFunc == nil {
		return errSeq(fmt.Errorf("unexpected SendStreamingMessage"))
	}
	return f.SendStreamingMessageFunc(ctx, r)
}

func (f *fakeAgent) SubscribeToTask(ctx context.Context, id string) iter.Seq2[a2a.StreamEvent, error] {
	f.count("SubscribeToTask")
	if f.SubscribeToTaskFunc == nil {
		return errSeq(fmt.Errorf("unexpected SubscribeToTask"))
	}
	return f.SubscribeToTaskFunc(ctx, id)
}

func (f *fakeAgent) GetTask(ctx context.Context, id string) (*a2a.Task, error) {
	f.count("GetTask")
	if f.GetTaskFunc == nil {
		return nil, fmt.Errorf("unexpected GetTask")
	}
	return f.GetTaskFunc(ctx, id)
}

func (f *fakeAgent) CancelTask(ctx context.Context, id string) (*a2a.Task, error) {
	f.count("CancelTask")
	if f.CancelTaskFunc == nil {
		return nil, fmt.Errorf("unexpected CancelTask")
	}
	return f.CancelTaskFunc(ctx, id)
}

func errSeq(err error) iter.Seq2[a2a.StreamEvent, error] {
	return func(yield func(a2a.StreamEvent, error) bool) { yield(a2a.StreamEvent{}, err) }
}

// events yields the given events, then err if not nil.
func events(err error, evs ...a2a.StreamEvent) iter.Seq2[a2a.StreamEvent, error] {
	return func(yield func(a2a.StreamEvent, error) bool) {
		for _, ev := range evs {
			if !yield(ev, nil) {
				return
			}
		}
		if err != nil {
			yield(a2a.StreamEvent{}, err)
		}
	}
}

func taskEv(id string, s a2a.TaskState, text string, arts ...a2a.Artifact) a2a.StreamEvent {
	return a2a.StreamEvent{Task: task(id, s, text, arts...)}
}

func task(id string, s a2a.TaskState, text string, arts ...a2a.Artifact) *a2a.Task {
	t := &a2a.Task{ID: id, ContextID: "ctx-" + id, Status: a2a.TaskStatus{State: s}, Artifacts: arts}
	if text != "" {
		t.Status.Message = &a2a.Message{MessageID: uuid.NewString(), Role: a2a.RoleAgent, Parts: []a2a.Part{{Text: text}}}
	}
	return t
}

func statusEv(id string, s a2a.TaskState, text string) a2a.StreamEvent {
	ev := a2a.StreamEvent{StatusUpdate: &a2a.TaskStatusUpdateEvent{TaskID: id, ContextID: "ctx-" + id, Status: a2a.TaskStatus{State: s}}}
	if text != "" {
		ev.StatusUpdate.Status.Message = &a2a.Message{MessageID: uuid.NewString(), Role: a2a.RoleAgent, Parts: []a2a.Part{{Text: text}}}
	}
	return ev
}

func artifactEv(id, artID, text string, appendChunk bool) a2a.StreamEvent {
	return a2a.StreamEvent{ArtifactUpdate: &a2a.TaskArtifactUpdateEvent{TaskID: id, ContextID: "ctx-" + id,
		Artifact: a2a.Artifact{ArtifactID: artID, Name: artID, Parts: []a2a.Part{{Text: text}}}, Append: appendChunk}}
}

// memCalls is the shared in-memory call store, read by this node's call key.
type memCalls struct{ *workruntest.MemCalls }

func newMemCalls() *memCalls { return &memCalls{workruntest.NewMemCalls()} }

func (m *memCalls) get(run, node string) (workrun.RemoteCall, bool) { return m.Get(run, node, callKey) }

// memArtifacts is an in-memory ArtifactStore.
type memArtifacts struct {
	mu    sync.Mutex
	files map[string][]byte
	infos map[string]workrun.ArtifactInfo
	opens int
}

func newMemArtifacts() *memArtifacts {
	return &memArtifacts{files: map[string][]byte{}, infos: map[string]workrun.ArtifactInfo{}}
}

func (m *memArtifacts) Put(ctx context.Context, name, typ string, r io.Reader, run, node string) (workrun.ArtifactInfo, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return workrun.ArtifactInfo{}, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	info := workrun.ArtifactInfo{ID: uuid.NewString(), Name: name, Original: name, MediaType: typ, Size: int64(len(b)), RunID: run, NodeID: node}
	m.files[info.ID], m.infos[info.ID] = b, info
	return info, nil
}

// putSized records an artifact of n bytes without holding them.
func (m *memArtifacts) putSized(name string, n int64) string {
	m.mu.Lock()
	defer m.mu.Unlock()
	id := uuid.NewString()
	m.infos[id] = workrun.ArtifactInfo{ID: id, Name: name, MediaType: "application/octet-stream", Size: n}
	return id
}

func (m *memArtifacts) Stat(ctx context.Context, id string) (workrun.ArtifactInfo, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	info, ok := m.infos[id]
	if !ok {
		return info, workrun.ErrNotFound
	}
	return info, nil
}

func (m *memArtifacts) Open(ctx context.Context, id string) (io.ReadCloser, workrun.ArtifactInfo, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.opens++
	info, ok := m.infos[id]
	if !ok {
		return nil, info, workrun.ErrNotFound
	}
	b := m.files[id]
	if b == nil {
		b = make([]byte, info.Size)
	}
	return io.NopCloser(bytes.NewReader(b)), info, nil
}

// newNC is the NodeContext of one node of one run, with artifacts in memory;
// its progress lines are kept apart from the committed messages.
func newNC(run, node string, in workrun.Values) *workruntest.NodeContext {
	return &workruntest.NodeContext{Run: run, Node: node, In: in, Arts: newMemArtifacts(), KeepProgressApart: true}
}

// msgsOf renders nc's committed messages in the current language.
func msgsOf(nc *workruntest.NodeContext) []string { return msgsIn(nc, workrun.Language()) }

// msgsIn renders nc's committed messages in lang, as a reader would.
func msgsIn(nc *workruntest.NodeContext, lang string) []string { return render(nc.Texts(), lang) }

// progressIn renders nc's progress lines in lang.
func progressIn(nc *workruntest.NodeContext, lang string) []string {
	return render(nc.ProgressTexts(), lang)
}

func render(ts []workrun.Text, lang string) []string {
	var out []string
	for _, t := range ts {
		// As the store renders it: the count of the lines it stands for last.
		out = append(out, workrun.Message{Key: t.Key, Args: t.Args, Repeat: t.Repeat}.In(lang))
	}
	return out
}

// abortNC runs nc's abort hooks like the engine does: once, concurrently,
// on a detached bounded context.
func abortNC(ctx context.Context, nc *workruntest.NodeContext) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	for _, h := range nc.Hooks() {
		wg.Go(func() { h(ctx) })
	}
	wg.Wait()
}

func hasMsg(msgs []string, want string) bool {
	for _, m := range msgs {
		if m == want {
			return true
		}
	}
	return false
}

// testWorkflow declares the fields the tests use.
var testWorkflow = workrun.Workflow{Name: "t", State: map[string]workrun.FieldType{
	"prompt": workrun.FieldText, "n": workrun.FieldNumber, "flag": workrun.FieldBoolean,
	"obj": workrun.FieldJSON, "doc": workrun.FieldFile, "docs": workrun.FieldFiles,
	"answer": workrun.FieldText, "outfiles": workrun.FieldFiles,
}}

// compile builds a step for cfg (JSON) with deps.
func compile(t *testing.T, d Deps, cfg string) workrun.Step {
	t.Helper()
	st, err := New(d).Compile(workrun.NodeSpec{ID: "ra", Type: Type, Config: []byte(cfg)}, testWorkflow)
	if err != nil {
		t.Fatalf("Compile: %v", err)
	}
	return st
}

func connectTo(a AgentClient) func(context.Context, string, Clients) (AgentClient, error) {
	return func(context.Context, string, Clients) (AgentClient, error) { return a, nil }
}

// The real store keeps the Remote Agent's call records.
var _ CallStore = (*store.Store)(nil)
