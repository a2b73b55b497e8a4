package ui

import (
	"encoding/json"
	"strings"

	"workrun/workrun"
)

// needsSignIn: the run stopped because a node's OAuth credential needs the
// person — failed before it sent anything ("sign in to ORIGIN again"), or
// interrupted with its task kept (docs/oauth.md O9).
func needsSignIn(r workrun.Run) bool {
	return r.Interruption == workrun.InterruptedBySignIn || strings.Contains(r.Reason, "sign in to ")
}

// signInNode is the node a sign-in is for: the failed node, else the
// interrupted remote node, with its URL, credential and kind.
func signInNode(r workrun.Run, recs map[string]workrun.NodeRun) (url, credential, kind string) {
	id := r.FailedNode
	if id == "" {
		for _, n := range recs {
			if n.Status == workrun.NodeInterrupted {
				id = n.NodeID
			}
		}
	}
	for _, n := range r.Workflow.Nodes {
		if n.ID != id {
			continue
		}
		var c struct {
			URL        string `json:"url"`
			Credential string `json:"credential"`
		}
		_ = json.Unmarshal(n.Config, &c) // a saved node's config; no url is an empty one
		kind = SignInMCP
		if n.Type == "remote_agent" {
			kind = SignInAgent
		}
		return c.URL, c.Credential, kind
	}
	return "", "", ""
}

// signInForRun opens Sign in for the run shown, under the node's credential
// name, so Resume (or Run again) uses the new sign-in.
func (w *Window) signInForRun() {
	r := w.panel.Run()
	url, cred, kind := signInNode(r, w.panel.nodes)
	w.showSignInAs(url, cred, kind, nil)
}
