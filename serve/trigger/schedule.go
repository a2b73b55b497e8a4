package trigger

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"workrun/serve"
	"workrun/workrun"
)

// Clock is the time the scheduler reads and waits on.
type Clock interface {
	Now() time.Time
	After(d time.Duration) <-chan time.Time
}

// SystemClock is the wall clock.
type SystemClock struct{}

func (SystemClock) Now() time.Time                         { return time.Now() }
func (SystemClock) After(d time.Duration) <-chan time.Time { return time.After(d) }

// Store keeps fires and webhook signatures; *store.Store implements it.
type Store interface {
	RecordFire(ctx context.Context, f workrun.TriggerFire) (bool, error)
	SetFire(ctx context.Context, f workrun.TriggerFire) error
	LastFire(ctx context.Context, workflow string, trigger int) (workrun.TriggerFire, error)
	Fires(ctx context.Context, workflow string, limit int, states ...string) ([]workrun.TriggerFire, error)
	SeeSignature(ctx context.Context, workflow, signature string) (bool, error)
}

// Runner starts and reads served runs; *serve.Service implements it.
type Runner interface {
	Start(ctx context.Context, req serve.StartRequest) (serve.Task, bool, error)
	Get(ctx context.Context, caller, id string) (serve.Task, error)
}

// ScheduleCaller is the serve caller of scheduled runs (no token label
// has a ':', so no A2A caller sees them).
const ScheduleCaller = "trigger:schedule"

// Grace is how late a fire may be and still count as on time; an older
// unrecorded fire is missed (T2).
const Grace = 30 * time.Second

// FireKey is the serve idempotency key of a fire.
func FireKey(f workrun.TriggerFire) string {
	return fmt.Sprintf("%s#%d@%s", f.Workflow, f.Trigger, f.At.UTC().Format(time.RFC3339Nano))
}

type schedule struct {
	pub    string
	idx    int
	trig   workrun.Trigger
	from   time.Time // the latest fire time recorded (fires after it are due)
	last   string    // task id of the latest started run
	inited bool
}

// Scheduler fires the schedules of publications.
type Scheduler struct {
	runner Runner
	store  Store
	clock  Clock
	scheds []*schedule
	mu     sync.Mutex // one Tick at a time
}

// NewScheduler reads the schedule triggers of pubs.
func NewScheduler(r Runner, st Store, clk Clock, pubs []serve.Publication) (*Scheduler, error) {
	s := &Scheduler{runner: r, store: st, clock: clk}
	for _, p := range pubs {
		ts, err := workrun.Triggers(p.Workflow)
		if err != nil {
			return nil, fmt.Errorf("schedule %s: %w", p.ID, err)
		}
		for i, t := range ts {
			if t.Type == workrun.TriggerSchedule {
				s.scheds = append(s.scheds, &schedule{pub: p.ID, idx: i, trig: t})
			}
		}
	}
	return s, nil
}

// Len is the number of schedules.
func (s *Scheduler) Len() int { return len(s.scheds) }

// Run ticks at every fire time (and every second while a queued fire
// waits) until ctx ends; errors of a tick go to report.
func (s *Scheduler) Run(ctx context.Context, report func(error)) {
	for {
		if err := s.Tick(ctx); err != nil && report != nil && ctx.Err() == nil {
			report(err)
		}
		wait := s.wake(ctx)
		select {
		case <-ctx.Done():
			return
		case <-s.clock.After(wait):
		}
	}
}

// wake is how long until the next tick is needed.
func (s *Scheduler) wake(ctx context.Context) time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.clock.Now()
	wait := time.Minute
	for _, sc := range s.scheds {
		if n, ok := sc.trig.Next(maxTime(sc.from, now)); ok {
			wait = min(wait, n.Sub(now))
		}
		if q, err := s.store.Fires(ctx, sc.pub, 1, workrun.FireQueued, workrun.FirePending); err == nil && len(q) > 0 {
			wait = min(wait, time.Second)
		}
	}
	return max(wait, 0)
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// Tick does everything due at the clock's now: it finishes fires a crash
// left recorded but not started, starts a queued fire whose turn came, and
// fires what is due (T1–T4).
func (s *Scheduler) Tick(ctx context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.clock.Now()
	var errs []error
	for _, sc := range s.scheds {
		if err := s.tick(ctx, sc, now); err != nil {
			errs = append(errs, fmt.Errorf("schedule %s trigger %d: %w", sc.pub, sc.idx+1, err))
		}
	}
	return errors.Join(errs...)
}

func (s *Scheduler) tick(ctx context.Context, sc *schedule, now time.Time) error {
	if !sc.inited {
		if err := s.init(ctx, sc, now); err != nil {
			return err
		}
	}
	// T1: a fire recorded but never started (a crash in between): start it.
	open, err := s.fires(ctx, sc, workrun.FirePending, workrun.FireQueued)
	if err != nil {
		return err
	}
	slices.SortFunc(open, func(a, b workrun.TriggerFire) int { return a.At.Compare(b.At) })
	for _, f := range open {
		if f.State == workrun.FirePending {
			if err := s.start(ctx, sc, f); err != nil {
				return err
			}
		}
	}
	// T4 queue: the oldest queued fire starts once the last run ended.
	for _, f := range open {
		if f.State != workrun.FireQueued {
			continue
		}
		busy, err := s.busy(ctx, sc)
		if err != nil {
			return err
		}
		if busy {
			break
		}
		if err := s.start(ctx, sc, f); err != nil {
			return err
		}
	}
	// Due fires: the latest on time fires; the latest before it, if
	// any, is the missed one (T2).
	latest, ok := s.latestIn(sc, sc.from, now)
	if !ok {
		return nil
	}
	var missed time.Time
	hasMissed := false
	if now.Sub(latest) > Grace {
		missed, hasMissed = latest, true
	} else if m, ok := s.latestIn(sc, sc.from, latest.Add(-time.Nanosecond)); ok {
		missed, hasMissed = m, true
	}
	if hasMissed {
		if sc.trig.MissedPolicy() == workrun.MissedRunOnce {
			if err := s.fire(ctx, sc, missed); err != nil {
				return err
			}
		} else if err := s.record(ctx, sc, workrun.TriggerFire{Workflow: sc.pub, Trigger: sc.idx, At: missed, State: workrun.FireMissed}); err != nil {
			return err
		}
	}
	if now.Sub(latest) <= Grace {
		return s.fire(ctx, sc, latest)
	}
	return nil
}

