package desktop

import (
	"context"
	"errors"
	"fmt"
	"net/url"

	"workrun/nodes/remoteagent"
	"workrun/remotecall"
	"workrun/serve"
	"workrun/serve/a2aserve"
	"workrun/store"
	"workrun/ui"
	"workrun/workrun"
)

// publishDeps wires the window's Publish as agent… dialog and its marking
// of runs callers started (docs/serve.md) to the serve layer's rules: the
// agent's URL is the one `workrun serve --addr ADDR` prints, the server's
// state is whether that URL's agent card answers, and a run's caller is
// its served task's.
func publishDeps(d *ui.Deps, st *store.Store) {
	d.AgentURL = agentURL
	d.ServeStatus = func(ctx context.Context, u string) (string, error) {
		r, err := remoteagent.CheckAgent(ctx, u, nil)
		if err != nil {
			return "", uiErr(err)
		}
		return r.Name, nil
	}
	d.ServedCaller = func(ctx context.Context, runID string) (string, bool, error) {
		t, err := st.ServedTaskForRun(ctx, runID)
		if errors.Is(err, workrun.ErrNotFound) {
			return "", false, nil
		}
		if err != nil {
			return "", false, err
		}
		return t.Caller, true, nil
	}
}

// agentURL is the URL `workrun serve --addr addr` serves the agent
// published as name at: plain HTTP on loopback, HTTPS elsewhere (serve
// refuses another address without TLS; docs/serve.md S12).
func agentURL(addr, name string) (string, error) {
	loopback, err := remotecall.ListenAddrLoopback(addr)
	if err != nil {
		return "", fmt.Errorf("%w: %w", ui.ErrServeAddr, err)
	}
	u, err := url.Parse("//" + addr)
	if err != nil || u.Port() == "" || u.Port() == "0" {
		return "", fmt.Errorf("%w: %q names no port", ui.ErrServeAddr, addr)
	}
	scheme := "https"
	if loopback {
		scheme = "http"
	}
	return (&url.URL{Scheme: scheme, Host: addr}).String() + a2aserve.PathPrefix + serve.Slug(name), nil
}
