package cli

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
)

func init() {
	register(&Command{
		Name:    "gc",
		Args:    "[--json]",
		Summary: "remove artifact files no record refers to (never done automatically)",
		Run:     gcCommand,
	})
}

func gcCommand(ctx context.Context, env *Env, args []string) int {
	fs := flag.NewFlagSet("gc", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	asJSON := fs.Bool("json", false, "")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return usageError(env, "gc: "+err.Error())
	}
	if len(pos) != 0 {
		return usageError(env, "gc takes no arguments")
	}
	svc, code := env.open(ctx)
	if svc == nil {
		return code
	}
	defer closeServices(env, svc)
	if svc.ArtifactGC == nil {
		fmt.Fprintln(env.Stderr, "workrun: this build has no artifact store to clean")
		return ExitFailed
	}
	res, err := svc.ArtifactGC.GC(ctx)
	if err != nil {
		// What was removed before the error is still reported.
		fmt.Fprintf(env.Stderr, "workrun: %v\n", err)
	}
	if *asJSON {
		enc := json.NewEncoder(&jsonTerm{w: env.Stdout})
		enc.SetIndent("", "  ")
		_ = enc.Encode(struct {
			Removed      int   `json:"removed"`
			FreedBytes   int64 `json:"freed_bytes"`
			TempsRemoved int   `json:"temps_removed"`
			Kept         int   `json:"kept"`
		}{res.Removed, res.FreedBytes, res.TempsRemoved, res.Kept})
	} else {
		fmt.Fprintf(env.Stdout, "Removed %d unreferenced artifact %s, freeing %s.\n",
			res.Removed, plural(res.Removed, "file", "files"), byteSize(res.FreedBytes))
		fmt.Fprintf(env.Stdout, "Removed %d abandoned temporary %s.\n", res.TempsRemoved, plural(res.TempsRemoved, "file", "files"))
		fmt.Fprintf(env.Stdout, "Kept %d %s (in use, or too recent to judge).\n", res.Kept, plural(res.Kept, "file", "files"))
	}
	if err != nil {
		return ExitFailed
	}
	return ExitOK
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// byteSize prints n bytes with a binary unit, e.g. "1.5 KiB".
func byteSize(n int64) string {
	if n < 1024 {
		return fmt.Sprintf("%d %s", n, plural(int(n), "byte", "bytes"))
	}
	v, units := float64(n)/1024, []string{"KiB", "MiB", "GiB", "TiB"}
	i := 0
	for v >= 1024 && i < len(units)-1 {
		v /= 1024
		i++
	}
	return fmt.Sprintf("%.1f %s (%d bytes)", v, units[i], n)
}
