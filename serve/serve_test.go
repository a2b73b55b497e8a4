package serve_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"workrun/artifacts"
	"workrun/nodes/askhuman"
	"workrun/nodes/humanreview"
	"workrun/nodes/output"
	"workrun/nodes/process"
	"workrun/nodes/set"
	"workrun/nodes/start"
	"workrun/serve"
	"workrun/store"
	"workrun/store/storetest"
	"workrun/workrun"
)

const childDir = "WORKRUN_SERVE_CHILD_DIR"

func TestMain(m *testing.M) { storetest.ChildMain(m, childDir, child) }

func kinds(*store.Store) []workrun.Kind {
	return []workrun.Kind{start.Kind{}, set.Kind{}, output.Kind{}, humanreview.Kind{}, askhuman.Kind{}, process.Kind{}}
}

func mustWorkflow(t testing.TB, s string) workrun.Workflow {
	t.Helper()
	wf, err := workrun.ReadWorkflow(strings.NewReader(s))
	if err != nil {
		t.Fatal(err)
	}
	return wf
}

const helloJSON = `{"name":"Hello","state":{"name":"text","message":"text"},
 "publish":{"description":"greets","inputs":["name"],"outputs":["message"]},
 "nodes":[{"id":"start","type":"start"},{"id":"greet","type":"set","config":{"values":{"message":"Hello, {{name}}!"}}},
  {"id":"end","type":"output","config":{"fields":["message"]}}],
 "edges":[{"from":"start","to":"greet"},{"from":"greet","to":"end"}]}`

const slowJSON = `{"name":"Slow","state":{"out":"text"},"publish":{"outputs":["out"]},
 "nodes":[{"id":"start","type":"start"},{"id":"wait","type":"process","config":{"command":["sleep","30"],"stdout":"out"}}],
 "edges":[{"from":"start","to":"wait"}]}`

const reviewJSON = `{"name":"Review","state":{"draft":"text","published":"text"},
 "publish":{"inputs":["draft"],"outputs":["published"]},
 "nodes":[{"id":"start","type":"start"},{"id":"review","type":"human_review","config":{"prompt":"Publish this draft?","fields":["draft"]}},
  {"id":"publish","type":"set","config":{"values":{"published":"Published: {{draft}}"}}}],
 "edges":[{"from":"start","to":"review"},{"from":"review","to":"publish"}]}`

type fixture struct {
	st  *store.Store
	eng *workrun.Engine
	svc *serve.Service
}

func newService(t *testing.T, dir string, flows ...string) fixture {
	t.Helper()
	_, st, arts := storetest.Open(t, dir)
	eng := workrun.NewEngine(st, arts, kinds(st)...)
	t.Cleanup(func() { eng.Close(context.WithoutCancel(t.Context())) })
	svc := newSvc(t, eng, st, flows...)
	return fixture{st: st, eng: eng, svc: svc}
}

func newSvc(t testing.TB, eng *workrun.Engine, st *store.Store, flows ...string) *serve.Service {
	var pubs []serve.Publication
	for _, f := range flows {
		p, err := serve.NewPublication("", "", mustWorkflow(t, f))
		if err != nil {
			t.Fatal(err)
		}
		pubs = append(pubs, p)
	}
	svc, err := serve.New(eng, st, pubs)
	if err != nil {
		t.Fatal(err)
	}
	return svc
}

