package storetest

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"workrun/artifacts"
	"workrun/store"
	"workrun/workrun"
)

// A crash test runs its own test binary again as a runner process (the
// child), waits until the run reached the state under test, SIGKILLs it and
// reopens the data directory. The child's environment carries the data
// directory in the variable the package names (e.g. WORKRUN_RA_CHILD_DIR)
// and whatever else the package's child reads.

// ChildMain is the TestMain of a package with crash tests: when the
// variable dirEnv is set, the binary is the child — it runs child with the
// data directory and exits with what child returns; otherwise it runs the
// tests.
func ChildMain(m *testing.M, dirEnv string, child func(dir string) int) {
	if dir := os.Getenv(dirEnv); dir != "" {
		os.Exit(child(dir))
	}
	os.Exit(m.Run())
}

// StartRun is a child's body: it opens the data directory with an engine
// over kinds (given the store, for the kinds that keep records in it),
// starts wf with in, prints "run <id>" and waits to be killed. It returns
// only on a failure, with exit code 1.
func StartRun(dir string, wf workrun.Workflow, in workrun.Values, kinds func(st *store.Store) []workrun.Kind) int {
	ctx := context.Background()
	eng, err := OpenEngine(ctx, dir, kinds)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	id, err := eng.Start(ctx, "", wf, in)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Println("run", id)
	select {} // killed by the parent
}

// OpenEngine is a child's engine over the data directory's store and
// artifacts, with kinds (given the store). The child never closes them: it
// is killed.
func OpenEngine(ctx context.Context, dir string, kinds func(st *store.Store) []workrun.Kind) (*workrun.Engine, error) {
	st, err := store.Open(ctx, dir)
	if err != nil {
		return nil, err
	}
	arts, err := artifacts.New(dir, st)
	if err != nil {
		st.Close() //nolint:errcheck // the open error is the one to report
		return nil, err
	}
	return workrun.NewEngine(st, arts, kinds(st)...), nil
}

// StartChild runs the test binary as the child (env: its extra variables,
// the data directory's among them) and returns the process and the id of
// the run it started, read from its first line. The child is killed and
// reaped when t ends, if it is still there.
func StartChild(t testing.TB, env ...string) (*exec.Cmd, string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), env...)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() }) //nolint:errcheck // already dead in the normal case
	sc := bufio.NewScanner(out)
	if !sc.Scan() || !strings.HasPrefix(sc.Text(), "run ") {
		t.Fatalf("child said %q", sc.Text())
	}
	return cmd, strings.TrimPrefix(sc.Text(), "run ")
}

// Kill SIGKILLs the child and reaps it.
func Kill(t testing.TB, cmd *exec.Cmd) {
	t.Helper()
	if err := cmd.Process.Kill(); err != nil { // SIGKILL
		t.Fatal(err)
	}
	cmd.Wait() //nolint:errcheck // killed: the error is the signal
}
