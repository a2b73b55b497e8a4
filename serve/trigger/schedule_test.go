package trigger

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"workrun/serve"
	"workrun/workrun"
)

// fakeClock is set by the test; After is never waited on (tests call Tick).
type fakeClock struct{ now time.Time }

func (c *fakeClock) Now() time.Time                       { return c.now }
func (c *fakeClock) After(time.Duration) <-chan time.Time { return make(chan time.Time) }

// memStore has the store's semantics: a fire is recorded once per key.
type memStore struct {
	mu    sync.Mutex
	fires map[string]workrun.TriggerFire
	sigs  map[string]bool
}

func newMemStore() *memStore {
	return &memStore{fires: map[string]workrun.TriggerFire{}, sigs: map[string]bool{}}
}

func fkey(f workrun.TriggerFire) string { return FireKey(f) }

func (m *memStore) RecordFire(_ context.Context, f workrun.TriggerFire) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.fires[fkey(f)]; ok {
		return false, nil
	}
	m.fires[fkey(f)] = f
	return true, nil
}

func (m *memStore) SetFire(_ context.Context, f workrun.TriggerFire) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.fires[fkey(f)] = f
	return nil
}

func (m *memStore) sorted() []workrun.TriggerFire {
	var out []workrun.TriggerFire
	for _, f := range m.fires {
		out = append(out, f)
	}
	slices.SortFunc(out, func(a, b workrun.TriggerFire) int { return b.At.Compare(a.At) })
	return out
}

func (m *memStore) LastFire(_ context.Context, wf string, trig int) (workrun.TriggerFire, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, f := range m.sorted() {
		if f.Workflow == wf && f.Trigger == trig {
			return f, nil
		}
	}
	return workrun.TriggerFire{}, workrun.ErrNotFound
}

func (m *memStore) Fires(_ context.Context, wf string, limit int, states ...string) ([]workrun.TriggerFire, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []workrun.TriggerFire
	for _, f := range m.sorted() {
		if f.Workflow == wf && (len(states) == 0 || slices.Contains(states, f.State)) && len(out) < limit {
			out = append(out, f)
		}
	}
	return out, nil
}

func (m *memStore) SeeSignature(_ context.Context, wf, sig string) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.sigs[wf+" "+sig] {
		return false, nil
	}
	m.sigs[wf+" "+sig] = true
	return true, nil
}

// fakeRunner starts at most one task per caller and key; tasks stay
// working until finish.
type fakeRunner struct {
	mu      sync.Mutex
	byKey   map[string]string
	states  map[string]serve.State
	keys    []string // keys of the runs started, in order
	vias    []workrun.StartedByKind
	failing int // Start fails this many times (a crash before the run)
}

func newRunner() *fakeRunner {
	return &fakeRunner{byKey: map[string]string{}, states: map[string]serve.State{}}
}

var errCrash = errors.New("crash")

func (r *fakeRunner) Start(_ context.Context, req serve.StartRequest) (serve.Task, bool, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.failing > 0 {
		r.failing--
		return serve.Task{}, false, errCrash
	}
	k := req.Caller + " " + req.Key
	if id, ok := r.byKey[k]; ok {
		return serve.Task{ServedTask: workrun.ServedTask{ID: id}}, false, nil
	}
	id := fmt.Sprintf("task%d", len(r.keys)+1)
	r.byKey[k], r.states[id] = id, serve.StateWorking
	r.keys = append(r.keys, req.Key)
	r.vias = append(r.vias, req.Via)
	return serve.Task{ServedTask: workrun.ServedTask{ID: id}}, true, nil
}

func (r *fakeRunner) Get(_ context.Context, _, id string) (serve.Task, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	st, ok := r.states[id]
	if !ok {
		return serve.Task{}, serve.ErrTaskNotFound
	}
	return serve.Task{ServedTask: workrun.ServedTask{ID: id}, State: st}, nil
}

func (r *fakeRunner) finishAll() {
	r.mu.Lock()
	defer r.mu.Unlock()
	for id := range r.states {
		r.states[id] = serve.StateCompleted
	}
}

func (r *fakeRunner) started() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.keys)
}

func pubWith(t *testing.T, trig string) serve.Publication {
	t.Helper()
	wf := workrun.Workflow{Name: "w", Nodes: []workrun.NodeSpec{{ID: "start", Type: "start", Config: json.RawMessage(`{"triggers":[` + trig + `]}`)}}}
	if _, err := workrun.Triggers(wf); err != nil {
		t.Fatal(err)
	}
	return serve.Publication{ID: "w", Workflow: wf}
}

func key(at time.Time) string {
	return FireKey(workrun.TriggerFire{Workflow: "w", Trigger: 0, At: at})
}

func newSched(t *testing.T, r Runner, st Store, clk Clock, p serve.Publication) *Scheduler {
	t.Helper()
	s, err := NewScheduler(r, st, clk, []serve.Publication{p})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func tick(t *testing.T, s *Scheduler) {
	t.Helper()
	if err := s.Tick(t.Context()); err != nil {
		t.Fatal(err)
	}
}

var t0 = time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)

