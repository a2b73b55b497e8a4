package cli

import (
	"context"
	"flag"
	"io"
	"strings"

	"workrun/workrun"
)

func init() {
	register(&Command{
		Name:    "review",
		Args:    "RUN_ID NODE approve|reject [--comment TEXT] [--json]",
		Summary: "approve or reject a waiting Human Review node, then continue the run",
		Run:     reviewCommand,
	})
}

func reviewCommand(ctx context.Context, env *Env, args []string) int {
	fs := flag.NewFlagSet("review", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	asJSON := fs.Bool("json", false, "")
	comment := fs.String("comment", "", "")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return usageError(env, "review: "+err.Error())
	}
	if len(pos) != 3 || (pos[2] != "approve" && pos[2] != "reject") {
		return usageError(env, "review needs RUN_ID NODE approve|reject")
	}
	d := workrun.Decision{RunID: pos[0], NodeID: pos[1], Approved: pos[2] == "approve", Text: strings.TrimSpace(*comment)}
	return decide(ctx, env, d, *asJSON)
}

// decide saves the decision, resumes the run and follows it.
func decide(ctx context.Context, env *Env, d workrun.Decision, asJSON bool) int {
	return withEngine(ctx, env, func(svc *Services) int {
		return continueRun(ctx, env, svc.Engine, d.RunID, asJSON, func() error { return svc.Engine.Decide(ctx, d) })
	})
}
