package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"

	"workrun/workrun"
)

func init() {
	register(&Command{
		Name:    "stop",
		Args:    "RUN_ID [--json]",
		Summary: "stop a run: one going on in another process (workrun serve, the window) is asked to stop there and waited for; an interrupted one (or one whose process died) is stopped here; unfinished remote tasks get their cancel; exit 0 stopped, 2 if refused",
		Run:     stopCommand,
	})
}

// stopCommand stops a run. One going on in another live process (`workrun
// serve`, another `workrun run`, the window) is asked to stop there, and
// the command waits for it to end (docs/engine.md "Stop across
// processes"). One nobody executes — interrupted (by exit, by a person, by
// a remote agent) or left running by a process that died — is stopped
// here: its abort hooks run, each within its node's bound. Either way
// every unfinished remote task with a task id gets its one best-effort
// cancel (docs/remote-agent.md R9), shown as messages of its node. A run
// that already ended is refused.
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
		if c, ok := svc.Runs.(workrun.RunClaimer); ok && !*asJSON {
			// Said before the wait, which may take the owner's abort bound.
			if h, err := c.RunHolder(ctx, runID); err == nil && h.Status == workrun.RunRunning && h.OwnerAlive && h.OwnerPID != os.Getpid() {
				fmt.Fprintln(env.Stderr, texts.Text(msgStopAsking, termLine(runID), h.OwnerPID))
			}
		}
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
