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
		Name:    "answer",
		Args:    "RUN_ID NODE TEXT [--json]",
		Summary: "answer a waiting Ask Human node, then continue the run",
		Run:     answerCommand,
	})
}

func answerCommand(ctx context.Context, env *Env, args []string) int {
	fs := flag.NewFlagSet("answer", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	asJSON := fs.Bool("json", false, "")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return usageError(env, "answer: "+err.Error())
	}
	if len(pos) < 3 {
		return usageError(env, "answer needs RUN_ID NODE TEXT")
	}
	d := workrun.Decision{RunID: pos[0], NodeID: pos[1], Approved: true, Text: strings.Join(pos[2:], " ")}
	return decide(ctx, env, d, *asJSON)
}