// A fire is recorded once: ticking again, or a restarted scheduler on the
// same store, never starts it twice; a crash between record and start is
// finished by the next start with the same key.
func TestScheduleOnceAcrossRestartAndCrash(t *testing.T) {
	p := pubWith(t, `{"type":"schedule","cron":"*/10 * * * * *","overlap":"allow"}`)
	st, r, clk := newMemStore(), newRunner(), &fakeClock{now: t0.Add(3 * time.Second)}
	s := newSched(t, r, st, clk, p)
	tick(t, s) // first start: nothing before now is due
	if got := r.started(); len(got) != 0 {
		t.Fatalf("fired at first start: %v", got)
	}
	clk.now = t0.Add(10 * time.Second)
	tick(t, s)
	tick(t, s)
	s2 := newSched(t, r, st, clk, p) // a restart at the same instant
	tick(t, s2)
	if want := []string{key(t0.Add(10 * time.Second))}; !slices.Equal(r.started(), want) {
		t.Fatalf("runs %v, want %v", r.started(), want)
	}
	// A crash after the fire was recorded, before its run started.
	r.failing = 1
	clk.now = t0.Add(20 * time.Second)
	if err := s2.Tick(t.Context()); !errors.Is(err, errCrash) {
		t.Fatalf("tick: %v", err)
	}
	if f, _ := st.LastFire(t.Context(), "w", 0); f.State != workrun.FirePending || !f.At.Equal(t0.Add(20*time.Second)) {
		t.Fatalf("fire not recorded before the run: %+v", f)
	}
	s3 := newSched(t, r, st, clk, p)
	clk.now = t0.Add(21 * time.Second)
	tick(t, s3)
	tick(t, s3)
	want := []string{key(t0.Add(10 * time.Second)), key(t0.Add(20 * time.Second))}
	if !slices.Equal(r.started(), want) {
		t.Fatalf("runs %v, want %v", r.started(), want)
	}
	if f, _ := st.LastFire(t.Context(), "w", 0); f.State != workrun.FireStarted || f.TaskID != "task2" {
		t.Fatalf("fire after restart: %+v", f)
	}
	for _, v := range r.vias {
		if v != workrun.StartedBySchedule {
			t.Errorf("a scheduled run is started via %q, want %q (Run.StartedBy)", v, workrun.StartedBySchedule)
		}
	}
}

// Downtime: with missed skip, the fires that fell while down make no run
// (the latest is recorded as missed); with run_once, exactly one run for
// the latest of them. A fire within Grace of the restart is on time.
func TestScheduleMissed(t *testing.T) {
	for _, c := range []struct {
		missed string
		want   []time.Duration // fire times (after t0) that ran
	}{
		{"skip", []time.Duration{time.Minute, 10 * time.Minute}},
		{"run_once", []time.Duration{time.Minute, 9 * time.Minute, 10 * time.Minute}},
	} {
		t.Run(c.missed, func(t *testing.T) {
			p := pubWith(t, `{"type":"schedule","every_minutes":1,"overlap":"allow","missed":"`+c.missed+`"}`)
			st, r, clk := newMemStore(), newRunner(), &fakeClock{now: t0}
			s := newSched(t, r, st, clk, p)
			tick(t, s)
			clk.now = t0.Add(time.Minute)
			tick(t, s)
			r.finishAll()
			// Down from 12:01:00 to 12:10:05: fires 12:02 … 12:09 fell, 12:10 is 5 s late.
			clk.now = t0.Add(10*time.Minute + 5*time.Second)
			s2 := newSched(t, r, st, clk, p)
			tick(t, s2)
			r.finishAll()
			tick(t, s2)
			var want []string
			for _, d := range c.want {
				want = append(want, key(t0.Add(d)))
			}
			if got := r.started(); !slices.Equal(got, want) {
				t.Fatalf("runs %v, want %v", got, want)
			}
			if c.missed == "skip" {
				if f, err := st.Fires(t.Context(), "w", 10, workrun.FireMissed); err != nil || len(f) != 1 || !f[0].At.Equal(t0.Add(9*time.Minute)) {
					t.Fatalf("missed fire recorded: %+v %v", f, err)
				}
			}
			// Long downtime: the latest fire is too late to be on time.
			clk.now = t0.Add(20*time.Minute + 45*time.Second)
			s3 := newSched(t, r, st, clk, p)
			tick(t, s3)
			n := len(want)
			if c.missed == "run_once" {
				n++
			}
			if got := r.started(); len(got) != n {
				t.Fatalf("after a long downtime runs %v", got)
			}
			if c.missed == "run_once" && r.started()[n-1] != key(t0.Add(20*time.Minute)) {
				t.Fatalf("run_once ran %s", r.started()[n-1])
			}
		})
	}
}

