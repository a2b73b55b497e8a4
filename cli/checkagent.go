package cli

import (
	"context"
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
		Run:     checkAgentCommand.run,
	})
}

// checkAgentCommand is the Remote Agent's connection test (R3.4 in
// docs/remote-agent.md) from the command line.
var checkAgentCommand = checkCommand[remoteagent.Report]{
	name: "check-agent",
	check: func(ctx context.Context, url string, saved *savedCredential) (remoteagent.Report, error) {
		var cred *a2a.Credential
		if saved != nil {
			ac := credentials.ForA2A(saved.meta, saved.secret)
			cred = &ac
		}
		return remoteagent.CheckAgent(ctx, url, cred)
	},
	printText: func(w io.Writer, rep remoteagent.Report, credName string, err error) {
		printReport(w, rep, credName) // partial on error: what was discovered
		if err == nil {
			fmt.Fprintln(w, "OK: the agent was discovered and accepted an authenticated call; no task was submitted")
		}
	},
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
