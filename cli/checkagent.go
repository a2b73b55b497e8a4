package cli

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"

	"workrun/a2a"
	"workrun/credentials"
	"workrun/nodes/remoteagent"
)

func init() {
	register(&Command{
		Name:    "check-agent",
		Args:    "URL [--credential NAME] [--json]",
		Summary: "test discovery and authentication of an A2A agent (submits no task)",
		Run:     runCheckAgent,
	})
}

// runCheckAgent is the connection test of SPEC R3.4 from the command line.
func runCheckAgent(ctx context.Context, env *Env, args []string) int {
	fs := flag.NewFlagSet("check-agent", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	credName := fs.String("credential", "", "")
	asJSON := fs.Bool("json", false, "")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return usageError(env, "check-agent: "+err.Error())
	}
	if len(pos) != 1 {
		return usageError(env, "check-agent needs exactly one URL")
	}
	url := pos[0]
	var cred *a2a.Credential
	if *credName != "" {
		mgr, closeFn, ok := openCredentials(ctx, env)
		if !ok {
			return ExitFailed
		}
		c, secret, err := mgr.Resolve(ctx, *credName, url)
		closeFn()
		if err != nil {
			fmt.Fprintf(env.Stderr, "workrun: check-agent: %v\n", err)
			return ExitFailed
		}
		ac := credentials.ForA2A(c, secret)
		cred = &ac
	}
	rep, err := remoteagent.CheckAgent(ctx, url, cred)
	if *asJSON {
		out := struct {
			remoteagent.Report
			OK    bool   `json:"ok"`
			Error string `json:"error,omitempty"`
		}{Report: rep, OK: err == nil}
		if err != nil {
			out.Error = err.Error()
		}
		enc := json.NewEncoder(env.Stdout)
		enc.SetIndent("", "  ")
		enc.Encode(out) //nolint:errcheck
	} else {
		printReport(env.Stdout, rep, *credName)
	}
	if err != nil {
		fmt.Fprintf(env.Stderr, "workrun: check-agent: %s\n", termText(err.Error(), "  "))
		return ExitFailed
	}
	if !*asJSON {
		fmt.Fprintln(env.Stdout, "OK: the agent was discovered and accepted an authenticated call; no task was submitted")
	}
	return ExitOK
}

func printReport(w io.Writer, r remoteagent.Report, credName string) {
	if r.Endpoint == "" {
		return // discovery failed; the error says why
	}
	yes := map[bool]string{true: "yes", false: "no"}
	sec := "none declared"
	if len(r.SecuritySchemes) > 0 {
		sec = termLine(strings.Join(r.SecuritySchemes, "; "))
	}
	cred := "none"
	if r.CredentialUsed {
		cred = credName
		if r.Accepted {
			cred += " (accepted)"
		} else {
			cred += " (not accepted)"
		}
	}
	fmt.Fprintf(w, "Agent:       %s\nInterface:   %s\nStreaming:   %s\nSecurity:    %s\nCredential:  %s\n",
		termLine(r.Name), termLine(r.Endpoint), yes[r.Streaming], sec, termLine(cred))
}
