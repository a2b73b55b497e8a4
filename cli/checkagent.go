package cli

import (
	"context"
	"fmt"
	"io"
	"strings"

	"workrun/nodes/remoteagent"
	"workrun/remotecall"
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
		var cred *remotecall.Credential
		if saved != nil {
			cred = &saved.remote
		}
		return remoteagent.CheckAgent(ctx, url, cred)
	},
	printText: func(w io.Writer, rep remoteagent.Report, credName string, err error) {
		printReport(w, rep, credName) // partial on error: what was discovered
		switch {
		case err != nil:
		case rep.CredentialUsed:
			fmt.Fprintf(w, "OK: the agent was discovered and accepted a call authenticated with credential %q; no task was submitted\n", termLine(credName))
		default:
			// Nothing was authenticated: say so rather than claim it.
			fmt.Fprintln(w, "OK: the agent was discovered and answered a test call sent without a credential; no task was submitted")
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
	cred := "none (the test call carried no credential)"
	if r.CredentialUsed {
		verdict := "not accepted"
		if r.Accepted {
			verdict = "accepted"
		}
		cred = fmt.Sprintf("%s (sent in the %s header; %s)", credName, r.CredentialHeader, verdict)
	}
	fmt.Fprintf(w, "Agent:       %s\nInterface:   %s\nStreaming:   %s\nSecurity:    %s\nCredential:  %s\n",
		termLine(r.Name), termLine(r.Endpoint), yes[r.Streaming], sec, termLine(cred))
}