// A fire while the last run is unfinished: skip makes no run, queue runs
// it when the last one ended, allow runs it at once.
func TestScheduleOverlap(t *testing.T) {
	for _, c := range []struct {
		overlap   string
		whileBusy int // runs after the second fire, the first still working
		after     int // runs after the first ended and a tick
		state     string
	}{
		{"skip", 1, 1, workrun.FireSkipped},
		{"queue", 1, 2, workrun.FireStarted},
		{"allow", 2, 2, workrun.FireStarted},
	} {
		t.Run(c.overlap, func(t *testing.T) {
			p := pubWith(t, `{"type":"schedule","cron":"*/10 * * * * *","overlap":"`+c.overlap+`"}`)
			st, r, clk := newMemStore(), newRunner(), &fakeClock{now: t0}
			s := newSched(t, r, st, clk, p)
			tick(t, s)
			clk.now = t0.Add(10 * time.Second)
			tick(t, s)
			clk.now = t0.Add(20 * time.Second)
			tick(t, s)
			if got := r.started(); len(got) != c.whileBusy {
				t.Fatalf("while busy: runs %v", got)
			}
			r.mu.Lock()
			r.states["task1"] = serve.StateCompleted
			r.mu.Unlock()
			clk.now = t0.Add(25 * time.Second)
			tick(t, s)
			if got := r.started(); len(got) != c.after {
				t.Fatalf("after: runs %v", got)
			}
			f, _ := st.LastFire(t.Context(), "w", 0)
			if f.State != c.state || !f.At.Equal(t0.Add(20*time.Second)) {
				t.Fatalf("second fire: %+v", f)
			}
			if c.overlap == "queue" && r.started()[1] != key(t0.Add(20*time.Second)) {
				t.Fatalf("queued fire ran as %s", r.started()[1])
			}
		})
	}
}

// drive moves the fake clock from one upcoming fire to the next, ticking
// at each, until end; it returns the fire times that ran.
func drive(t *testing.T, trig string, from, end time.Time) []time.Time {
	t.Helper()
	p := pubWith(t, trig)
	st, r, clk := newMemStore(), newRunner(), &fakeClock{now: from}
	s := newSched(t, r, st, clk, p)
	tick(t, s)
	for range 10000 {
		next := s.Next()
		if len(next) != 1 || !next[0].At.Before(end) {
			break
		}
		clk.now = next[0].At
		tick(t, s)
		r.finishAll()
	}
	var out []time.Time
	for _, k := range r.started() {
		for _, f := range st.sorted() {
			if FireKey(f) == k {
				out = append(out, f.At)
			}
		}
	}
	return out
}

// DST in America/New_York: spring forward (2026-03-08, 02:00 → 03:00) a
// daily 02:30 fires once, at 03:00 EDT; fall back (2026-11-01, 02:00 →
// 01:00) a daily 01:30 fires once, an every-30-minutes schedule fires in
// both passes of the repeated hour (T3).
func TestScheduleDST(t *testing.T) {
	day := func(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }
	got := drive(t, `{"type":"schedule","cron":"30 2 * * *","time_zone":"America/New_York"}`, day(2026, 3, 7), day(2026, 3, 10))
	want := []time.Time{time.Date(2026, 3, 7, 7, 30, 0, 0, time.UTC), time.Date(2026, 3, 8, 7, 0, 0, 0, time.UTC), time.Date(2026, 3, 9, 6, 30, 0, 0, time.UTC)}
	if !slices.EqualFunc(got, want, time.Time.Equal) {
		t.Errorf("spring forward: %v, want %v", got, want)
	}
	got = drive(t, `{"type":"schedule","cron":"30 1 * * *","time_zone":"America/New_York"}`, day(2026, 10, 31), day(2026, 11, 3))
	want = []time.Time{time.Date(2026, 10, 31, 5, 30, 0, 0, time.UTC), time.Date(2026, 11, 1, 5, 30, 0, 0, time.UTC), time.Date(2026, 11, 2, 6, 30, 0, 0, time.UTC)}
	if !slices.EqualFunc(got, want, time.Time.Equal) {
		t.Errorf("fall back daily: %v, want %v", got, want)
	}
	got = drive(t, `{"type":"schedule","cron":"0 */30 * * * *","time_zone":"America/New_York"}`, time.Date(2026, 11, 1, 4, 59, 0, 0, time.UTC), time.Date(2026, 11, 1, 7, 1, 0, 0, time.UTC))
	var every []time.Time
	for at := time.Date(2026, 11, 1, 5, 0, 0, 0, time.UTC); !at.After(time.Date(2026, 11, 1, 7, 0, 0, 0, time.UTC)); at = at.Add(30 * time.Minute) {
		every = append(every, at) // 01:00, 01:30 EDT, 01:00, 01:30 EST, 02:00 EST
	}
	if !slices.EqualFunc(got, every, time.Time.Equal) {
		t.Errorf("fall back every 30 minutes: %v, want %v", got, every)
	}
}
