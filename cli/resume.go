package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

	"workrun/workrun"
)

func init() {
	register(&Command{
		Name:    "resume",
		Args:    "RUN_ID [--json]",
		Summary: "continue a run interrupted by exit (finished nodes are not run again); exit 2 if another process has it",
		Run:     resumeCommand,
	})
}

func resumeCommand(ctx context.Context, env *Env, args []string) int {
	fs := flag.NewFlagSet("resume", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	asJSON := fs.Bool("json", false, "")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return usageError(env, "resume: "+err.Error())
	}
	if len(pos) != 1 {
		return usageError(env, "resume needs a run id")
	}
	return withEngine(ctx, env, func(svc *Services) int {
		runID := pos[0]
		// Resume claims the run in one atomic step, also a run still saved
		// "running" by a process that died (docs/remote-agent.md R13): of several concurrent
		// resumes exactly one goes on, the others exit 2.
		return continueRun(ctx, env, svc.Engine, runID, *asJSON, func() error { return svc.Engine.Resume(ctx, runID) })
	})
}

// withEngine opens the services and runs fn with an engine.
func withEngine(ctx context.Context, env *Env, fn func(svc *Services) int) int {
	svc, code := env.open(ctx)
	if svc == nil {
		return code
	}
	defer closeServices(env, svc)
	if svc.Engine == nil {
		fmt.Fprintln(env.Stderr, "workrun: this build has no workflow engine")
		return ExitFailed
	}
	return fn(svc)
}

// openRunStore opens the services of a command that reads runs (runs, show).
// When it returns nil the command exits with code, the reason already
// printed; otherwise the caller closes svc with closeServices.
func openRunStore(ctx context.Context, env *Env) (*Services, int) {
	svc, code := env.open(ctx)
	if svc == nil {
		return nil, code
	}
	if svc.Runs == nil {
		fmt.Fprintln(env.Stderr, "workrun: this build has no run store")
		closeServices(env, svc)
		return nil, ExitFailed
	}
	return svc, ExitOK
}

// reportRunError prints err; a missing run, a run in the wrong state or one
// another caller has taken over is a usage error, anything else a failure.
func reportRunError(env *Env, err error) int {
	var ce *workrun.ClaimError
	if errors.As(err, &ce) {
		// The claim's own sentence says it all.
		fmt.Fprintf(env.Stderr, "workrun: %v\n", ce)
	} else {
		fmt.Fprintf(env.Stderr, "workrun: %v\n", err)
	}
	switch {
	case errors.Is(err, workrun.ErrNotFound), errors.Is(err, workrun.ErrNotResumable),
		errors.Is(err, workrun.ErrNoDecisionPending), errors.Is(err, workrun.ErrRunActive),
		errors.Is(err, workrun.ErrRunClaimed), errors.Is(err, workrun.ErrRemoteInput),
		errors.Is(err, workrun.ErrAlreadyAnswered), errors.Is(err, workrun.ErrBadAnswer):
		return ExitUsage
	}
	return ExitFailed
}
