package desktop

import (
	"context"
	"encoding/json"
	"slices"
	"sync"
	"testing"
	"time"

	"workrun/serve/trigger"
	"workrun/ui"
	"workrun/workrun"
)

// stepClock is a fake clock whose After moves time on at once, a given
// number of times; after that it waits for good (the test ends the loop).
type stepClock struct {
	mu    sync.Mutex
	now   time.Time
	steps int
	moved chan struct{} // closed when the steps are used up
}

func newStepClock(at time.Time, steps int) *stepClock {
	return &stepClock{now: at, steps: steps, moved: make(chan struct{})}
}

func (c *stepClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *stepClock) After(d time.Duration) <-chan time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	ch := make(chan time.Time, 1)
	if c.steps == 0 {
		return ch // never: the steps are used up
	}
	c.steps--
	if c.steps == 0 {
		defer close(c.moved)
	}
	c.now = c.now.Add(d)
	ch <- c.now
	return ch
}

// tickFlow is the published `*/1 * * * * *` workflow of the wiring tests.
func tickFlow(triggers string) workrun.Workflow {
	var wf workrun.Workflow
	src := `{"name":"Window tick","state":{"message":"text"},"publish":{"outputs":["message"]},
 "nodes":[{"id":"start","type":"start","config":{"triggers":` + triggers + `}},
  {"id":"say","type":"set","config":{"values":{"message":"tick"}}}],
 "edges":[{"from":"start","to":"say"}]}`
	if err := json.Unmarshal([]byte(src), &wf); err != nil {
		panic(err)
	}
	return wf
}

// scheduleRuns are the runs the schedules started, by id.
func scheduleRuns(t *testing.T, p *Parts) []workrun.Run {
	t.Helper()
	rs, err := p.Store.ListRuns(t.Context(), workrun.RunFilter{Limit: 500})
	if err != nil {
		t.Fatal(err)
	}
	var out []workrun.Run
	for _, r := range rs {
		if r.StartedBy.Kind == workrun.StartedBySchedule {
			out = append(out, r)
		}
	}
	return out
}