// init reads where the schedule stopped: after its latest recorded fire,
// or now for a schedule never fired.
func (s *Scheduler) init(ctx context.Context, sc *schedule, now time.Time) error {
	last, err := s.store.LastFire(ctx, sc.pub, sc.idx)
	switch {
	case errors.Is(err, workrun.ErrNotFound):
		sc.from = now
	case err != nil:
		return err
	default:
		sc.from = last.At
	}
	started, err := s.fires(ctx, sc, workrun.FireStarted)
	if err != nil {
		return err
	}
	for _, f := range started { // newest first
		sc.last = f.TaskID
		break
	}
	sc.inited = true
	return nil
}

// fires lists this trigger's fires in the states, newest first.
func (s *Scheduler) fires(ctx context.Context, sc *schedule, states ...string) ([]workrun.TriggerFire, error) {
	all, err := s.store.Fires(ctx, sc.pub, 1000, states...)
	if err != nil {
		return nil, err
	}
	var out []workrun.TriggerFire
	for _, f := range all {
		if f.Trigger == sc.idx {
			out = append(out, f)
		}
	}
	return out, nil
}

// latestIn is the latest fire time in (from, to], searched in growing
// windows back from to so a long downtime costs no walk over every fire.
func (s *Scheduler) latestIn(sc *schedule, from, to time.Time) (time.Time, bool) {
	for _, w := range []time.Duration{Grace, time.Hour, 24 * time.Hour, 32 * 24 * time.Hour, 400 * 24 * time.Hour, 6 * 366 * 24 * time.Hour} {
		start := maxTime(from, to.Add(-w))
		var last time.Time
		found := false
		for at, n := start, 0; n < 200000; n++ {
			next, ok := sc.trig.Next(at)
			if !ok || next.After(to) {
				break
			}
			last, found, at = next, true, next
		}
		if found {
			return last, true
		}
		if !start.After(from) {
			return time.Time{}, false
		}
	}
	return time.Time{}, false
}

// busy: the trigger's latest run is unfinished (working or waiting for an answer).
func (s *Scheduler) busy(ctx context.Context, sc *schedule) (bool, error) {
	if sc.last == "" {
		return false, nil
	}
	t, err := s.runner.Get(ctx, ScheduleCaller, sc.last)
	if errors.Is(err, serve.ErrTaskNotFound) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return !t.State.Final(), nil
}

// fire handles one due fire time by the overlap policy (T4).
func (s *Scheduler) fire(ctx context.Context, sc *schedule, at time.Time) error {
	f := workrun.TriggerFire{Workflow: sc.pub, Trigger: sc.idx, At: at, State: workrun.FirePending}
	if pol := sc.trig.OverlapPolicy(); pol != workrun.OverlapAllow {
		busy, err := s.busy(ctx, sc)
		if err != nil {
			return err
		}
		if busy {
			f.State = workrun.FireSkipped
			if pol == workrun.OverlapQueue {
				f.State = workrun.FireQueued
			}
			return s.record(ctx, sc, f)
		}
	}
	fresh, err := s.store.RecordFire(ctx, f)
	if err != nil {
		return err
	}
	sc.from = maxTime(sc.from, at)
	if !fresh {
		return nil // recorded by another process (or before a restart): it is theirs
	}
	return s.start(ctx, sc, f)
}

func (s *Scheduler) record(ctx context.Context, sc *schedule, f workrun.TriggerFire) error {
	if _, err := s.store.RecordFire(ctx, f); err != nil {
		return err
	}
	sc.from = maxTime(sc.from, f.At)
	return nil
}

// start starts f's run (idempotent by its key) and marks it started.
func (s *Scheduler) start(ctx context.Context, sc *schedule, f workrun.TriggerFire) error {
	t, _, err := s.runner.Start(ctx, serve.StartRequest{Caller: ScheduleCaller, Publication: sc.pub, Key: FireKey(f), Inputs: workrun.Values{}, Via: workrun.StartedBySchedule})
	if err != nil {
		return fmt.Errorf("start fire %s: %w", f.At.Format(time.RFC3339), err)
	}
	f.State, f.TaskID = workrun.FireStarted, t.ID
	if err := s.store.SetFire(ctx, f); err != nil {
		return err
	}
	sc.last = t.ID
	return nil
}

// Upcoming is a schedule's next fire time.
type Upcoming struct {
	Publication string
	Trigger     int
	At          time.Time
}

// Next lists every schedule's next fire time after the clock's now.
func (s *Scheduler) Next() []Upcoming {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.clock.Now()
	var out []Upcoming
	for _, sc := range s.scheds {
		if n, ok := sc.trig.Next(maxTime(now, sc.from)); ok {
			out = append(out, Upcoming{Publication: sc.pub, Trigger: sc.idx, At: n})
		}
	}
	return out
}
