package cli

import (
	"context"
	"flag"
	"io"

	"workrun/workrun"
)

func init() {
	register(&Command{
		Name:    "stop",
		Args:    "RUN_ID [--json]",
		Summary: "stop an interrupted run (or one whose process died): its abort work runs, unfinished remote tasks get their cancel; exit 0 stopped, 2 if refused",
		Run:     stopCommand,
	})
}

// stopCommand stops a run nobody executes: interrupted (by exit, by a
// person, by a remote agent) or left running by a process that died. The
// run's abort hooks run here, each within its node's bound, so every
// unfinished remote task with a task id gets its one best-effort cancel
// (docs/remote-agent.md R9), shown as messages of its node. A run going on in another live
// process is refused (stop it there), as is one that already ended.
func stopCommand(ctx context.Context, env *Env, args []string) int {
	fs := flag.NewFlagSet("stop", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	asJSON := fs.Bool("json", false, "")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return usageError(env, "stop: "+err.Error())
	}
	if len(pos) != 1 {
		return usageError(env, "stop needs a run id")
	}
	return withEngine(ctx, env, func(svc *Services) int {
		runID := pos[0]
		out := newEventPrinter(env.Stdout, *asJSON)
		events, cancel := svc.Engine.Subscribe()
		printed := make(chan struct{})
		go func() {
			defer close(printed)
			for ev := range events {
				if ev.RunID == runID {
					out.event(ev)
				}
			}
		}()
		err = svc.Engine.StopClaimed(context.WithoutCancel(ctx), runID)
		cancel()
		<-printed
		if err != nil {
			return reportRunError(env, err)
		}
		final, err := svc.Runs.GetRun(context.WithoutCancel(ctx), runID)
		if err != nil {
			return reportRunError(env, err)
		}
		out.final(final)
		if final.Status != workrun.RunStopped && final.Status != workrun.RunFailed {
			return ExitFailed
		}
		return ExitOK
	})
}