func waitState(t *testing.T, svc *serve.Service, caller, id string) serve.Task {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	got, err := svc.Wait(ctx, caller, id)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func TestStartRunsAndReturnsOutputs(t *testing.T) {
	f := newService(t, "", helloJSON)
	task, created, err := f.svc.Start(t.Context(), serve.StartRequest{Caller: "a", Publication: "hello", Key: "m1", Inputs: workrun.Values{"name": "Ada"}})
	if err != nil || !created {
		t.Fatalf("start: %v %v", created, err)
	}
	got := waitState(t, f.svc, "a", task.ID)
	if got.State != serve.StateCompleted || got.Outputs["message"] != "Hello, Ada!" {
		t.Fatalf("task %+v", got)
	}
	if _, ok := got.Outputs["name"]; ok {
		t.Fatal("an unpublished field came back")
	}
}

func TestInputsOutsidePublicationRefused(t *testing.T) {
	f := newService(t, "", helloJSON)
	_, _, err := f.svc.Start(t.Context(), serve.StartRequest{Caller: "a", Publication: "hello", Key: "m1", Inputs: workrun.Values{"message": "x"}})
	if !errors.Is(err, serve.ErrBadInput) || !strings.Contains(err.Error(), `"message"`) {
		t.Fatalf("err %v", err)
	}
	_, _, err = f.svc.Start(t.Context(), serve.StartRequest{Caller: "a", Publication: "hello", Key: "m1", Inputs: workrun.Values{"name": 3.0}})
	if !errors.Is(err, serve.ErrBadInput) {
		t.Fatalf("err %v", err)
	}
	runs, _ := f.st.ListRuns(t.Context(), workrun.RunFilter{})
	if len(runs) != 0 {
		t.Fatalf("%d runs after refused starts", len(runs))
	}
}

// S2: concurrent duplicates of one caller and key start one run.
func TestSameKeyConcurrentlyOneRun(t *testing.T) {
	f := newService(t, "", helloJSON)
	var wg sync.WaitGroup
	ids := make([]string, 16)
	var created sync.Map
	for i := range ids {
		wg.Go(func() {
			task, c, err := f.svc.Start(t.Context(), serve.StartRequest{Caller: "a", Publication: "hello", Key: "same", Inputs: workrun.Values{"name": "x"}})
			if err != nil {
				t.Error(err)
				return
			}
			ids[i] = task.ID
			if c {
				created.Store(i, true)
			}
		})
	}
	wg.Wait()
	for _, id := range ids {
		if id != ids[0] {
			t.Fatalf("two tasks: %v", ids)
		}
	}
	n := 0
	created.Range(func(any, any) bool { n++; return true })
	runs, _ := f.st.ListRuns(t.Context(), workrun.RunFilter{})
	if n != 1 || len(runs) != 1 {
		t.Fatalf("created %d, runs %d", n, len(runs))
	}
	// Another caller's same key is its own task.
	other, c, err := f.svc.Start(t.Context(), serve.StartRequest{Caller: "b", Publication: "hello", Key: "same"})
	if err != nil || !c || other.ID == ids[0] {
		t.Fatalf("caller b: %v %v", c, err)
	}
	if _, err := f.svc.Get(t.Context(), "b", ids[0]); !errors.Is(err, serve.ErrTaskNotFound) {
		t.Fatalf("b read a's task: %v", err)
	}
}

// S1, S2: duplicates of one key racing in one process, each waiting for
// the task (a blocking SendMessage, whose run of pure nodes is saved with
// its task in one commit at its end): one run, one task, every duplicate
// gets it completed; the run was saved with its task in one commit.
func TestSameKeyConcurrentlyWaitingOneRun(t *testing.T) {
	f := newService(t, "", helloJSON)
	var wg sync.WaitGroup
	tasks := make([]serve.Task, 16)
	var created atomic.Int32
	for i := range tasks {
		wg.Go(func() {
			task, c, err := f.svc.Start(t.Context(), serve.StartRequest{Caller: "a", Publication: "hello", Key: "same",
				Inputs: workrun.Values{"name": "x"}, Wait: true})
			if err != nil {
				t.Error(err)
				return
			}
			tasks[i] = task
			if c {
				created.Add(1)
			}
		})
	}
	wg.Wait()
	for _, task := range tasks {
		if task.ID != tasks[0].ID || task.State != serve.StateCompleted || task.Outputs["message"] != "Hello, x!" {
			t.Fatalf("task %+v, first %s", task, tasks[0].ID)
		}
	}
	runs, _ := f.st.ListRuns(t.Context(), workrun.RunFilter{})
	if created.Load() != 1 || len(runs) != 1 || runs[0].Status != workrun.RunSucceeded {
		t.Fatalf("created %d, runs %+v", created.Load(), runs)
	}
	// The same key afterwards: the saved task, completed.
	again, c, err := f.svc.Start(t.Context(), serve.StartRequest{Caller: "a", Publication: "hello", Key: "same", Wait: true})
	if err != nil || c || again.ID != tasks[0].ID || again.State != serve.StateCompleted {
		t.Fatalf("again: %+v %v %v", again, c, err)
	}
	// A workflow with a node that is not pure keeps the task saved before
	// the run starts: a concurrent Get finds it while it runs.
	slow := newService(t, "", slowJSON)
	done := make(chan error, 1)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	go func() {
		_, _, err := slow.svc.Start(ctx, serve.StartRequest{Caller: "a", Publication: "slow", Key: "s1", Wait: true})
		done <- err
	}()
	deadline := time.Now().Add(30 * time.Second)
	for {
		if task, err := slow.svc.ByKey(t.Context(), "a", "s1"); err == nil {
			if task.State != serve.StateWorking {
				t.Fatalf("slow task %s while it runs", task.State)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the slow task was not saved while its run went on")
		}
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("blocking start of slow after cancel: %v", err)
	}
}

// child: starts the hello publication with key "race" and prints the task
// id and whether it created it.
func child(dir string) int {
	ctx := context.Background()
	st, err := store.Open(ctx, dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	arts, err := artifacts.New(dir, st)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	eng := workrun.NewEngine(st, arts, kinds(st)...)
	wf, err := workrun.ReadWorkflow(strings.NewReader(helloJSON))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	p, _ := serve.NewPublication("", "", wf)
	svc, _ := serve.New(eng, st, []serve.Publication{p})
	if os.Getenv("WORKRUN_SERVE_CHILD_GO") != "" {
		// Wait for the parent's word so the children race.
		var b [1]byte
		os.Stdin.Read(b[:]) //nolint:errcheck // EOF is the word too
	}
	wait := os.Getenv("WORKRUN_SERVE_CHILD_WAIT") != ""
	task, created, err := svc.Start(ctx, serve.StartRequest{Caller: "a", Publication: "hello", Key: "race", Inputs: workrun.Values{"name": "p"}, Wait: wait})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if _, err := eng.Wait(ctx, task.RunID); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Println("task", task.ID, created)
	return 0
}

// S2 across processes: eight processes start the same key at once; one run.
// Wait: each waits for the task as a blocking SendMessage does, so each runs
// hello (pure nodes only) to its end and the unique index refuses all but
// the first commit of the task with the run (S1).
func TestSameKeyEightProcessesOneRun(t *testing.T) {
	for _, wait := range []bool{false, true} {
		t.Run(fmt.Sprint("wait=", wait), func(t *testing.T) { sameKeyEightProcesses(t, wait) })
	}
}

func sameKeyEightProcesses(t *testing.T, wait bool) {
	dir := t.TempDir()
	// Create the schema first, so the children race on the task, not the migration.
	st, err := store.Open(t.Context(), dir)
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	type res struct {
		out string
		err error
	}
	var gos []interface{ Close() error }
	results := make([]res, 8)
	var wg sync.WaitGroup
	for i := range results {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), childDir+"="+dir, "WORKRUN_SERVE_CHILD_GO=1")
		if wait {
			cmd.Env = append(cmd.Env, "WORKRUN_SERVE_CHILD_WAIT=1")
		}
		in, err := cmd.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		var out strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		gos = append(gos, in)
		wg.Go(func() { err := cmd.Wait(); results[i] = res{out.String(), err} })
	}
	for _, g := range gos {
		g.Close()
	}
	wg.Wait()
	var first string
	createdN := 0
	for _, r := range results {
		if r.err != nil {
			t.Fatalf("child: %v: %s", r.err, r.out)
		}
		var id string
		var created bool
		if _, err := fmt.Sscanf(r.out, "task %s %t", &id, &created); err != nil {
			t.Fatalf("child said %q", r.out)
		}
		if first == "" {
			first = id
		}
		if id != first {
			t.Fatalf("two tasks: %s, %s", first, id)
		}
		if created {
			createdN++
		}
	}
	_, st2, _ := storetest.Open(t, dir)
	runs, err := st2.ListRuns(t.Context(), workrun.RunFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if createdN != 1 || len(runs) != 1 || runs[0].Status != workrun.RunSucceeded {
		t.Fatalf("created %d, runs %+v", createdN, runs)
	}
}

func TestCancelStopsRun(t *testing.T) {
	f := newService(t, "", slowJSON)
	task, _, err := f.svc.Start(t.Context(), serve.StartRequest{Caller: "a", Publication: "slow", Key: "k"})
	if err != nil {
		t.Fatal(err)
	}
	// Wait for the process node to be running (its line may be saved
	// before the subscription: EventsSince yields it from the store).
	for ev, err := range f.svc.EventsSince(t.Context(), "a", task.ID, 0) {
		if err != nil {
			t.Fatal(err)
		}
		if ev.Message != nil && ev.Message.NodeID == "wait" {
			break
		}
	}
	got, err := f.svc.Cancel(t.Context(), "a", task.ID)
	if err != nil || got.State != serve.StateCanceled {
		t.Fatalf("cancel: %+v %v", got.State, err)
	}
	if _, err := f.svc.Cancel(t.Context(), "a", task.ID); err != nil {
		t.Fatalf("second cancel: %v", err)
	}
	if _, err := f.svc.Cancel(t.Context(), "b", task.ID); !errors.Is(err, serve.ErrTaskNotFound) {
		t.Fatalf("other caller cancel: %v", err)
	}
}

func TestCancelFinalNotCancelable(t *testing.T) {
	f := newService(t, "", helloJSON)
	task, _, _ := f.svc.Start(t.Context(), serve.StartRequest{Caller: "a", Publication: "hello", Key: "k"})
	waitState(t, f.svc, "a", task.ID)
	if _, err := f.svc.Cancel(t.Context(), "a", task.ID); !errors.Is(err, serve.ErrNotCancelable) {
		t.Fatalf("err %v", err)
	}
}

// S7: the caller answers a Human Review; a second answer loses.
func TestAnswerReview(t *testing.T) {
	f := newService(t, "", reviewJSON)
	task, _, err := f.svc.Start(t.Context(), serve.StartRequest{Caller: "a", Publication: "review", Key: "k", Inputs: workrun.Values{"draft": "D"}})
	if err != nil {
		t.Fatal(err)
	}
	got := waitState(t, f.svc, "a", task.ID)
	if got.State != serve.StateInputRequired || got.Question == nil || got.Question.Prompt != "Publish this draft?" {
		t.Fatalf("task %+v", got)
	}
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Go(func() { _, errs[i] = f.svc.Answer(t.Context(), "a", task.ID, serve.Answer{Approved: true}) })
	}
	wg.Wait()
	ok := 0
	for _, err := range errs {
		switch {
		case err == nil:
			ok++
		case errors.Is(err, serve.ErrAnswered), errors.Is(err, serve.ErrNoQuestion), errors.Is(err, serve.ErrFinal):
		default:
			t.Fatalf("answer: %v", err)
		}
	}
	if ok != 1 {
		t.Fatalf("%d answers taken: %v", ok, errs)
	}
	got = waitState(t, f.svc, "a", task.ID)
	if got.State != serve.StateCompleted || got.Outputs["published"] != "Published: D" {
		t.Fatalf("task %+v", got)
	}
}

func TestListPagesAndFilters(t *testing.T) {
	f := newService(t, "", helloJSON)
	var ids []string
	for i := range 5 {
		task, _, err := f.svc.Start(t.Context(), serve.StartRequest{Caller: "a", Publication: "hello", Key: fmt.Sprint(i)})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, task.ID)
		waitState(t, f.svc, "a", task.ID)
	}
	f.svc.Start(t.Context(), serve.StartRequest{Caller: "b", Publication: "hello", Key: "0"}) //nolint:errcheck // another caller's task
	var seen []string
	before := ""
	for range 10 {
		page, next, err := f.svc.List(t.Context(), "a", serve.ListFilter{Limit: 2, Before: before})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range page {
			seen = append(seen, p.ID)
		}
		if next == "" {
			break
		}
		before = next
	}
	if len(seen) != 5 || seen[0] != ids[4] || seen[4] != ids[0] {
		t.Fatalf("seen %v want newest first of %v", seen, ids)
	}
	done, _, _ := f.svc.List(t.Context(), "a", serve.ListFilter{State: serve.StateCanceled})
	if len(done) != 0 {
		t.Fatalf("state filter: %d", len(done))
	}
}

