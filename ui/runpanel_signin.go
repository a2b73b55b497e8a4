package ui

import (
	"encoding/json"

	"workrun/workrun"
)

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
	url, cred, kind := signInNode(r, w.panel.NodeRuns())
	w.showSignInAs(url, cred, kind, nil)
}