// TestWindowFiresSchedules: the window's wiring (scheduleDeps, as Run
// calls it) fires a published workflow's `*/1 * * * * *` schedule into run
// records, one run per fire, marked as started by a schedule; the Triggers
// section's Fires lists those fires with their runs; saving the workflow
// without its schedule stops the fires (docs/triggers.md "In the window").
func TestWindowFiresSchedules(t *testing.T) {
	ctx := t.Context()
	p, err := openParts(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer p.Store.Close()
	defer p.Engine.Close(context.WithoutCancel(ctx))
	rec, err := p.Store.SaveWorkflow(ctx, "", tickFlow(`[{"type":"schedule","cron":"*/1 * * * * *","overlap":"allow"}]`))
	if err != nil {
		t.Fatal(err)
	}
	clk := newStepClock(time.Date(2026, 12, 7, 2, 0, 0, 0, time.UTC), 3)
	var errs []error
	var mu sync.Mutex
	var d ui.Deps
	stop := scheduleDeps(ctx, &d, p, clk, func(err error) { mu.Lock(); errs = append(errs, err); mu.Unlock() }, nil)
	defer stop()
	select {
	case <-clk.moved:
	case <-time.After(20 * time.Second):
		t.Fatal("the scheduler never waited three times")
	}
	// The third wait's tick may still be under way: the runs are there
	// once the fires are started.
	var fires []ui.FiredRun
	deadline := time.Now().Add(20 * time.Second)
	for {
		fires, err = d.Fires(ctx, rec.ID, rec.Workflow, 50)
		if err != nil {
			t.Fatal(err)
		}
		started := 0
		for _, f := range fires {
			if f.State == workrun.FireStarted && f.RunID != "" {
				started++
			}
		}
		if started == 3 || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if len(fires) != 3 {
		t.Fatalf("fires %+v, want 3 (one a second for three seconds)", fires)
	}
	runs := scheduleRuns(t, p)
	if len(runs) != 3 {
		t.Fatalf("%d runs started by a schedule, want 3", len(runs))
	}
	var runIDs, fireRuns []string
	for _, r := range runs {
		runIDs = append(runIDs, r.ID)
		if r.WorkflowID != rec.ID {
			t.Errorf("run %s is of workflow %q, want %q", r.ID, r.WorkflowID, rec.ID)
		}
	}
	for i, f := range fires {
		fireRuns = append(fireRuns, f.RunID)
		want := time.Date(2026, 12, 7, 2, 0, 3-i, 0, time.UTC) // newest first
		if !f.At.Equal(want) || f.Trigger != 0 {
			t.Errorf("fire %d: %+v, want trigger 0 at %s", i, f, want)
		}
	}
	slices.Sort(runIDs)
	slices.Sort(fireRuns)
	if !slices.Equal(runIDs, fireRuns) {
		t.Errorf("fires name runs %v, the schedule started %v", fireRuns, runIDs)
	}
	for _, id := range runIDs {
		r, err := p.Engine.Wait(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if r.Status != workrun.RunSucceeded || r.State["message"] != "tick" {
			t.Errorf("run %s: %s %v", id, r.Status, r.State)
		}
	}
	mu.Lock()
	if len(errs) > 0 {
		t.Errorf("the scheduler reported %v", errs)
	}
	mu.Unlock()

	// Saved without the schedule: rebuilt, it fires no more.
	clk2 := newStepClock(clk.Now(), 3)
	ws := d.Workflows.(rebuildingWorkflows).sched
	ws.mu.Lock()
	ws.clock = clk2
	ws.mu.Unlock()
	if _, err := d.Workflows.SaveWorkflow(ctx, rec.ID, tickFlow(`[]`)); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 20*time.Second, "the schedules", func() bool {
		ws.mu.Lock()
		defer ws.mu.Unlock()
		return ws.sched != nil && ws.sched.Len() == 0
	})
	if n := len(scheduleRuns(t, p)); n != 3 {
		t.Errorf("%d runs after the schedule was removed, want still 3", n)
	}
	// And saved with it again: it fires again, from the rebuilt scheduler.
	if _, err := d.Workflows.SaveWorkflow(ctx, rec.ID, tickFlow(`[{"type":"schedule","cron":"*/1 * * * * *","overlap":"allow"}]`)); err != nil {
		t.Fatal(err)
	}
	select {
	case <-clk2.moved:
	case <-time.After(20 * time.Second):
		t.Fatal("the rebuilt scheduler never waited")
	}
	waitFor(t, 20*time.Second, "the schedules", func() bool { return len(scheduleRuns(t, p)) == 6 })
}

// TestWindowAndServeShareFires: two schedulers on one data directory (the
// window's and another's, as with `workrun serve` beside the window, T9)
// make one run per fire.
func TestWindowAndServeShareFires(t *testing.T) {
	ctx := t.Context()
	p, err := openParts(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer p.Store.Close()
	defer p.Engine.Close(context.WithoutCancel(ctx))
	if _, err := p.Store.SaveWorkflow(ctx, "", tickFlow(`[{"type":"schedule","cron":"*/1 * * * * *","overlap":"allow"}]`)); err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 12, 7, 2, 0, 0, 0, time.UTC)
	var clocks []*stepClock
	for range 2 {
		clk := newStepClock(at, 3)
		clocks = append(clocks, clk)
		var d ui.Deps
		stop := scheduleDeps(ctx, &d, p, clk, func(err error) { t.Errorf("scheduler: %v", err) }, nil)
		defer stop()
	}
	for _, c := range clocks {
		<-c.moved
	}
	waitFor(t, 20*time.Second, "the schedules", func() bool {
		fs, err := p.Store.Fires(ctx, "window-tick", 50, workrun.FireStarted)
		return err == nil && len(fs) == 3
	})
	if n := len(scheduleRuns(t, p)); n != 3 {
		t.Errorf("%d runs for 3 fires of two schedulers, want 3", n)
	}
}

var _ trigger.Clock = (*stepClock)(nil)