// S3: a task whose run a dead process left running is resumed and completes.
func TestResumeUnfinishedAfterCrash(t *testing.T) {
	dir := t.TempDir()
	f := newService(t, dir, reviewJSON)
	task, _, err := f.svc.Start(t.Context(), serve.StartRequest{Caller: "a", Publication: "review", Key: "k", Inputs: workrun.Values{"draft": "D"}})
	if err != nil {
		t.Fatal(err)
	}
	waitState(t, f.svc, "a", task.ID)
	// The old task reads the same from a new process's service.
	_, st2, arts2 := storetest.Open(t, dir)
	eng2 := workrun.NewEngine(st2, arts2, kinds(st2)...)
	defer eng2.Close(context.WithoutCancel(t.Context()))
	svc2 := newSvc(t, eng2, st2, reviewJSON)
	got, err := svc2.Get(t.Context(), "a", task.ID)
	if err != nil || got.State != serve.StateInputRequired {
		t.Fatalf("after reopen: %+v %v", got.State, err)
	}
	if _, err := svc2.Answer(t.Context(), "a", task.ID, serve.Answer{Approved: true}); err != nil {
		t.Fatal(err)
	}
	if got := waitState(t, svc2, "a", task.ID); got.State != serve.StateCompleted {
		t.Fatalf("state %s", got.State)
	}
}

