package ui

import (
	"context"
	"sync"

	"workrun/workrun"
)

// fakeEngine is a function-field fake of Engine; events go to every
// subscriber through Publish.
type fakeEngine struct {
	ValidateFunc func(workrun.Workflow) []Problem
	FieldsFunc   func(workrun.Workflow) map[string]workrun.NodeFields // nil: the real kinds compile
	StartFunc    func(ctx context.Context, workflowID string, wf workrun.Workflow, in workrun.Values) (string, error)
	StopFunc     func(ctx context.Context, runID string) error
	ResumeFunc   func(ctx context.Context, runID string) error
	DecideFunc   func(ctx context.Context, d workrun.Decision) error

	mu   sync.Mutex
	subs []chan Event
}

func (f *fakeEngine) Validate(wf workrun.Workflow) []Problem {
	if f.ValidateFunc == nil {
		return nil
	}
	return f.ValidateFunc(wf)
}

func (f *fakeEngine) Fields(wf workrun.Workflow) map[string]workrun.NodeFields {
	if f.FieldsFunc == nil {
		return kindsEngine().Fields(wf)
	}
	return f.FieldsFunc(wf)
}

func (f *fakeEngine) Start(ctx context.Context, id string, wf workrun.Workflow, in workrun.Values) (string, error) {
	return f.StartFunc(ctx, id, wf, in)
}

func (f *fakeEngine) Stop(ctx context.Context, runID string) error {
	if f.StopFunc == nil {
		return nil
	}
	return f.StopFunc(ctx, runID)
}

func (f *fakeEngine) Resume(ctx context.Context, runID string) error { return f.ResumeFunc(ctx, runID) }

func (f *fakeEngine) Decide(ctx context.Context, d workrun.Decision) error {
	return f.DecideFunc(ctx, d)
}

func (f *fakeEngine) Subscribe() (<-chan Event, func()) {
	ch := make(chan Event, 64)
	f.mu.Lock()
	f.subs = append(f.subs, ch)
	f.mu.Unlock()
	var once sync.Once
	return ch, func() {
		once.Do(func() {
			f.mu.Lock()
			defer f.mu.Unlock()
			for i, s := range f.subs {
				if s == ch {
					f.subs = append(f.subs[:i], f.subs[i+1:]...)
				}
			}
			close(ch)
		})
	}
}

// Publish sends ev to every subscriber, as the engine does after a commit.
func (f *fakeEngine) Publish(ev Event) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, s := range f.subs {
		s <- ev
	}
}

// fakeRuns is a function-field fake of workrun.RunStore; unset reads
// return nothing.
type fakeRuns struct {
	GetRunFunc   func(ctx context.Context, id string) (workrun.Run, error)
	NodeRunsFunc func(ctx context.Context, runID string) ([]workrun.NodeRun, error)
	MessagesFunc func(ctx context.Context, runID string) ([]workrun.Message, error)
	ListRunsFunc func(ctx context.Context, f workrun.RunFilter) ([]workrun.Run, error)
	WithStatus   func(ctx context.Context, s workrun.RunStatus) ([]workrun.Run, error)
}

func (f *fakeRuns) CreateRun(context.Context, workrun.Run) error { return nil }
func (f *fakeRuns) UpdateRun(context.Context, workrun.Run) error { return nil }
func (f *fakeRuns) GetRun(ctx context.Context, id string) (workrun.Run, error) {
	if f.GetRunFunc == nil {
		return workrun.Run{}, workrun.ErrNotFound
	}
	return f.GetRunFunc(ctx, id)
}
func (f *fakeRuns) ListRuns(ctx context.Context, flt workrun.RunFilter) ([]workrun.Run, error) {
	if f.ListRunsFunc == nil {
		return nil, nil
	}
	return f.ListRunsFunc(ctx, flt)
}
func (f *fakeRuns) RunsWithStatus(ctx context.Context, s workrun.RunStatus) ([]workrun.Run, error) {
	if f.WithStatus == nil {
		return nil, nil
	}
	return f.WithStatus(ctx, s)
}
func (f *fakeRuns) SaveNodeRun(context.Context, workrun.NodeRun) error { return nil }
func (f *fakeRuns) NodeRuns(ctx context.Context, runID string) ([]workrun.NodeRun, error) {
	if f.NodeRunsFunc == nil {
		return nil, nil
	}
	return f.NodeRunsFunc(ctx, runID)
}
func (f *fakeRuns) AppendMessage(_ context.Context, m workrun.Message) (workrun.Message, error) {
	return m, nil
}
func (f *fakeRuns) AppendProgress(context.Context, workrun.Message) error { return nil }
func (f *fakeRuns) Messages(ctx context.Context, runID string) ([]workrun.Message, error) {
	if f.MessagesFunc == nil {
		return nil, nil
	}
	return f.MessagesFunc(ctx, runID)
}
func (f *fakeRuns) SaveDecision(context.Context, workrun.Decision) error { return nil }
func (f *fakeRuns) GetDecision(context.Context, string, string) (workrun.Decision, error) {
	return workrun.Decision{}, workrun.ErrNotFound
}

var _ workrun.RunStore = (*fakeRuns)(nil)
var _ Engine = (*fakeEngine)(nil)

// fakeCreds is a function-field fake of CredentialManager.
type fakeCreds struct {
	ListFunc   func(context.Context) ([]Credential, error)
	SetFunc    func(context.Context, Credential, string) error
	DeleteFunc func(context.Context, string) error
}

func (f *fakeCreds) List(ctx context.Context) ([]Credential, error) { return f.ListFunc(ctx) }
func (f *fakeCreds) Set(ctx context.Context, c Credential, s string) error {
	return f.SetFunc(ctx, c, s)
}
func (f *fakeCreds) Delete(ctx context.Context, n string) error { return f.DeleteFunc(ctx, n) }