// A caller's run is marked with the caller's token label and its front's
// kind, in the saved run the window and `workrun runs` read.
func TestStartRecordsStartedBy(t *testing.T) {
	f := newService(t, "", helloJSON)
	for _, c := range []struct {
		req  serve.StartRequest
		want workrun.StartedBy
	}{
		{serve.StartRequest{Caller: "ci-bot", Publication: "hello", Key: "m1"}, workrun.StartedBy{Kind: workrun.StartedByA2A, Label: "ci-bot"}},
		{serve.StartRequest{Caller: "", Publication: "hello", Key: "m2"}, workrun.StartedBy{Kind: workrun.StartedByA2A}},
		{serve.StartRequest{Caller: "tools", Publication: "hello", Key: "m3", Via: workrun.StartedByMCP}, workrun.StartedBy{Kind: workrun.StartedByMCP, Label: "tools"}},
	} {
		task, created, err := f.svc.Start(t.Context(), c.req)
		if err != nil || !created {
			t.Fatalf("start %+v: %v %v", c.req, created, err)
		}
		waitState(t, f.svc, c.req.Caller, task.ID)
		r, err := f.st.GetRun(t.Context(), task.RunID)
		if err != nil {
			t.Fatal(err)
		}
		if r.StartedBy != c.want {
			t.Errorf("run of %+v: StartedBy = %+v, want %+v", c.req, r.StartedBy, c.want)
		}
	}
}
